// Progress of a running test from its counters (spec part 2 §4); how long it takes is in timeEstimates.ts.
import { modelIdOf, type ModelRef, type ProgressInfo } from "./types";
import { responsesPerTopicOf } from "./pricing";
import { repeatsOf } from "./repeats";

/** What progress needs from a test configuration; older records list generators as `models`. */
export interface ProgressConfig {
  readonly generatorModels?: readonly ModelRef[];
  /** Older records: a single models list, treated as generators with no evaluators. */
  readonly models?: readonly ModelRef[];
  readonly evaluatorModels?: readonly ModelRef[];
  readonly personas: readonly unknown[];
  readonly topics: readonly unknown[];
  readonly responsesPerTopic?: number;
  /** Runs of each cell (lib/repeats.ts): every call is made once per repeat. */
  readonly repeats?: number;
  /** The judging scale; with `bothOrders` every ranking call is made twice (answers reversed). */
  readonly scoringParameters?: {
    readonly scale: "ranking" | "rating";
    readonly bothOrders?: boolean;
    /** A judge gets no answer of its own provider's models. */
    readonly skipOwnFamily?: boolean;
  };
}

export interface ProgressCounts {
  readonly actualResponses: number;
  readonly actualEvaluations: number;
  /** Answers given up on and recorded as missing (never padded); they count as done. */
  readonly missingResponses?: number;
  /** Evaluations given up on (judge never replied usably); they count as done. */
  readonly missingEvaluations?: number;
  /** The latest gateway error of the test, which explains what is missing. */
  readonly lastCallError?: string;
  /**
   * Gateway calls that have ended (generation and judge calls alike) and calls created so far.
   * With them the percentage counts calls against every call the run will make, judge calls
   * included from the start, so it never falls back when judging starts.
   */
  readonly finishedCalls?: number;
  readonly createdCalls?: number;
}

/** What a test has given up on, and the last gateway error that explains it. */
export interface MissingWork {
  readonly missingResponses: number;
  readonly missingEvaluations: number;
  readonly lastCallError?: string;
}

function countOf(count: number, singular: string): string {
  return `${count} ${singular}${count === 1 ? "" : "s"}`;
}

/**
 * What is missing and why, in words, or null when nothing is: '2 answers and 4 judgements are
 * missing. Last gateway error: HTTP 503: Service Unavailable'. Shown instead of 'All responses
 * and evaluations completed' wherever a test that lost calls is shown.
 */
export function missingWorkSummary(work: MissingWork): string | null {
  const parts: string[] = [];
  if (work.missingResponses > 0) parts.push(countOf(work.missingResponses, "answer"));
  if (work.missingEvaluations > 0) parts.push(countOf(work.missingEvaluations, "judgement"));
  if (parts.length === 0) return null;
  const total = work.missingResponses + work.missingEvaluations;
  const sentence = `${parts.join(" and ")} ${total === 1 ? "is" : "are"} missing.`;
  return work.lastCallError ? `${sentence} Last gateway error: ${work.lastCallError}` : sentence;
}

/** What a finished test delivered against what its configuration asked for (and was paid for). */
export interface Delivery {
  readonly expectedResponses: number;
  readonly responsesCount: number;
  /** As quoted: every expected answer judged by every evaluator. */
  readonly expectedEvaluations: number;
  readonly evaluationsCount: number;
}

/** The share of the quoted model calls' output that arrived, 0-1 (answers and judgements alike). */
export function deliveredShare(delivery: Delivery): number {
  const expected = delivery.expectedResponses + delivery.expectedEvaluations;
  if (expected <= 0) return 1;
  return Math.min(1, (delivery.responsesCount + delivery.evaluationsCount) / expected);
}

/**
 * The shortfall of a test that delivered less than it was quoted for, in words, or null:
 * 'Delivered 6 of 8 answers and 10 of 16 judgements (66%).'
 */
