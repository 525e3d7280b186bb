// The checks tables: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";

/** Answers of one model × persona checked together, and how they fared on each check. */
const tally = v.object({
  modelId: v.string(),
  personaId: v.string(),
  answers: v.number(),
  passed: v.number(),
  byCheck: v.array(v.object({ checkId: v.string(), applied: v.number(), passed: v.number() })),
});

export const checkTables = {
  /**
   * One recording of a generation call: how its answers fared on the test's checks. Inserted by
   * the recording, folded into checkTotals and deleted by the run's folds.
   */
  checkTallies: defineTable({
    testId: v.id("tests"),
    callId: v.id("calls"),
    topicId: v.string(),
    ...tally.fields,
  }).index("by_test", ["testId"]),

  /**
   * A test's pass-rate figures as its run's folds left them (core/checkTotals.ts): the tallies of
   * the recordings folded into one per model × persona, with the labels the checks section shows,
   * so the section reads this one row (written once per fold at most), never the tallies nor the
   * test's configuration.
   */
  checkTotals: defineTable({
    testId: v.id("tests"),
    rankLast: v.boolean(),
    checks: v.array(v.object({ id: v.string(), label: v.string() })),
    personas: v.array(v.object({ id: v.string(), name: v.string() })),
    models: v.array(v.object({ id: v.string(), name: v.string() })),
    tallies: v.array(tally),
  }).index("by_test", ["testId"]),
};
