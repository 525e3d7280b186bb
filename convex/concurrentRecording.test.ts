// @vitest-environment node
// Ten workers recording into one test at once: every answer and judgement is counted exactly
// once and the cost once, and no recording writes the test's row (the counters go to shards that
// a fold moves into it), so on a deployment recordings of one test do not conflict through it.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { RUN_SHARDS } from "./core/pipeline/shards";
import { mergeModelStats } from "./core/pipeline/statistics";
import {
  createBackend,
  createUser,
  drainDispatch,
  readTestRows,
  sampleConfiguration,
  seedCatalog,
} from "./test.helpers";
import type { Outcome, WorkItem } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "mistralai/mistral-large", "x-ai/grok-3-mini"];
const JUDGES = ["google/gemini-2.0-flash-001", "deepseek/deepseek-chat"];
const WORKERS = 10;
const GENERATION_COST = 0.001;
const JUDGE_COST = 0.0005;

beforeEach(() => {
  // Time stands still: no fold falls due, so only the folds the test asks for happen.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.UTC(2026, 0, 15, 12, 0, 0));
});
afterEach(() => {
  vi.useRealTimers();
});

function outcomeFor(item: WorkItem): Outcome {
  const usage = { promptTokens: 10, completionTokens: 20, latencyMs: 700 };
  if (item.kind === "generate")
    return { kind: "generated", answers: ["First answer.", "Second answer."], ...usage, costUsd: GENERATION_COST };
  return {
    kind: "ranked",
    ranking: item.labels.map((entry) => entry.responseId),
    explanation: "In label order.",
    ...usage,
    costUsd: JUDGE_COST,
  };
}

/** A deterministic shuffle, so the landing order mixes workers and kinds. */
function shuffled<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

describe("ten workers recording into one test", () => {
  test(
    "end with exact counts and the cost once, and no recording writes the test's row",
    { timeout: 60_000 },
    async () => {
      const t = createBackend();
      await seedCatalog(t, [...GENERATORS, ...JUDGES]);
      await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the workers
      const user = await createUser(t, "ada@example.com");
      const personas = ["p1", "p2", "p3"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
      const topics = ["t1", "t2", "t3"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
      const { testId } = await user.as.mutation(api.tests.create, {
        configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics, responsesPerTopic: 2 }),
      });
      await drainDispatch(t);
      const started = await t.run(async (ctx) => (await ctx.db.get("tests", testId))!);
      expect(started).toMatchObject({ status: "running", totalCalls: 36 });

      let round = 0;
      let recorded = 0;
      for (;;) {
        // Each worker leases a few calls; then every call lands, in an order mixing the workers.
        const claimed = (
          await Promise.all(
            Array.from({ length: WORKERS }, () => t.mutation(internal.runner.claimBatch, { testId, max: 4 })),
          )
        ).flat();
        if (claimed.length === 0) break;
        const results = await Promise.all(
          shuffled(claimed, ++round).map((item) =>
            t.mutation(internal.runner.record, {
              testId,
              callId: item.callId,
              leaseId: item.leaseId,
              outcome: outcomeFor(item),
              continueChunk: false,
              concurrency: WORKERS * 4,
            }),
          ),
        );
        expect(results.every((result) => result === null)).toBe(true);
        recorded += claimed.length;
      }
      expect(recorded).toBe(36 + 9 * 2); // 4 generators × 9 pairs; 2 judges × 9 pairs

      // Not one recording wrote the test's row: its counters and progress are as they started,
      // and the counts sit in at most RUN_SHARDS shard rows.
      const during = await t.run(async (ctx) => ({
        test: (await ctx.db.get("tests", testId))!,
        shards: await ctx.db
          .query("runShards")
          .withIndex("by_test_shard", (q) => q.eq("testId", testId))
          .collect(),
      }));
      expect(during.test).toEqual(started);
      expect(during.shards.length).toBeLessThanOrEqual(RUN_SHARDS);
      expect(during.shards.reduce((sum, shard) => sum + shard.responsesCount, 0)).toBe(72);

      // The workers run dry and end: the counters are folded and the test completes.
      for (let index = 0; index < WORKERS; index++) await t.mutation(internal.runner.endWork, { testId });
      const { test: done, calls, responses, evaluations } = await t.run((ctx) => readTestRows(ctx, testId));
      expect(new Set(calls.map((call) => call.key)).size).toBe(calls.length);
      expect(calls.every((call) => call.status === "succeeded")).toBe(true);
      expect(responses).toHaveLength(72); // 36 calls × 2 answers
      expect(evaluations).toHaveLength(9 * 2 * 8); // each judge ranks the pair's 8 answers
      expect(done).toMatchObject({
        status: "completed",
        responsesCount: 72,
        evaluationsCount: 144,
        missingResponses: 0,
        missingEvaluations: 0,
        failedCalls: 0,
        totalCalls: 54,
        finishedCalls: 54,
        judgeCallsFinished: 18,
        totalTokens: 54 * 30,
        progress: { currentPhase: "Completed", percentage: 100 },
      });
      expect(done.totalCostUsd).toBeCloseTo(36 * GENERATION_COST + 18 * JUDGE_COST, 12);
      expect(done.judgingCostUsd).toBeCloseTo(18 * JUDGE_COST, 12);
      expect(done.resultsSummary!.analysisSummary.totalCost).toBeCloseTo(done.totalCostUsd, 12);
      // Per model: every answer once, every score once, however the shards split them.
      const stats = await t.run(async (ctx) =>
        mergeModelStats(
          await ctx.db
            .query("modelStats")
            .withIndex("by_test_model_persona", (q) => q.eq("testId", testId as Id<"tests">))
            .collect(),
        ),
      );
      for (const modelId of GENERATORS) {
        const all = stats.find((row) => row.modelId === modelId && row.personaId === "")!;
        expect(all).toMatchObject({
          responses: 18,
          scoreCount: 36,
          latenciesMs: Array.from({ length: 18 }, () => 700),
        });
        expect(all.costUsd).toBeCloseTo(9 * GENERATION_COST, 12);
        const perPersona = stats.filter((row) => row.modelId === modelId && row.personaId !== "");
        expect(perPersona.map((row) => row.responses)).toEqual([6, 6, 6]);
      }
      const summary = await user.as.query(api.tests.monitor, { testId });
      expect(summary.test).toMatchObject({ responsesCount: 72, evaluationsCount: 144, status: "completed" });
    },
  );
});