export function deliveryShortfall(delivery: Delivery): string | null {
  if (deliveredShare(delivery) >= 1) return null;
  const percent = Math.floor(deliveredShare(delivery) * 100);
  return (
    `Delivered ${delivery.responsesCount} of ${countOf(delivery.expectedResponses, "answer")} and ` +
    `${delivery.evaluationsCount} of ${countOf(delivery.expectedEvaluations, "judgement")} (${percent}%).`
  );
}

export const PROGRESS_DETAILS = {
  unknown: "Test configuration not available",
  finalizing: "All responses and evaluations completed",
} as const;

/** Expected answers = generators × topics × personas × responses per topic (default 1) × repeats. */
export function expectedResponsesOf(config: ProgressConfig): number {
  const generators = (config.generatorModels ?? config.models ?? []).length;
  return (
    generators *
    config.topics.length *
    config.personas.length *
    responsesPerTopicOf(config.responsesPerTopic) *
    repeatsOf(config.repeats)
  );
}

/**
 * Expected evaluations = answers × evaluator models: each evaluator leaves one score per answer,
 * on the rating scale and on the ranking scale alike. Answers recorded as missing get none.
 */
export function expectedEvaluationsOf(config: ProgressConfig, missingResponses = 0): number {
  const evaluators = config.generatorModels ? (config.evaluatorModels ?? []).length : 0;
  return Math.max(0, expectedResponsesOf(config) - missingResponses) * evaluators;
}

/**
 * The gateway calls a run makes, known from its configuration before any call exists: one
 * generation call per generator × persona × topic; judge calls — ranking, one per evaluator per
 * persona × topic pair (two with "Judge in both orders"); rating, one per evaluator per answer
 * (none for an answer recorded as missing). With "Judges skip answers from their own family" a
 * judge has only the other families' answers: it rates only those, and ranks a pair only when
 * two or more are left (or the test has a single generator). Never less than the calls the run
 * will make, so the percentage never has to fall back.
 */
export function expectedCallsOf(config: ProgressConfig, missingResponses = 0): { generation: number; judging: number } {
  const generatorIds = (config.generatorModels ?? config.models ?? []).map(modelIdOf);
  // Each repeat runs every pair again (lib/repeats.ts).
  const pairs = config.personas.length * config.topics.length * repeatsOf(config.repeats);
  const evaluatorIds = config.generatorModels ? (config.evaluatorModels ?? []).map(modelIdOf) : [];
  const perTopic = responsesPerTopicOf(config.responsesPerTopic);
  const scoring = config.scoringParameters;
  const family = (modelId: string) => modelId.split("/")[0] ?? modelId; // as lib/stats modelFamily
  const unrelated = (ids: readonly string[], modelId: string) =>
    scoring?.skipOwnFamily ? ids.filter((other) => family(other) !== family(modelId)).length : ids.length;
  // Per judge: the generators whose answers it sees.
  const judged = evaluatorIds.map((evaluator) => unrelated(generatorIds, evaluator));
  let judging: number;
  if (scoring?.scale === "ranking") {
    judging = judged.reduce((sum, seen) => {
      if (seen === 0 || (seen * perTopic < 2 && seen < generatorIds.length)) return sum;
      return sum + pairs * (scoring.bothOrders && seen * perTopic > 1 ? 2 : 1);
    }, 0);
  } else {
    // A missing answer needs no judge: at least the fewest judges any answer has.
    const fewestJudges =
      generatorIds.length === 0 ? 0 : Math.min(...generatorIds.map((generator) => unrelated(evaluatorIds, generator)));
    judging = Math.max(
      0,
      judged.reduce((sum, seen) => sum + seen * pairs * perTopic, 0) - missingResponses * fewestJudges,
    );
  }
  return { generation: generatorIds.length * pairs, judging };
}

/** Highest percentage before 'Finalizing Results' (95%): the bar reaches 95 only when all is in. */
const BEFORE_FINALIZING = 94;

/**
 * The percentage of a run: ended calls over every call it makes (the expected judge calls
 * counted from the start), scaled to 0-95. The numerator only grows and the denominator only
 * shrinks (missing answers need no judges), so the bar never goes backwards.
 */
