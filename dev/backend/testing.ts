// What the local backend's own tests and the benches share: a Node client of the sync protocol and
// a backend over the small fixture functions (fixture/convex/).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexClient } from "convex/browser";
import { WebSocket } from "ws";
import { startBackend } from "./server.js";
import type { BackendOptions, RunningBackend } from "./server.js";

/** The fixture functions directory of the mechanics tests. */
export const FIXTURE_CONVEX_DIR = fileURLToPath(new URL("./fixture/convex", import.meta.url));

/**
 * A ConvexClient from Node (the `ws` WebSocket), without logging or the unsaved-changes warning;
 * added to `clients` when given, for the caller to close.
 */
export function nodeClient(url: string, clients?: ConvexClient[]): ConvexClient {
  const client = new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
    unsavedChangesWarning: false,
  });
  clients?.push(client);
  return client;
}

/** A quiet backend on free ports over the fixture functions, its JWT keys kept in `keysDir`. */
export function startFixtureBackend(keysDir: string, options: BackendOptions = {}): Promise<RunningBackend> {
  return startBackend({
    port: 0,
    sitePort: 0,
    quiet: true,
    convexDir: FIXTURE_CONVEX_DIR,
    keysFile: join(keysDir, "jwt-keys.json"),
    ...options,
  });
}
