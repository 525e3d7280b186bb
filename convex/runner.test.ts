// @vitest-environment node
// The pipeline end to end: convex-test runs the real functions and scheduler, the dev gateway
// answers the calls (no latency), so counts, faults, leases and cancel are what users would see.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  backendWithUser,
  readTestRows,
  sampleConfiguration,
  waitFor,
  type TestBackend,
  useDevGateway,
} from "./test.helpers";
import { SEED_PERSONAS, SEED_TOPICS } from "./finishedTests.fixture";
import type { TestConfiguration } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001", "deepseek/deepseek-chat"];
const gateway = useDevGateway();

function twoByTwo(scale: "ranking" | "rating"): TestConfiguration {
  return sampleConfiguration(GENERATORS, EVALUATORS, {
    personas: SEED_PERSONAS,
    topics: SEED_TOPICS,
    responsesPerTopic: 2,
    scoringParameters: { scale, includeExplanations: true },
    evaluationCriteria: { accuracy: true, creativity: true, clarity: false, relevance: false, style: false },
  });
}

const setup = () => backendWithUser([...GENERATORS, ...EVALUATORS]);

async function snapshot(t: TestBackend, testId: Id<"tests">) {
  return await t.run((ctx) => readTestRows(ctx, testId));
}

async function runToEnd(t: TestBackend, testId: Id<"tests">) {
  await waitFor(
    () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status),
    (status) => status === "completed" || status === "failed" || status === "cancelled",
  );
  // Let in-flight workers settle so the counts are final.
  await t.finishInProgressScheduledFunctions();
  return await snapshot(t, testId);
}

