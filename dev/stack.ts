/**
 * The offline stack (ARCHITECTURE §7): the dev gateway, the dev Stripe, the local Convex
 * backend and Vite, wired to each other on loopback, in this process. `npm start`
 * (dev/start.ts) and the browser tests (e2e/harness.ts) both start it from here.
 */

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InlineConfig, ViteDevServer } from "vite";
import { internal } from "../convex/_generated/api";
import { loadOrCreateSecret } from "./backend/keys";
import { startBackend, type RunningBackend, type StoreInfo } from "./backend/server";
import { DEFAULT_GATEWAY_API_KEY, startGateway, type RunningGateway } from "./gateway/server";
import { startMail, type RunningMail } from "./mail/server";
import { startStaticApp, type StaticApp } from "./static-app";
import { seedDemoData, ADMIN_ACCOUNT, DEMO_ACCOUNT, type Credentials } from "./seed";
import { DEFAULT_STRIPE_SECRET_KEY, DEFAULT_WEBHOOK_SECRET, startStripe } from "./stripe/server";

type RunningStripe = Awaited<ReturnType<typeof startStripe>>;

export type StackRole = "app" | "backend" | "site" | "gateway" | "stripe";
export type StackPorts = Record<StackRole, number>;

/** What each port is called in messages, and the environment variable dev/start.ts reads it from. */
export const PORT_SETTINGS: Readonly<Record<StackRole, { label: string; env: string; fallback: number }>> = {
  app: { label: "app", env: "MJ_APP_PORT", fallback: 5173 },
  backend: { label: "Convex backend", env: "MJ_BACKEND_PORT", fallback: 3210 },
  site: { label: "Convex HTTP actions", env: "MJ_SITE_PORT", fallback: 3211 },
  gateway: { label: "model gateway", env: "MJ_GATEWAY_PORT", fallback: 3220 },
  stripe: { label: "Stripe", env: "MJ_STRIPE_PORT", fallback: 3230 },
};

export const DEFAULT_PORTS: StackPorts = {
  app: PORT_SETTINGS.app.fallback,
  backend: PORT_SETTINGS.backend.fallback,
  site: PORT_SETTINGS.site.fallback,
  gateway: PORT_SETTINGS.gateway.fallback,
  stripe: PORT_SETTINGS.stripe.fallback,
};

export interface StackOptions {
  /** 0 picks a free port; missing roles use DEFAULT_PORTS. */
  ports?: Partial<StackPorts>;
  /** Create the demo accounts and example data (dev/seed.ts). */
  seed?: boolean;
  /** Multiplies every model's latency at the dev gateway (1 = realistic, 0 = instant). */
  latencyScale?: number;
  /** Log nothing but errors. */
  quiet?: boolean;
  /** Vite's file watcher and HMR; tests turn them off so edits elsewhere cannot reload their pages. */
  watch?: boolean;
  /** Merged into Vite's configuration (e.g. a cacheDir of its own). */
  vite?: InlineConfig;
  /**
   * Serve this built app (`vite build` output) instead of starting Vite: nothing is compiled per
   * stack, and the page gets the backend's address at run time (dev/static-app.ts). The browser
   * journeys build once per run (e2e/app-build.ts).
   */
  appBuild?: string;
  /** Keep the database in this folder and load it at start (`npm start`: dev/.data); without it, in memory. */
  dataDir?: string;
  /** Start from an empty store in `dataDir` (and new session keys). */
  fresh?: boolean;
  /** A real OpenAI-compatible gateway for the backend instead of the dev gateway (see realGatewayFrom). */
  realGateway?: RealGateway;
  /**
   * Send the app's email to the dev mailbox (`npm start`: on unless MJ_EMAIL=off). Tests leave it
   * off unless MJ_EMAIL=on, so their sign-ups need no emailed code.
   */
  email?: boolean;
}

