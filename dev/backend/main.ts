// Runs the local Convex backend on its own:
//   npx tsx dev/backend/main.ts [--port 3210] [--site-port 3211] [--convex-dir convex]
//     [--data-dir DIR [--fresh]] [--quiet]
// With --data-dir the database is kept in DIR (SQLite) and loaded at start; without it, in memory.
// Ports also come from BACKEND_PORT and BACKEND_SITE_PORT. Functions see this
// process's environment (gateway and Stripe settings, SITE_URL...).
import { parseArgs } from "node:util";
import { startBackend } from "./server.js";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "site-port": { type: "string" },
    "convex-dir": { type: "string" },
    quiet: { type: "boolean", default: false },
    "data-dir": { type: "string" },
    fresh: { type: "boolean", default: false },
  },
});

function portSetting(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number, got "${value}"`);
  }
  return port;
}

try {
  const backend = await startBackend({
    port: portSetting(values.port ?? process.env.BACKEND_PORT, 3210, "--port"),
    sitePort: portSetting(values["site-port"] ?? process.env.BACKEND_SITE_PORT, 3211, "--site-port"),
    convexDir: values["convex-dir"],
    dataDir: values["data-dir"] ?? process.env.BACKEND_DATA_DIR,
    fresh: values.fresh,
    quiet: true,
  });
  console.log(`Local Convex backend`);
  console.log(
    backend.store
      ? `  data: ${backend.store.file} (${backend.store.documents} documents)`
      : "  data: in memory (gone when it stops)",
  );
  console.log(`  deployment URL (VITE_CONVEX_URL): ${backend.url}`);
  console.log(`  HTTP actions (CONVEX_SITE_URL):   ${backend.siteUrl}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void backend.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
