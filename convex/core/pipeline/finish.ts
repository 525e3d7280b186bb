// The end of a run (ARCHITECTURE §4 step 6): when no call is left the test is completed, or
// failed when nothing usable came back, with its summary; it ends through core/testEnding.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { missingWorkSummary, PROGRESS_DETAILS } from "../../lib/progress";
import { jobOfTest } from "../jobs";
import { endTest } from "../testEnding";
import type { FinalStatsRunner } from "../jury/finalRun";
import { MAX_STATS_ROWS } from "../results";
import { foldCounters } from "./runCounters";
import { runSummary } from "./statistics";

/**
 * Whether a running test has calls left: all created (no batch to come), none pending or leased.
 * Reads at most one call of each status, so it does not grow with the test.
 */
async function hasCallsLeft(ctx: MutationCtx, test: Doc<"tests">): Promise<boolean> {
  if (test.callCursor !== undefined) return true;
  for (const status of ["leased", "pending"] as const) {
    const call = await ctx.db
      .query("calls")
      .withIndex("by_test_status", (q) => q.eq("testId", test._id).eq("status", status))
      .first();
    if (call) return true;
  }
  return false;
}

/**
 * Whether a run delivered nothing usable: no answer, or for a re-judging (its answers copied, not
 * generated) no judgement. Such a test fails, or times out, and its payment goes back.
 */
export function deliveredNothing(
  test: Pick<Doc<"tests">, "rejudgeOf" | "responsesCount" | "evaluationsCount">,
): boolean {
  return test.rejudgeOf === undefined ? test.responsesCount === 0 : test.evaluationsCount === 0;
}

/** Why a test that delivered nothing failed (its progress details, error and refund reason). */
function nothingDelivered(test: Pick<Doc<"tests">, "rejudgeOf" | "lastCallError">): string {
  const what = test.rejudgeOf === undefined ? "No responses were generated" : "No evaluations were made";
  return `${what}${test.lastCallError ? `: ${test.lastCallError}` : "."}`;
}

/**
 * When every call has ended: the counters folded from their deltas, the summary, and the test
 * and its job closed the same way. Asked by a worker that finds nothing left to claim (and by
 * the lease reclaimer), never by every recording, so it reads the call index only then. True when
 * it ended the test and the caller owes its full statistics run (`finalStats: "caller"`).
 */
export async function finishIfDone(
  ctx: MutationCtx,
  testId: Id<"tests">,
  finalStats: FinalStatsRunner = "scheduled",
): Promise<boolean> {
  const running = await ctx.db.get("tests", testId);
  if (!running || running.status !== "running" || (await hasCallsLeft(ctx, running))) return false;
  const test = await foldCounters(ctx, testId);
  if (!test) return false;
  const rows = await ctx.db
    .query("modelStats")
    .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
    .take(MAX_STATS_ROWS);
  const resultsSummary = runSummary(rows, test.configuration.generatorModels, {
    expectedResponses: test.expectedResponses,
    actualResponses: test.responsesCount,
    totalCost: test.totalCostUsd,
    totalLatencyMs: test.totalLatencyMs,
  });
  const failed = deliveredNothing(test);
  const errorMessage = failed ? nothingDelivered(test) : undefined;
  // A test that lost calls says so, with the reason, instead of 'All responses and evaluations completed'.
  const missing = missingWorkSummary(test);
  return await endTest(ctx, test, await jobOfTest(ctx, testId), {
    status: failed ? "failed" : "completed",
    test: { errorMessage, resultsSummary },
    progress: failed
      ? { currentPhase: "Failed", percentage: 0, details: errorMessage }
      : { currentPhase: "Completed", percentage: 100, details: missing ?? PROGRESS_DETAILS.finalizing },
    jobError: errorMessage,
    jobProgress: { responses: test.responsesCount, evaluations: test.evaluationsCount, failedCalls: test.failedCalls },
    // Nothing usable came back: the payment (if any; none in free mode) goes back to the owner.
    ...(failed ? { refundReason: errorMessage ?? "The test failed." } : {}),
    finalStats,
  });
}
