// Aggregates kept as data changes, so admin figures never scan whole tables.
import type { MutationCtx, QueryCtx } from "../_generated/server";

export type CounterName =
  | "users"
  | "jobs"
  | "jobs:queued"
  | "jobs:processing"
  | "jobs:completed"
  | "jobs:failed"
  | "jobs:cancelled"
  | "jobs:pending_payment"
  | "revenueCents";

/**
 * Rows per counter (Convex's sharded-counter pattern): a change adds to one shard picked at
 * random, so jobs starting and ending at once (each writes two status counters) rarely write
 * the same row; a read sums the shards.
 */
export const COUNTER_SHARDS = 16;

export async function readCounter(ctx: QueryCtx, name: CounterName): Promise<number> {
  const rows = await ctx.db
    .query("counters")
    .withIndex("by_name", (q) => q.eq("name", name))
    .take(COUNTER_SHARDS + 1); // the shards and a row from before them
  return rows.reduce((sum, row) => sum + row.value, 0);
}

export async function incrementCounter(ctx: MutationCtx, name: CounterName, delta: number): Promise<void> {
  if (delta === 0) return;
  const shard = Math.floor(Math.random() * COUNTER_SHARDS);
  const row = await ctx.db
    .query("counters")
    .withIndex("by_name", (q) => q.eq("name", name).eq("shard", shard))
    .unique();
  if (row) await ctx.db.patch("counters", row._id, { value: row.value + delta });
  else await ctx.db.insert("counters", { name, value: delta, shard });
}
