// A running test's counters live in their own row (core/pipeline/counterRow.ts): the folds add to
// it and leave the test's row as it was, the pages that show counts read both, the stale-test cron
// reads its progress time there, and the run's end adds it into the test's row.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { counterRowOf } from "./core/pipeline/counterRow";
import { foldCounters } from "./core/pipeline/runCounters";
import {
  createBackend,
  createUser,
  drainDispatch,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
} from "./test.helpers";
import type { Outcome, WorkItem } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const JUDGES = ["google/gemini-2.0-flash-001"];
const HOUR = 60 * 60 * 1000;

const ANSWERED: Outcome = {
  kind: "generated",
  answers: ["A cold brew answer."],
  promptTokens: 10,
  completionTokens: 20,
  latencyMs: 2_000,
  costUsd: 0.001,
};

/** A running test of 2 generators × 4 personas × 5 topics (40 answer calls: folded by the report, not per call). */
async function runningTest(t: TestBackend) {
  await seedCatalog(t, [...GENERATORS, ...JUDGES]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
  const owner = await createUser(t, "ada@example.com");
  const personas = ["p1", "p2", "p3", "p4"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
  const topics = ["t1", "t2", "t3", "t4", "t5"].map((id) => ({ id, title: id, description: id, prompt: `On ${id}.` }));
  const { testId } = await owner.as.mutation(api.tests.create, {
    configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics, responsesPerTopic: 1 }),
  });
  await drainDispatch(t);
  const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
  return { owner, testId, shareId };
}

/** `count` answer calls claimed and recorded, then every delta folded. */
async function answerAndFold(t: TestBackend, testId: Id<"tests">, count: number) {
  const items: WorkItem[] = await t.mutation(internal.runner.claimBatch, { testId, max: count });
  expect(items).toHaveLength(count);
  for (const item of items)
    await t.mutation(internal.runner.record, {
      callId: item.callId,
      leaseId: item.leaseId,
      outcome: ANSWERED,
      concurrency: 1,
    });
  await t.run(async (ctx) => {
    await foldCounters(ctx, testId);
  });
}

describe("a running test's counter row", () => {
  test("takes the folds; the test's row keeps its figures; the results and shared pages show both added", async () => {
    const t = createBackend();
    const { owner, testId, shareId } = await runningTest(t);
    const opened = await t.run(async (ctx) => (await ctx.db.get("tests", testId))!);
    expect(opened).toMatchObject({ status: "running", totalCalls: 40, responsesCount: 0 });

    await answerAndFold(t, testId, 3);
    const { stored, row } = await t.run(async (ctx) => ({
      stored: (await ctx.db.get("tests", testId))!,
      row: (await counterRowOf(ctx, testId))!,
    }));
    // The fold wrote nothing of the test's row (the pages that show none of it do not re-run).
    expect(stored).toEqual(opened);
    expect(row.sums).toMatchObject({ responsesCount: 3, finishedCalls: 3, totalTokens: 90 });
    expect(row.progress.details).toBe("3 of 40 responses generated");
    const results = await owner.as.query(api.results.get, { testId });
    expect(results.metrics).toMatchObject({ totalResponses: 3, totalCostUsd: 0.003 });
    expect(results.test.progress.details).toBe("3 of 40 responses generated");
    const shared = (await t.query(api.shares.view, { shareId }))!;
    expect(shared.metrics.totalResponses).toBe(3);
    expect(shared.progress?.details).toBe("3 of 40 responses generated");

    await answerAndFold(t, testId, 2);
    expect((await owner.as.query(api.results.get, { testId })).metrics.totalResponses).toBe(5);

    // Stopped: the row is added into the test's, and goes.
    await owner.as.mutation(api.tests.cancel, { testId });
    const ended = await t.run(async (ctx) => ({
      test: (await ctx.db.get("tests", testId))!,
      row: await counterRowOf(ctx, testId),
    }));
    expect(ended.row).toBeNull();
    expect(ended.test).toMatchObject({ status: "cancelled", responsesCount: 5, finishedCalls: 5, totalTokens: 150 });
    expect(ended.test.totalCostUsd).toBeCloseTo(0.005, 12);
  });

  test("the stale-test cron reads the progress time on the counter row", async () => {
    const t = createBackend();
    const { testId } = await runningTest(t);
    await answerAndFold(t, testId, 3);
    const status = async () => (await t.run((ctx) => ctx.db.get("tests", testId)))!.status;
    // The test's row says two hours without progress; its counter row says it progressed now.
    await t.run((ctx) => ctx.db.patch("tests", testId, { lastProgressAt: Date.now() - 2 * HOUR }));
    expect(await t.mutation(internal.runner.cancelStaleTests, {})).toBe(0);
    expect(await status()).toBe("running");
    // Its counter row is two hours old too: cancelled, with the counts it had.
    await t.run(async (ctx) => {
      const row = (await counterRowOf(ctx, testId))!;
      await ctx.db.patch("testCounters", row._id, { lastProgressAt: Date.now() - 2 * HOUR });
    });
    expect(await t.mutation(internal.runner.cancelStaleTests, {})).toBe(1);
    const ended = (await t.run((ctx) => ctx.db.get("tests", testId)))!;
    expect(ended).toMatchObject({ status: "cancelled", responsesCount: 3 });
    expect(await t.run((ctx) => counterRowOf(ctx, testId))).toBeNull();
  });
});
