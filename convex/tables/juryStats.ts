// The jury statistics of a test, as stored: the outcome of computeJuryStats (convex/lib/stats) and
// of computeHumanStats (lib/stats/human.ts), the verdict drawn from them, and the two tables
// juryStats.ts keeps them in. Declarations only, imported by convex/schema.ts.
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

// ── Jury statistics: the stored outcome of computeJuryStats (convex/lib/stats) ──
export const statsInterval = v.object({ low: v.number(), high: v.number() });
export const nullableNumber = v.union(v.number(), v.null());
const agreementFigureFields = {
  method: v.union(v.literal("kendall-w"), v.literal("krippendorff-alpha-interval")),
  value: nullableNumber,
  band: v.union(
    v.literal("none"),
    v.literal("weak"),
    v.literal("moderate"),
    v.literal("strong"),
    v.literal("very strong"),
    v.null(),
  ),
  label: v.string(),
};
const biasCheck = { pValue: nullableNumber, flagged: v.boolean() };

export const juryStatsValidator = v.object({
  scale: v.union(v.literal("ranking"), v.literal("rating")),
  resamples: v.number(),
  alpha: v.number(),
  units: v.number(),
  personas: v.number(),
  topics: v.number(),
  models: v.array(
    v.object({
      modelId: v.string(),
      modelName: v.string(),
      meanScore: nullableNumber,
      scoreInterval: v.union(statsInterval, v.null()),
      rank: v.union(v.object({ best: v.number(), worst: v.number() }), v.null()),
      rating: nullableNumber,
      ratingInterval: v.union(statsInterval, v.null()),
      units: v.number(),
      scores: v.number(),
      generationCostUsd: v.number(),
      judgingCostUsd: v.number(),
      criteria: v.array(
        v.object({ criterion: v.string(), mean: nullableNumber, interval: v.union(statsInterval, v.null()) }),
      ),
      byJudge: v.array(
        v.object({ judgeModelId: v.string(), mean: nullableNumber, interval: v.union(statsInterval, v.null()) }),
      ),
      /** A repeated test's spread between repeats (lib/stats/repeats.ts). */
      repeatSpread: v.optional(
        v.object({
          repeats: v.number(),
          pairs: v.number(),
          cellSd: nullableNumber,
          byRepeat: v.array(nullableNumber),
          scoreSd: nullableNumber,
        }),
      ),
    }),
  ),
  winRates: v.object({ modelIds: v.array(v.string()), matrix: v.array(v.array(nullableNumber)) }),
  agreement: v.object({
    method: v.string(),
    overall: v.object(agreementFigureFields),
    byUnit: v.array(v.object({ personaId: v.string(), topicId: v.string(), ...agreementFigureFields })),
  }),
  judges: v.array(
    v.object({
      judgeModelId: v.string(),
      family: v.string(),
      calls: v.number(),
      scores: v.number(),
      costUsd: v.number(),
      agreement: v.object({
        method: v.union(v.literal("kendall-tau-b"), v.literal("spearman")),
        value: nullableNumber,
      }),
      position: v.union(
        v.object({
          calls: v.number(),
          firstRate: v.number(),
          chance: v.number(),
          pValue: v.number(),
          flagged: v.boolean(),
        }),
        v.null(),
      ),
      positionConsistency: nullableNumber,
      length: v.object({ correlation: nullableNumber, excess: nullableNumber, ...biasCheck }),
      selfPreference: v.object({ value: nullableNumber, answers: v.number(), ...biasCheck }),
      flagged: v.boolean(),
    }),
  ),
  summary: v.object({
    kind: v.union(v.literal("best"), v.literal("tied"), v.literal("thin"), v.literal("none")),
    text: v.string(),
    leaders: v.array(v.string()),
    /** Absent on statistics stored before the estimate became a range (they kept extraTopicsNeeded). */
    extraTopicsRange: v.optional(v.union(v.object({ low: v.number(), high: v.number() }), v.null())),
    extraTopicsNeeded: v.optional(nullableNumber),
  }),
  costs: v.object({ generationUsd: v.number(), judgingUsd: v.number() }),
  /** Rating tests: the criteria of the per-criterion figures, in their order; [] for ranking. */
  criteria: v.array(v.string()),
});
export type JuryStatsDoc = Infer<typeof juryStatsValidator>;

