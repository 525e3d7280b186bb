// What the shared page shows beside shares.view for anyone holding an active link (issue 35): the
// test's jury advice and where its "stop when settled" question stands. The between-repeat spread
// comes with the jury figures (shares.juryStats).
// Like every shared figure, no money: the judges' costs stay with the owner (the advice's cost
// share, a ratio, is kept).
import { v } from "convex/values";
import { publicQuery } from "./functions";
import { sharedTestIdOf, sharedTestNamesOf } from "./core/sharedTest";
import { storedAdviceOf } from "./core/juryAdvice";
import { settleWordsOf, settleWordsValidator } from "./core/settleView";
import { storedJuryAdvice } from "./tables/juryAdvice";

const sharedJuryAdvice = storedJuryAdvice.omit("judges").extend({
  judges: v.array(v.object({ judgeModelId: v.string(), name: v.string(), calls: v.number(), leftOut: v.boolean() })),
});

/** A shared test's jury advice, or null (no active link, or not computed yet: the test has not ended). */
export const juryAdvice = publicQuery({
  args: { shareId: v.string() },
  returns: v.union(v.null(), sharedJuryAdvice),
  handler: async (ctx, { shareId }) => {
    const testId = await sharedTestIdOf(ctx, shareId);
    if (testId === null) return null;
    const advice = await storedAdviceOf(ctx, testId);
    if (advice === null) return null;
    // The share shows no judge's cost.
    return {
      ...advice,
      judges: advice.judges.map(({ judgeModelId, name, calls, leftOut }) => ({ judgeModelId, name, calls, leftOut })),
    };
  },
});

/** A shared test's "stop when settled" question in words (as on the owner's results), or null. */
export const settleStatus = publicQuery({
  args: { shareId: v.string() },
  returns: v.union(v.null(), settleWordsValidator),
  handler: async (ctx, { shareId }) => {
    const shared = await sharedTestNamesOf(ctx, shareId);
    return shared === null ? null : await settleWordsOf(ctx, shared.access, shared.names);
  },
});
