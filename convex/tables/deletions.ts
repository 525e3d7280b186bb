// Deleted tests whose rows are still being removed: declarations only, imported by convex/schema.ts.
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const deletionTables = {
  /**
   * A deleted test whose rows in the per-test tables are not all gone yet (core/testDeletion.ts):
   * inserted with the deletion, touched by each batch of its cleanup, removed by the last one. A
   * cron resumes a cleanup whose batches stopped (a scheduled batch that failed for good), so no
   * row of a deleted test is orphaned. Not indexed by the test: the cleanup's own batches never
   * remove it as one of the test's rows.
   */
  testDeletions: defineTable({
    testId: v.id("tests"),
    /** When the latest batch ran (or the deletion, before the first). */
    lastBatchAt: v.number(),
  }).index("by_last_batch", ["lastBatchAt"]),
};
