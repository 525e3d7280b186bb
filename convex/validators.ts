// Validators shared by the schema and the functions that take or return these shapes.
import { v, type Infer } from "convex/values";
import { EVALUATION_CRITERIA, type EvaluationCriterion } from "./lib/criteria";
import { summaryTestFigureFields } from "./lib/metrics";
import { TEMPLATE_CATEGORIES } from "./lib/templateCategories";
import { humanStatsValidator, nullableNumber, statsInterval } from "./tables/juryStats";

export const testStatus = v.union(
  v.literal("pending"),
  v.literal("running"),
  v.literal("completed"),
  v.literal("failed"),
  v.literal("cancelled"),
);
export type TestStatus = Infer<typeof testStatus>;

export const jobStatus = v.union(
  v.literal("pending_payment"),
  v.literal("queued"),
  v.literal("processing"),
  v.literal("completed"),
  v.literal("failed"),
  v.literal("cancelled"),
);
export type JobStatus = Infer<typeof jobStatus>;

export const paymentStatus = v.union(
  v.literal("pending"),
  v.literal("paid"),
  v.literal("completed"),
  v.literal("failed"),
  v.literal("cancelled"),
  // Money that arrived for a test that no longer takes it (already paid, stopped, deleted): being returned.
  v.literal("refund_pending"),
  v.literal("refunded"),
  // Stripe's amount or currency differed from the test's quote: nothing queued, an admin alert raised.
  v.literal("amount_mismatch"),
);
export type PaymentStatus = Infer<typeof paymentStatus>;

export const alertKind = v.union(v.literal("stuck_job"), v.literal("amount_mismatch"), v.literal("refund_failed"));

export const creditTransactionType = v.union(
  v.literal("purchase"),
  v.literal("test_cost"),
  v.literal("refund"),
  v.literal("bonus"),
);

/** Declared by lib/templateCategories.ts (with their labels in lib/templates.ts). */
export const templateCategory = v.union(...TEMPLATE_CATEGORIES.map((category) => v.literal(category)));

export const personaInput = v.object({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  systemPrompt: v.string(),
});

export const topicInput = v.object({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  prompt: v.string(),
});

export const modelRef = v.object({ id: v.string(), name: v.string() });

/** One flag per criterion of the registry (lib/criteria.ts). */
export const evaluationCriteria = v.object(
  Object.fromEntries(EVALUATION_CRITERIA.map((criterion) => [criterion, v.boolean()])) as Record<
    EvaluationCriterion,
    ReturnType<typeof v.boolean>
  >,
);

export const scoringParameters = v.object({
  scale: v.union(v.literal("ranking"), v.literal("rating")),
  includeExplanations: v.boolean(),
  /** "Judge in both orders" (ranking scale): every ranking call is made again with the answers reversed. */
  bothOrders: v.optional(v.boolean()),
  /** "Judges skip answers from their own family": a judge scores no answer of its own provider's models. */
  skipOwnFamily: v.optional(v.boolean()),
});

// ── Checks on every answer (lib/checks.ts): plain facts tested before any judge reads the answer ──
export const checkKind = v.union(
  v.literal("contains"),
  v.literal("notContains"),
  v.literal("regex"),
  v.literal("startsWith"),
  v.literal("json"),
  v.literal("jsonSchema"),
  v.literal("length"),
  v.literal("latency"),
  v.literal("cost"),
);
/**
 * One check of a test. `value`: the text, pattern or JSON Schema; `caseSensitive`: contains / does
 * not contain / starts with; `unit`, `min`, `max`: length (words or characters); `max`: latency
 * in milliseconds, cost in dollars; `topicId`: only that topic's answers (absent: every topic).
 */
