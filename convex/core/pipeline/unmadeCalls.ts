// Calls not made when a test ends early (the owner's Stop, settled, an admin's cancel, the
// stale-test cron) are marked cancelled rather than left pending, so every view and export that
// counts calls by status counts them as not made. In bounded batches after the ending (a test
// has up to LIMITS.maxCallsPerTest calls, and the stale cron ends many tests in one transaction);
// calls out when it ended are cancelled as they land (core/pipeline/record.ts) or as their
// leases expire (recovery.ts).
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { hasEnded } from "../../lib/testStatus";

/** Pending calls cancelled per transaction. */
const CANCEL_CALLS_BATCH = 500;

/** The ending asks for its pending calls to be cancelled (one scheduled batch, more if needed). */
export async function cancelUnmadeCallsLater(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  await ctx.scheduler.runAfter(0, internal.runner.cancelUnmadeCalls, { testId });
}

/**
 * Cancels one batch of an ended test's pending calls and schedules the next when the batch was
 * full. A test that runs again meanwhile (an admin's retry resumes its cancelled calls) is left
 * alone. Returns how many it cancelled.
 */
export async function cancelUnmadeCallBatch(ctx: MutationCtx, testId: Id<"tests">): Promise<number> {
  const test = await ctx.db.get("tests", testId);
  if (!test || !hasEnded(test.status)) return 0;
  const pending = await ctx.db
    .query("calls")
    .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
    .take(CANCEL_CALLS_BATCH);
  for (const call of pending) await ctx.db.patch("calls", call._id, { status: "cancelled" });
  if (pending.length === CANCEL_CALLS_BATCH) await cancelUnmadeCallsLater(ctx, testId);
  return pending.length;
}
