// Jury statistics in proportion to what changed: a running ranking test judged in both orders
// (6 generators, 5 judges, 100 persona × topic pairs: 600 answers, 1,000 judge calls, 6,000
// judge scores) receives its results in batches; after each batch the statistics are
// recomputed incrementally (the kept rows plus what arrived since), then in full (the whole
// test read, as every recomputation did before), on the local backend. Prints the documents and
// bytes each read (the backend's meter, every juryStats function), their ratio, and
// whether both gave identical figures.
//   npx tsx bench/jury-incremental.ts [--pairs 100] [--batches 10] [--gap-ms 3500]
import { parseArgs } from "node:util";
import { internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { seedConfiguration } from "../convex/finishedTests.fixture";
import { reverseRankingKey } from "../convex/lib/prompts";
import { rankingScore } from "../convex/lib/scoring";
import { EMPTY_RUN_COUNTERS } from "../convex/core/pipeline/runCounters";
import { startBackend } from "../dev/backend/server";

const { values } = parseArgs({
  options: {
    pairs: { type: "string", default: "100" },
    batches: { type: "string", default: "10" },
    "gap-ms": { type: "string", default: "3500" },
  },
});
const PAIRS = Number(values.pairs);
const BATCHES = Number(values.batches);
const GAP_MS = Number(values["gap-ms"]);
const GENERATORS = [
  "openai/gpt-4o-mini",
  "anthropic/claude-opus-4",
  "google/gemini-2.0-flash-001",
  "qwen/qwen-2.5-72b-instruct",
  "cohere/command-r7b-12-2024",
  "mistralai/mistral-small",
];
const JUDGES = [
  "meta-llama/llama-3.1-8b-instruct",
  "x-ai/grok-3",
  "deepseek/deepseek-chat",
  "amazon/nova",
  "ai21/jamba",
];

const backend = await startBackend({ port: 0, sitePort: 0, quiet: true, env: { AUTH_LOG_LEVEL: "ERROR" } });
const t = backend.t;
type Ctx = Parameters<Parameters<typeof t.run>[0]>[0];
try {
  const configuration = {
    ...seedConfiguration(),
    topics: Array.from({ length: PAIRS }, (_, index) => ({
      id: `t${index}`,
      title: `Topic ${index}`,
      description: "",
      prompt: `Prompt ${index}`,
    })),
    personas: [seedConfiguration().personas[0]!],
    generatorModels: GENERATORS.map((id) => ({ id, name: id })),
    evaluatorModels: JUDGES.map((id) => ({ id, name: id })),
    responsesPerTopic: 1,
    scoringParameters: { scale: "ranking" as const, includeExplanations: true, bothOrders: true },
  };
  const testId = (await t.run(async (ctx: Ctx) => {
    const userId = await ctx.db.insert("users", { email: "bench@example.com" });
    const testId = await ctx.db.insert("tests", {
      userId,
      name: "Incremental statistics",
      taskType: configuration.taskType,
      configuration,
      status: "running",
      progress: { currentPhase: "Evaluating", percentage: 0 },
      estimate: { generationCost: 1, evaluationCost: 1, totalCost: 2, totalQueries: 1600, estimatedTokens: 1 },
      priceCents: 500,
      usesOwnKey: false,
      expectedResponses: PAIRS * GENERATORS.length,
      expectedEvaluations: PAIRS * GENERATORS.length * JUDGES.length * 2,
      ...EMPTY_RUN_COUNTERS,
      lastProgressAt: Date.now(),
    });
    await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: false, dirty: false });
    return testId;
  })) as Id<"tests">;
  const persona = configuration.personas[0]!.id;
  let seed = 11;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;

  /** One pair's answers and its judges' calls in both orders, as the pipeline writes them. */
  const addPair = (topic: number) =>
    t.run(async (ctx: Ctx) => {
      const answers: { id: Id<"responses">; quality: number }[] = [];
      for (const [index, modelId] of GENERATORS.entries()) {
        const id = await ctx.db.insert("responses", {
          testId,
          modelId,
          personaId: persona,
          topicId: `t${topic}`,
          content: "An answer of a few hundred characters. ".repeat(10),
          promptTokens: 100,
          completionTokens: 300,
          tokens: 400,
          latencyMs: 9000,
          costUsd: 0.0004,
          scoreSum: 0,
          scoreCount: 0,
        });
        answers.push({ id, quality: index + random() * 3 });
      }
      for (const judge of JUDGES) {
        const forward = `${testId}:rank:${judge}:${persona}:t${topic}`;
        for (const key of [forward, reverseRankingKey(forward)]) {
          const callId = await ctx.db.insert("calls", {
            testId,
            kind: "evaluate",
            key,
            status: "succeeded",
            attempts: 1,
            modelId: judge,
            personaId: persona,
            topicId: `t${topic}`,
            responseIds: answers.map((answer) => answer.id),
          });
          const ranked = [...answers].sort((a, b) => b.quality + random() * 2 - (a.quality + random() * 2));
          for (const [rank, answer] of ranked.entries()) {
            await ctx.db.insert("evaluations", {
              testId,
              responseId: answer.id,
              evaluatorModelId: judge,
              scores: { overall: rankingScore(rank, ranked.length) },
              explanation: "The judge's reasons for this order, a few sentences long. ".repeat(6),
              rank: rank + 1,
              costUsd: 0.0002,
              callId,
            });
          }
        }
      }
    });

  const read = async (force: boolean) => {
    if (force)
      await t.run(async (ctx: Ctx) => {
        const row = (await ctx.db
          .query("testStats")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .unique())!;
        await ctx.db.patch("testStats", row._id as Id<"testStats">, { cursor: undefined });
      });
    backend.meter.reset();
    await t.action(internal.juryStats.recompute, { testId });
    const reading = backend.meter.read();
    let documents = 0;
    let bytes = 0;
    for (const [path, entry] of Object.entries(reading)) {
      if (!path.includes("juryStats")) continue;
      documents += entry.documentsRead;
      bytes += entry.bytesRead;
    }
    const stats = (await t.run(
      async (ctx: Ctx) =>
        (await ctx.db
          .query("testStats")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .unique())!.stats,
    )) as unknown;
    return { documents, bytes, stats: JSON.stringify(stats) };
  };

  console.log(
    `${PAIRS} pairs × ${GENERATORS.length} answers, ${JUDGES.length} judges in both orders, in ${BATCHES} batches ${GAP_MS} ms apart`,
  );
  console.log("batch  scores   incremental docs / KiB   full docs / KiB   docs ratio  bytes ratio  identical");
  const perBatch = Math.ceil(PAIRS / BATCHES);
  let totals = { incremental: 0, full: 0 };
  for (let batch = 0; batch < BATCHES; batch++) {
    for (let topic = batch * perBatch; topic < Math.min(PAIRS, (batch + 1) * perBatch); topic++) await addPair(topic);
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    const incremental = await read(false);
    const full = await read(true);
    totals = { incremental: totals.incremental + incremental.documents, full: totals.full + full.documents };
    const scores = Math.min(PAIRS, (batch + 1) * perBatch) * GENERATORS.length * JUDGES.length * 2;
    console.log(
      `${String(batch + 1).padStart(5)}  ${String(scores).padStart(6)}   ${String(incremental.documents).padStart(8)} / ${(incremental.bytes / 1024).toFixed(0).padStart(6)}     ${String(full.documents).padStart(6)} / ${(full.bytes / 1024).toFixed(0).padStart(6)}   ${(full.documents / incremental.documents).toFixed(1).padStart(9)}×  ${(full.bytes / incremental.bytes).toFixed(1).padStart(10)}×  ${incremental.stats === full.stats ? "yes" : "NO"}`,
    );
  }
  console.log(
    `over the run: ${totals.incremental} documents read incrementally, ${totals.full} in full (${(totals.full / totals.incremental).toFixed(1)}× fewer)`,
  );
} finally {
  await backend.close();
}