export const answerCheck = v.object({
  id: v.string(),
  kind: checkKind,
  value: v.optional(v.string()),
  caseSensitive: v.optional(v.boolean()),
  unit: v.optional(v.union(v.literal("words"), v.literal("characters"))),
  min: v.optional(v.number()),
  max: v.optional(v.number()),
  topicId: v.optional(v.string()),
});
export type AnswerCheck = Infer<typeof answerCheck>;
/** A template's check: scoped to a topic by its place in the template's topics. */
export const templateCheck = answerCheck.omit("topicId").extend({ topicIndex: v.optional(v.number()) });
export type TemplateCheck = Infer<typeof templateCheck>;
/** Why an answer failed a check (responses.checkFailures). */
export const checkFailure = v.object({ checkId: v.string(), reason: v.string() });

/**
 * "Stop when settled" (lib/settle.ts): the run draws its pairs in a seeded order and ends once the
 * question is settled at `confidence`. `modelId` and `delta` (points on 10) for "withinDelta",
 * `minPassRate` (0–1) for "passRate"; `seed` orders the pairs (set at creation when absent).
 */
export const stopWhenSettled = v.object({
  question: v.union(v.literal("best"), v.literal("withinDelta"), v.literal("passRate")),
  confidence: v.number(),
  modelId: v.optional(v.string()),
  delta: v.optional(v.number()),
  minPassRate: v.optional(v.number()),
  seed: v.optional(v.string()),
});

/** Why a completed test stopped before its last pair: "settled", after pairsDone of pairsTotal. */
export const stopReason = v.object({
  reason: v.literal("settled"),
  pairsDone: v.number(),
  pairsTotal: v.number(),
});

/** The configuration snapshot a test runs with (spec part 1 §3 "Test configuration"). */
export const testConfiguration = v.object({
  name: v.string(),
  taskType: v.string(),
  userPrompt: v.string(),
  personas: v.array(personaInput),
  topics: v.array(topicInput),
  generatorModels: v.array(modelRef),
  evaluatorModels: v.array(modelRef),
  responsesPerTopic: v.number(),
  rankingPrompt: v.string(),
  evaluationCriteria,
  scoringParameters,
  checks: v.optional(v.array(answerCheck)),
  /** "An answer that fails a check ranks last": the jury statistics treat a failing answer as the worst. */
  failedChecksRankLast: v.optional(v.boolean()),
  stopWhenSettled: v.optional(stopWhenSettled),
  /** Runs of each model × persona × topic cell, each a fresh gateway call (lib/repeats.ts); absent = 1. */
  repeats: v.optional(v.number()),
});
export type TestConfiguration = Infer<typeof testConfiguration>;

export const templateData = v.object({
  userPrompt: v.string(),
  personas: v.array(v.object({ name: v.string(), description: v.string(), systemPrompt: v.string() })),
  topics: v.array(v.object({ title: v.string(), description: v.string(), prompt: v.string() })),
  evaluationConfig: v.object({
    rankingPrompt: v.string(),
    evaluationCriteria,
    scoringParameters,
  }),
  suggestedModels: v.object({ generators: v.array(v.string()), evaluators: v.array(v.string()) }),
  responsesPerTopic: v.optional(v.number()),
  checks: v.optional(v.array(templateCheck)),
  failedChecksRankLast: v.optional(v.boolean()),
  /** The test's "stop when settled" setting, stored without its seed (each test draws its own). */
  stopWhenSettled: v.optional(stopWhenSettled),
  /** Runs of each cell (lib/repeats.ts); absent = 1. */
  repeats: v.optional(v.number()),
});
export type TemplateData = Infer<typeof templateData>;

export const progress = v.object({
  currentPhase: v.string(),
  percentage: v.number(),
  estimatedTimeRemaining: v.optional(v.string()),
  details: v.optional(v.string()),
  /** While running: when the run is forecast to end (lib/timeEstimates forecastTimeRemaining), which the monitor counts down to. */
  endsAt: v.optional(v.number()),
});

const outCalls = v.array(v.object({ outForMs: v.number(), expectedMs: v.union(v.number(), v.null()) }));
/** A pool worker's view of its calls (lib/timeEstimates CallsInSight), sent with its report. */
export const callsInSight = v.object({
  out: v.object({ generation: outCalls, judging: outCalls }),
  latencyMs: v.object({ generation: v.array(v.number()), judging: v.array(v.number()) }),
  slots: v.optional(v.number()),
});

