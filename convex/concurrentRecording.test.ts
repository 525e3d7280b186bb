// @vitest-environment node
// Ten workers recording into one test at once: every answer and judgement is counted exactly
// once and the cost once, and no recording writes the test's row (the counters go to delta rows
// that a fold moves into it), so on a deployment recordings of one test do not conflict through it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { meterDifference } from "../dev/backend/meter";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  createBackend,
  createUser,
  drainDispatch,
  readTestRows,
  sampleConfiguration,
  seedCatalog,
  startLocalBackend,
} from "./test.helpers";
import type { Outcome, WorkItem } from "./validators";
import { countedTest } from "./core/pipeline/counterRow";

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
      const started = await t.run(async (ctx) => (await countedTest(ctx, testId))!);
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
              callId: item.callId,
              leaseId: item.leaseId,
              outcome: outcomeFor(item),
              concurrency: WORKERS * 4,
            }),
          ),
        );
        expect(results.every((result) => result)).toBe(true);
        recorded += claimed.length;
        // The workers' reports give the pairs whose answers are all in their judge calls.
        await t.mutation(internal.runner.beat, {
          testId,
          level: claimed.length,
          backedOff: false,
          inFlight: 0,
          exchanges: claimed.length,
          rateLimited: 0,
          timeouts: 0,
          serverErrors: 0,
          judged: claimed.some((item) => item.kind === "evaluate"),
          generated: claimed.filter((item) => item.kind === "generate").map((item) => item.callId),
        });
      }
      expect(recorded).toBe(36 + 9 * 2); // 4 generators × 9 pairs; 2 judges × 9 pairs

      // Not one recording wrote the test's row or a row another call writes: its counters and
      // progress are as they started, and the counts sit in the recordings' own delta rows.
      const during = await t.run(async (ctx) => ({
        test: (await countedTest(ctx, testId))!,
        deltas: await ctx.db
          .query("runDeltas")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .collect(),
        modelStats: await ctx.db
          .query("modelStats")
          .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
          .collect(),
      }));
      expect(during.test).toEqual(started);
      expect(during.modelStats).toEqual([]);
      expect(during.deltas.reduce((sum, delta) => sum + (delta.counters?.responsesCount ?? 0), 0)).toBe(72);

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
      // Per model: every answer once, every score once, in one row per model × persona.
      const stats = await t.run(async (ctx) =>
        ctx.db
          .query("modelStats")
          .withIndex("by_test_model_persona", (q) => q.eq("testId", testId as Id<"tests">))
          .collect(),
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

describe("ten workers recording into one test under concurrent transactions (OCC)", () => {
  test(
    "end with exact counts, no failed mutation and no recording that conflicts: no row is written by two calls of the test",
    { timeout: 120_000 },
    async () => {
      vi.useRealTimers(); // the local backend's scheduler and the fold's clock run
      const keysDir = mkdtempSync(join(tmpdir(), "mj-occ-recording-"));
      const backend = await startLocalBackend(join(keysDir, "keys.json"));
      try {
        const { t } = backend;
        await seedCatalog(t, [...GENERATORS, ...JUDGES]);
        await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the workers
        const user = await createUser(t, "ada@example.com");
        const personas = ["p1", "p2", "p3"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
        const topics = ["t1", "t2", "t3"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
        const { testId } = await user.as.mutation(api.tests.create, {
          configuration: sampleConfiguration(GENERATORS, JUDGES, {
            personas,
            topics,
            responsesPerTopic: 2,
            scoringParameters: { scale: "ranking", includeExplanations: true, bothOrders: true },
          }),
        });
        await drainDispatch(t);
        // The backend's scheduler creates the calls (a batch at a time).
        await vi.waitFor(
          async () => {
            const test = await t.run(async (ctx) => (await countedTest(ctx, testId))!);
            const { status, callCursor = null, totalCalls } = test;
            expect({ status, callCursor, totalCalls }).toEqual({ status: "running", callCursor: null, totalCalls: 36 });
          },
          { timeout: 60_000, interval: 100 },
        );
        const before = backend.meter.read();
        let recorded = 0;
        for (;;) {
          // Ten workers lease their calls; every call then lands at once, recorded as a pool
          // worker records it, and the worker's report gives finished pairs their judge calls.
          const claimed = [];
          for (let worker = 0; worker < WORKERS; worker++)
            claimed.push(...(await t.mutation(internal.runner.claimBatch, { testId, max: 8 })));
          if (claimed.length === 0) break;
          await Promise.all(
            claimed.map((item) =>
              t.mutation(internal.runner.record, {
                callId: item.callId,
                leaseId: item.leaseId,
                outcome: outcomeFor(item),
                concurrency: claimed.length,
              }),
            ),
          );
          recorded += claimed.length;
          await t.mutation(internal.runner.beat, {
            testId,
            level: claimed.length,
            backedOff: false,
            inFlight: 0,
            exchanges: claimed.length,
            rateLimited: 0,
            timeouts: 0,
            serverErrors: 0,
            judged: claimed.some((item) => item.kind === "evaluate"),
            generated: claimed.filter((item) => item.kind === "generate").map((item) => item.callId),
          });
        }
        expect(recorded).toBe(36 + 9 * 2 * 2); // 4 generators × 9 pairs; 2 judges × 9 pairs × both orders
        const figures = meterDifference(backend.meter.read(), before);
        const recording = figures["runner:record"]!;
        expect(recording.calls).toBe(recorded);
        // Judges' calls of one answer, and answers of one pair, landing together write no common
        // row: not one recording conflicted (on a deployment: no retries, no failed mutation).
        expect(recording.conflicts).toBe(0);
        expect(recording.failures).toBe(0);

        for (let index = 0; index < WORKERS; index++) await t.mutation(internal.runner.endWork, { testId });
        const { test: done, responses, evaluations } = await t.run((ctx) => readTestRows(ctx, testId));
        expect(responses).toHaveLength(72);
        expect(evaluations).toHaveLength(9 * 2 * 2 * 8);
        expect(done).toMatchObject({
          status: "completed",
          responsesCount: 72,
          evaluationsCount: 288,
          missingResponses: 0,
          missingEvaluations: 0,
          failedCalls: 0,
          totalCalls: 72,
          finishedCalls: 72,
          totalTokens: 72 * 30,
        });
        expect(done.totalCostUsd).toBeCloseTo(36 * GENERATION_COST + 36 * JUDGE_COST, 12);
        // Every answer's average is there, from its four judgements.
        const page = await user.as.query(api.results.responses, {
          testId,
          paginationOpts: { numItems: 100, cursor: null },
        });
        expect(page.page).toHaveLength(72);
        expect(page.page.every((answer) => answer.evaluationCount === 4 && answer.averageScore !== null)).toBe(true);
        const failures = Object.values(meterDifference(backend.meter.read(), before)).reduce(
          (sum, entry) => sum + entry.failures,
          0,
        );
        expect(failures).toBe(0);
      } finally {
        await backend.close();
        rmSync(keysDir, { recursive: true, force: true });
      }
    },
  );
});
