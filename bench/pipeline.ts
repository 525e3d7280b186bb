// Pipeline throughput through the offline stack: one test of ≥ 200 gateway calls against the
// dev gateway at a fixed latency L with per-test concurrency C. Prints the wall time, the ideal
// ceil(calls / C) × L and their ratio (target ≤ 1.25), and the backend work per gateway call.
//   npx tsx bench/pipeline.ts [--latency 200] [--concurrency 8]
import { parseArgs } from "node:util";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { DEFAULT_RANKING_PROMPT } from "../convex/lib/prompts";
import { invocationCounts } from "../dev/backend/modules";
import { syscallCounts } from "../dev/backend/runtime";
import { startBackend } from "../dev/backend/server";
import { startGateway } from "../dev/gateway/server";

const { values } = parseArgs({
  options: { latency: { type: "string", default: "200" }, concurrency: { type: "string", default: "8" } },
});
const latencyMs = Number(values.latency);
const concurrency = Number(values.concurrency);

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001", "deepseek/deepseek-chat", "mistralai/mistral-small-3.1-24b-instruct"];
const EVALUATORS = ["meta-llama/llama-3.3-70b-instruct", "qwen/qwen-2.5-72b-instruct"];
const PERSONAS = 5;
const TOPICS = 6;

const gateway = await startGateway({ port: 0, fixedLatencyMs: latencyMs });
const backend = await startBackend({
  port: 0,
  sitePort: 0,
  quiet: true,
  env: { GATEWAY_BASE_URL: gateway.url, OPENROUTER_API_KEY: "dev-gateway-key", GATEWAY_BACKOFF_SCALE: "0" },
});
const t = backend.t;
try {
  gateway.settings.fixedLatencyMs = 0;
  await t.action(internal.models.refresh, {});
  gateway.settings.fixedLatencyMs = latencyMs;
  await t.run(async (ctx) => {
    await ctx.db.insert("settings", { key: "perTestConcurrency", value: concurrency });
  });
  await t.action(api.auth.signIn, { provider: "password", params: { email: "bench@modeljury.dev", password: "bench-password-1", flow: "signUp" } });
  const userId = (await t.run(async (ctx) => (await ctx.db.query("users").first())!._id)) as Id<"users">;
  const sessionId = await t.run(async (ctx) => (await ctx.db.query("authSessions").first())!._id);
  const as = t.withIdentity({ subject: `${userId}|${sessionId}` });

  const configuration = {
    name: "Pipeline benchmark",
    taskType: "general",
    userPrompt: "Write a short product description.",
    personas: Array.from({ length: PERSONAS }, (_, i) => ({ id: `p${i}`, name: `Persona ${i}`, description: "A voice", systemPrompt: `You are writer number ${i}.` })),
    topics: Array.from({ length: TOPICS }, (_, i) => ({ id: `t${i}`, title: `Topic ${i}`, description: "A scenario", prompt: `Scenario ${i}: a small shop sells item ${i}.` })),
    generatorModels: GENERATORS.map((id) => ({ id, name: id })),
    evaluatorModels: EVALUATORS.map((id) => ({ id, name: id })),
    responsesPerTopic: 1,
    rankingPrompt: DEFAULT_RANKING_PROMPT,
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking" as const, includeExplanations: true },
  };

  syscallCounts.clear();
  invocationCounts.clear();
  const callsBefore = gateway.stats.chatCalls;
  const started = performance.now();
  const { testId } = await as.mutation(api.tests.create, { configuration });
  let status = "pending";
  while (status !== "completed" && status !== "failed") {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = (await t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status)) as string;
  }
  const wallMs = performance.now() - started;
  const calls = gateway.stats.chatCalls - callsBefore;
  const idealMs = Math.ceil(calls / concurrency) * latencyMs;
  const count = (...ops: string[]) => ops.reduce((sum, op) => sum + (syscallCounts.get(op) ?? 0), 0);
  const writes = count("1.0/insert", "1.0/shallowMerge", "1.0/replace", "1.0/remove");
  const invocations = [...invocationCounts.values()].reduce((sum, n) => sum + n, 0);
  const byFunction = [...invocationCounts.entries()].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(", ");

  console.log(`test ${status}: ${calls} gateway calls, latency L = ${latencyMs} ms, concurrency C = ${concurrency}`);
  console.log(`wall time            ${(wallMs / 1000).toFixed(2)} s`);
  console.log(`ideal ceil(calls/C)×L ${(idealMs / 1000).toFixed(2)} s`);
  console.log(`ratio                ${(wallMs / idealMs).toFixed(3)}  (target ≤ 1.25)`);
  console.log(`function invocations ${(invocations / calls).toFixed(2)} per gateway call (${invocations} in all: ${byFunction})`);
  console.log(`documents written    ${(writes / calls).toFixed(2)} per gateway call (${writes} in all)`);
} finally {
  await backend.close();
  await gateway.close();
}
