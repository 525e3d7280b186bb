// Keeping the pipeline healthy (ARCHITECTURE §4 step 7): expired leases handed back out, tests
// with no progress for an hour cancelled, jobs processing for over an hour reported as stuck.
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { internal } from "../../_generated/api";
import { isStuckJob, processingSince } from "../../lib/jobAnalysis";
import { jobOfTest } from "../jobs";
import { REFUND_REASONS } from "../payments";
import { readSetting } from "../settings";
import { endTest } from "../testEnding";
import { createJudgeCallsIfPairDone } from "./calls";
import { ensureWorkers } from "./claim";
import { deliveredNothing, finishIfDone } from "./finish";
import { recordFailure } from "./record";
import { countedTestOf } from "./counterRow";
import { addCounters, foldCounters } from "./runCounters";
import { dispatchSoon } from "./dispatchSoon";

/**
 * Expired leases handled per transaction: a generation call given up on can create its pair's
 * judge calls (up to 5 judges × 100 answers), so 25 stay below Convex's 16,000 writes.
 */
const RECLAIM_BATCH = 25;

/**
 * Hands expired leases back out. A lease outlives every call the client can make, so an
 * expired one means its worker died: that worker is no longer counted. A full batch schedules
 * the next one.
 */
export async function reclaimExpiredLeases(ctx: MutationCtx, now: number): Promise<number> {
  const expired = await ctx.db
    .query("calls")
    .withIndex("by_status_lease", (q) => q.eq("status", "leased").lt("leaseExpiresAt", now))
    .take(RECLAIM_BATCH);
  if (expired.length === RECLAIM_BATCH) await ctx.scheduler.runAfter(0, internal.runner.reclaimLeases, {});
  const maxAttempts = await readSetting(ctx, "maxCallAttempts");
  const touched = new Set<Id<"tests">>();
  for (const call of expired) {
    const test = await ctx.db.get("tests", call.testId);
    // Every call handled leaves the expired range, so the next batch never sees it again.
    if (!test) {
      await ctx.db.patch("calls", call._id, { status: "cancelled", leaseId: undefined }); // deleted with its test
      continue;
    }
    await ctx.db.patch("tests", test._id, { activeWorkers: Math.max(0, test.activeWorkers - 1) });
    if (test.status !== "running") {
      await ctx.db.patch("calls", call._id, { status: "cancelled", leaseId: undefined });
      continue;
    }
    if (call.attempts >= maxAttempts) {
      const error = "The call did not finish after several attempts.";
      await addCounters(ctx, test._id, await recordFailure(ctx, test, call, error), error);
      await createJudgeCallsIfPairDone(ctx, call);
    } else {
      await ctx.db.patch("calls", call._id, { status: "pending", leaseId: undefined, leaseExpiresAt: undefined });
    }
    touched.add(test._id);
  }
  for (const testId of touched) {
    await foldCounters(ctx, testId);
    await finishIfDone(ctx, testId);
    await ensureWorkers(ctx, testId);
  }
  return expired.length;
}

const STALE_TEST_MS = 60 * 60 * 1000;
/**
 * Tests looked at per cron run (the next run takes the rest): those whose row says an hour
 * without progress, of which running ones may have progressed since on their counter row (running
 * tests are few: the dispatch caps them).
 */
const STALE_CANDIDATES = 100;
const STALE_REFUND_REASON = "The test made no progress for an hour and was stopped (Cancelled - Timeout).";

/**
 * Tests with no progress for an hour are cancelled ('Cancelled - Timeout', 0 percent), unpaid
 * drafts included (spec part 1 §4: running or pending tests older than an hour); a draft's
 * open checkout is expired.
 */
export async function cancelTestsWithoutProgress(ctx: MutationCtx, now: number): Promise<number> {
  const cutoff = now - STALE_TEST_MS;
  let cancelled = 0;
  for (const status of ["running", "pending"] as const) {
    const candidates = await ctx.db
      .query("tests")
      .withIndex("by_status_progress", (q) => q.eq("status", status).lt("lastProgressAt", cutoff))
      .take(STALE_CANDIDATES);
    for (const stored of candidates) {
      // A running test's progress time is on its counter row (core/pipeline/counterRow.ts).
      const test = await countedTestOf(ctx, stored);
      if (test.lastProgressAt >= cutoff) continue;
      const job = await jobOfTest(ctx, test._id);
      const unpaid = test.awaitingPayment === true || job?.status === "pending_payment";
      await endTest(ctx, test, job, {
        status: "cancelled",
        progress: { currentPhase: "Cancelled - Timeout", percentage: 0 },
        jobError: "Cancelled - Timeout",
        // An unpaid draft's checkout is expired too, so an abandoned payment cannot start it later.
        ...(unpaid ? { checkouts: "expire" as const } : {}),
        // A paid test that delivered nothing in its hour is refunded, as a failed one is; one
        // that delivered some gets the price of its calls not made back, as with the owner's Stop.
        ...(unpaid
          ? {}
          : deliveredNothing(test)
            ? { refundReason: STALE_REFUND_REASON }
            : { refundUnrun: REFUND_REASONS.timedOut }),
        dispatch: false, // once for the batch, below
      });
      cancelled++;
    }
  }
  if (cancelled > 0) await dispatchSoon(ctx);
  return cancelled;
}

/** Jobs processing for over an hour are reported once each as stuck, for the admin page. */
export async function alertStuckJobs(ctx: MutationCtx, now: number): Promise<number> {
  const processing = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "processing"))
    .take(500);
  let reported = 0;
  for (const job of processing) {
    if (!isStuckJob(job, now)) continue;
    const existing = await ctx.db
      .query("alerts")
      .withIndex("by_job", (q) => q.eq("jobId", job._id))
      .first();
    if (existing && !existing.resolved) continue;
    const minutes = Math.floor((now - processingSince(job)) / 60000);
    await ctx.db.insert("alerts", {
      kind: "stuck_job",
      jobId: job._id,
      message: `Job ${job._id.slice(0, 8)} (${job.testName}) has been processing for ${minutes} minutes.`,
      resolved: false,
    });
    reported++;
  }
  return reported;
}
