// Jury advice (issue 35 item 3): a finished test's smaller juries with the same verdict and its
// independent votes (lib/juryAdvice.ts), kept per test (core/juryAdvice.ts computes it after the
// test's full jury-statistics run) and read per test and per space.
import { v } from "convex/values";
import { internalMutation, requireTeamRole, userQuery } from "./functions";
import { requireTestAccess } from "./core/testAccess";
import { storedAdviceOf } from "./core/juryAdvice";
import { takeWithinBytes } from "./lib/boundedList";
import { spaceJuryHistory } from "./lib/juryAdviceHistory";
import { storedJuryAdvice } from "./tables/juryAdvice";

/** Newest advice rows a space's Judges page sums. */
const JURY_HISTORY_LIMIT = 500;

/** Stores (or replaces, after a test ends again) a test's advice, its judges named from the test. */
export const store = internalMutation({
  args: { testId: v.id("tests"), advice: storedJuryAdvice },
  returns: v.null(),
  handler: async (ctx, { testId, advice }) => {
    const test = await ctx.db.get("tests", testId);
    if (test === null) return null;
    const names = new Map(test.configuration.evaluatorModels.map((model) => [model.id, model.name]));
    const row = {
      testId,
      userId: test.userId,
      ...(test.teamId === undefined ? {} : { teamId: test.teamId }),
      testName: test.name,
      computedAt: Date.now(),
      ...advice,
      judges: advice.judges.map((judge) => ({ ...judge, name: names.get(judge.judgeModelId) ?? judge.judgeModelId })),
    };
    const existing = await ctx.db
      .query("juryAdvice")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    if (existing) await ctx.db.replace("juryAdvice", existing._id, row);
    else await ctx.db.insert("juryAdvice", row);
    return null;
  },
});

/** A test's advice, to whoever may read the test; null until its run has ended and been computed. */
export const forTest = userQuery({
  args: { testId: v.id("tests") },
  returns: v.union(v.null(), storedJuryAdvice),
  handler: async (ctx, { testId }) => {
    await requireTestAccess(ctx, ctx.user._id, testId, "read");
    return await storedAdviceOf(ctx, testId);
  },
});

const judgeHistory = v.object({
  judgeModelId: v.string(),
  name: v.string(),
  tests: v.number(),
  decided: v.number(),
  leftOut: v.number(),
  costUsd: v.number(),
  leftOutCostUsd: v.number(),
  meanVotes: v.union(v.number(), v.null()),
});

/**
 * The chosen space's judges over its newest tests with advice (personal without a teamId, else
 * the team's, to any member): how often each was left out of the advised jury, and at what cost.
 */
export const ofSpace = userQuery({
  args: { teamId: v.optional(v.id("teams")) },
  returns: v.object({
    tests: v.number(),
    advised: v.number(),
    allNeeded: v.number(),
    noAdvice: v.number(),
    /** Of noAdvice, the tests with too little evidence to advise on (lib/juryAdviceEvidence.ts). */
    tooLittleEvidence: v.number(),
    savableUsd: v.number(),
    judges: v.array(judgeHistory),
    /** More tests have advice than were summed (the newest JURY_HISTORY_LIMIT, or a byte budget). */
    truncated: v.boolean(),
  }),
  handler: async (ctx, { teamId }) => {
    let source;
    if (teamId === undefined) {
      const userId = ctx.user._id;
      source = ctx.db
        .query("juryAdvice")
        .withIndex("by_user_team_computed", (q) => q.eq("userId", userId).eq("teamId", undefined));
    } else {
      await requireTeamRole(ctx, teamId, "viewer");
      source = ctx.db.query("juryAdvice").withIndex("by_team_computed", (q) => q.eq("teamId", teamId));
    }
    const { rows, cutByBytes } = await takeWithinBytes(source.order("desc"), JURY_HISTORY_LIMIT + 1);
    const summed = rows.slice(0, JURY_HISTORY_LIMIT);
    return { ...spaceJuryHistory(summed), truncated: cutByBytes || rows.length > JURY_HISTORY_LIMIT };
  },
});
