// "Judge again" (issue 22 step 3): a new jury over a finished test's answers, as a new test.
import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { createRejudge } from "./core/rejudge";
import { requireTest, testAccessOf } from "./core/testAccess";
import { evaluationCriteria, modelRef, scoringParameters } from "./validators";

/**
 * Creates a re-judging of a completed test with these evaluators and settings: who may act on the
 * test (its owner; in a team, owners and members, who may start its tests) starts it and pays for
 * its judging alone; it runs like any test (tests.create's answer: pay, or go to the monitor).
 */
export const create = userMutation({
  args: {
    testId: v.id("tests"),
    evaluatorModels: v.array(modelRef),
    evaluationCriteria,
    scoringParameters,
  },
  returns: v.object({ testId: v.id("tests"), priceCents: v.number(), paymentRequired: v.boolean() }),
  handler: async (ctx, { testId, ...jury }) => {
    const original = await requireTest(ctx, ctx.user._id, testId, "act");
    return await createRejudge(ctx, ctx.user._id, original, jury);
  },
});

/** Re-judgings a test's results link to at most (newest first). */
const REJUDGINGS_LISTED = 5;

/**
 * What the results page offers about re-judging this test: "Judge again" (a completed test with
 * answers, to whoever may start a test in its space); for a re-judging the test it judged again
 * (name null once deleted), which "Compare the two juries" opens beside it; and for a test judged
 * again, its re-judgings the caller may read (unpaid drafts aside), so its results link to them.
 */
export const about = userQuery({
  args: { testId: v.id("tests") },
  returns: v.object({
    canJudgeAgain: v.boolean(),
    original: v.union(v.null(), v.object({ testId: v.id("tests"), name: v.union(v.string(), v.null()) })),
    rejudgings: v.array(v.object({ testId: v.id("tests"), name: v.string() })),
  }),
  handler: async (ctx, { testId }) => {
    const test = await requireTest(ctx, ctx.user._id, testId, "read");
    const access = await testAccessOf(ctx, test, ctx.user._id);
    const originalId = test.rejudgeOf;
    const summary =
      originalId === undefined
        ? null
        : await ctx.db
            .query("testSummaries")
            .withIndex("by_test", (q) => q.eq("testId", originalId))
            .unique();
    const rejudgings = [];
    for await (const row of ctx.db
      .query("testSummaries")
      .withIndex("by_rejudge_of_created", (q) => q.eq("rejudgeOf", testId))
      .order("desc")) {
      if (rejudgings.length === REJUDGINGS_LISTED) break;
      if (row.awaitingPayment || (await testAccessOf(ctx, row, ctx.user._id)) === null) continue;
      rejudgings.push({ testId: row.testId, name: row.name });
    }
    return {
      canJudgeAgain: access === "act" && test.status === "completed" && test.responsesCount > 0,
      original:
        originalId === undefined
          ? null
          : // A test from before summaries (history:migrateTestSummaries) is read itself, once.
            { testId: originalId, name: summary?.name ?? (await ctx.db.get("tests", originalId))?.name ?? null },
      rejudgings,
    };
  },
});
