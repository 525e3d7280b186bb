/**
 * `npm start`: the whole product offline, with no accounts (ARCHITECTURE §7). Starts the dev
 * gateway, the dev Stripe, the local Convex backend and Vite, seeds the demo data, prints
 * where everything is, and stops it all on Ctrl-C or SIGTERM.
 *
 * `npm start` runs `node --import tsx dev/start.ts`: one process, so Ctrl-C and SIGTERM reach
 * this code directly (the `tsx` CLI relays signals to a child and SIGKILLs it when it is slow
 * to acknowledge, which a busy machine can be).
 *
 * Settings (environment): MJ_APP_PORT (5173), MJ_BACKEND_PORT (3210), MJ_SITE_PORT (3211),
 * MJ_GATEWAY_PORT (3220), MJ_STRIPE_PORT (3230), MJ_LATENCY_SCALE (1; 0 makes models instant),
 * MJ_DATA_DIR (dev/.data: where the data is kept), MJ_FRESH=1 or `--fresh` (start from an empty
 * store), and a real gateway: OPENROUTER_API_KEY, or GATEWAY_BASE_URL (+ GATEWAY_API_KEY), in
 * the environment or .env.local (MJ_GATEWAY=dev keeps the dev gateway), MJ_EMAIL (on: the app's
 * email goes to the dev mailbox; off: sign-up asks for no emailed code).
 */

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_GATEWAY_API_KEY } from "./gateway/server";
import {
  PORT_SETTINGS,
  readEnvLocal,
  realGatewayFrom,
  startStack,
  type RealGateway,
  type RunningStack,
  type StackPorts,
  type StackRole,
} from "./stack";

const DEFAULT_DATA_DIR = fileURLToPath(new URL("./.data", import.meta.url));

/** Opens the banner; e2e/start.e2e.ts waits for it. */
const READY_LINE = "ModelJury is running";

class SettingError extends Error {}

function portSetting(role: StackRole): number {
  const { env, fallback } = PORT_SETTINGS[role];
  const raw = process.env[env]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SettingError(`${env}=${raw} is not a port number (0-65535; 0 picks a free port).`);
  }
  return port;
}

function latencySetting(): number {
  const raw = process.env.MJ_LATENCY_SCALE?.trim();
  if (!raw) return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 0)
    throw new SettingError(`MJ_LATENCY_SCALE=${raw} must be a number of 0 or more.`);
  return scale;
}

/** Email goes to the dev mailbox unless MJ_EMAIL=off: sign-up, reset and sign-in by email work offline. */
function emailSetting(): boolean {
  const raw = process.env.MJ_EMAIL?.trim().toLowerCase();
  if (!raw || raw === "on") return true;
  if (raw === "off") return false;
  throw new SettingError(`MJ_EMAIL=${process.env.MJ_EMAIL} must be on or off.`);
}

function freshSetting(): boolean {
  const { values } = parseArgs({ options: { fresh: { type: "boolean", default: false } }, strict: false });
  const raw = process.env.MJ_FRESH?.trim().toLowerCase();
  return values.fresh === true || raw === "1" || raw === "true" || raw === "yes";
}

function describeStore(stack: RunningStack, fresh: boolean): string {
  const store = stack.store;
  if (!store) return "in memory (gone when you stop)";
  const { users = 0, tests = 0, responses = 0, evaluations = 0 } = store.tables;
  const size =
    store.bytes >= 1024 * 1024 ? `${(store.bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(store.bytes / 1024)} KB`;
  const held = fresh
    ? "started empty (--fresh)"
    : `${store.documents} documents: ${users} users, ${tests} tests, ${responses} responses, ${evaluations} evaluations; ${size}`;
  return `${store.file} (${held})`;
}

function banner(stack: RunningStack, fresh: boolean): string {
  const gatewayLine = stack.modelGateway.real
    ? `  Model gateway   ${stack.modelGateway.url}   REAL: tests call real models (set MJ_GATEWAY=dev for the dev gateway)`
    : `  Model gateway   ${stack.gatewayUrl}   dev gateway, key ${DEFAULT_GATEWAY_API_KEY}`;
  return [
    "",
    `  ${READY_LINE} (${stack.modelGateway.real ? "local Convex backend, REAL model gateway" : "offline: local Convex backend, dev model gateway"}, dev Stripe)`,
    "",
    `  App      ${stack.appUrl}`,
    `  Demo     ${stack.demo.email} / ${stack.demo.password}`,
    `  Admin    ${stack.admin.email} / ${stack.admin.password}`,
    "",
    `  Convex backend  ${stack.backendUrl}   HTTP actions ${stack.siteUrl}`,
    `  API             ${stack.siteUrl}/api/v1   tokens under Account Settings; described at ${stack.siteUrl}/api/v1/openapi.json`,
    gatewayLine,
    `  Stripe          ${stack.stripeUrl}   test mode: pay on its checkout page`,
    `  Mail            ${stack.mail.url}   ${stack.mail.emailOn ? "inbox: verification, reset, sign-in links and codes, contact mail" : "inbox (email is off, MJ_EMAIL=off: without it, verification, reset, sign-in links and codes arrive here)"}`,
    `  Data            ${describeStore(stack, fresh)}`,
    "",
    stack.store
      ? "  Data is kept between starts; `npm start -- --fresh` starts empty. Press Ctrl-C to stop."
      : "  Press Ctrl-C to stop.",
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  let ports: StackPorts;
  let latencyScale: number;
  let email: boolean;
  const fresh = freshSetting();
  const dataDir = process.env.MJ_DATA_DIR?.trim() || DEFAULT_DATA_DIR;
  const realGateway: RealGateway | undefined = realGatewayFrom(process.env, readEnvLocal()) ?? undefined;
  try {
    ports = {
      app: portSetting("app"),
      backend: portSetting("backend"),
      site: portSetting("site"),
      gateway: portSetting("gateway"),
      stripe: portSetting("stripe"),
    };
    latencyScale = latencySetting();
    email = emailSetting();
  } catch (error) {
    if (error instanceof SettingError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let stack: RunningStack | undefined;
  let stopping = false;
  let firstSignalAt = 0;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C does not wait for a slow shutdown; one right after the first is the
      // same press delivered twice (a wrapper relaying it), so it is ignored.
      if (Date.now() - firstSignalAt > 1000) process.exit(130);
      return;
    }
    stopping = true;
    firstSignalAt = Date.now();
    if (!stack) return; // still starting: stopped as soon as the start returns
    console.log(`\n${signal}: stopping…`);
    void stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  console.log(
    `Starting ModelJury${realGateway ? ` with the real model gateway ${realGateway.baseUrl}` : " offline"} (gateway, Stripe, Convex backend, Vite) and seeding demo data…`,
  );
  try {
    stack = await startStack({ ports, latencyScale, seed: true, quiet: true, dataDir, fresh, realGateway, email });
  } catch (error) {
    console.error(`\nCould not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  if (stopping) {
    await stack.close();
    process.exit(0);
  }
  console.log(banner(stack, fresh));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
