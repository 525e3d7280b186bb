// @vitest-environment node
// A very small test (≤ FOLD_EVERY_CALL_UP_TO calls) folds its counters on every recording, but
// its jury statistics are not scheduled from its recordings: while it runs they are its worker's
// looks (core/pipeline/workerLook.ts, tested in juryStats.test.ts), and its end runs them once in
// full. So a small test holds no scheduled-job slot per judge result (issue 32: on Starter, 8 slots).
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api, internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { SEED_PERSONAS, SEED_TOPICS } from "../finishedTests.fixture";
import { backendWithUser, drainDispatch, sampleConfiguration, type TestBackend } from "../test.helpers";
import type { Outcome, WorkItem } from "../validators";
import { expectedCallsOf } from "../lib/progress";
import { ensureJuryStatsRow } from "./jury/poll";
import { FOLD_EVERY_CALL_UP_TO } from "./pipeline/runCounters";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const JUDGES = ["google/gemini-2.0-flash-001", "deepseek/deepseek-chat"];

/** The jury statistics runs waiting in the scheduler. */
async function scheduledStatistics(t: TestBackend): Promise<number> {
  return await t.run(
    async (ctx) =>
      (await ctx.db.system.query("_scheduled_functions").collect()).filter(
        (job) => job.state.kind === "pending" && job.name.includes("juryStats") && job.name.includes("recompute"),
      ).length,
  );
}

const usage = { promptTokens: 10, completionTokens: 20, latencyMs: 500, costUsd: 0.001 };

function outcomeOf(item: WorkItem): Outcome {
  if (item.kind === "generate")
    return {
      kind: "generated",
      answers: Array.from({ length: item.answersWanted }, () => "A cold brew answer."),
      ...usage,
    };
  return { kind: "ranked", ranking: item.labels.map((entry) => entry.responseId), explanation: "Clear.", ...usage };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test("a small test's judge results schedule no statistics while it runs; its end runs them once, in full", async () => {
  const { t, user } = await backendWithUser([...GENERATORS, ...JUDGES]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
  const configuration = sampleConfiguration(GENERATORS, JUDGES, {
    personas: SEED_PERSONAS.slice(0, 1),
    topics: SEED_TOPICS,
  });
  const expected = expectedCallsOf(configuration);
  expect(expected.generation + expected.judging).toBeLessThanOrEqual(FOLD_EVERY_CALL_UP_TO);
  const { testId } = await user.as.mutation(api.tests.create, { configuration });
  await drainDispatch(t);
  const status = async (id: Id<"tests">) => await t.run(async (ctx) => (await ctx.db.get("tests", id))!.status);
  expect(await status(testId)).toBe("running");
  // Its worker's start (claim.ts ensureWorkers) keeps the statistics' row its looks store into.
  await t.run((ctx) => ensureJuryStatsRow(ctx, testId));

  let judgedWhileRunning = 0;
  for (let claims = 0; claims < 50 && (await status(testId)) === "running"; claims++) {
    const [item]: WorkItem[] = await t.mutation(internal.runner.claimBatch, { testId, max: 1 });
    expect(item).toBeDefined();
    await t.mutation(internal.runner.record, {
      callId: item!.callId,
      leaseId: item!.leaseId,
      outcome: outcomeOf(item!),
    });
    if (item!.kind === "evaluate" && (await status(testId)) === "running") {
      judgedWhileRunning++;
      // Nothing scheduled from the recording: the worker's looks compute the running figures.
      expect(await scheduledStatistics(t)).toBe(0);
    }
  }
  expect(judgedWhileRunning).toBeGreaterThan(0);
  expect(await status(testId)).toBe("completed");

  // The end: one full run, scheduled once, with every judgement in it.
  expect(await scheduledStatistics(t)).toBe(1);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  const evaluations = await t.run(
    async (ctx) =>
      (
        await ctx.db
          .query("evaluations")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .collect()
      ).length,
  );
  const stats = await t.run((ctx) =>
    ctx.db
      .query("testStats")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique(),
  );
  expect(stats).toMatchObject({ exact: true, pending: false, evaluationsSeen: evaluations });
  expect(evaluations).toBeGreaterThan(0);
});
