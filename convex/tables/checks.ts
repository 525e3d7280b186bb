// The checks tables: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const checkTables = {
  /** One recording of a generation call: how its answers fared on the test's checks. */
  checkTallies: defineTable({
    testId: v.id("tests"),
    callId: v.id("calls"),
    modelId: v.string(),
    personaId: v.string(),
    topicId: v.string(),
    answers: v.number(),
    passed: v.number(),
    byCheck: v.array(v.object({ checkId: v.string(), applied: v.number(), passed: v.number() })),
  }).index("by_test", ["testId"]),
};