describe("pipeline", () => {
  test.each(["ranking", "rating"] as const)(
    "2 generators × 2 evaluators × 2 personas × 2 topics × 2 responses, %s scale",
    async (scale) => {
      const { t, user } = await setup();
      const { testId, paymentRequired } = await user.as.mutation(api.tests.create, { configuration: twoByTwo(scale) });
      expect(paymentRequired).toBe(false); // free mode: no Stripe key configured
      const { test: done, calls, responses, evaluations, job } = await runToEnd(t, testId);

      const generationCalls = calls.filter((call) => call.kind === "generate");
      const evaluationCalls = calls.filter((call) => call.kind === "evaluate");
      expect(generationCalls).toHaveLength(8); // 2 models × 2 personas × 2 topics
      // ranking: one per evaluator per persona × topic pair; rating: one per evaluator per answer
      expect(evaluationCalls).toHaveLength(scale === "ranking" ? 2 * 4 : 2 * 16);
      expect(responses).toHaveLength(16);
      expect(evaluations).toHaveLength(32); // every answer scored once by each evaluator
      expect(done).toMatchObject({ status: "completed", responsesCount: 16, evaluationsCount: 32, failedCalls: 0 });
      expect(done.progress).toMatchObject({ currentPhase: "Completed", percentage: 100 });
      expect(job).toMatchObject({ status: "completed" });
      expect(job?.completedAt).toBeGreaterThan(0);

      const summary = done.resultsSummary!;
      expect(summary.modelRankings.map((r) => r.modelId).sort()).toEqual([...GENERATORS].sort());
      for (const ranking of summary.modelRankings) {
        expect(ranking.totalResponses).toBe(8);
        expect(ranking.averageScore).toBeGreaterThan(0);
        expect(ranking.averageScore).toBeLessThanOrEqual(10);
      }
      expect(summary.analysisSummary).toMatchObject({ totalTests: 16, completionRate: 1 });
      expect(summary.analysisSummary.topPerformers).toHaveLength(2);
      const costOfRows =
        responses.reduce((sum, row) => sum + row.costUsd, 0) + evaluations.reduce((sum, row) => sum + row.costUsd, 0);
      expect(summary.analysisSummary.totalCost).toBeCloseTo(costOfRows, 10);
      if (scale === "ranking") {
        // Each judge ranked the 4 answers of a pair: scores (N − rank)/N × 10 → 10, 7.5, 5, 2.5.
        const scores = evaluations.map((row) => row.scores.overall).sort((a, b) => b - a);
        expect(new Set(scores)).toEqual(new Set([10, 7.5, 5, 2.5]));
      } else {
        expect(evaluations.every((row) => Object.keys(row.scores).sort().join() === "accuracy,creativity")).toBe(true);
      }
    },
    30_000, // the whole pipeline on convex-test: about 1 s alone, over 5 s with the suite and the browser journeys side by side
  );

  test("with faults on, every test finishes, no key is recorded twice and cost is counted once", async () => {
    gateway().settings.faults = { rate429: 0.2, rate500: 0.05, rateTimeout: 0.05, rateMalformed: 0.05 };
    process.env.GATEWAY_TIMEOUT_MS = "300";
    const before = { ...gateway().stats.byStatus };
    const seen = (status: string) => (gateway().stats.byStatus[status] ?? 0) - (before[status] ?? 0);
    try {
      const { t, user } = await setup();
      const ids = [];
      for (const scale of ["ranking", "rating"] as const) {
        ids.push((await user.as.mutation(api.tests.create, { configuration: twoByTwo(scale) })).testId);
      }
      for (const testId of ids) {
        const { test: done, calls, responses, evaluations } = await runToEnd(t, testId);
        expect(["completed", "failed"]).toContain(done.status);
        expect(new Set(calls.map((call) => call.key)).size).toBe(calls.length);
        expect(calls.every((call) => call.status === "succeeded" || call.status === "failed")).toBe(true);
        // Each call's answers are recorded once: never more answers than asked for.
        const perCall = new Map<string, number>();
        for (const row of responses) perCall.set(row.callId!, (perCall.get(row.callId!) ?? 0) + 1);
        expect(Math.max(...perCall.values())).toBeLessThanOrEqual(2);
        expect(done.responsesCount).toBe(responses.length);
        expect(done.evaluationsCount).toBe(evaluations.length);
        expect(done.responsesCount + done.missingResponses).toBe(16);
        const recordedCost =
          responses.reduce((sum, row) => sum + row.costUsd, 0) + evaluations.reduce((sum, row) => sum + row.costUsd, 0);
        expect(done.totalCostUsd).toBeGreaterThanOrEqual(recordedCost - 1e-12);
        if (done.status === "completed") {
          expect(done.resultsSummary!.analysisSummary.completionRate).toBeCloseTo(responses.length / 16, 10);
        }
      }
      // The faults really happened.
      expect(seen("429")).toBeGreaterThan(0);
      expect(seen("500")).toBeGreaterThan(0);
      expect(seen("timeout")).toBeGreaterThan(0);
    } finally {
      gateway().settings.faults = { rate429: 0, rate500: 0, rateTimeout: 0, rateMalformed: 0 };
      delete process.env.GATEWAY_TIMEOUT_MS;
    }
  }, 60_000); // 429s carry Retry-After: 1, which the worker now honours

  test("a test whose calls all fail ends failed with the reason, and one with some failures completes below 1", async () => {
    const { t, user } = await setup();
    process.env.OPENROUTER_API_KEY = "wrong-key";
    try {
      const { testId } = await user.as.mutation(api.tests.create, { configuration: twoByTwo("ranking") });
      const { test: done, job } = await runToEnd(t, testId);
      expect(done.status).toBe("failed");
      expect(done.errorMessage).toMatch(/Invalid API key\. Please check your OpenRouter API key configuration\./);
      expect(job).toMatchObject({ status: "failed" });
    } finally {
      process.env.OPENROUTER_API_KEY = "dev-gateway-key";
    }
    gateway().settings.answerShortfall = 1;
    try {
      const { testId } = await user.as.mutation(api.tests.create, { configuration: twoByTwo("ranking") });
      const { test: done, responses } = await runToEnd(t, testId);
      // One answer short per call, asked for again and short again: recorded as missing, never padded.
      expect(done.status).toBe("completed");
      expect(responses.every((row) => !/Generated response/.test(row.content))).toBe(true);
      expect(done.missingResponses).toBeGreaterThan(0);
      expect(done.resultsSummary!.analysisSummary.completionRate).toBeLessThan(1);
      expect(done.resultsSummary!.analysisSummary.completionRate).toBeCloseTo(responses.length / 16, 10);
    } finally {
      gateway().settings.answerShortfall = 0;
    }
  });

  test("a worker that dies after claiming is recovered by lease expiry and its call finishes once", async () => {
    const { t, user } = await setup();
    await t.run(async (ctx) => {
      await ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 }); // nothing starts by itself
    });
    const { testId } = await user.as.mutation(api.tests.create, { configuration: twoByTwo("ranking") });
    await t.run(async (ctx) => {
      const row = await ctx.db
        .query("settings")
        .withIndex("by_key", (q) => q.eq("key", "maxProcessingJobs"))
        .unique();
      await ctx.db.patch("settings", row!._id, { value: 10 });
      await ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 }); // no workers yet
    });
    await t.mutation(internal.runner.dispatch, {});
    // A worker claims a call and dies without recording it.
    await t.run(async (ctx) => {
      const testDoc = (await ctx.db.get("tests", testId))!;
      await ctx.db.patch("tests", testId, { activeWorkers: testDoc.activeWorkers + 1 });
    });
    const [claimed] = await t.mutation(internal.runner.claimBatch, { testId, max: 1 });
    expect(claimed).toBeDefined();
    await t.run(async (ctx) => {
      await ctx.db.patch("calls", claimed!.callId, { leaseExpiresAt: Date.now() - 1 });
      const row = await ctx.db
        .query("settings")
        .withIndex("by_key", (q) => q.eq("key", "perTestConcurrency"))
        .unique();
      await ctx.db.patch("settings", row!._id, { value: 4 });
    });
    expect(await t.mutation(internal.runner.reclaimLeases, {})).toBe(1);
    const { test: done, calls, responses } = await runToEnd(t, testId);
    expect(done.status).toBe("completed");
    const reclaimed = calls.find((call) => call._id === claimed!.callId)!;
    expect(reclaimed.status).toBe("succeeded");
    expect(responses.filter((row) => row.callId === reclaimed._id)).toHaveLength(2);
    // The dead worker's late result is refused: nothing is recorded twice.
    const late = await t.mutation(internal.runner.record, {
      callId: claimed!.callId,
      leaseId: claimed!.leaseId,
      outcome: {
        kind: "generated",
        answers: ["late", "late again"],
        promptTokens: 1,
        completionTokens: 1,
        latencyMs: 1,
        costUsd: 1,
      },
    });
    expect(late).toBe(false);
    const after = await snapshot(t, testId);
    expect(after.responses).toHaveLength(responses.length);
    // Its answers are refused, but the gateway charged for them: that spend is in the test's cost.
    expect(after.test.totalCostUsd).toBeCloseTo(done.totalCostUsd + 1, 10);
  });

  test("cancel mid-run stops new calls", async () => {
    const { t, user } = await setup();
    // The deployment allows 8 calls in flight: the test's worker keeps at most that many out.
    await t.run((ctx) => ctx.db.insert("settings", { key: "maxGatewayConcurrency", value: 8 }));
    gateway().settings.latencyScale = 0.05;
    try {
      const { testId } = await user.as.mutation(api.tests.create, { configuration: twoByTwo("rating") });
      // The first answer recorded (its counters fold at most once a second, after this short run
      // could have ended).
      await waitFor(
        () => snapshot(t, testId),
        (s) => s.responses.length > 0,
      );
      await user.as.mutation(api.tests.cancel, { testId });
      const cancelled = await snapshot(t, testId);
      expect(cancelled.test).toMatchObject({
        status: "cancelled",
        progress: { currentPhase: "Cancelled", percentage: 0 },
      });
      expect(cancelled.job).toMatchObject({ status: "cancelled" });
      const callsBefore = gateway().stats.chatCalls;
      // The worker runs on until it sees the cancel: wait for it (and whatever it started) to end,
      // rather than for a while, so every call it would still make is counted.
      await t.finishInProgressScheduledFunctions();
      // At most the calls already in flight (8, the deployment's cap) reach the gateway after cancel.
      expect(gateway().stats.chatCalls - callsBefore).toBeLessThanOrEqual(8);
      const after = await snapshot(t, testId);
      expect(after.test.status).toBe("cancelled");
      expect(after.calls.filter((call) => call.status === "leased")).toHaveLength(0);
      expect(after.test.responsesCount).toBe(after.responses.length);
    } finally {
      gateway().settings.latencyScale = 0;
    }
  });
});
