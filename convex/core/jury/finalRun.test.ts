// Ten tests ending together through their workers take no scheduled-job slot each (issue 32:
// Starter has 8): each worker runs its test's full statistics in its own action, with the exact
// figures a scheduled full run stores; and a final run whose runner died (a killed host, a
// killed action) is handed out again by the cron, so no ended test stays without them.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { ActionCtx } from "../../_generated/server";
import { playPoolWorker, type Replies } from "../../poolWorker.fixture";
import {
  createBackend,
  createUser,
  drainDispatch,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
} from "../../test.helpers";
import { FINAL_STATS_LEASE_MS, finishJuryStats, runFinalJuryStats } from "./finalRun";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];
const JUDGES = ["deepseek/deepseek-chat", "x-ai/grok-3-mini"];
const TESTS = 10;
/** Each test's judge scores: 2 judges × 12 pairs × 6 answers ranked (3 generators × 2). */
const EVALUATIONS = 2 * 12 * 6;

beforeEach(() => {
  vi.useFakeTimers();
  delete process.env.STRIPE_SECRET_KEY; // free mode: a new test's job is queued at once
});
afterEach(() => {
  vi.useRealTimers();
});

const usage = { promptTokens: 40, completionTokens: 20, latencyMs: 300, costUsd: 0.0002 };

/** Each test's judges rank its answers by a seed of the test: the tests' figures differ. */
const repliesOf =
  (seed: number): Replies =>
  (item) => {
    if (item.kind === "generate")
      return {
        kind: "generated",
        answers: Array.from({ length: item.answersWanted }, (_, index) => `Answer ${index} by ${item.modelId}`),
        ...usage,
      };
    if (item.scale !== "ranking") throw new Error("the tests rank");
    const ranking = item.labels.map((entry) => entry.responseId);
    const turn = (seed + item.modelId.length) % ranking.length;
    return {
      kind: "ranked",
      ranking: [...ranking.slice(turn), ...ranking.slice(0, turn)],
      explanation: "By the seed.",
      ...(item.answerModels ? { answerModels: item.answerModels } : {}),
      ...usage,
    };
  };

/** Ten running tests, each worked to its last call by a hand-played worker that has not ended yet. */
async function tenTestsAtTheirEnd() {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...JUDGES]);
  await t.run(async (ctx) => {
    await ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 }); // the tests play the workers
    await ctx.db.insert("settings", { key: "maxProcessingJobs", value: TESTS });
  });
  const owner = await createUser(t, "ada@example.com");
  // 36 generation calls: past FOLD_EVERY_CALL_UP_TO, so the worker's endWork, not a recording, ends each.
  const personas = ["p1", "p2", "p3"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
  const topics = ["t1", "t2", "t3", "t4"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
  const testIds: Id<"tests">[] = [];
  for (let index = 0; index < TESTS; index++) {
    const { testId } = await owner.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics }),
    });
    testIds.push(testId);
  }
  await drainDispatch(t);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  for (const [index, testId] of testIds.entries())
    await playPoolWorker(t, testId, repliesOf(index), { endWork: false });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  return { t, owner, testIds };
}

/** Scheduled jobs waiting to run, by function name. */
async function waitingJobs(t: TestBackend): Promise<string[]> {
  return await t.run(async (ctx) =>
    (await ctx.db.system.query("_scheduled_functions").collect())
      .filter((job) => job.state.kind === "pending")
      .map((job) => job.name),
  );
}

/** What the results page and the history show of a test's jury: its statistics and verdict. */
async function juryOf(t: TestBackend, testId: Id<"tests">) {
  return await t.run(async (ctx) => {
    const row = await ctx.db
      .query("testStats")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    const summary = await ctx.db
      .query("testSummaries")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    return {
      exact: row?.exact,
      owed: row?.finalDueAt !== undefined,
      stats: row?.stats,
      evaluationsSeen: row?.evaluationsSeen,
      verdict: summary?.juryVerdict,
    };
  });
}

/** The same test's figures from a scheduled full run (how every ended test got them before). */
async function scheduledFullRun(t: TestBackend, testId: Id<"tests">) {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("testStats")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    await ctx.db.patch("testStats", row!._id, { exact: false, stats: undefined });
    await finishJuryStats(ctx, testId);
  });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  return await juryOf(t, testId);
}

