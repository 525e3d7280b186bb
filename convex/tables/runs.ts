// A running test's insert-only bookkeeping: declarations only, imported by convex/schema.ts.
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { answerCheck, modelRef, scoringParameters, testConfiguration } from "../validators";

/** What one result adds to a model's sums (for all personas and for its persona). */
const modelDelta = v.object({
  modelId: v.string(),
  personaId: v.string(),
  responses: v.optional(v.number()),
  tokens: v.optional(v.number()),
  costUsd: v.optional(v.number()),
  latencyMs: v.optional(v.number()),
  scoreSum: v.optional(v.number()),
  scoreCount: v.optional(v.number()),
});

export const runTables = {
  /**
   * What one recording adds to its test's counters and its models' sums, inserted and never
   * read by another recording (core/pipeline/runCounters.ts): no row is written by two calls of a
   * test. The worker's report folds rows older than a moment into the test's row and modelStats
   * and deletes them, so the test's row plus its deltas is the whole count.
   */
  runDeltas: defineTable({
    testId: v.id("tests"),
    counters: v.optional(v.record(v.string(), v.number())),
    /** The call's gateway error: the test shows the latest. */
    lastCallError: v.optional(v.string()),
    lastErrorAt: v.optional(v.number()),
    models: v.optional(v.array(modelDelta)),
    /** A judge call's score of each answer it judged (the mean of its criteria's scores). */
    scores: v.optional(v.array(v.object({ responseId: v.id("responses"), score: v.number() }))),
  }).index("by_test", ["testId"]),

  /**
   * The gateway's generation id of a call's request, by lease, kept by the worker's reports
   * (core/pipeline/callGenerations.ts): a worker that dies leaves its calls' generations running
   * at providers that do not stop them, and the call's next lease takes the result from the
   * gateway instead of paying for it again.
   */
  callGenerations: defineTable({
    testId: v.id("tests"),
    callId: v.id("calls"),
    leaseId: v.string(),
    generationId: v.string(),
  })
    .index("by_test", ["testId"])
    .index("by_call_lease", ["callId", "leaseId"]),

  /**
   * An answer's score sums over its evaluations, written by the fold only (a judge call's
   * recording puts its scores in its delta): several judges' calls of one answer write no common
   * row, and a reader gets the answer's average from one small row.
   */
  answerScores: defineTable({
    testId: v.id("tests"),
    responseId: v.id("responses"),
    scoreSum: v.number(),
    scoreCount: v.number(),
  })
    .index("by_response", ["responseId"])
    .index("by_test", ["testId"]),

  /**
   * What a recording needs of its running test, written when the run starts and when it ends
   * (core/pipeline/runView.ts): recordings read this row, never the test's, which the folds and
   * the jury statistics write while it runs.
   */
  testRuns: defineTable({
    testId: v.id("tests"),
    running: v.boolean(),
    /** A small test folds on every recording (exact figures at once). */
    foldEveryCall: v.boolean(),
    /**
     * Its recordings mark generation calls awaiting their pair's judge calls (calls.awaitingJudges):
     * a run opened before they did is swept pair by pair (core/pipeline/host.ts sweepPairs).
     */
    marksAwaitingJudges: v.optional(v.boolean()),
    configuration: v.object({
      responsesPerTopic: v.number(),
      scoringParameters,
      evaluatorModels: v.array(modelRef),
      checks: v.optional(v.array(answerCheck)),
    }),
  }).index("by_test", ["testId"]),

  /**
   * What the pool worker's claims need of a running test to build its work items (the prompts,
   * personas, topics and scoring), written with its testRuns row (core/pipeline/runView.ts):
   * a claim reads this and the run row, never the test's row, which the worker's report folds
   * into while the run goes on (each claim read the test's counters too, and conflicted with the
   * report that wrote them).
   */
  testWork: defineTable({
    testId: v.id("tests"),
    configuration: testConfiguration.pick(
      "userPrompt",
      "personas",
      "topics",
      "responsesPerTopic",
      "rankingPrompt",
      "evaluationCriteria",
      "scoringParameters",
      // A test set to stop when settled claims judge calls first (core/pipeline/claim.ts).
      "stopWhenSettled",
    ),
  }).index("by_test", ["testId"]),
};
