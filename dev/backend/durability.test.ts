// The local backend keeps its data (items 1, 2 and 5): it runs as its own process
// (dev/backend/main.ts --data-dir), is stopped with SIGTERM or killed with SIGKILL, and is
// started again on the same folder and ports.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import type { TestConfiguration } from "../../convex/validators";
import { DEFAULT_GATEWAY_API_KEY, startGateway, type RunningGateway } from "../gateway/server";
import { startBackend } from "./server";
import { DocumentStore } from "./store";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001", "deepseek/deepseek-chat"];
const EMAIL = "durable@example.com";
const PASSWORD = "kept-on-disk-42";

let gateway: RunningGateway;
const children: ChildProcess[] = [];
const folders: string[] = [];

beforeAll(async () => {
  gateway = await startGateway({ port: 0, host: "127.0.0.1", latencyScale: 0 });
});
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(async () => {
  await gateway.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "mj-store-"));
  folders.push(folder);
  return folder;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Backend = { child: ChildProcess; url: string; exited: Promise<void> };

/** Starts dev/backend/main.ts on the folder and ports; resolves once it serves. */
async function startChild(dataDir: string, ports: { api: number; site: number }): Promise<Backend> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GATEWAY_BASE_URL: gateway.url,
    OPENROUTER_API_KEY: DEFAULT_GATEWAY_API_KEY,
    GATEWAY_BACKOFF_SCALE: "0",
    SITE_URL: "http://127.0.0.1:5173",
    API_KEY_ENCRYPTION_SECRET: "durability-test-secret-0123456789abcdef",
    AUTH_LOG_LEVEL: "ERROR",
  };
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "dev/backend/main.ts",
      "--port",
      String(ports.api),
      "--site-port",
      String(ports.site),
      "--data-dir",
      dataDir,
    ],
    { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!/deployment URL/.test(output)) {
    if (child.exitCode !== null) throw new Error(`backend exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`backend did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, url: `http://127.0.0.1:${ports.api}`, exited };
}

async function stop(backend: Backend, signal: NodeJS.Signals): Promise<void> {
  backend.child.kill(signal);
  await backend.exited;
}

