// Crons that keep two append-or-touch tables bounded, each in batches that fit one transaction
// and schedule the next batch while there is more:
// - authClientBuckets: one row per client address that ever tried a password. A bucket that has
//   refilled to its capacity admits exactly what no row admits, so it can go.
// - modelLatencies: one row per model and kind of call per run. Only each group's newest
//   RUNS_AVERAGED rows are ever read (core/modelLatencies.ts); the older ones can go.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { CLIENT_ATTEMPTS } from "./core/authThrottle";
import { RUNS_AVERAGED } from "./core/modelLatencies";
import { internalMutation } from "./functions";
import { tokensAt } from "./lib/tokenBucket";

/** Rows one batch reads at most (each read row is at most one delete). */
export const CLEANUP_BATCH = 200;
/** A bucket untouched this long is looked at; it is deleted only once it is full again. */
export const CLIENT_BUCKET_IDLE_MS = 24 * 60 * 60_000;

/** Deletes client buckets idle for a day that have refilled; returns how many went. */
export const sweepClientBuckets = internalMutation({
  args: { after: v.optional(v.number()) },
  returns: v.number(),
  handler: async (ctx, args) => {
    const now = Date.now();
    const cutoff = now - CLIENT_BUCKET_IDLE_MS;
    // `after`: where the previous batch stopped (its newest row), so the buckets it kept are not read again.
    const batch = await ctx.db
      .query("authClientBuckets")
      .withIndex("by_updated", (q) => q.gt("updatedAt", args.after ?? -Infinity).lt("updatedAt", cutoff))
      .take(CLEANUP_BATCH);
    let deleted = 0;
    for (const bucket of batch) {
      // A bucket spent far below zero refills later than a day; it stays until it is full.
      if (tokensAt(bucket, CLIENT_ATTEMPTS, now) < CLIENT_ATTEMPTS.capacity) continue;
      await ctx.db.delete("authClientBuckets", bucket._id);
      deleted++;
    }
    if (batch.length === CLEANUP_BATCH)
      await ctx.scheduler.runAfter(0, internal.cleanup.sweepClientBuckets, { after: batch.at(-1)!.updatedAt });
    return deleted;
  },
});

/**
 * Deletes every model latency row older than its model and kind's newest RUNS_AVERAGED, walking
 * the index newest first per group; `group` and `kept` carry the current group across batches.
 * Returns how many went in this batch.
 */
export const pruneModelLatencies = internalMutation({
  args: {
    cursor: v.optional(v.union(v.string(), v.null())),
    group: v.optional(v.string()),
    kept: v.optional(v.number()),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const page = await ctx.db
      .query("modelLatencies")
      .withIndex("by_model_kind")
      .order("desc")
      .paginate({ cursor: args.cursor ?? null, numItems: CLEANUP_BATCH });
    let group = args.group ?? null;
    let kept = args.kept ?? 0;
    let deleted = 0;
    for (const row of page.page) {
      const rowGroup = JSON.stringify([row.modelId, row.kind]);
      if (rowGroup !== group) {
        group = rowGroup;
        kept = 0;
      }
      if (kept < RUNS_AVERAGED) kept++;
      else {
        await ctx.db.delete("modelLatencies", row._id);
        deleted++;
      }
    }
    if (!page.isDone)
      await ctx.scheduler.runAfter(0, internal.cleanup.pruneModelLatencies, {
        cursor: page.continueCursor,
        ...(group === null ? {} : { group }),
        kept,
      });
    return deleted;
  },
});
