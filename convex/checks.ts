// Checks on every answer: their pass rates (results, monitor, shared page) and the answers that
// failed one (Raw Responses' "only answers that failed a check").
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { internalQuery, publicQuery, userQuery } from "./functions";
import { checkSummaryOfTest, checkSummaryValidator, FAILING_PAGE } from "./core/checks";
import { pageInArrivalOrder, responseView, responseViewValidator, withScores } from "./core/results";
import { requireTestAccess, requireTestNames } from "./core/testAccess";
import { nameMapsOf } from "./lib/testNames";
import { sharedTestIdOf } from "./core/sharedTest";

/** Largest page of failed answers a client may ask for. */
const MAX_FAILED_PAGE = 100;

/** Pass rates per model overall, per check and per persona, with 95% Wilson intervals; live. */
export const summary = userQuery({
  args: { testId: v.id("tests") },
  returns: checkSummaryValidator,
  handler: async (ctx, { testId }) => {
    await requireTestAccess(ctx, ctx.user._id, testId, "read");
    return await checkSummaryOfTest(ctx, testId);
  },
});

/** The same figures for anyone holding an active share link (no account data in them). */
export const sharedSummary = publicQuery({
  args: { shareId: v.string() },
  returns: checkSummaryValidator,
  handler: async (ctx, { shareId }) => {
    const testId = await sharedTestIdOf(ctx, shareId);
    return testId ? await checkSummaryOfTest(ctx, testId) : null;
  },
});

/** Raw responses that failed at least one check, in the order they arrived. */
export const failedResponses = userQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(responseViewValidator),
  handler: async (ctx, { testId, paginationOpts }) => {
    const names = nameMapsOf((await requireTestNames(ctx, ctx.user._id, testId, "read")).names);
    // Bounded to what the page shows (pageInArrivalOrder): it does not grow while the test runs.
    const page = await pageInArrivalOrder(ctx, "responses", testId, {
      cursor: paginationOpts.cursor,
      numItems: Math.max(1, Math.min(MAX_FAILED_PAGE, Math.floor(paginationOpts.numItems))),
      failedCheckOnly: true,
    });
    return { ...page, page: (await withScores(ctx, page.page)).map((response) => responseView(response, names)) };
  },
});

/**
 * One page of the test's answers that failed a check, or null when the test does not rank them
 * last (then the statistics use the judges' verdicts as they are).
 */
export const failingAnswersPage = internalQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: v.union(v.null(), v.object({ page: v.array(v.string()), isDone: v.boolean(), continueCursor: v.string() })),
  handler: async (ctx, { testId, paginationOpts }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test || test.configuration.failedChecksRankLast !== true) return null;
    const result = await ctx.db
      .query("responses")
      .withIndex("by_test_failed", (q) => q.eq("testId", testId).eq("failedCheck", true))
      .paginate({ ...paginationOpts, numItems: Math.min(paginationOpts.numItems, FAILING_PAGE) });
    return {
      page: result.page.map((response) => response._id as string),
      isDone: result.isDone,
      continueCursor: result.continueCursor,
    };
  },
});
