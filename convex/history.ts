// The history list (spec part 2 §2 history screen): the caller's newest tests as compact rows —
// only what a row shows, never configurations or answers — so it stays quick for hundreds of tests.
import { v } from "convex/values";
import { userQuery } from "./functions";
import { testsOfSpace } from "./core/testAccess";
import { isDraft, personalFigures } from "./core/userStats";
import { juryVerdictValidator } from "./core/juryView";
import { missingWorkOf, missingWorkValidator } from "./core/tests";
import { testStatus } from "./validators";

/** Newest tests listed; search and filters run over these in the browser. */
export const HISTORY_LIMIT = 500;

/** The chosen space's tests: personal without a teamId, else the team's (its members'). */
export const list = userQuery({
  args: { teamId: v.optional(v.id("teams")) },
  returns: v.object({
    tests: v.array(
      v.object({
        _id: v.id("tests"),
        _creationTime: v.number(),
        name: v.string(),
        status: testStatus,
        taskType: v.string(),
        startedAt: v.optional(v.number()),
        completedAt: v.optional(v.number()),
        totalCostUsd: v.number(),
        topPerformers: v.array(v.string()),
        /** The jury's verdict: the best model, or the models statistically tied for first. */
        juryVerdict: v.union(juryVerdictValidator, v.null()),
        /** An unpaid draft: offered 'Complete Payment' or discarding. */
        awaitingPayment: v.boolean(),
        priceCents: v.number(),
        missingWork: missingWorkValidator,
      }),
    ),
    /** All of the space's tests, which may exceed the rows listed. */
    total: v.number(),
  }),
  handler: async (ctx, { teamId }) => {
    const rows = await (await testsOfSpace(ctx, teamId)).order("desc").take(HISTORY_LIMIT);
    const team = teamId === undefined ? null : await ctx.db.get("teams", teamId);
    return {
      tests: rows.map((test) => ({
        _id: test._id,
        _creationTime: test._creationTime,
        name: test.name,
        status: test.status,
        taskType: test.taskType,
        ...(test.startedAt === undefined ? {} : { startedAt: test.startedAt }),
        ...(test.completedAt === undefined ? {} : { completedAt: test.completedAt }),
        totalCostUsd: test.totalCostUsd,
        topPerformers: test.resultsSummary?.analysisSummary.topPerformers.slice(0, 3) ?? [],
        juryVerdict: test.juryVerdict ?? null,
        awaitingPayment: isDraft(test),
        priceCents: test.priceCents,
        missingWork: missingWorkOf(test),
      })),
      total: Math.max(rows.length, (team ?? personalFigures(ctx.user)).testCount ?? 0),
    };
  },
});
