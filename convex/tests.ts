import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { fail, requireTeamRole, userMutation, userQuery } from "./functions";
import { canStop } from "./lib/testStatus";
import { jobOfTest } from "./core/jobs";
import { paymentsEnabled, REFUND_REASONS } from "./core/payments";
import { namesOf, responseView, responseViewValidator, type Names } from "./core/results";
import {
  accessRowOf,
  ownersOfSpaceByStatus,
  requireAccess,
  requireTest,
  requireTestAccess,
  testAccessOf,
} from "./core/testAccess";
import { deleteTest } from "./core/testDeletion";
import { endTest } from "./core/testEnding";
import { createTest, hasOwnKey } from "./core/testCreation";
import { countedTestOf } from "./core/pipeline/counterRow";
import { monitorHeader, monitorHeaderOf, monitorHeaderOfRow } from "./core/tests";
import { MONITOR_RESPONSES, monitorRankingsOf, monitorRowOf } from "./core/monitorProgress";
import { modelRanking, testConfiguration } from "./validators";

/**
 * Validates the whole configuration, re-prices it from the cached catalog (the client's price
 * is only a preview) and stores the test with its quote and its job (core/testCreation.ts, which
 * the HTTP API's create calls too). With a teamId the test belongs to that team (its owners and
 * members may start one, viewers may not); whoever starts it pays for it.
 */
export const create = userMutation({
  args: {
    configuration: testConfiguration,
    teamId: v.optional(v.id("teams")),
    /** The test this one reruns (setup's Rerun Test); the user must be able to read it. */
    rerunOf: v.optional(v.id("tests")),
  },
  returns: v.object({ testId: v.id("tests"), priceCents: v.number(), paymentRequired: v.boolean() }),
  handler: async (ctx, { configuration, teamId, rerunOf }) => {
    if (teamId !== undefined) await requireTeamRole(ctx, teamId, "member");
    if (rerunOf !== undefined) await requireTest(ctx, ctx.user._id, rerunOf, "read");
    return await createTest(ctx, ctx.user._id, configuration, teamId, undefined, rerunOf);
  },
});

/** Whether runs on this deployment are paid, for the setup page's notice. */
export const paymentMode = userQuery({
  args: {},
  returns: v.object({ mode: v.union(v.literal("stripe"), v.literal("free"), v.literal("ownKey")) }),
  handler: async (ctx) => {
    if (await hasOwnKey(ctx, ctx.user._id)) return { mode: "ownKey" as const };
    return { mode: paymentsEnabled() ? ("stripe" as const) : ("free" as const) };
  },
});

/**
 * Stop Test: phase 'Cancelled', 0 percent; workers stop at their next claim. The price of the
 * calls not made is refunded above the $2.00 minimum (core/unrunRefunds.ts).
 */
export const cancel = userMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    const test = await requireTest(ctx, ctx.user._id, testId, "act");
    // Stop is only available while running (spec part 1 §4); an unpaid draft is discarded instead.
    if (!canStop(test.status)) fail("CONFLICT", "Only a running test can be stopped.");
    await endTest(ctx, test, await jobOfTest(ctx, testId), {
      status: "cancelled",
      progress: { currentPhase: "Cancelled", percentage: 0 },
      jobError: "Cancelled by the user",
      checkouts: "end", // a payment that still lands is refunded
      refundUnrun: REFUND_REASONS.stopped, // the price of the calls not made goes back, above the minimum
    });
    return null;
  },
});

/**
 * Delete (spec part 2 §4): the test leaves every view at once; its responses, evaluations,
 * calls, stats, shares and viewers are removed in batches afterwards. Payments and credit rows
 * are kept with the test's name. A running test is simply gone: its workers stop.
 */
export const remove = userMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    const test = await requireTest(ctx, ctx.user._id, testId, "act");
    await deleteTest(ctx, test);
    return null;
  },
});

/** Pending tests looked at for the current one; drafts beyond these are abandoned anyway. */
const CURRENT_PENDING_SCANNED = 20;