/** A real model gateway: OpenRouter or any OpenAI-compatible server (Ollama, vLLM...). */
export interface RealGateway {
  baseUrl: string;
  apiKey: string;
}

export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";

/**
 * The real gateway `npm start` uses, from the environment or, below it, `.env.local`:
 * OPENROUTER_API_KEY (OpenRouter, or GATEWAY_BASE_URL when set), or GATEWAY_BASE_URL with
 * GATEWAY_API_KEY for another OpenAI-compatible server. MJ_GATEWAY=dev keeps the dev gateway.
 */
export function realGatewayFrom(env: Record<string, string | undefined>, envFileText = ""): RealGateway | null {
  const file = parseEnvFile(envFileText);
  const setting = (name: string) => env[name]?.trim() || file[name]?.trim() || undefined;
  if (setting("MJ_GATEWAY") === "dev") return null;
  const baseUrl = setting("GATEWAY_BASE_URL");
  const apiKey = setting("OPENROUTER_API_KEY") ?? setting("GATEWAY_API_KEY");
  if (apiKey === undefined && baseUrl === undefined) return null;
  // A local server (Ollama) may take no key at all; the app still sends one.
  return { baseUrl: (baseUrl ?? OPENROUTER_BASE_URL).replace(/\/+$/, ""), apiKey: apiKey ?? "local" };
}

/** KEY=VALUE lines of a dotenv file (comments, `export ` and quotes allowed). */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2];
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, "");
    values[match[1]] = value;
  }
  return values;
}

/** `.env.local` of the checkout, or '' when there is none. */
export function readEnvLocal(): string {
  try {
    return readFileSync(join(REPO_ROOT, ".env.local"), "utf8");
  } catch {
    return "";
  }
}

export interface RunningStack {
  appUrl: string;
  backendUrl: string;
  siteUrl: string;
  gatewayUrl: string;
  stripeUrl: string;
  /** The dev mailbox's inbox page; `emailOn`: the backend sends its email there (StackOptions.email). */
  mail: RunningMail & { emailOn: boolean };
  demo: Credentials;
  admin: Credentials;
  backend: RunningBackend;
  /** The data folder and what it held at start; null when data lives in memory. */
  store: StoreInfo | null;
  /** The gateway the backend's functions call: the dev gateway's URL, or the real one. */
  modelGateway: { url: string; real: boolean };
  gateway: RunningGateway;
  stripe: RunningStripe;
  /** The Vite dev server, or null when a built app is served (StackOptions.appBuild). */
  vite: ViteDevServer | null;
  close(): Promise<void>;
}

/** A port already taken, named the way the person starting the stack can act on. */
export class PortInUseError extends Error {
  constructor(
    readonly role: StackRole,
    readonly port: number,
  ) {
    const { label, env } = PORT_SETTINGS[role];
    super(`Port ${port} (${label}, set ${env}) is already in use. Stop whatever is using it or choose another port.`);
    this.name = "PortInUseError";
  }
}

const LOOPBACK = "127.0.0.1";
const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const WAIT_TIMEOUT_MS = 30_000;

function isAddressInUse(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") return true;
  // The backend and Vite wrap the listen error in their own message.
  const message = error instanceof Error ? error.message : "";
  return /already in use|EADDRINUSE/i.test(message);
}

