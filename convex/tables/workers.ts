// The worker host (core/pipeline/host.ts): declarations only, imported by convex/schema.ts.
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const workerTables = {
  /**
   * The deployment's one worker host: the action serving every running test's calls (one
   * scheduled-job slot whatever the number of tests). One row; `epoch` names the host that may
   * run (a replaced host finds its epoch gone and stops), `seenAt` is its last heartbeat and
   * `startedAt` when it was scheduled. A host not heard of for HOST_DEAD_MS is replaced by the
   * supervisor (runner.superviseWorkers) or by the next test that needs it.
   */
  workerHosts: defineTable({
    epoch: v.number(),
    startedAt: v.number(),
    seenAt: v.number(),
    /** It ended with nothing to serve: the next test schedules a new one. */
    ended: v.optional(v.boolean()),
    /** The host's scheduled action: failed (killed, its deployment restarted) means dead at once. */
    jobId: v.optional(v.id("_scheduled_functions")),
  }),
  /**
   * The host's watch (core/pipeline/host.ts watchHost): a scheduled mutation looking at the host
   * every HOST_WATCH_MS while it has tests to serve, so a dead host is replaced within about a
   * second rather than at the supervisor cron's next run. One row: `chain` names the watch that
   * may run (an older one stops), `jobId` its next look.
   */
  hostWatch: defineTable({
    chain: v.number(),
    jobId: v.id("_scheduled_functions"),
  }),
  /**
   * Whether a dispatch (runner.dispatch) is scheduled and has not run yet (core/pipeline/
   * dispatchSoon.ts): one row. A job queued meanwhile is seen by that dispatch, so ten tests
   * queued at once take one scheduled-job slot, not ten.
   */
  dispatchTicket: defineTable({
    pending: v.boolean(),
  }),
};
