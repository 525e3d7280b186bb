import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { convexTest } from "convex-test";
import type { SchemaDefinition } from "convex/server";
import { CronRunner } from "./cronRunner.js";
import { LocalDatabase, captureRootDatabase } from "./database.js";
import type { CronJobSpec } from "./cronRunner.js";
import { Engine } from "./engine.js";
import { describe } from "./outcomes.js";
import type { AnyTestConvex } from "./engine.js";
import { handleFunctionApi, handleHttpAction } from "./httpApi.js";
import { TokenVerifier } from "./identity.js";
import type { TrustedIssuer } from "./identity.js";
import { loadOrCreateJwtKeys } from "./keys.js";
import { FunctionDirectory, collectModules } from "./modules.js";
import { backendStorage, installRuntimeHooks } from "./runtime.js";
import { meter } from "./meter.js";
import type { Meter } from "./meter.js";
import { PlanSlots, planFromEnv, userCodeLimitFromEnv } from "./plan.js";
import type { PlanName, SlotWaits } from "./plan.js";
import { LocalScheduler } from "./scheduler.js";
import { DocumentStore } from "./store.js";
import { SyncServer } from "./sync.js";
import { Transactions, untilCommitted } from "./transactions.js";
import type { WriteThroughput } from "./valueLimits.js";

export type BackendOptions = {
  /** Port of the deployment URL (sync WebSocket and HTTP function API); 0 picks a free one. */
  port?: number;
  /** Port of the site URL (HTTP actions of convex/http.ts); 0 picks a free one. */
  sitePort?: number;
  /** Extra environment for the functions (gateway, Stripe, SITE_URL...). */
  env?: Record<string, string>;
  /** The functions directory; defaults to the project's convex/. */
  convexDir?: string;
  /** Log nothing but errors. */
  quiet?: boolean;
  /** Where the generated JWT keys are kept; defaults to dev/.data/jwt-keys.json. */
  keysFile?: string;
  /** Milliseconds of writes gathered before subscribed queries re-run. */
  batchMs?: number;
  /**
   * Keep the database in this folder (SQLite, `store.sqlite`) and load it at start; the JWT
   * keys live there too unless `keysFile` says otherwise. Without it data lives in memory.
   */
  dataDir?: string;
  /** Start from an empty store (and new JWT keys, so no earlier token is accepted). */
  fresh?: boolean;
  /** Whose concurrency caps apply (Convex's plans); defaults to MJ_PLAN, else professional. */
  plan?: PlanName;
  /**
   * How long a call waits for a slot before it fails with TooManyConcurrentRequests (milliseconds;
   * default Convex's: 5 s for queries and mutations, 10 s for actions). Tests shorten them.
   */
  slotWaits?: SlotWaits;
  /**
   * One top-level transaction at a time instead of concurrent ones under optimistic concurrency
   * control, for debugging; defaults to MJ_SERIAL_MUTATIONS=1.
   */
  serialMutations?: boolean;
  /**
   * How long a query's or mutation's own code may run (its database work excluded) before it
   * fails with the deployment's time-out error; 0 for no limit (a debugger at a breakpoint).
   * Defaults to MJ_USER_CODE_LIMIT_MS, else 1000 as on a deployment.
   */
  userCodeLimitMs?: number;
  /**
   * Run the jobs of convex/crons.ts (default true). Off for tests that count every call for a
   * slot: a cron's mutation arriving while they hold every slot would wait and be refused too.
   */
  crons?: boolean;
};

/** What the data folder held at start, for the banner. */
export type StoreInfo = { dir: string; file: string; documents: number; tables: Record<string, number>; bytes: number };

