// The history list (spec part 2 §2 history screen): the caller's newest tests as compact rows —
// only what a row shows, never configurations or answers — so it stays quick for hundreds of tests.
// It reads the tests' summary rows (core/testSummaries.ts), within LIST_READ_BYTES.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { internalMutation, userQuery } from "./functions";
import { syncTestSummary } from "./core/testSummaries";
import { summariesOfSpace } from "./core/testAccess";
import { isDraft, personalFigures } from "./core/userStats";
import { juryVerdictValidator } from "./core/juryView";
import { missingWorkValidator } from "./core/tests";
import { takeWithinBytes } from "./lib/boundedList";
import { LIST_READ_BYTES } from "./lib/limits";
import { settledAfterText } from "./lib/settleWords";
import { testStatus } from "./validators";
import { countedTestOf } from "./core/pipeline/counterRow";

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
        /** The jury's verdict: the best model, the models statistically tied for first, or too little evidence. */
        juryVerdict: v.union(juryVerdictValidator, v.null()),
        /** An unpaid draft: offered 'Complete Payment' or discarding. */
        awaitingPayment: v.boolean(),
        priceCents: v.number(),
        /** What a partial refund returned of the price (a test stopped early): History shows the net. */
        refundedCents: v.optional(v.number()),
        missingWork: missingWorkValidator,
        /** A re-judging ("Judge again"): the test whose answers it judged again; name null once deleted. */
        rejudgeOf: v.optional(v.object({ testId: v.id("tests"), name: v.union(v.string(), v.null()) })),
        /** Stopped when settled: "Settled after 38 of 100 pairs". */
        settledAfter: v.optional(v.string()),
        /** Runs of each cell, when more than one. */
        repeats: v.optional(v.number()),
      }),
    ),
    /** All of the space's tests, which may exceed the rows listed. */
    total: v.number(),
  }),
  handler: async (ctx, { teamId }) => {
    const { rows } = await takeWithinBytes((await summariesOfSpace(ctx, teamId)).order("desc"), HISTORY_LIMIT);
    const team = teamId === undefined ? null : await ctx.db.get("teams", teamId);
    // A re-judging names its original: from the rows listed, else its summary (one read each).
    const names = new Map<Id<"tests">, string | null>(rows.map((summary) => [summary.testId, summary.name]));
    for (const { rejudgeOf } of rows) {
      if (rejudgeOf === undefined || names.has(rejudgeOf)) continue;
      const original = await ctx.db
        .query("testSummaries")
        .withIndex("by_test", (q) => q.eq("testId", rejudgeOf))
        .unique();
      names.set(rejudgeOf, original?.name ?? null);
    }
    return {
      tests: rows.map((summary) => ({
        _id: summary.testId,
        _creationTime: summary.createdAt,
        name: summary.name,
        status: summary.status,
        taskType: summary.taskType,
        ...(summary.startedAt === undefined ? {} : { startedAt: summary.startedAt }),
        ...(summary.completedAt === undefined ? {} : { completedAt: summary.completedAt }),
        totalCostUsd: summary.totalCostUsd,
        topPerformers: summary.topPerformers,
        juryVerdict: summary.juryVerdict ?? null,
        awaitingPayment: isDraft(summary),
        priceCents: summary.priceCents,
        ...(summary.refundedCents ? { refundedCents: summary.refundedCents } : {}),
        missingWork: {
          missingResponses: summary.missingResponses,
          missingEvaluations: summary.missingEvaluations,
          ...(summary.lastCallError === undefined ? {} : { lastCallError: summary.lastCallError }),
        },
        ...(summary.rejudgeOf === undefined
          ? {}
          : { rejudgeOf: { testId: summary.rejudgeOf, name: names.get(summary.rejudgeOf) ?? null } }),
        ...(summary.stopped === undefined ? {} : { settledAfter: settledAfterText(summary.stopped) }),
        ...(summary.repeats === undefined ? {} : { repeats: summary.repeats }),
      })),
      total: Math.max(rows.length, (team ?? personalFigures(ctx.user)).testCount ?? 0),
    };
  },
});

/** Tests read per run of the migration below (each up to 256 KB of configuration). */
export const SUMMARY_MIGRATION_BATCH = 20;

/**
 * Builds the summary row (core/testSummaries.ts) and the access row (core/testOwners.ts) of
 * every test written before they existed, and brings any stale one in line: a batch of tests per run, within the list byte budget,
 * rescheduling itself until every test is done. Idempotent (a summary that matches is left
 * alone), and safe beside live tests. Run once after deploying:
 *   npx convex run history:migrateTestSummaries
 */
export const migrateTestSummaries = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ tests: v.number(), done: v.boolean() }),
  handler: async (ctx, { cursor }) => {
    const batch = await ctx.db
      .query("tests")
      .paginate({ cursor: cursor ?? null, numItems: SUMMARY_MIGRATION_BATCH, maximumBytesRead: LIST_READ_BYTES });
    // A running test's figures: its row plus its counter row.
    for (const test of batch.page) await syncTestSummary(ctx, await countedTestOf(ctx, test));
    if (!batch.isDone) {
      await ctx.scheduler.runAfter(0, internal.history.migrateTestSummaries, { cursor: batch.continueCursor });
    }
    return { tests: batch.page.length, done: batch.isDone };
  },
});
