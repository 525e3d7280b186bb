// The one place that schedules the dispatcher (core/pipeline/dispatch.ts): a job queued, a slot
// freed or a priority changed asks for a dispatch here, so how dispatches are scheduled (and
// which scheduled-job slots they take) is decided once.
import { internal } from "../../_generated/api";
import type { MutationCtx } from "../../_generated/server";

/** Queued jobs are looked at again as soon as this transaction commits. */
export async function dispatchSoon(ctx: MutationCtx): Promise<void> {
  await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
}
