// The modelLatencies table: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const modelLatencyTables = {
  /**
   * A model's observed gateway latency for one kind of call in one run (the pool worker's moving
   * average when it ended): the catalog's latencies, read newest first for the setup page's time
   * estimate and a new run's forecast (core/modelLatencies.ts). Only inserted, so runs ending at
   * once never conflict on it.
   */
  modelLatencies: defineTable({
    modelId: v.string(),
    kind: v.union(v.literal("generate"), v.literal("evaluate")),
    latencyMs: v.number(),
    at: v.number(),
  }).index("by_model_kind", ["modelId", "kind", "at"]),
};
