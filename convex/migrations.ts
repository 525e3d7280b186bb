// Data migrations of the deployment, run by hand once per deployment: each batch schedules the next.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./functions";
import { migrateRunEngineBatch } from "./core/run/migrations";
import { migrateTestNamesBatch } from "./core/testNames";

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

/**
 * Gives every test written before names rows existed its names row (core/testNames.ts), so its
 * pages' queries read it instead of the configuration (until then they read the test's row).
 * Run once per deployment: npx convex run migrations:testNames.
 */
export const testNames = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ written: v.number(), done: v.boolean() }),
  handler: async (ctx, { cursor }) => {
    const next = await migrateTestNamesBatch(ctx, cursor ?? null);
    if (!next.done) await ctx.scheduler.runAfter(0, internal.migrations.testNames, { cursor: next.cursor });
    return { written: next.written, done: next.done };
  },
});