/** Listens on the port for a moment: resolves with the port bound (a free one for 0). */
function probePort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.unref();
    server.once("error", reject);
    server.listen({ port, host: LOOPBACK, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === "object" && address !== null ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/** Fails with PortInUseError for the first fixed port that is taken, before anything starts. */
async function checkPortsFree(ports: StackPorts): Promise<void> {
  const seen = new Map<number, StackRole>();
  for (const role of Object.keys(ports) as StackRole[]) {
    const port = ports[role];
    if (port === 0) continue;
    const other = seen.get(port);
    if (other) {
      throw new Error(
        `Port ${port} is set for both ${PORT_SETTINGS[other].label} (${PORT_SETTINGS[other].env}) and ${PORT_SETTINGS[role].label} (${PORT_SETTINGS[role].env}).`,
      );
    }
    seen.set(port, role);
    try {
      await probePort(port);
    } catch (error) {
      if (isAddressInUse(error)) throw new PortInUseError(role, port);
      throw error;
    }
  }
}

/** Runs a server's start, turning "address in use" into the message naming the setting. */
async function starting<T>(role: StackRole, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (isAddressInUse(error)) throw new PortInUseError(role, port);
    throw error;
  }
}

/** Waits until the URL answers HTTP at all (any status). */
export async function waitForHttp(url: string, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s: ${String(lastError)}`);
}

/**
 * Starts gateway, Stripe, backend and Vite, in that order (the backend's environment needs
 * the other two and the app's URL), seeds when asked, and waits until each server answers.
 * A failure stops whatever had started.
 */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const ports: StackPorts = { ...DEFAULT_PORTS, ...options.ports };
  const quiet = options.quiet ?? false;
  await checkPortsFree(ports);

  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error("[stack] while stopping:", error);
      }
    }
  };

  try {
    // SITE_URL is part of the backend's environment, so the app's port is fixed first.
    const appPort = ports.app === 0 ? await probePort(0) : ports.app;
    const appUrl = `http://${LOOPBACK}:${appPort}`;

    const gateway = await starting("gateway", ports.gateway, () =>
      startGateway({ port: ports.gateway, host: LOOPBACK, latencyScale: options.latencyScale ?? 1 }),
    );
    stops.push(() => gateway.close());

    // The webhook target is the backend's site URL, known once the backend listens.
    const stripe = await starting("stripe", ports.stripe, () =>
      startStripe({
        port: ports.stripe,
        host: LOOPBACK,
        secretKey: DEFAULT_STRIPE_SECRET_KEY,
        webhookUrl: "http://127.0.0.1:9/backend-not-started",
        webhookSecret: DEFAULT_WEBHOOK_SECRET,
        // Open checkouts survive a restart, like everything else in the data folder.
        dataDir: options.dataDir,
        fresh: options.fresh,
      }),
    );
    stops.push(() => stripe.close());

    // The dev mailbox (dev/mail): always up; the backend sends email to it when email is on.
    const emailOn = options.email ?? process.env.MJ_EMAIL === "on";
    const mailPort = ports.backend === 0 ? 0 : Number(process.env.MJ_MAIL_PORT ?? 3240);
    const mail = await startMail({ port: mailPort, host: LOOPBACK }).catch(() =>
      startMail({ port: 0, host: LOOPBACK }),
    );
    stops.push(() => mail.close());

    const modelGateway = options.realGateway ?? { baseUrl: gateway.url, apiKey: DEFAULT_GATEWAY_API_KEY };
    const backend = await startBackendNamingPorts(ports, {
      port: ports.backend,
      sitePort: ports.site,
      quiet,
      dataDir: options.dataDir,
      fresh: options.fresh,
      env: {
        GATEWAY_BASE_URL: modelGateway.baseUrl,
        OPENROUTER_API_KEY: modelGateway.apiKey,
        STRIPE_SECRET_KEY: DEFAULT_STRIPE_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: DEFAULT_WEBHOOK_SECRET,
        STRIPE_API_HOST: LOOPBACK,
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: "http",
        SITE_URL: appUrl,
        ADMIN_EMAILS: ADMIN_ACCOUNT.email,
        ...(emailOn
          ? {
              RESEND_API_KEY: mail.apiKey,
              RESEND_BASE_URL: mail.url,
              AUTH_EMAIL_FROM: "ModelJury <no-reply@modeljury.dev>",
            }
          : {}),
        // Users' own gateway keys are stored encrypted: with a data folder the secret is kept there.
        API_KEY_ENCRYPTION_SECRET:
          process.env.API_KEY_ENCRYPTION_SECRET ??
          (options.dataDir
            ? await loadOrCreateSecret(
                join(options.dataDir, "secrets.json"),
                "API_KEY_ENCRYPTION_SECRET",
                options.fresh ?? false,
              )
            : randomBytes(32).toString("base64")),
        // @convex-dev/auth logs every sign-in at INFO.
        AUTH_LOG_LEVEL: process.env.AUTH_LOG_LEVEL ?? "WARN",
      },
    });
    stops.push(() => backend.close());
    // A kept store may hold tests from before their summary rows: build those (idempotent, in
    // batches that schedule each other; nothing to do on a fresh store).
    await backend.t.mutation(internal.history.migrateTestSummaries, {});
    stripe.webhook.url = `${backend.siteUrl}/stripe/webhook`;

    // The app and the seed need nothing from each other: they run side by side.
    const appBuild = options.appBuild;
    const starts = await Promise.allSettled([
      starting<ViteDevServer | StaticApp>("app", appPort, () =>
        appBuild
          ? startStaticApp({ root: appBuild, port: appPort, host: LOOPBACK, config: { convexUrl: backend.url } })
          : startVite(appPort, backend.url, options.watch ?? true, options.vite ?? {}),
      ).then((app) => {
        stops.push(() => app.close());
        return app;
      }),
      options.seed
        ? seedDemoData({ backend, gateway, stripe, runDemoTest: !options.realGateway, mail })
        : Promise.resolve(),
    ]);
    for (const start of starts) if (start.status === "rejected") throw start.reason;
    const app = (starts[0] as PromiseFulfilledResult<ViteDevServer | StaticApp>).value;

    await Promise.all([
      waitForHttp(`${gateway.url}/models`),
      waitForHttp(`${stripe.url}/`),
      waitForHttp(`${backend.url}/version`),
      waitForHttp(`${backend.siteUrl}/`),
      waitForHttp(`${appUrl}/`),
    ]);

    let closing: Promise<void> | undefined;
    return {
      appUrl,
      backendUrl: backend.url,
      siteUrl: backend.siteUrl,
      gatewayUrl: gateway.url,
      stripeUrl: stripe.url,
      mail: Object.assign(mail, { emailOn }),
      demo: { ...DEMO_ACCOUNT },
      admin: { ...ADMIN_ACCOUNT },
      backend,
      store: backend.store,
      modelGateway: { url: modelGateway.baseUrl, real: options.realGateway !== undefined },
      gateway,
      stripe,
      vite: "listen" in app ? app : null,
      close: () => (closing ??= stopAll()),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The backend listens on two ports; its own message says which, and we name the setting. */
async function startBackendNamingPorts(
  ports: StackPorts,
  options: Parameters<typeof startBackend>[0],
): Promise<RunningBackend> {
  try {
    return await startBackend(options);
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    const message = error instanceof Error ? error.message : "";
    const role: StackRole = message.includes("HTTP actions") ? "site" : "backend";
    throw new PortInUseError(role, ports[role]);
  }
}

async function startVite(
  port: number,
  convexUrl: string,
  watch: boolean,
  overrides: InlineConfig,
): Promise<ViteDevServer> {
  // Vite hands VITE_* variables of process.env to the app, ahead of any .env file.
  process.env.VITE_CONVEX_URL = convexUrl;
  const { createServer, mergeConfig } = await import("vite");
  const server = await createServer(
    mergeConfig(
      {
        configFile: `${REPO_ROOT}vite.config.ts`,
        root: REPO_ROOT,
        logLevel: "warn",
        clearScreen: false,
        server: {
          port,
          strictPort: true,
          host: LOOPBACK,
          ...(watch ? {} : { hmr: false, watch: null }),
        },
      } satisfies InlineConfig,
      overrides,
    ),
  );
  try {
    await server.listen();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
