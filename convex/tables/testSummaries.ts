// The per-test summary rows: declarations only, imported by convex/schema.ts (nothing of the
// function layer). A summary holds what the lists show of a test (history, the dashboard, the
// monitor's choice of test, the admin's jobs) and never its configuration, so a list of hundreds
// of tests reads a few hundred bytes per test instead of up to 256 KB (core/testSummaries.ts
// keeps it current).
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { juryVerdictValidator } from "./juryStats";
import { runCounters, stopReason, testStatus } from "../validators";

/** The fields of a test's summary row (core/testSummaries.ts summaryOf derives them from the test). */
export const testSummaryFields = {
  testId: v.id("tests"),
  userId: v.id("users"),
  /** The team the test belongs to; absent for a personal test. */
  teamId: v.optional(v.id("teams")),
  /** The test's _creationTime: the lists' newest-first order. */
  createdAt: v.number(),
  name: v.string(),
  taskType: v.string(),
  status: testStatus,
  /** tests.awaitingPayment: with status pending, an unpaid draft (core/userStats.ts isDraft). */
  awaitingPayment: v.boolean(),
  priceCents: v.number(),
  /**
   * What a partial refund returned of the price (a test stopped early: the calls it did not make),
   * set when the refund is recorded (core/unrunRefunds.ts), not by summaryOf: History shows the net.
   */
  refundedCents: v.optional(v.number()),
  /** Generator models of the configuration (the dashboard's model count). */
  modelCount: v.number(),
  startedAt: v.optional(v.number()),
  completedAt: v.optional(v.number()),
  ...runCounters.pick("totalCostUsd", "missingResponses", "missingEvaluations").fields,
  /** The latest gateway error, cut to SUMMARY_ERROR_LENGTH characters. */
  lastCallError: v.optional(v.string()),
  /** The stored summary's first three top performers (History's badges). */
  topPerformers: v.array(v.string()),
  /** The jury's verdict: the best model, those statistically tied for first, or too little evidence. */
  juryVerdict: v.optional(juryVerdictValidator),
  /** The test this one reruns (tests.rerunOf), and the finished test it re-judges (tests.rejudgeOf). */
  rerunOf: v.optional(v.id("tests")),
  rejudgeOf: v.optional(v.id("tests")),
  /** A test that stopped when settled: after how many of its pairs (tests.stopped). */
  stopped: v.optional(stopReason),
  /** Runs of each cell when more than one (configuration.repeats). */
  repeats: v.optional(v.number()),
};

export const testSummaryTables = {
  testSummaries: defineTable(testSummaryFields)
    .index("by_test", ["testId"])
    // A user's personal tests (teamId absent), newest first; by_user_status: the monitor's current test.
    .index("by_user_team_created", ["userId", "teamId", "createdAt"])
    .index("by_user_status_created", ["userId", "status", "createdAt"])
    // A team's tests, newest first; by_team_status: the team's monitor.
    .index("by_team_created", ["teamId", "createdAt"])
    .index("by_team_status_created", ["teamId", "status", "createdAt"])
    // The admin's tests of one status, newest first.
    .index("by_status_created", ["status", "createdAt"])
    // A finished test's re-judgings, newest first (its results link to them).
    .index("by_rejudge_of_created", ["rejudgeOf", "createdAt"]),
};
