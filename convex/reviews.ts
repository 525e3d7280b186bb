// Blind human review of a test's answers by its owner or team (core/reviews.ts): the pair to
// review, the verdict, and the team's figures beside the jury's.
import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { reviewPairOf, reviewSummaryOf, submitReview } from "./core/reviews";
import { accessRowOf, requireTest, requireTestNames, testAccessOf } from "./core/testAccess";
import { reviewPairValidator, reviewSummaryValidator } from "./validators";

/**
 * One persona × topic pair to review blind, with every pair's state for this reviewer. Answers
 * come under neutral labels in an order shuffled per reviewer and pair; no model name, model id
 * or response id is returned. Null when the test is gone.
 */
export const pair = userQuery({
  args: { testId: v.id("tests"), personaId: v.optional(v.string()), topicId: v.optional(v.string()) },
  returns: reviewPairValidator,
  handler: async (ctx, { testId, personaId, topicId }) => {
    if ((await ctx.db.get("tests", testId)) === null) return null;
    const test = await requireTest(ctx, ctx.user._id, testId, "read");
    const canReview = (await testAccessOf(ctx, test, ctx.user._id)) === "act";
    return await reviewPairOf(ctx, test, ctx.user._id, canReview, { personaId, topicId });
  },
});

/** The caller's verdict on one pair, by label; replaces their earlier one. Viewers may not review. */
export const submit = userMutation({
  args: {
    testId: v.id("tests"),
    personaId: v.string(),
    topicId: v.string(),
    ranking: v.optional(v.array(v.string())),
    scores: v.optional(v.record(v.string(), v.record(v.string(), v.number()))),
  },
  returns: v.null(),
  handler: async (ctx, { testId, ...verdict }) => {
    const test = await requireTest(ctx, ctx.user._id, testId, "act");
    await submitReview(ctx, test, ctx.user._id, verdict);
    return null;
  },
});

/** The team's ranking, its reviewers' agreement and each judge's agreement with it, as last computed. */
export const summary = userQuery({
  args: { testId: v.id("tests") },
  returns: reviewSummaryValidator,
  handler: async (ctx, { testId }) => {
    // Its access and names rows, not the test with its configuration: it re-runs with each statistics run.
    if ((await accessRowOf(ctx, testId)) === null) return null;
    const { names } = await requireTestNames(ctx, ctx.user._id, testId, "read");
    return await reviewSummaryOf(ctx, testId, names, ctx.user._id);
  },
});
