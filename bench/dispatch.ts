// Ten of the largest allowed tests (10 generators × 10 personas × 10 topics, 5 judges) released
// at once on the local backend, as a payment releases a test: the time from their release to
// each test's first gateway call. A small proxy in front of the dev gateway notes when each
// test's first request arrives (each test's prompt names it).
//   npx tsx bench/dispatch.ts [--tests 10]
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { DEFAULT_RANKING_PROMPT } from "../convex/lib/prompts";
import { startBackend } from "../dev/backend/server";
import { startGateway } from "../dev/gateway/server";

const { values } = parseArgs({ options: { tests: { type: "string", default: "10" } } });
const TESTS = Number(values.tests);
const TIMEOUT_MS = 180_000;

const gateway = await startGateway({ port: 0, fixedLatencyMs: 200 });
const gatewayUrl = new URL(gateway.url);
let releasedAt = 0;
const firstCallAt = new Map<number, number>();

// Forwards every request to the gateway, noting the first one of each test.
const proxy = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    const body = Buffer.concat(chunks);
    const marker = /Bench test (\d+):/.exec(body.toString("utf8"));
    if (marker && releasedAt > 0 && !firstCallAt.has(Number(marker[1]))) {
      firstCallAt.set(Number(marker[1]), performance.now() - releasedAt);
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

const backend = await startBackend({
  port: 0,
  sitePort: 0,
  quiet: true,
  env: { GATEWAY_BASE_URL: proxyUrl, OPENROUTER_API_KEY: "dev-gateway-key", GATEWAY_BACKOFF_SCALE: "0" },
});
const t = backend.t;
const testIds: Id<"tests">[] = [];
try {
  gateway.settings.fixedLatencyMs = 0;
  await t.action(internal.models.refresh, {});
  gateway.settings.fixedLatencyMs = 200;
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
  // Queued but held back, as tests are while their payment is open.
  await t.run(async (ctx) => {
    await ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 });
  });

  for (let index = 0; index < TESTS; index++) {
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
        topics: Array.from({ length: 10 }, (_, i) => ({
          id: `t${i}`,
          title: `Topic ${i}`,
          description: "A scenario",
          prompt: `Scenario ${i}.`,
        })),
        generatorModels: models.slice(0, 10).map((id) => ({ id, name: id })),
        evaluatorModels: models.slice(10, 15).map((id) => ({ id, name: id })),
        responsesPerTopic: 4,
        rankingPrompt: DEFAULT_RANKING_PROMPT,
        evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
        scoringParameters: { scale: "ranking" as const, includeExplanations: true },
      },
    });
    testIds.push(testId);
  }

  // The release: what a settled payment does (its job queued, a dispatch scheduled).
  releasedAt = performance.now();
  await t.run(async (ctx) => {
    const row = (await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", "maxProcessingJobs"))
      .unique())!;
    await ctx.db.patch("settings", row._id as Id<"settings">, { value: TESTS });
    await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
  });
  while (firstCallAt.size < TESTS && performance.now() - releasedAt < TIMEOUT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const times = [...firstCallAt.values()].sort((a, b) => a - b);
  const seconds = (ms: number | undefined) => (ms === undefined ? "—" : `${(ms / 1000).toFixed(2)} s`);
  console.log(`${TESTS} tests of 1,500 calls each released at once; first gateway call after release:`);
  console.log(`first test  ${seconds(times[0])}`);
  console.log(`median      ${seconds(times[Math.floor(times.length / 2)])}`);
  console.log(
    `last test   ${seconds(times[TESTS - 1])}${times.length < TESTS ? ` (only ${times.length} of ${TESTS} within ${TIMEOUT_MS / 1000} s)` : ""}`,
  );
} finally {
  // Stop the runs so no worker outlives the backend.
  await t.run(async (ctx) => {
    for (const testId of testIds) await ctx.db.patch("tests", testId, { status: "cancelled" });
  });
  await backend.close();
  await gateway.close();
  proxy.close();
}
