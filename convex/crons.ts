import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

// The catalog is fresh for 24 hours; checking hourly keeps it at most an hour past that.
crons.interval("refresh model catalog", { hours: 1 }, internal.models.refreshIfStale, {});
crons.interval("supervise workers", { seconds: 30 }, internal.runner.superviseWorkers, {});
// An ended test's full statistics run whose runner died (core/jury/finalRun.ts) is handed out again.
crons.interval("hand out owed final statistics", { minutes: 1 }, internal.juryStats.handOutOwed, {});
crons.interval("reclaim expired leases", { minutes: 1 }, internal.runner.reclaimLeases, {});
crons.interval("cancel stale tests", { minutes: 5 }, internal.runner.cancelStaleTests, {});
crons.interval("report stuck jobs", { minutes: 5 }, internal.runner.reportStuckJobs, {});
// Queued jobs also start when a slot frees; this catches any start that was missed.
crons.interval("dispatch queued jobs", { minutes: 1 }, internal.runner.dispatch, {});

// Deleted tests whose cleanup stopped between two batches: no row of theirs is left behind.
crons.interval("resume stalled test deletions", { minutes: 5 }, internal.testDeletion.resumeStalled, {});

// Presence rows of pages closed without a goodbye, in rooms nobody visits any more.
crons.interval("sweep stale presence", { minutes: 1 }, internal.presence.sweep, {});

// Client sign-in buckets that refilled, and model latencies older than the ones averaged.
crons.interval("sweep idle client buckets", { hours: 1 }, internal.cleanup.sweepClientBuckets, {});
crons.interval("prune old model latencies", { hours: 6 }, internal.cleanup.pruneModelLatencies, {});

export default crons;
