// A running test's counters: declarations only, imported by convex/schema.ts. The folds of its run
// (core/pipeline/runCounters.ts) write what they add here, about once per 10 calls, never the
// test's row: the queries that show the test's configuration or status and none of its counters
// (the pages of answers and judgements, the jury's statistics, the checks) then re-run with no
// fold, and those that show counters read this small row beside the test
// (core/pipeline/counterRow.ts). The run's end adds the row into the test's row and deletes it.
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { progress, runCounters } from "../validators";

export const testCounterTables = {
  testCounters: defineTable({
    testId: v.id("tests"),
    /** What the folds added to the test's row's counters since the run opened. */
    sums: runCounters.partial(),
    /** The test's progress and the time of the last fold (tests.progress, tests.lastProgressAt). */
    progress,
    lastProgressAt: v.number(),
    /** The latest gateway error the folds saw (tests.lastCallError). */
    lastCallError: v.optional(v.string()),
  }).index("by_test", ["testId"]),
};
