// Data migrations of the deployment, run by hand once per deployment: each batch schedules the next.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./functions";
import { migrateRunEngineBatch } from "./core/run/migrations";

/** The run engine's earlier designs' rows brought to the current one (core/run/migrations.ts). */
export const runEngine = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { cursor }) => {
    const next = await migrateRunEngineBatch(ctx, cursor ?? null);
    if (!next.done) await ctx.scheduler.runAfter(0, internal.migrations.runEngine, { cursor: next.cursor });
    return null;
  },
});