export type RunningBackend = {
  /** http://127.0.0.1:PORT, the address for ConvexReactClient / ConvexClient / ConvexHttpClient. */
  url: string;
  /** http://127.0.0.1:SITE_PORT, where convex/http.ts is served (CONVEX_SITE_URL). */
  siteUrl: string;
  /**
   * The convex-test instance, for seeding: `t.run`, `t.mutation(internal...)`.
   * Writes made through it reach subscribed clients like any other.
   */
  t: AnyTestConvex;
  /** The data folder and what it held when the backend started; null when data lives in memory. */
  store: StoreInfo | null;
  /** Resolves when pending query updates have been pushed to clients. */
  settle(): Promise<void>;
  /** Runs the safety-net poll of the commit timestamp now (it runs every second by itself). */
  pollNow(): Promise<void>;
  /** Per function: calls, conflicts, retries, failures, documents and bytes read and written. */
  meter: Meter;
  /** The plan's caps and how many functions of each kind run or wait. */
  plan: PlanSlots;
  /** The bytes mutations wrote in the last second, against the plan's write throughput limit. */
  writes: WriteThroughput;
  close(): Promise<void>;
};

const DEFAULT_CONVEX_DIR = fileURLToPath(new URL("../../convex", import.meta.url));
const DEFAULT_KEYS_FILE = fileURLToPath(new URL("../.data/jwt-keys.json", import.meta.url));
const DEFAULT_SITE_URL = "http://localhost:5173";
const LOOPBACK = "127.0.0.1";

let backendsStarted = 0;
let processGuardsInstalled = false;
// convex-test runs scheduled functions from timers; a failure there must not
// take the whole stack down.
function installProcessGuards(): void {
  if (processGuardsInstalled) return;
  processGuardsInstalled = true;
  process.on("unhandledRejection", (reason) => {
    console.error(`[backend] unhandled rejection: ${describe(reason)}`);
  });
}

