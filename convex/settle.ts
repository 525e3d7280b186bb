// "Stop when settled" (issue 35): the look the jury statistics take after each run
// (core/settle.ts), and where the question stands, for the monitor and the results.
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internalMutation, internalQuery, userQuery } from "./functions";
import { recordSettle } from "./core/settle";
import { requireTestNames } from "./core/testAccess";
import { settleStatusValidator } from "./tables/juryStats";
import { settleWordsOf, settleWordsValidator } from "./core/settleView";
import { stopWhenSettled, testConfiguration } from "./validators";

/** The configuration the look reads; null when the test does not stop when settled, or has ended. */
export const checkInfo = internalQuery({
  args: { testId: v.id("tests") },
  returns: v.union(
    v.null(),
    v.object({
      configuration: testConfiguration.pick(
        "personas",
        "topics",
        "generatorModels",
        "evaluatorModels",
        "responsesPerTopic",
        "scoringParameters",
        "stopWhenSettled",
        "repeats",
      ),
    }),
  ),
  handler: async (ctx, { testId }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test || test.configuration.stopWhenSettled === undefined || test.status !== "running") return null;
    const { personas, topics, generatorModels, evaluatorModels, responsesPerTopic, scoringParameters } =
      test.configuration;
    return {
      configuration: {
        personas,
        topics,
        generatorModels,
        evaluatorModels,
        responsesPerTopic,
        scoringParameters,
        stopWhenSettled: test.configuration.stopWhenSettled,
        // A pair is judged once every repeat's answers are (lib/settleInput.ts).
        ...(test.configuration.repeats === undefined ? {} : { repeats: test.configuration.repeats }),
      },
    };
  },
});

/** One page of the test's answers that failed a check (a pass-rate question). */
export const failingPage = internalQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: v.object({ page: v.array(v.string()), isDone: v.boolean(), continueCursor: v.string() }),
  handler: async (ctx, { testId, paginationOpts }) => {
    const result = await ctx.db
      .query("responses")
      .withIndex("by_test_failed", (q) => q.eq("testId", testId).eq("failedCheck", true))
      .paginate(paginationOpts);
    return {
      page: result.page.map((row) => row._id as string),
      isDone: result.isDone,
      continueCursor: result.continueCursor,
    };
  },
});

export const record = internalMutation({
  args: { testId: v.id("tests"), status: settleStatusValidator },
  returns: v.null(),
  handler: async (ctx, { testId, status }) => {
    await recordSettle(ctx, testId, status);
    return null;
  },
});

/**
 * Where a "stop when settled" test's question stands, in words: the question, the monitor's line
 * ("Settled at 95%: A is best", "Not settled yet: …") and, once it stopped early, why ("Settled
 * after 38 of 100 pairs"). Null for a test that does not stop when settled. Reads the test's
 * access, names and stats rows (its configuration's question, not the configuration).
 */
export const status = userQuery({
  args: { testId: v.id("tests") },
  returns: v.union(v.null(), settleWordsValidator.extend({ setting: stopWhenSettled })),
  handler: async (ctx, { testId }) => {
    const { access, names } = await requireTestNames(ctx, ctx.user._id, testId, "read");
    const words = await settleWordsOf(ctx, access, names);
    return words === null ? null : { ...words, setting: names.stopWhenSettled! };
  },
});