export function callProgress(config: ProgressConfig, counts: ProgressCounts): number {
  const expected = expectedCallsOf(config, counts.missingResponses ?? 0);
  const total = Math.max(expected.generation + expected.judging, counts.createdCalls ?? 0);
  if (total <= 0) return 0;
  return Math.min(BEFORE_FINALIZING, Math.floor((95 * (counts.finishedCalls ?? 0)) / total));
}

function percentOf(done: number, expected: number): number {
  if (expected <= 0) return 100;
  // Floored so that 100 means everything is in.
  return Math.min(100, Math.floor((done / expected) * 100));
}

/** The label shown before any counter has been read. */
export function initialProgress(config?: ProgressConfig | null): ProgressInfo {
  const expectedResponses = config ? expectedResponsesOf(config) : 0;
  return {
    phase: "Initializing",
    progress: 0,
    details: "",
    expectedResponses,
    actualResponses: 0,
    expectedEvaluations: config ? expectedEvaluationsOf(config) : 0,
    actualEvaluations: 0,
    responseProgress: 0,
    evaluationProgress: 0,
  };
}

/**
 * Phase and percentage from the counters, as spec part 2 §4 lays them out:
 * no answers yet → 'Starting Response Generation' (0%); answers outstanding → 'Generating
 * Responses' (the answer percentage); evaluations outstanding → 'Collecting Evaluations'
 * (50 + 40% of the evaluation percentage); otherwise 'Finalizing Results' (95%). The spec's
 * percentages fall back from the generation phase to 50 when evaluation starts (91% → 51%), so
 * when the call counters are given the percentage is `callProgress` instead, which never does.
 */
export function computeProgress(config: ProgressConfig | null | undefined, counts: ProgressCounts): ProgressInfo {
  if (!config) {
    return {
      phase: "Unknown",
      progress: 0,
      details: PROGRESS_DETAILS.unknown,
      expectedResponses: 0,
      actualResponses: counts.actualResponses,
      expectedEvaluations: 0,
      actualEvaluations: counts.actualEvaluations,
      responseProgress: 0,
      evaluationProgress: 0,
    };
  }
  const missingResponses = counts.missingResponses ?? 0;
  const expectedResponses = expectedResponsesOf(config);
  const expectedEvaluations = expectedEvaluationsOf(config, missingResponses);
  const responsesDone = counts.actualResponses + missingResponses;
  const evaluationsDone = counts.actualEvaluations + (counts.missingEvaluations ?? 0);
  const responseProgress = percentOf(responsesDone, expectedResponses);
  const evaluationProgress = percentOf(evaluationsDone, expectedEvaluations);
  const base = {
    expectedResponses,
    actualResponses: counts.actualResponses,
    expectedEvaluations,
    actualEvaluations: counts.actualEvaluations,
    responseProgress,
    evaluationProgress,
  };
  if (responsesDone === 0) {
    return {
      ...base,
      phase: "Starting Response Generation",
      progress: 0,
      details: `Expected ${expectedResponses} responses, found 0`,
    };
  }
  if (responsesDone < expectedResponses) {
    return {
      ...base,
      phase: "Generating Responses",
      progress: counts.finishedCalls === undefined ? responseProgress : callProgress(config, counts),
      details: `${counts.actualResponses} of ${expectedResponses} responses generated`,
    };
  }
  if (evaluationsDone < expectedEvaluations) {
    return {
      ...base,
      phase: "Collecting Evaluations",
      progress:
        counts.finishedCalls === undefined ? Math.floor(50 + 0.4 * evaluationProgress) : callProgress(config, counts),
      details: `${counts.actualEvaluations} of ${expectedEvaluations} evaluations completed`,
    };
  }
  const missing = missingWorkSummary({
    missingResponses,
    missingEvaluations: counts.missingEvaluations ?? 0,
    lastCallError: counts.lastCallError,
  });
  return { ...base, phase: "Finalizing Results", progress: 95, details: missing ?? PROGRESS_DETAILS.finalizing };
}
