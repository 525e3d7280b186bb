// @vitest-environment node
// Failed calls are not hidden: a test that lost answers or judgements says how
// many and why wherever it is shown, and gateway spend on replies that were thrown away is in its
// cost. The calls are driven by hand (no workers) so every outcome is exactly the one described.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { createUser, createBackend, sampleConfiguration, seedCatalog, type TestBackend } from "./test.helpers";
import { claimOne } from "./poolWorker.fixture";
import { countedTest } from "./core/pipeline/counterRow";

const GENERATOR = "openai/gpt-4o-mini";
const EVALUATOR = "google/gemini-2.0-flash-001";
const usage = (costUsd: number) => ({ promptTokens: 10, completionTokens: 20, latencyMs: 100, costUsd });

async function setup() {
  const t = createBackend();
  await seedCatalog(t, [GENERATOR, EVALUATOR]);
  // No workers: this test plays the worker.
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 }));
  const ada = await createUser(t, "ada@example.com");
  const { testId } = await ada.as.mutation(api.tests.create, {
    configuration: sampleConfiguration([GENERATOR], [EVALUATOR]),
  });
  await t.mutation(internal.runner.dispatch, {});
  return { t, ada, testId };
}

async function testRow(t: TestBackend, testId: Id<"tests">) {
  return await t.run(async (ctx) => (await countedTest(ctx, testId))!);
}

describe("missing work", () => {
  test("a test whose judge failed says how many judgements are missing and why, on every view", async () => {
    const { t, ada, testId } = await setup();
    const generation = (await claimOne(t, testId))!;
    await t.mutation(internal.runner.record, {
      callId: generation.callId,
      leaseId: generation.leaseId,
      outcome: { kind: "generated", answers: ["Cold brew, warm hearts.", "Brewed for pirates."], ...usage(0.01) },
    });
    const judge = await claimOne(t, testId);
    expect(judge?.kind).toBe("evaluate");
    await t.mutation(internal.runner.record, {
      callId: judge!.callId,
      leaseId: judge!.leaseId,
      outcome: { kind: "failed", error: "HTTP 503: Service Unavailable", ...usage(0) },
    });

    const expected = "2 judgements are missing. Last gateway error: HTTP 503: Service Unavailable";
    const monitor = await ada.as.query(api.tests.monitor, { testId });
    expect(monitor.test).toMatchObject({
      status: "completed",
      missingResponses: 0,
      missingEvaluations: 2,
      lastCallError: "HTTP 503: Service Unavailable",
      progress: { currentPhase: "Completed", details: expected },
    });
    expect(monitor.test.progress.details).not.toBe("All responses and evaluations completed");

    const history = await ada.as.query(api.history.list, {});
    expect(history.tests[0].missingWork).toEqual({
      missingResponses: 0,
      missingEvaluations: 2,
      lastCallError: "HTTP 503: Service Unavailable",
    });
    const { shareId } = await ada.as.mutation(api.shares.enable, { testId });
    const shared = await t.query(api.shares.view, { shareId });
    expect(shared?.missingWork).toEqual(history.tests[0].missingWork);
  });

  test("spend on a reply thrown away after its lease was reclaimed is counted in the test's cost", async () => {
    const { t, testId } = await setup();
    // A worker claims the generation call and stalls; its lease runs out and the call is handed out again.
    const stalled = (await claimOne(t, testId))!;
    await t.run((ctx) => ctx.db.patch("calls", stalled.callId, { leaseExpiresAt: Date.now() - 1 }));
    expect(await t.mutation(internal.runner.reclaimLeases, {})).toBe(1);
    const retry = (await claimOne(t, testId))!;
    expect(retry.callId).toBe(stalled.callId);
    await t.mutation(internal.runner.record, {
      callId: retry.callId,
      leaseId: retry.leaseId,
      outcome: { kind: "generated", answers: ["One.", "Two."], ...usage(0.01) },
    });
    const judge = (await claimOne(t, testId))!;
    await t.mutation(internal.runner.record, {
      callId: judge.callId,
      leaseId: judge.leaseId,
      outcome: {
        kind: "ranked",
        ranking: judge.labels.map((entry) => entry.responseId),
        explanation: "",
        ...usage(0.003),
      },
    });
    const done = await testRow(t, testId);
    expect(done.status).toBe("completed");
    expect(done.totalCostUsd).toBeCloseTo(0.013, 10);

    // The stalled worker's reply arrives after all: the gateway charged for it, so the test's cost
    // includes it (0.018 of 0.018 spent; without this policy 0.013, 28% of the spend unaccounted),
    // while nothing else of it is recorded.
    const late = await t.mutation(internal.runner.record, {
      callId: stalled.callId,
      leaseId: stalled.leaseId,
      outcome: { kind: "generated", answers: ["Late.", "Later."], ...usage(0.005) },
    });
    expect(late).toBe(false);
    const after = await testRow(t, testId);
    expect(after.totalCostUsd).toBeCloseTo(0.018, 10);
    expect(after.resultsSummary!.analysisSummary.totalCost).toBeCloseTo(0.018, 10);
    expect(after.responsesCount).toBe(done.responsesCount);
    const responses = await t.run((ctx) =>
      ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .collect(),
    );
    expect(responses.map((row) => row.content).sort()).toEqual(["One.", "Two."]);
  });
});
