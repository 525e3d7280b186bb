// "Judge again" (issue 22 step 3): a new jury over a finished test's answers, as a new test.
import { v } from "convex/values";
import { userMutation } from "./functions";
import { createRejudge } from "./core/rejudge";
import { requireTest } from "./core/testAccess";
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
