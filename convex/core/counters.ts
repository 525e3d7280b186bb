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

export async function readCounter(ctx: QueryCtx, name: CounterName): Promise<number> {
  const row = await ctx.db
    .query("counters")
    .withIndex("by_name", (q) => q.eq("name", name))
    .unique();
  return row?.value ?? 0;
}

export async function incrementCounter(ctx: MutationCtx, name: CounterName, delta: number): Promise<void> {
  if (delta === 0) return;
  const row = await ctx.db
    .query("counters")
    .withIndex("by_name", (q) => q.eq("name", name))
    .unique();
  if (row) await ctx.db.patch("counters", row._id, { value: row.value + delta });
  else await ctx.db.insert("counters", { name, value: delta });
}
