// The one way a test ends: the owner's Stop Test, the stale-test cron, the admin's cancel and the
// pipeline's finish all close the test, its owner's figures, its job, its checkouts and its refund
// (in full, or of the calls not made) through endTest, so an ending can never forget one of them.
import { internal } from "../_generated/api";
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { hasEnded, hasJobEnded, type EndedTestStatus } from "../lib/testStatus";
import { setJobStatus } from "./jobs";
import { finishJuryStats, type FinalStatsRunner } from "./jury/finalRun";
import { endOpenCheckouts } from "./payments";
import { endRun } from "./run/lifecycle";
import { requestUnrunRefund } from "./unrunRefunds";
import { syncTestSummary } from "./testSummaries";
import { recordTestEnded } from "./userStats";
import { dispatchSoon } from "./pipeline/dispatchSoon";
import { cancelUnmadeCallsLater } from "./pipeline/unmadeCalls";

export type TestEnding = {
  status: EndedTestStatus;
  progress: Doc<"tests">["progress"];
  /** Further fields of the ended test (its summary, why it failed). */
  test?: Pick<Partial<Doc<"tests">>, "errorMessage" | "resultsSummary" | "stopped">;
  /** Why the job ended, shown on the admin page. */
  jobError: string | undefined;
  jobProgress?: Doc<"jobs">["progressData"];
  /**
   * Open checkouts: 'end' marks them ended now (a payment that still lands is refunded),
   * 'expire' schedules expireTestCheckouts (an unpaid draft that can no longer be paid).
   */
  checkouts?: "end" | "expire";
  /** Refunds the test's payment, if it has one, with this reason. */
  refundReason?: string;
  /**
   * Refunds the price of the calls not made, above the $2.00 minimum, with this reason (a partial
   * refund of the test's payment, if it has one: core/unrunRefunds.ts), once per payment and
   * reason: the owner's Stop passes REFUND_REASONS.stopped, a settled test REFUND_REASONS.settled,
   * an admin's cancel REFUND_REASONS.cancelledByAdmin, the stale-test cron REFUND_REASONS.timedOut.
   */
  refundUnrun?: string;
  /** Schedules the dispatcher for the freed slot when a job is queued (default); a batch of endings schedules it once. */
  dispatch?: boolean;
  /**
   * Who runs the full jury statistics after the end: scheduled (default), or the caller in its
   * own action (the worker that finished the test: no scheduled job per ending test).
   */
  finalStats?: FinalStatsRunner;
};

/**
 * Ends a test and its job. A test that has already ended (or is gone) is left as it is, and its
 * job is still closed; a job that has already ended is left as it is. True when the caller now
 * owes the test's full statistics run (`finalStats: "caller"`: core/jury/finalRun.ts).
 */
export async function endTest(
  ctx: MutationCtx,
  test: Doc<"tests"> | null,
  job: Doc<"jobs"> | null,
  ending: TestEnding,
): Promise<boolean> {
  const now = Date.now();
  let statsOwed = false;
  if (test && !hasEnded(test.status)) {
    const counted = await endRun(ctx, test);
    await ctx.db.patch("tests", test._id, {
      ...ending.test,
      status: ending.status,
      completedAt: now,
      activeWorkers: 0,
      progress: ending.progress,
    });
    await syncTestSummary(ctx, {
      ...counted,
      ...ending.test,
      status: ending.status,
      completedAt: now,
      activeWorkers: 0,
      progress: ending.progress,
    });
    statsOwed = await finishJuryStats(ctx, test._id, ending.finalStats);
    // Its calls not made are cancelled, not left pending (a test that finished, or never got
    // calls, has none).
    const early = ending.status !== "completed" || ending.test?.stopped !== undefined;
    if (early && (test.status === "running" || test.totalCalls > 0)) await cancelUnmadeCallsLater(ctx, test._id);
    await recordTestEnded(ctx, counted, ending.status);
    if (ending.checkouts === "end") await endOpenCheckouts(ctx, test._id);
    if (ending.checkouts === "expire")
      await ctx.scheduler.runAfter(0, internal.payments.expireTestCheckouts, { testId: test._id });
    if (ending.refundUnrun !== undefined) await requestUnrunRefund(ctx, counted, ending.refundUnrun);
    if (ending.refundReason !== undefined) {
      await ctx.scheduler.runAfter(0, internal.payments.refundTest, { testId: test._id, reason: ending.refundReason });
    }
  }
  if (job && !hasJobEnded(job.status)) {
    await setJobStatus(ctx, job, ending.status, {
      completedAt: now,
      errorMessage: ending.jobError,
      ...(ending.jobProgress === undefined ? {} : { progressData: ending.jobProgress }),
    });
  }
  // Only when a job waits for the slot: ten tests ending together with none queued scheduled ten
  // dispatches that found nothing to start.
  if (ending.dispatch !== false && (await jobQueued(ctx))) await dispatchSoon(ctx);
  return statsOwed;
}

/** Whether a job is queued (reads the first only; one queued meanwhile schedules its own dispatch). */
async function jobQueued(ctx: MutationCtx): Promise<boolean> {
  const queued = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "queued"))
    .first();
  return queued !== null;
}
