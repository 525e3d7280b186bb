// The one place that schedules the dispatcher (core/pipeline/dispatch.ts): a job queued, a slot
// freed or a priority changed asks for a dispatch here, so how dispatches are scheduled (and
// which scheduled-job slots they take) is decided once. Requests coalesce: while a dispatch is
// scheduled and has not run, no other is (ten tests paid for at once had taken 8 of Starter's 8
// scheduled-job slots with dispatches). That is safe because the ticket is cleared by the
// dispatch in the transaction that reads the queue: a request that saw the ticket set either
// commits first (the dispatch then sees its job) or conflicts with the clearing and runs again.
// A dispatch that never ran leaves the ticket set until the minute's cron dispatch clears it.
import { internal } from "../../_generated/api";
import type { MutationCtx } from "../../_generated/server";

/** Queued jobs are looked at again as soon as this transaction commits (by the dispatch already scheduled, if one is). */
export async function dispatchSoon(ctx: MutationCtx): Promise<void> {
  const ticket = await ctx.db.query("dispatchTicket").first();
  if (ticket?.pending) return;
  if (ticket) await ctx.db.patch("dispatchTicket", ticket._id, { pending: true });
  else await ctx.db.insert("dispatchTicket", { pending: true });
  await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
}

/** A dispatch running now takes the ticket: requests from here on schedule the next one. */
export async function takeDispatchTicket(ctx: MutationCtx): Promise<void> {
  const ticket = await ctx.db.query("dispatchTicket").first();
  if (ticket?.pending) await ctx.db.patch("dispatchTicket", ticket._id, { pending: false });
}
