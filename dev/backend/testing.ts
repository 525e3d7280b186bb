// What the local backend's own tests, convex/'s tests on it and the benches share: a Node client of
// the sync protocol (signed in or not) and a quiet backend over the project's functions or the small
// fixture ones (fixture/convex/).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexClient } from "convex/browser";
import { SignJWT, importPKCS8 } from "jose";
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

/** A client signed in as `subject` ("userId|sessionId") by the backend's own key: no sign-in flow to go through. */
export async function signedInClient(
  backend: Pick<RunningBackend, "url" | "siteUrl">,
  subject: string,
): Promise<ConvexClient> {
  const token = await new SignJWT({ sub: subject })
    .setProtectedHeader({ alg: "RS256" })
    .setIssuer(backend.siteUrl)
    .setAudience("convex")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(await importPKCS8(process.env.JWT_PRIVATE_KEY!, "RS256"));
  const client = nodeClient(backend.url);
  client.setAuth(async () => token);
  return client;
}

/** A quiet backend on free ports (by default over convex/, for its tests of subscriptions, OCC or the meter). */
export function startQuietBackend(keysFile: string, options: BackendOptions = {}): Promise<RunningBackend> {
  return startBackend({ port: 0, sitePort: 0, quiet: true, keysFile, ...options });
}

/** A quiet backend on free ports over the fixture functions, its JWT keys kept in `keysDir`. */
export function startFixtureBackend(keysDir: string, options: BackendOptions = {}): Promise<RunningBackend> {
  return startQuietBackend(join(keysDir, "jwt-keys.json"), { convexDir: FIXTURE_CONVEX_DIR, ...options });
}

type Gates = { waiting: Map<string, (() => void)[]>; arrived: Map<string, (() => void)[]>; open: Set<string> };
/**
 * The fixture's gates (fixture/convex/limits.ts `waitAt`), shared through the global object: a
 * fixture function held at a gate keeps its slot until the test opens it, however long that takes.
 */
const gates = ((globalThis as unknown as Record<symbol, Gates | undefined>)[Symbol.for("modeljury.fixture.gates")] ??= {
  waiting: new Map(),
  arrived: new Map(),
  open: new Set(),
});

/** Resolves once `count` calls wait at `gate`. */
export async function untilWaiting(gate: string, count: number): Promise<void> {
  while ((gates.waiting.get(gate)?.length ?? 0) < count) {
    await new Promise<void>((resolve) => gates.arrived.set(gate, [...(gates.arrived.get(gate) ?? []), resolve]));
  }
}

/** Lets the calls waiting at `gate` go on (`forGood`: and every later one). */
export function openGate(gate: string, forGood = false): void {
  if (forGood) gates.open.add(gate);
  const waiting = gates.waiting.get(gate) ?? [];
  gates.waiting.delete(gate);
  for (const resolve of waiting) resolve();
}

/** After a test: lets every held call go on and closes the gates opened for good. */
export function releaseGates(): void {
  for (const gate of gates.waiting.keys()) openGate(gate);
  gates.open.clear();
}