/**
 * The monitor's test: the one asked for, else the chosen space's running test (personal, or the
 * team's given a teamId), else a queued one. A team test asked for by someone not (or no longer)
 * in its team is refused as every page of it is (NOT_FOUND, testAccessLost), so an open monitor
 * moves to the access-lost screen; another person's personal test or a deleted one is simply none.
 */
export const current = userQuery({
  args: { testId: v.optional(v.id("tests")), teamId: v.optional(v.id("teams")) },
  returns: v.union(v.null(), v.id("tests")),
  handler: async (ctx, { testId, teamId }) => {
    // Access rows (core/testOwners.ts): never a test's configuration, nor a row its folds write.
    if (testId) {
      const row = await accessRowOf(ctx, testId);
      if (row === null) return null;
      if (row.teamId !== undefined) return (await requireTestAccess(ctx, ctx.user._id, testId, "read")).testId;
      return (await testAccessOf(ctx, row, ctx.user._id)) !== null ? testId : null;
    }
    const inSpace = (test: Doc<"testOwners">) => test.teamId === teamId;
    const running = await (
      await ownersOfSpaceByStatus(ctx, teamId, "running")
    )
      .order("desc")
      .take(CURRENT_PENDING_SCANNED);
    const shown = running.find(inSpace);
    if (shown) return shown.testId;
    // A pending test waiting for a worker, never an unpaid draft (it is paid from the dashboard).
    const pending = await (
      await ownersOfSpaceByStatus(ctx, teamId, "pending")
    )
      .order("desc")
      .take(CURRENT_PENDING_SCANNED);
    return pending.find((test) => inSpace(test) && !test.awaitingPayment)?.testId ?? null;
  },
});

/**
 * Everything the live monitor shows. While the test runs it reads the test's small monitor row
 * (core/monitorProgress.ts: figures, top rankings and the newest answers' ids, written about once
 * per 10 ended calls), the job and those answers, never the test's row or a live query over its
 * answers, so it re-runs with that row and not with every call. Otherwise (before the run's first
 * monitor row, and once it has ended) it reads the test (with its counter row while it runs), one
 * stats row per model and the newest answers.
 */
export const monitor = userQuery({
  args: { testId: v.id("tests") },
  returns: v.object({
    test: monitorHeader,
    rankings: v.array(modelRanking.omit("evaluationCount")),
    rankedModels: v.number(),
    latestResponses: v.array(responseViewValidator),
  }),
  handler: async (ctx, { testId }) => {
    const row = await monitorRowOf(ctx, testId);
    const job = async () =>
      await ctx.db
        .query("jobs")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique();
    if (row) {
      await requireAccess(ctx, ctx.user._id, row, "read");
      const latest = [];
      for (const shown of row.latestResponses) {
        const response = await ctx.db.get("responses", shown.responseId);
        if (response) latest.push(responseView(response, namesOfShown(response, shown)));
      }
      return {
        test: monitorHeaderOfRow(row, await job()),
        rankings: row.rankings,
        rankedModels: row.rankedModels,
        latestResponses: latest,
      };
    }
    const test = await countedTestOf(ctx, await requireTest(ctx, ctx.user._id, testId, "read"));
    const latest = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .order("desc")
      .take(MONITOR_RESPONSES);
    const names = namesOf(test);
    return {
      test: monitorHeaderOf(test, await job()),
      ...(await monitorRankingsOf(ctx, test)),
      latestResponses: latest.map((response) => responseView(response, names)),
    };
  },
});

/** The names an answer on the monitor row is shown under (resolved when the row was written). */
function namesOfShown(response: Doc<"responses">, shown: Doc<"testProgress">["latestResponses"][number]): Names {
  return {
    model: new Map([[response.modelId, shown.modelName]]),
    persona: new Map([[response.personaId, shown.personaName]]),
    topic: new Map([[response.topicId, shown.topicTitle]]),
  };
}
