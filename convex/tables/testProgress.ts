// A running test's monitor row: declarations only, imported by convex/schema.ts. The live
// monitor reads this small row (never the test's row with its configuration, nor a live query
// over the answers) while the test runs, so it re-runs only when the row is written: by the
// counter fold once about 10 calls landed since the last write, or after a slow time fallback
// (core/monitorProgress.ts, lib/progressWrites.ts MONITOR_PROGRESS). The row is deleted when the run
// ends (or restarts, or the test is deleted); the monitor then reads the test itself, which no
// longer changes per call.
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { costEstimate, modelRanking, progress, runCounters, testStatus } from "../validators";

/** What the monitor's header says of a test's size, instead of its configuration. */
export const monitorSize = v.object({
  models: v.number(),
  judges: v.number(),
  personas: v.number(),
  topics: v.number(),
  /** Gateway calls the run makes (lib/progress expectedCallsOf): what the percentage counts. */
  generationCalls: v.number(),
  judgingCalls: v.number(),
});

/** The test's fields the monitor shows while it runs, as of the row's last write. */
export const runningHeader = v.object({
  name: v.string(),
  taskType: v.string(),
  status: testStatus,
  progress,
  estimate: costEstimate,
  priceCents: v.number(),
  expectedResponses: v.number(),
  expectedEvaluations: v.number(),
  ...runCounters.pick(
    "responsesCount",
    "evaluationsCount",
    "missingResponses",
    "missingEvaluations",
    "failedCalls",
    "totalCostUsd",
    "totalLatencyMs",
    "totalTokens",
  ).fields,
  lastCallError: v.optional(v.string()),
  errorMessage: v.optional(v.string()),
  startedAt: v.optional(v.number()),
  rerunOf: v.optional(v.id("tests")),
  /** The test's _creationTime. */
  createdAt: v.number(),
  size: monitorSize,
});

export const testProgressTables = {
  testProgress: defineTable({
    testId: v.id("tests"),
    /** Who may read it: the test's owner, or its team (core/testAccess.ts). */
    userId: v.id("users"),
    teamId: v.optional(v.id("teams")),
    header: runningHeader,
    /** The monitor's top rankings (best first) and how many models are ranked. */
    rankings: v.array(modelRanking.omit("evaluationCount")),
    rankedModels: v.number(),
    /**
     * The newest answers as of the write, newest first, with the names they are shown under: the
     * monitor's Recent Activity reads each answer by its id.
     */
    latestResponses: v.array(
      v.object({
        responseId: v.id("responses"),
        modelName: v.string(),
        personaName: v.string(),
        topicTitle: v.string(),
      }),
    ),
    /** The test's ended calls as of the write: the next write waits for enough more. */
    finishedCalls: v.number(),
    writtenAt: v.number(),
  }).index("by_test", ["testId"]),
};
