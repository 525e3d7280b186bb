// Ten tests at once on the local backend: one test of 1,200 gateway calls
// runs alone for a while, then ten such tests are released together, as settled payments
// release them. A proxy in front of the dev gateway (catalog latencies) notes each test's calls
// (each test's prompt names it). Prints each test's first call after its release (target
// ≤ 2 s) and the calls per minute of the ten together against one alone (target ≥ 3 ×).
//   npx tsx bench/concurrent.ts [--tests 10] [--window 30] [--store]
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { DEFAULT_RANKING_PROMPT } from "../convex/lib/prompts";
import { startBackend } from "../dev/backend/server";
import { startGateway } from "../dev/gateway/server";

const { values } = parseArgs({
  options: {
    tests: { type: "string", default: "10" },
    window: { type: "string", default: "30" },
    store: { type: "boolean", default: false },
  },
});
const TESTS = Number(values.tests);
const WINDOW_MS = Number(values.window) * 1000;

const gateway = await startGateway({ port: 0 });
const gatewayUrl = new URL(gateway.url);
const released = new Map<number, number>();
const calls = new Map<number, number[]>();

// Forwards every request to the gateway, noting when each test's calls arrive.
const proxy = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    const body = Buffer.concat(chunks);
    const marker = /Bench test (\d+):/.exec(body.toString("utf8"));
    if (marker) {
      const index = Number(marker[1]);
      if (!calls.has(index)) calls.set(index, []);
      calls.get(index)!.push(performance.now());
    }
    const forwarded = httpRequest(
      {
        host: gatewayUrl.hostname,
        port: gatewayUrl.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (reply) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    forwarded.end(body);
  });
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${gatewayUrl.pathname}`;

const dataDir = values.store ? mkdtempSync(join(tmpdir(), "mj-bench-concurrent-")) : undefined;
const backend = await startBackend({
  port: 0,
  sitePort: 0,
  quiet: true,
  dataDir,
  env: {
    GATEWAY_BASE_URL: proxyUrl,
    OPENROUTER_API_KEY: "dev-gateway-key",
    GATEWAY_BACKOFF_SCALE: "0",
    AUTH_LOG_LEVEL: "ERROR",
  },
});
const t = backend.t;
const testIds: Id<"tests">[] = [];
try {
  const latencyScale = gateway.settings.latencyScale;
  gateway.settings.latencyScale = 0;
  await t.action(internal.models.refresh, {});
  gateway.settings.latencyScale = latencyScale;
  const models = (await t.run(async (ctx) =>
    (await ctx.db.query("llmModels").take(15)).map((row) => row.modelId),
  )) as string[];
  await t.action(api.auth.signIn, {
    provider: "password",
    params: { email: "bench@modeljury.dev", password: "bench-password-1", flow: "signUp" },
  });
  const { userId, sessionId } = (await t.run(async (ctx) => {
    const session = (await ctx.db.query("authSessions").first())!;
    return { userId: session.userId, sessionId: session._id };
  })) as { userId: Id<"users">; sessionId: string };
  const as = t.withIdentity({ subject: `${userId}|${sessionId}` });
  const setProcessing = (value: number) =>
    t.run(async (ctx) => {
      const row = await ctx.db
        .query("settings")
        .withIndex("by_key", (q) => q.eq("key", "maxProcessingJobs"))
        .unique();
      if (row) await ctx.db.patch("settings", row._id as Id<"settings">, { value });
      else await ctx.db.insert("settings", { key: "maxProcessingJobs", value });
      await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
    });
  // Queued but held back, as tests are while their payment is open.
  await setProcessing(0);
  // 10 generators × 10 personas × 8 topics = 800 generation calls, 5 judges × 80 = 400 rankings.
  const create = async (index: number) => {
    const { testId } = await as.mutation(api.tests.create, {
      configuration: {
        name: `Bench test ${index}`,
        taskType: "general",
        userPrompt: `Bench test ${index}: write a short product description.`,
        personas: Array.from({ length: 10 }, (_, i) => ({
          id: `p${i}`,
          name: `Persona ${i}`,
          description: "A voice",
          systemPrompt: `You are writer ${i}.`,
        })),
        topics: Array.from({ length: 8 }, (_, i) => ({
          id: `t${i}`,
          title: `Topic ${i}`,
          description: "A scenario",
          prompt: `Scenario ${i}.`,
        })),
        generatorModels: models.slice(0, 10).map((id) => ({ id, name: id })),
        evaluatorModels: models.slice(10, 15).map((id) => ({ id, name: id })),
        responsesPerTopic: 2,
        rankingPrompt: DEFAULT_RANKING_PROMPT,
        evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
        scoringParameters: { scale: "ranking" as const, includeExplanations: true },
      },
    });
    testIds.push(testId);
  };
  const callsWithin = (index: number, from: number, to: number) =>
    (calls.get(index) ?? []).filter((at) => at >= from && at < to).length;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // One test alone.
  await create(TESTS);
  released.set(TESTS, performance.now());
  await setProcessing(1);
  await sleep(WINDOW_MS);
  const aloneEnd = performance.now();
  const alonePerMinute = (callsWithin(TESTS, released.get(TESTS)!, aloneEnd) / WINDOW_MS) * 60_000;
  await t.run(async (ctx) => {
    await ctx.db.patch("tests", testIds[0]!, { status: "cancelled" });
  });
  await sleep(2000);

  // Ten together.
  for (let index = 0; index < TESTS; index++) await create(index);
  const releasedAt = performance.now();
  for (let index = 0; index < TESTS; index++) released.set(index, releasedAt);
  await setProcessing(TESTS + 1);
  await sleep(WINDOW_MS);
  const togetherEnd = performance.now();
  let together = 0;
  const firsts: number[] = [];
  for (let index = 0; index < TESTS; index++) {
    together += callsWithin(index, releasedAt, togetherEnd);
    const first = (calls.get(index) ?? []).find((at) => at >= releasedAt);
    firsts.push(first === undefined ? Infinity : first - releasedAt);
  }
  const togetherPerMinute = (together / WINDOW_MS) * 60_000;
  firsts.sort((a, b) => a - b);
  const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "none");
  console.log(
    `store: ${dataDir ? "SQLite (data folder)" : "in memory"}; tests of 1,200 calls; catalog latencies; ${WINDOW_MS / 1000} s windows`,
  );
  console.log(`one test alone       ${alonePerMinute.toFixed(0)} calls/min`);
  console.log(
    `${TESTS} tests together     ${togetherPerMinute.toFixed(0)} calls/min = ${(togetherPerMinute / alonePerMinute).toFixed(2)} × one alone (target ≥ 3)`,
  );
  console.log(
    `first call after release: fastest ${seconds(firsts[0]!)}, median ${seconds(firsts[Math.floor(TESTS / 2)]!)}, slowest ${seconds(firsts[TESTS - 1]!)} (target ≤ 2 s)`,
  );
} finally {
  await t.run(async (ctx) => {
    for (const testId of testIds) await ctx.db.patch("tests", testId, { status: "cancelled" });
  });
  await backend.close();
  await gateway.close();
  proxy.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