/**
 * The winner (kind "best", one leader), the models statistically tied for first, or too little
 * evidence to say (kind "thin", no leaders), by name (testSummaries.juryVerdict; lib/verdict.ts words it).
 */
export const juryVerdictValidator = v.object({
  kind: v.union(v.literal("best"), v.literal("tied"), v.literal("thin")),
  leaders: v.array(v.string()),
});

// ── Blind human review (reviews.ts): the team's verdicts summarised beside the jury's ──
const humanAgreementFields = {
  method: v.string(),
  value: nullableNumber,
  band: agreementFigureFields.band,
  label: v.string(),
  /** Persona × topic pairs reviewed by at least two teammates. */
  units: v.number(),
};

/** The team's figures as stored in testStats.humans (lib/stats/human.ts computeHumanStats). */
export const humanStatsValidator = v.object({
  reviewers: v.array(v.object({ userId: v.id("users"), initials: v.string(), pairs: v.number() })),
  /** Pairs with at least one verdict. */
  pairsReviewed: v.number(),
  models: v.array(
    v.object({
      modelId: v.string(),
      modelName: v.string(),
      meanScore: nullableNumber,
      interval: v.union(statsInterval, v.null()),
      rank: v.union(v.object({ best: v.number(), worst: v.number() }), v.null()),
      units: v.number(),
    }),
  ),
  reviewerAgreement: v.union(v.object(humanAgreementFields), v.null()),
  judges: v.array(
    v.object({
      judgeModelId: v.string(),
      tau: nullableNumber,
      interval: v.union(statsInterval, v.null()),
      units: v.number(),
    }),
  ),
});
export type HumanStatsDoc = Infer<typeof humanStatsValidator>;

/** Where a "stop when settled" question stands (lib/settle.ts SettleStatus), kept on the test's stats row. */
export const settleStatusValidator = v.object({
  question: v.union(v.literal("best"), v.literal("withinDelta"), v.literal("passRate")),
  confidence: v.number(),
  pairsDone: v.number(),
  pairsTotal: v.number(),
  settled: v.boolean(),
  outcome: v.union(
    v.literal("best"),
    v.literal("within"),
    v.literal("outside"),
    v.literal("pass"),
    v.literal("fail"),
    v.null(),
  ),
  modelId: v.union(v.string(), v.null()),
  otherModelId: v.union(v.string(), v.null()),
  interval: v.union(v.object({ low: v.number(), high: v.number() }), v.null()),
  threshold: v.number(),
  failing: v.array(v.string()),
});

export const juryStatsTables = {
  // The jury statistics of a test, recomputed off the write path by
  // juryStats.ts: one row per test, read by the monitor, results, shared page and exports.
  testStats: defineTable({
    testId: v.id("tests"),
    stats: v.optional(juryStatsValidator),
    computedAt: v.optional(v.number()),
    /** Judge scores the stored statistics were computed from. */
    evaluationsSeen: v.number(),
    /** The team's blind reviews summarised (core/reviews.ts), computed with the jury statistics. */
    humans: v.optional(humanStatsValidator),
    /** A recomputation is scheduled or running (at most one per test). */
    pending: v.boolean(),
    /** Results arrived after the running recomputation started reading: run once more. */
    dirty: v.boolean(),
    /** Creation time of the newest answer and judge score in the kept rows (juryStateChunks). */
    cursor: v.optional(v.object({ responses: v.number(), evaluations: v.number() })),
    /** The kept rows come from a full read after the test ended. */
    exact: v.optional(v.boolean()),
    /** The worker's judgedReports the stored statistics include (the poll compares against it). */
    judgedSeen: v.optional(v.number()),
    /** "Stop when settled": where the question stands after the last look (convex/settle.ts). */
    settle: v.optional(settleStatusValidator),
    /**
     * The test ended and its full statistics run is owed: when it was last handed out (to the
     * ending worker, or scheduled). Cleared by the run that stores exact figures; one handed out
     * long ago whose runner died is handed out again by a cron (core/jury/finalRun.ts).
     */
    finalDueAt: v.optional(v.number()),
  })
    .index("by_test", ["testId"])
    .index("by_final_due", ["finalDueAt"]),

  // The compact rows a test's jury statistics are computed from (juryStats.ts), kept
  // between recomputations so that each reads only what arrived since: encoded chunks in order.
  juryStateChunks: defineTable({
    testId: v.id("tests"),
    index: v.number(),
    data: v.string(),
  }).index("by_test_index", ["testId", "index"]),
};