async function signIn(url: string, flow: "signUp" | "signIn"): Promise<{ client: ConvexHttpClient; token: string }> {
  const client = new ConvexHttpClient(url);
  const result = (await client.action(api.auth.signIn, {
    provider: "password",
    params: { email: EMAIL, password: PASSWORD, flow },
  })) as {
    tokens?: { token: string } | null;
  };
  const token = result.tokens?.token;
  if (!token) throw new Error(`no token from ${flow}`);
  client.setAuth(token);
  return { client, token };
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function configuration(): TestConfiguration {
  return {
    name: "Durable test",
    taskType: "general",
    userPrompt: "Write a tagline.",
    personas: [
      { id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." },
      { id: "p2", name: "Poet", description: "Rhymes", systemPrompt: "Answer in verse." },
    ],
    topics: [
      { id: "t1", title: "Coffee", description: "Coffee shop", prompt: "We sell cold brew coffee." },
      { id: "t2", title: "Bikes", description: "Bike repair", prompt: "We repair city bikes." },
    ],
    generatorModels: GENERATORS.map((id) => ({ id, name: id })),
    evaluatorModels: EVALUATORS.map((id) => ({ id, name: id })),
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: true },
  };
}

/** Signs up, fills the model catalog and starts a (free) test. */
async function userWithTest(url: string) {
  const { client, token } = await signIn(url, "signUp");
  await client.mutation(api.models.requestRefresh, {});
  await waitFor(
    () => client.query(api.models.list, {}),
    (list) => list.models.length > 0,
    30_000,
  );
  const { testId, paymentRequired } = await client.mutation(api.tests.create, { configuration: configuration() });
  expect(paymentRequired).toBe(false);
  return { client, token, testId };
}

/** The test's rows as they are on disk, counted the way runner.test.ts counts them. */
function storedRows(dataDir: string, testId: Id<"tests">) {
  const store = DocumentStore.open(dataDir);
  try {
    const rows = [...store.documents()];
    const of = (table: string) => rows.filter((row) => row._id.endsWith(table) && row.testId === testId);
    return {
      test: rows.find((row) => row._id === testId)!,
      calls: of("calls"),
      responses: of("responses"),
      evaluations: of("evaluations"),
      ids: rows.map((row) => row._id),
    };
  } finally {
    store.close();
  }
}

describe("the local backend's data folder", () => {
  test("keeps users, sessions, tests and results across a stop; ids are random-looking and never reused", async () => {
    const dataDir = dataFolder();
    const ports = { api: await freePort(), site: await freePort() };
    let backend = await startChild(dataDir, ports);
    const { client, token, testId } = await userWithTest(backend.url);
    const before = await waitFor(
      () => client.query(api.tests.monitor, { testId }),
      (m) => m.test.status === "completed",
      60_000,
    );
    const viewer = (await client.query(api.users.viewer, {}))!;
    await stop(backend, "SIGTERM");

    backend = await startChild(dataDir, ports);
    // The same password signs the same user in; the test and its results are there, same ids.
    const again = await signIn(backend.url, "signIn");
    expect((await again.client.query(api.users.viewer, {}))!._id).toBe(viewer._id);
    const after = await again.client.query(api.tests.monitor, { testId });
    expect(after.test).toMatchObject({ _id: testId, status: "completed", responsesCount: 16, evaluationsCount: 32 });
    expect(after.latestResponses.map((row) => row._id)).toEqual(before.latestResponses.map((row) => row._id));
    // A token from before the restart still belongs to the same user.
    const old = new ConvexHttpClient(backend.url);
    old.setAuth(token);
    expect((await old.query(api.users.viewer, {}))?._id).toBe(viewer._id);
    // New records get new ids.
    const second = await again.client.mutation(api.tests.create, { configuration: configuration() });
    await stop(backend, "SIGTERM");

    const { ids } = storedRows(dataDir, testId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(second.testId);
    // The first 8 characters tell records apart (not the zeros of convex-test's counter).
    const prefixes = new Set(ids.map((id) => id.slice(0, 8)));
    expect(prefixes.size).toBeGreaterThan(ids.length * 0.95);
    expect(ids.filter((id) => id.startsWith("0000")).length).toBeLessThan(ids.length * 0.01 + 1);
  }, 180_000);

  test("a test running when the backend is killed (SIGKILL) completes after the next start, nothing lost or recorded twice", async () => {
    const dataDir = dataFolder();
    // Short leases, so the calls the killed workers held are handed out again soon; two at a time.
    const setup = await startBackend({ port: 0, sitePort: 0, quiet: true, dataDir, env: { AUTH_LOG_LEVEL: "ERROR" } });
    await setup.t.run(async (ctx) => {
      await ctx.db.insert("settings", { key: "leaseMs", value: 1500 });
      await ctx.db.insert("settings", { key: "perTestConcurrency", value: 2 });
    });
    await setup.close();

    gateway.settings.fixedLatencyMs = 150;
    try {
      const ports = { api: await freePort(), site: await freePort() };
      let backend = await startChild(dataDir, ports);
      const { client, testId } = await userWithTest(backend.url);
      // Part-way through: some answers recorded, the test still running.
      await waitFor(
        () => client.query(api.tests.monitor, { testId }),
        (m) => m.test.responsesCount >= 4,
        60_000,
      );
      await stop(backend, "SIGKILL");
      const atCrash = storedRows(dataDir, testId);
      expect(atCrash.test.status).toBe("running");
      expect(atCrash.calls.some((call) => call.status === "leased")).toBe(true);

      backend = await startChild(dataDir, ports);
      const resumed = await signIn(backend.url, "signIn");
      const done = await waitFor(
        () => resumed.client.query(api.tests.monitor, { testId }),
        (m) => m.test.status !== "running" && m.test.status !== "pending",
        150_000,
      );
      expect(done.test).toMatchObject({
        status: "completed",
        responsesCount: 16,
        evaluationsCount: 32,
        failedCalls: 0,
      });
      await stop(backend, "SIGTERM");

      const { test: stored, calls, responses, evaluations } = storedRows(dataDir, testId);
      expect(stored).toMatchObject({ status: "completed", responsesCount: 16, evaluationsCount: 32 });
      expect(new Set(calls.map((call) => call.key)).size).toBe(calls.length);
      expect(calls.every((call) => call.status === "succeeded")).toBe(true);
      expect(responses).toHaveLength(16);
      expect(evaluations).toHaveLength(32);
      // Each call's answers are recorded once: never more answers than asked for.
      const perCall = new Map<unknown, number>();
      for (const row of responses) perCall.set(row.callId, (perCall.get(row.callId) ?? 0) + 1);
      expect(Math.max(...perCall.values())).toBe(2);
      const perJudgement = new Set(
        evaluations.map((row) => `${String(row.responseId)}|${String(row.evaluatorModelId)}`),
      );
      expect(perJudgement.size).toBe(32);
    } finally {
      gateway.settings.fixedLatencyMs = null;
    }
  }, 300_000);
});
