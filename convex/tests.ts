import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { fail, requireTeamRole, userMutation, userQuery } from "./functions";
import { canStop } from "./lib/testStatus";
import { jobOfTest } from "./core/jobs";
import { paymentsEnabled } from "./core/payments";
import { namesOf, responseView, responseViewValidator } from "./core/results";
import { requireTest, summariesOfSpaceByStatus, testAccessOf } from "./core/testAccess";
import { deleteTest } from "./core/testDeletion";
import { endTest } from "./core/testEnding";
import { createTest, hasOwnKey } from "./core/testCreation";
import { headerOf, testHeader } from "./core/tests";
import { RUN_SHARDS } from "./core/pipeline/shards";
import { mergeModelStats } from "./core/pipeline/statistics";
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

/** Stop Test: phase 'Cancelled', 0 percent; workers stop at their next claim. */
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
    if (testId) {
      const test = await ctx.db.get("tests", testId);
      if (test === null) return null;
      if (test.teamId !== undefined) return (await requireTest(ctx, ctx.user._id, testId, "read"))._id;
      return (await testAccessOf(ctx, test, ctx.user._id)) !== null ? test._id : null;
    }
    // Summary rows (core/testSummaries.ts): a running test's configuration is never read here.
    const inSpace = (test: Doc<"testSummaries">) => test.teamId === teamId;
    const running = await (
      await summariesOfSpaceByStatus(ctx, teamId, "running")
    )
      .order("desc")
      .take(CURRENT_PENDING_SCANNED);
    const shown = running.find(inSpace);
    if (shown) return shown.testId;
    // A pending test waiting for a worker, never an unpaid draft (it is paid from the dashboard).
    const pending = await (
      await summariesOfSpaceByStatus(ctx, teamId, "pending")
    )
      .order("desc")
      .take(CURRENT_PENDING_SCANNED);
    return pending.find((test) => inSpace(test) && !test.awaitingPayment)?.testId ?? null;
  },
});

const MONITOR_RANKINGS = 5;
const MONITOR_RESPONSES = 10;

/** Everything the live monitor shows; reads the counters, one stats row per model and 10 responses. */
export const monitor = userQuery({
  args: { testId: v.id("tests") },
  returns: v.object({
    test: testHeader,
    rankings: v.array(modelRanking.omit("evaluationCount")),
    rankedModels: v.number(),
    latestResponses: v.array(responseViewValidator),
  }),
  handler: async (ctx, { testId }) => {
    const test = await requireTest(ctx, ctx.user._id, testId, "read");
    const job = await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    const config = test.configuration;
    const stats = [];
    for (const model of config.generatorModels) {
      // The model's all-personas row, its shards merged.
      const [row] = mergeModelStats(
        await ctx.db
          .query("modelStats")
          .withIndex("by_test_model_persona", (q) => q.eq("testId", testId).eq("modelId", model.id).eq("personaId", ""))
          .take(RUN_SHARDS + 1),
      );
      if (row && row.scoreCount > 0) {
        stats.push({
          modelId: model.id,
          modelName: model.name,
          averageScore: row.scoreSum / row.scoreCount,
          totalResponses: row.responses,
        });
      }
    }
    stats.sort((a, b) => b.averageScore - a.averageScore || a.modelName.localeCompare(b.modelName));
    const latest = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .order("desc")
      .take(MONITOR_RESPONSES);
    const names = namesOf(test);
    return {
      test: headerOf(test, job),
      rankings: stats.slice(0, MONITOR_RANKINGS),
      rankedModels: stats.length,
      latestResponses: latest.map((response) => responseView(response, names)),
    };
  },
});