/** The worker's action as the hand-played worker runs it: through the backend's queries and mutations. */
const actionOf = (t: TestBackend) => ({ runQuery: t.query, runMutation: t.mutation }) as unknown as ActionCtx;

describe("the full statistics after a test's end", () => {
  test("ten tests ending together through their workers schedule no job each; each worker's run stores the exact figures", async () => {
    const { t, testIds } = await tenTestsAtTheirEnd();
    expect(await waitingJobs(t)).toEqual([]);
    const owed: boolean[] = [];
    for (const testId of testIds)
      owed.push((await t.mutation(internal.runner.endWork, { testId, runsFinalStats: true })).finalStats);
    expect(owed).toEqual(Array(TESTS).fill(true));
    const statuses = await t.run(async (ctx) =>
      Promise.all(testIds.map(async (testId) => (await ctx.db.get("tests", testId))!.status)),
    );
    expect(statuses).toEqual(Array(TESTS).fill("completed"));
    // No statistics job per ended test, and no dispatch with nothing queued (was 10 and 10).
    expect(await waitingJobs(t)).toEqual([]);

    const ran: Awaited<ReturnType<typeof juryOf>>[] = [];
    for (const testId of testIds) {
      await runFinalJuryStats(actionOf(t), testId);
      ran.push(await juryOf(t, testId));
    }
    expect(await waitingJobs(t)).toEqual([]);
    for (const jury of ran) {
      expect(jury.exact).toBe(true);
      expect(jury.owed).toBe(false);
      expect(jury.evaluationsSeen).toBe(EVALUATIONS);
      expect(jury.verdict).toBeDefined();
    }
    // The seeds give the tests different figures; each is what a scheduled full run computes.
    expect(new Set(ran.map((jury) => JSON.stringify(jury.stats))).size).toBeGreaterThan(1);
    for (const [index, testId] of testIds.entries()) expect(await scheduledFullRun(t, testId)).toEqual(ran[index]);
  });

  test("a worker that dies before its test's final statistics are stored: the cron runs them again, exact", async () => {
    const { t, testIds } = await tenTestsAtTheirEnd();
    const [dying, killedMidRun] = testIds;
    for (const testId of [dying!, killedMidRun!])
      expect((await t.mutation(internal.runner.endWork, { testId, runsFinalStats: true })).finalStats).toBe(true);
    // One host dies before its run, the other's after the run began reading (its row says so).
    await t.mutation(internal.juryStats.begin, { testId: killedMidRun! });
    expect(await juryOf(t, dying!)).toMatchObject({ exact: false, owed: true });

    // Not handed out again while its runner may still be at it.
    vi.advanceTimersByTime(FINAL_STATS_LEASE_MS / 2);
    expect(await t.mutation(internal.juryStats.handOutOwed, {})).toBe(0);
    vi.advanceTimersByTime(FINAL_STATS_LEASE_MS);
    expect(await t.mutation(internal.juryStats.handOutOwed, {})).toBe(2);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    for (const testId of [dying!, killedMidRun!]) {
      const rescued = await juryOf(t, testId);
      expect(rescued).toMatchObject({ exact: true, owed: false, evaluationsSeen: EVALUATIONS });
      expect(rescued.verdict).toBeDefined();
      expect(await scheduledFullRun(t, testId)).toEqual(rescued);
    }
    vi.advanceTimersByTime(2 * FINAL_STATS_LEASE_MS);
    expect(await t.mutation(internal.juryStats.handOutOwed, {})).toBe(0);
  });

  test("a test stopped while a statistics run was lost (its row left pending) still gets its final figures", async () => {
    const { t, owner, testIds } = await tenTestsAtTheirEnd();
    const testId = testIds[3]!;
    // A look whose host was killed mid-run left the turn taken: an ending's request only marks it.
    await t.mutation(internal.juryStats.beginLook, { testId });
    await owner.as.mutation(api.tests.cancel, { testId });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await juryOf(t, testId)).toMatchObject({ exact: false, owed: true });
    vi.advanceTimersByTime(FINAL_STATS_LEASE_MS + 1);
    expect(await t.mutation(internal.juryStats.handOutOwed, {})).toBe(1);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await juryOf(t, testId)).toMatchObject({ exact: true, owed: false, evaluationsSeen: EVALUATIONS });
  });
});
