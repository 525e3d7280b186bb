// The end of a run (ARCHITECTURE §4 step 6): when no call is left the test is completed, or
// failed when nothing usable came back, with its summary; it ends through model/testEnding.
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { missingWorkSummary, PROGRESS_DETAILS } from "../../lib/progress";
import { jobOfTest } from "../jobs";
import { endTest } from "../testEnding";
import { runSummary } from "./statistics";

/** When every call has ended: the summary, and the test and its job closed the same way. */
export async function finishIfDone(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running" || test.callCursor !== undefined || test.finishedCalls < test.totalCalls)
    return;
  const rows = await ctx.db
    .query("modelStats")
    .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
    .collect(); // models × (personas + 1), bounded by the test's limits
  const resultsSummary = runSummary(rows, test.configuration.generatorModels, {
    expectedResponses: test.expectedResponses,
    actualResponses: test.responsesCount,
    totalCost: test.totalCostUsd,
    totalLatencyMs: test.totalLatencyMs,
  });
  const failed = test.responsesCount === 0;
  const errorMessage = failed
    ? `No responses were generated${test.lastCallError ? `: ${test.lastCallError}` : "."}`
    : undefined;
  // A test that lost calls says so, with the reason, instead of 'All responses and evaluations completed'.
  const missing = missingWorkSummary(test);
  await endTest(ctx, test, await jobOfTest(ctx, testId), {
    status: failed ? "failed" : "completed",
    test: { errorMessage, resultsSummary },
    progress: failed
      ? { currentPhase: "Failed", percentage: 0, details: errorMessage }
      : { currentPhase: "Completed", percentage: 100, details: missing ?? PROGRESS_DETAILS.finalizing },
    jobError: errorMessage,
    jobProgress: { responses: test.responsesCount, evaluations: test.evaluationsCount, failedCalls: test.failedCalls },
    // Nothing usable came back: the payment (if any; none in free mode) goes back to the owner.
    ...(failed ? { refundReason: errorMessage ?? "The test failed." } : {}),
  });
}