export const costEstimate = v.object({
  generationCost: v.number(),
  evaluationCost: v.number(),
  totalCost: v.number(),
  totalQueries: v.number(),
  estimatedTokens: v.number(),
});

/** A model's place in a test: the results, the shared page, the monitor and the stored summary. */
export const modelRanking = v.object({
  modelId: v.string(),
  modelName: v.string(),
  totalResponses: v.number(),
  /** 0-10; 0 when no evaluation has scored the model yet (see evaluationCount). */
  averageScore: v.number(),
  evaluationCount: v.number(),
});
export type ModelRanking = Infer<typeof modelRanking>;

export const resultsSummary = v.object({
  // Summaries stored by older versions lack evaluationCount.
  modelRankings: v.array(modelRanking.omit("evaluationCount").extend({ evaluationCount: v.optional(v.number()) })),
  analysisSummary: v.object({
    /** Answers recorded (each generated answer is one "test" of a model). */
    totalTests: v.number(),
    /** Gateway cost in dollars. */
    totalCost: v.number(),
    /** averageLatency, completionRate, …: the per-test figures of lib/metrics, by their summaryKey. */
    ...summaryTestFigureFields,
    /** Names of the best three models. */
    topPerformers: v.array(v.string()),
  }),
});
export type ResultsSummary = Infer<typeof resultsSummary>;

export const callKind = v.union(v.literal("generate"), v.literal("evaluate"));
export const callStatus = v.union(
  v.literal("pending"),
  v.literal("leased"),
  v.literal("succeeded"),
  v.literal("failed"),
  v.literal("cancelled"),
);

// ── The runner's worker protocol (runner.claim / runner.record) ──
export const usage = v.object({
  promptTokens: v.number(),
  completionTokens: v.number(),
  latencyMs: v.number(),
  costUsd: v.number(),
});
export type Usage = Infer<typeof usage>;
const usageFields = usage.fields;
/**
 * A judge call's answers with their generators, as its claim read them: its recording takes the
 * models from here instead of reading every answer again (a ranking shows up to 100).
 */
const answerModels = v.array(v.object({ responseId: v.id("responses"), modelId: v.string() }));
/** What a worker brings back from one gateway call (runner.record). */
export const callOutcome = v.union(
  v.object({ kind: v.literal("generated"), answers: v.array(v.string()), ...usageFields }),
  v.object({
    kind: v.literal("ranked"),
    ranking: v.array(v.id("responses")),
    explanation: v.string(),
    answerModels: v.optional(answerModels),
    ...usageFields,
  }),
  v.object({
    kind: v.literal("rated"),
    scores: v.record(v.string(), v.number()),
    explanation: v.string(),
    answerModels: v.optional(answerModels),
    ...usageFields,
  }),
  v.object({ kind: v.literal("failed"), error: v.string(), ...usageFields }),
);
export type Outcome = Infer<typeof callOutcome>;

/** One leased call handed to a worker (runner.claim): everything it needs to make the call. */
export const workItem = v.object({
  callId: v.id("calls"),
  leaseId: v.string(),
  kind: callKind,
  scale: scoringParameters.fields.scale,
  modelId: v.string(),
  promptPrice: v.number(),
  completionPrice: v.number(),
  messages: v.array(
    v.object({ role: v.union(v.literal("system"), v.literal("user"), v.literal("assistant")), content: v.string() }),
  ),
  maxTokens: v.number(),
  answersWanted: v.number(),
  labels: v.array(v.object({ label: v.string(), responseId: v.id("responses") })),
  /** A judge call's answers (those that exist) with their generators, handed back with its verdict. */
  answerModels: v.optional(answerModels),
  criteria: v.array(v.string()),
  /**
   * The call's persona × topic pair: its worker reports a pair once none of its generation calls
   * is out, and a test set to stop when settled counts the pairs it has in progress.
   */
  pair: v.optional(v.string()),
  /** A repeated cell's generation call: sent as the request's `seed`, so no repeat reuses another's reply. */
  seed: v.optional(v.number()),
  /** The generation its last lease was waiting for (that worker died): its result is taken from the gateway if it ended. */
  priorGeneration: v.optional(v.string()),
});
export type WorkItem = Infer<typeof workItem>;