async function listen(server: Server, port: number, role: string): Promise<number> {
  await new Promise<void>((resolvePromise, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${port} (${role}) is already in use. Stop whatever is using it or choose another port.`)
          : error,
      );
    };
    const onListening = () => {
      server.off("error", onError);
      resolvePromise();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, LOOPBACK);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  await new Promise<void>((resolvePromise) => {
    server.close(() => resolvePromise());
    server.closeAllConnections();
  });
}

/** Wraps every call on a convex-test accessor so it runs as this backend. */
function bindToBackend(accessor: AnyTestConvex, engine: Engine): AnyTestConvex {
  return new Proxy(accessor, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const call = (): unknown =>
          backendStorage.run(engine, () => (value as (...a: unknown[]) => unknown).apply(target, args));
        if (property === "run" || property === "mutation") return untilCommitted(call as () => Promise<unknown>);
        const result = call();
        return property === "withIdentity" || property === "withRequestMetadata"
          ? bindToBackend(result as AnyTestConvex, engine)
          : result;
      };
    },
  });
}

/**
 * Starts a local Convex-compatible backend for the functions in `convexDir`:
 * convex-test underneath, the sync protocol and HTTP API of a deployment on
 * `port`, the HTTP actions on `sitePort`. Functions see their environment in
 * process.env, set before they load; as process.env is shared, run one
 * backend at a time per process (starting another after close() is fine).
 */
export async function startBackend(options: BackendOptions = {}): Promise<RunningBackend> {
  const log = (message: string) => console.error(`[backend] ${message}`);
  const info = (message: string) => {
    if (!options.quiet) console.log(`[backend] ${message}`);
  };
  installProcessGuards();
  const convexDir = resolve(options.convexDir ?? DEFAULT_CONVEX_DIR);

  // Listen first: the site URL is part of the environment the modules see.
  const apiServer = createServer();
  const siteServer = createServer();
  let port: number;
  let sitePort: number;
  try {
    port = await listen(apiServer, options.port ?? 0, "Convex backend");
    sitePort = await listen(siteServer, options.sitePort ?? 0, "Convex HTTP actions");
  } catch (error) {
    await closeServer(apiServer);
    await closeServer(siteServer);
    throw error;
  }
  const url = `http://${LOOPBACK}:${port}`;
  const siteUrl = `http://${LOOPBACK}:${sitePort}`;

  let store: DocumentStore | null = null;
  try {
    const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
    const keysFile = options.keysFile ?? (dataDir ? join(dataDir, "jwt-keys.json") : DEFAULT_KEYS_FILE);
    if (options.fresh && dataDir) rmSync(keysFile, { force: true });
    const keys =
      options.env?.JWT_PRIVATE_KEY && options.env.JWKS
        ? { JWT_PRIVATE_KEY: options.env.JWT_PRIVATE_KEY, JWKS: options.env.JWKS }
        : await loadOrCreateJwtKeys(keysFile);
    Object.assign(process.env, {
      SITE_URL: process.env.SITE_URL ?? DEFAULT_SITE_URL,
      ...options.env,
      CONVEX_CLOUD_URL: url,
      CONVEX_SITE_URL: siteUrl,
      JWT_PRIVATE_KEY: keys.JWT_PRIVATE_KEY,
      JWKS: keys.JWKS,
    });

    const modules = collectModules(convexDir, backendsStarted++);
    const functions = new FunctionDirectory(modules);
    // Load everything now so a broken module fails the start, not a request.
    const loaded = new Map<string, Record<string, unknown>>();
    for (const [key, load] of Object.entries(modules)) {
      try {
        loaded.set(key.slice(2).replace(/\.[^.]+$/, ""), await load());
      } catch (error) {
        throw new Error(`Could not load convex/${key.slice(2)}: ${describe(error)}`, { cause: error });
      }
    }
    const schema = loaded.get("schema")?.default as SchemaDefinition<any, boolean> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    // Convex's per-transaction limits are enforced, so a function that would fail on a deployment fails here.
    const rawT = convexTest({ schema, modules, transactionLimits: true }) as unknown as AnyTestConvex;
    installRuntimeHooks();
    store = dataDir ? DocumentStore.open(dataDir, { fresh: options.fresh }) : null;
    const database = new LocalDatabase(captureRootDatabase(rawT), store);
    database.load();
    const serialMutations = options.serialMutations ?? process.env.MJ_SERIAL_MUTATIONS === "1";
    const plan = new PlanSlots(options.plan ?? planFromEnv(process.env.MJ_PLAN), options.slotWaits);
    const userCodeLimitMs = options.userCodeLimitMs ?? userCodeLimitFromEnv(process.env.MJ_USER_CODE_LIMIT_MS);
    new Transactions(rawT, database, { serial: serialMutations, userCodeLimitMs });
    meter.reset();
    const storeInfo: StoreInfo | null = store && dataDir ? { dir: dataDir, file: store.file, ...store.stats() } : null;

    const engine = new Engine(rawT, functions, {
      batchMs: options.batchMs ?? 10,
      pollMs: 1000,
      log,
      plan,
      serialMutations,
    });
    // Subscribed queries re-run when a commit touches what they read.
    database.onCommit((writes) => engine.noteCommit(writes));
    engine.commitClock = () => database.lastCommitTs;
    const scheduler = new LocalScheduler(engine, rawT, database, log);
    engine.scheduler = scheduler;
    const verifier = new TokenVerifier(keys.JWKS, trustedIssuers(loaded.get("auth.config"), siteUrl, log));
    const sync = new SyncServer(engine, verifier, log);

    const respondWithError = (response: ServerResponse, error: unknown) => {
      log(`request failed: ${describe(error)}`);
      if (!response.headersSent) {
        response.writeHead(500, { "Content-Type": "text/plain" });
      }
      response.end(error instanceof Error ? error.message : String(error));
    };
    apiServer.on("request", (request: IncomingMessage, response: ServerResponse) => {
      handleFunctionApi(engine, verifier, request, response)
        .then((handled) => {
          if (handled) return;
          const { pathname } = new URL(request.url ?? "/", "http://localhost");
          if (pathname === "/_dev/meter" || pathname === "/_dev/meter/reset") {
            // The meter of a deployment's bill (not a product endpoint): GET reads, POST …/reset clears.
            if (pathname === "/_dev/meter/reset" && request.method === "POST") meter.reset();
            response.writeHead(200, { "Content-Type": "application/json" });
            response.end(
              JSON.stringify({
                plan: plan.plan,
                functions: meter.read(),
                conflictSources: meter.readConflictSources(),
                // Calls refused after their wait for a slot (TooManyConcurrentRequests), and the most at once.
                slots: Object.fromEntries(
                  (["queries", "mutations", "actions", "scheduledJobs"] as const).map((kind) => [
                    kind,
                    { limit: plan[kind].limit, peak: plan[kind].peak, timeouts: plan[kind].timeouts },
                  ]),
                ),
              }),
            );
            return;
          }
          if (pathname === "/version" || pathname === "/instance_name") {
            response.writeHead(200, { "Content-Type": "text/plain" });
            response.end(pathname === "/version" ? "local-convex-test" : "local");
            return;
          }
          response.writeHead(404, { "Content-Type": "text/plain" });
          response.end(`No route for ${request.method} ${pathname}`);
        })
        .catch((error: unknown) => respondWithError(response, error));
    });
    apiServer.on("upgrade", (request, socket, head: Buffer) => {
      if (!sync.handleUpgrade(request, socket, head)) {
        socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      }
    });
    siteServer.on("request", (request: IncomingMessage, response: ServerResponse) => {
      handleHttpAction(engine, verifier, request, response).catch((error: unknown) =>
        respondWithError(response, error),
      );
    });

    const crons =
      options.crons === false
        ? undefined
        : (loaded.get("crons")?.default as { crons?: Record<string, CronJobSpec> } | undefined)?.crons;
    const cronRunner = new CronRunner(engine, crons ?? {}, log, Date.now, store ? cronRunsIn(store) : undefined);
    const resumed = await scheduler.resume();
    if (resumed.pending + resumed.interrupted > 0) {
      info(`scheduled functions: ${resumed.pending} resumed, ${resumed.interrupted} interrupted actions marked failed`);
    }
    engine.start();
    cronRunner.start();
    info(`functions from ${convexDir}`);
    info(
      `${plan.plan} plan caps; ${serialMutations ? "transactions one at a time (MJ_SERIAL_MUTATIONS=1)" : "concurrent transactions, optimistic concurrency control"}; ${userCodeLimitMs > 0 ? `${userCodeLimitMs} ms` : "no limit"} of own code per query or mutation`,
    );
    info(`deployment URL ${url}  HTTP actions ${siteUrl}`);

    return {
      url,
      siteUrl,
      t: bindToBackend(rawT, engine),
      store: storeInfo,
      settle: () => engine.settle(),
      pollNow: () => engine.pollNow(),
      meter,
      plan,
      writes: engine.writes,
      close: async () => {
        cronRunner.close();
        engine.close();
        await sync.close();
        await Promise.all([closeServer(apiServer), closeServer(siteServer)]);
        store?.close();
      },
    };
  } catch (error) {
    await Promise.all([closeServer(apiServer), closeServer(siteServer)]);
    store?.close();
    throw error;
  }
}

/** Cron run times kept in the store, so a restart keeps each job's rhythm. */
function cronRunsIn(store: DocumentStore) {
  return {
    lastRun: (identifier: string) => {
      const value = store.meta(`cron:${identifier}`);
      return value === undefined ? undefined : Number(value);
    },
    recordRun: (identifier: string, at: number) => store.putMeta(`cron:${identifier}`, String(at)),
  };
}

/**
 * The auth.config.ts providers this backend can verify: those whose domain is
 * its own site URL, where @convex-dev/auth issues tokens. Without an
 * auth.config.ts, that is the only provider.
 */
function trustedIssuers(
  authConfigModule: Record<string, unknown> | undefined,
  siteUrl: string,
  log: (message: string) => void,
): TrustedIssuer[] {
  const config = authConfigModule?.default as { providers?: { domain?: string; applicationID?: string }[] } | undefined;
  if (!config?.providers) return [{ domain: siteUrl, applicationID: "convex" }];
  const issuers: TrustedIssuer[] = [];
  for (const provider of config.providers) {
    if (provider.domain === siteUrl && provider.applicationID) {
      issuers.push({ domain: provider.domain, applicationID: provider.applicationID });
    } else {
      log(`auth provider ${provider.domain ?? "(custom)"} cannot be verified offline; its tokens are refused`);
    }
  }
  return issuers;
}
