// "Stop when settled" in the backend: a look that settles the question ends the running test,
// completed, with why and after how many pairs; a look that does not leaves it running.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { createTest } from "./core/testCreation";
import type { SettleStatus } from "./lib/settle";
import { backendWithUser, sampleConfiguration } from "./test.helpers";
import { countedTest } from "./core/pipeline/counterRow";

const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];

const look = (settled: boolean): SettleStatus => ({
  question: "best",
  confidence: 0.95,
  pairsDone: 38,
  pairsTotal: 100,
  settled,
  outcome: settled ? "best" : null,
  modelId: MODELS[0],
  otherModelId: MODELS[1],
  interval: settled ? { low: 0.4, high: 2.1 } : { low: -0.3, high: 1.9 },
  threshold: 0,
  failing: [],
});

async function runningTest() {
  const { t, user } = await backendWithUser(MODELS, { holdQueue: true });
  const testId: Id<"tests"> = await t.run(async (ctx) => {
    const config = sampleConfiguration([MODELS[0], MODELS[1]], [MODELS[2]], {
      stopWhenSettled: { question: "best", confidence: 0.95 },
    });
    const { testId } = await createTest(ctx, user.userId, config, undefined);
    await ctx.db.patch("tests", testId, { status: "running", startedAt: Date.now() });
    await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: false, dirty: false });
    return testId;
  });
  return { t, user, testId };
}

describe("stop when settled", () => {
  test("a settled look ends the running test, completed, with the reason and the pairs done", async () => {
    const { t, user, testId } = await runningTest();
    const seed = await t.run(async (ctx) => (await countedTest(ctx, testId))!.configuration.stopWhenSettled?.seed);
    expect(seed).toBeTruthy(); // the pairs' order is seeded at creation

    await t.mutation(internal.settle.record, { testId, status: look(false) });
    expect((await t.run((ctx) => countedTest(ctx, testId)))!.status).toBe("running");
    const open = await user.as.query(api.settle.status, { testId });
    expect(open?.line).toBe(
      "Not settled yet: the gap between openai/gpt-4o-mini and anthropic/claude-3.5-haiku (−0.3 to 1.9 points, 95% sequence) still includes 0 (38 of 100 pairs judged)",
    );

    await t.mutation(internal.settle.record, { testId, status: look(true) });
    const ended = (await t.run((ctx) => countedTest(ctx, testId)))!;
    expect(ended.status).toBe("completed");
    expect(ended.stopped).toEqual({ reason: "settled", pairsDone: 38, pairsTotal: 100 });
    expect(ended.progress.details).toBe(
      "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.",
    );
    // The run is closed: the workers claim nothing more.
    const run = await t.run((ctx) =>
      ctx.db
        .query("testRuns")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique(),
    );
    expect(run?.running ?? false).toBe(false);
    const words = await user.as.query(api.settle.status, { testId });
    expect(words).toMatchObject({
      question: "Which model is best?",
      line: "Settled at 95%: openai/gpt-4o-mini is best",
      settledAfter: "Settled after 38 of 100 pairs",
    });
  });
});
