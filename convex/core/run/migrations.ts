// What the run engine's earlier designs left at rest, brought to the current one: a test's
// counters were once summed over sharded rows (runShards, no longer in the schema), and its
// per-model sums over up to 16 shard rows per model × persona (modelStats.shard). The shards of
// counters were folded into their test when its run ended, so their rows are only deleted; a
// model × persona's stats rows are merged into one row without a shard. Run once per
// deployment (npx convex run migrations:runEngine); each batch schedules the next.
import type { GenericDatabaseWriter, GenericDataModel } from "convex/server";
import type { GenericId } from "convex/values";
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";

/** Tests migrated per batch (their rows, configurations up to 256 KB, are read whole). */
const TESTS_PER_BATCH = 20;
/** A test's stats rows in the sharded design: 10 generators × 11 scopes × (16 shards + 1 unsharded). */
const SHARDED_STATS_ROWS = 10 * 11 * 17;
/** Rows of the sharded counters deleted per batch. */
const COUNTER_SHARDS_PER_BATCH = 1000;

/** Two sorted lists as one sorted list. */
function mergeSorted(left: readonly number[], right: readonly number[]): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length || (i < left.length && left[i]! <= right[j]!)) merged.push(left[i++]!);
    else merged.push(right[j++]!);
  }
  return merged;
}

/**
 * A test's modelStats rows with each model × persona's shards merged into one row (the first
 * shard's id and fields, the sums added, latencies merged in order): what a single row would
 * hold had every result been added to it. Row order: as read (by model, then persona).
 */
export function mergeModelStats(rows: readonly Doc<"modelStats">[]): Doc<"modelStats">[] {
  const merged = new Map<string, Doc<"modelStats">>();
  for (const row of rows) {
    const key = `${row.modelId}\u0000${row.personaId}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, row);
      continue;
    }
    const buckets = Array.from(
      { length: Math.max(seen.latencyBuckets.length, row.latencyBuckets.length) },
      (_, index) => (seen.latencyBuckets[index] ?? 0) + (row.latencyBuckets[index] ?? 0),
    );
    const latencies =
      seen.latenciesMs !== undefined || row.latenciesMs !== undefined
        ? { latenciesMs: mergeSorted(seen.latenciesMs ?? [], row.latenciesMs ?? []) }
        : {};
    merged.set(key, {
      ...seen,
      responses: seen.responses + row.responses,
      tokens: seen.tokens + row.tokens,
      costUsd: seen.costUsd + row.costUsd,
      latencyMsSum: seen.latencyMsSum + row.latencyMsSum,
      latencyBuckets: buckets,
      scoreSum: seen.scoreSum + row.scoreSum,
      scoreCount: seen.scoreCount + row.scoreCount,
      ...latencies,
    });
  }
  return [...merged.values()];
}

/** Merges one test's stats rows into one per model × persona, without a shard. Returns the rows deleted. */
export async function oneStatsRowPerModel(ctx: MutationCtx, testId: Id<"tests">): Promise<number> {
  const rows = await ctx.db
    .query("modelStats")
    .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
    .take(SHARDED_STATS_ROWS);
  const merged = mergeModelStats(rows);
  const kept = new Set(merged.map((row) => row._id));
  let deleted = 0;
  for (const row of rows) {
    if (kept.has(row._id)) continue;
    await ctx.db.delete("modelStats", row._id);
    deleted++;
  }
  for (const row of merged) {
    const original = rows.find((candidate) => candidate._id === row._id)!;
    if (original.shard === undefined && merged.length === rows.length) continue;
    const { _id, _creationTime, shard: _shard, ...fields } = row;
    await ctx.db.replace("modelStats", _id, fields);
  }
  return deleted;
}

/**
 * One batch: the counters' shard rows first, then a page of tests' stats rows. Returns whether
 * every test was migrated, and the cursor of the next batch.
 */
export async function migrateRunEngineBatch(
  ctx: MutationCtx,
  cursor: string | null,
): Promise<{ done: boolean; cursor: string | null }> {
  // A table the schema no longer declares: read and written untyped.
  const db = ctx.db as unknown as GenericDatabaseWriter<GenericDataModel>;
  const counterShards = await db.query("runShards").take(COUNTER_SHARDS_PER_BATCH);
  for (const row of counterShards) await db.delete("runShards", row._id as GenericId<"runShards">);
  if (counterShards.length === COUNTER_SHARDS_PER_BATCH) return { done: false, cursor };
  const page = await ctx.db.query("tests").paginate({ cursor, numItems: TESTS_PER_BATCH });
  for (const test of page.page) await oneStatsRowPerModel(ctx, test._id);
  return { done: page.isDone, cursor: page.continueCursor };
}