/** reviews.pair: one persona × topic pair to review blind (labels only; no model or response ids). */
export const reviewPairValidator = v.union(
  v.null(),
  v.object({
    scale: scoringParameters.fields.scale,
    /** Rating: the test's criteria, each scored 1–10 like the judges do. */
    criteria: v.array(v.string()),
    /** False for a team viewer. */
    canReview: v.boolean(),
    pairs: v.array(
      v.object({
        personaId: v.string(),
        topicId: v.string(),
        personaName: v.string(),
        topicName: v.string(),
        answers: v.number(),
        /** By the caller. */
        reviewed: v.boolean(),
      }),
    ),
    current: v.union(
      v.null(),
      v.object({
        personaId: v.string(),
        topicId: v.string(),
        personaName: v.string(),
        topicName: v.string(),
        userPrompt: v.string(),
        answers: v.array(v.object({ label: v.string(), content: v.string() })),
        verdict: v.union(
          v.null(),
          v.object({ ranking: v.array(v.string()) }),
          v.object({ scores: v.record(v.string(), v.record(v.string(), v.number())) }),
        ),
      }),
    ),
  }),
);

/** reviews.summary: the team's ranking, its reviewers' agreement and each judge's agreement with it. */
export const reviewSummaryValidator = v.union(
  v.null(),
  v.object({
    reviewers: v.array(v.object({ initials: v.string(), pairs: v.number(), isYou: v.boolean() })),
    pairsReviewed: v.number(),
    totalPairs: v.number(),
    /** Best first, on the jury's 0–10 score scale. */
    models: humanStatsValidator.fields.models,
    /** Null below two reviewers on a common pair. */
    reviewerAgreement: humanStatsValidator.fields.reviewerAgreement,
    /** Kendall's tau-b between each judge's and the team's model order; best agreement first. */
    judges: v.array(
      v.object({
        judgeModelId: v.string(),
        judgeName: v.string(),
        tau: nullableNumber,
        interval: v.union(statsInterval, v.null()),
        units: v.number(),
      }),
    ),
  }),
);

/**
 * A test's run counters (tests), added to by each recorded call as a delta and folded into the
 * test's row (core/pipeline/runCounters.ts). The monitor's row and the summaries pick from these.
 */
export const runCounters = v.object({
  responsesCount: v.number(),
  evaluationsCount: v.number(),
  missingResponses: v.number(),
  missingEvaluations: v.number(),
  failedCalls: v.number(),
  totalCalls: v.number(),
  finishedCalls: v.number(),
  totalCostUsd: v.number(),
  totalLatencyMs: v.number(),
  totalTokens: v.number(),
  /** Spend on judge calls, part of totalCostUsd (the rest is generation); older tests lack it. */
  judgingCostUsd: v.optional(v.number()),
  /** Judge calls that have ended, part of finishedCalls: the time remaining measures each kind's rate. */
  judgeCallsFinished: v.optional(v.number()),
  /** Gateway time of the ended calls (Σ call latency), per kind: each kind's rate for the time remaining. */
  generationCallMs: v.optional(v.number()),
  judgeCallMs: v.optional(v.number()),
});

/**
 * What a pool worker reports about once a second (runner.beat): its adaptive controller's state
 * (lib/concurrency.ts) and the gateway exchanges since its last report. testConcurrency keeps
 * the state and the exchanges' running totals.
 */
export const workerReport = v.object({
  level: v.number(),
  ceiling: v.optional(v.number()),
  backedOff: v.boolean(),
  inFlight: v.number(),
  /** Gateway exchanges, and those answered 429, timed out or with a 5xx. */
  exchanges: v.number(),
  rateLimited: v.number(),
  timeouts: v.number(),
  serverErrors: v.number(),
});
export type WorkerReport = Infer<typeof workerReport>;
