// The shared page's jury advice and settle status (sharedExtras.ts): the owner's advice to anyone
// holding an active link, in the same words, without any judge's cost; why a settled test stopped;
// nothing once the link is off.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { seedConfiguration, seedFinishedTest } from "./finishedTests.fixture";
import { syncTestSummaryOf } from "./core/testSummaries";
import { adviceRecordLines } from "./lib/juryAdvice";
import { computeFinalJuryStats, createBackend, createUser } from "./test.helpers";

describe("a shared test's jury advice", () => {
  test("reads as the owner's, without the judges' costs, and goes with the link", async () => {
    const t = createBackend();
    const owner = await createUser(t, "shared.advice@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 24, evaluationsPerResponse: 3 });
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    // Not computed yet: nothing, as for the owner.
    expect(await t.query(api.sharedExtras.juryAdvice, { shareId })).toBeNull();
    await computeFinalJuryStats(t, testId);

    const own = (await owner.as.query(api.juryAdvice.forTest, { testId }))!;
    const shared = (await t.query(api.sharedExtras.juryAdvice, { shareId }))!;
    expect(own.outcome).toBe("advised");
    expect(shared).toEqual({
      ...own,
      judges: own.judges.map(({ costUsd: _cost, ...judge }) => judge),
    });
    expect(shared.judges.some((judge) => "costUsd" in judge)).toBe(false);
    expect(adviceRecordLines(shared)).toEqual(adviceRecordLines(own));

    await owner.as.mutation(api.shares.disable, { testId });
    expect(await t.query(api.sharedExtras.juryAdvice, { shareId })).toBeNull();
    expect(await t.query(api.sharedExtras.juryAdvice, { shareId: "no-such-link" })).toBeNull();
  });
});

describe("a shared test's stop-when-settled words", () => {
  test("say why it stopped, as the owner's results do, and go with the link", async () => {
    const t = createBackend();
    const owner = await createUser(t, "shared.settle@example.com");
    // A test without the setting has no such words.
    const plainId = await seedFinishedTest(t, { userId: owner.userId, responses: 6 });
    const plain = await owner.as.mutation(api.shares.enable, { testId: plainId });
    expect(await t.query(api.sharedExtras.settleStatus, { shareId: plain.shareId })).toBeNull();

    const testId = await seedFinishedTest(t, {
      userId: owner.userId,
      responses: 6,
      configuration: { ...seedConfiguration(), stopWhenSettled: { question: "best", confidence: 0.95, seed: "s" } },
    });
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    // Stopped as it ended (core/testEnding.ts writes the reason with the test's summary).
    await t.run(async (ctx) => {
      await ctx.db.patch("tests", testId, { stopped: { reason: "settled", pairsDone: 38, pairsTotal: 100 } });
      await syncTestSummaryOf(ctx, testId);
    });
    const shared = (await t.query(api.sharedExtras.settleStatus, { shareId }))!;
    expect(shared.stoppedReason).toBe(
      "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.",
    );
    expect(shared.question).toBe("Which model is best?");
    const { setting: _setting, ...own } = (await owner.as.query(api.settle.status, { testId }))!;
    expect(shared).toEqual(own);

    await owner.as.mutation(api.shares.disable, { testId });
    expect(await t.query(api.sharedExtras.settleStatus, { shareId })).toBeNull();
  });
});
