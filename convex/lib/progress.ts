// Progress of a running test from its counters (spec part 2 §4) and time estimates (part 1 §9).
import type { ModelRef, ProgressInfo } from "./types";
import { responsesPerTopicOf } from "./pricing";

/** What progress needs from a test configuration; older records list generators as `models`. */
export interface ProgressConfig {
  readonly generatorModels?: readonly ModelRef[];
  /** Older records: a single models list, treated as generators with no evaluators. */
  readonly models?: readonly ModelRef[];
  readonly evaluatorModels?: readonly ModelRef[];
  readonly personas: readonly unknown[];
  readonly topics: readonly unknown[];
  readonly responsesPerTopic?: number;
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

/** Expected answers = generators × topics × personas × responses per topic (default 1). */
export function expectedResponsesOf(config: ProgressConfig): number {
  const generators = (config.generatorModels ?? config.models ?? []).length;
  return generators * config.topics.length * config.personas.length * responsesPerTopicOf(config.responsesPerTopic);
}

/**
 * Expected evaluations = answers × evaluator models: each evaluator leaves one score per answer,
 * on the rating scale and on the ranking scale alike. Answers recorded as missing get none.
 */
export function expectedEvaluationsOf(config: ProgressConfig, missingResponses = 0): number {
  const evaluators = config.generatorModels ? (config.evaluatorModels ?? []).length : 0;
  return Math.max(0, expectedResponsesOf(config) - missingResponses) * evaluators;
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
 * (50 + 40% of the evaluation percentage); otherwise 'Finalizing Results' (95%). Note that the
 * spec's percentages fall back from the generation phase to 50 when evaluation starts.
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
      progress: responseProgress,
      details: `${counts.actualResponses} of ${expectedResponses} responses generated`,
    };
  }
  if (evaluationsDone < expectedEvaluations) {
    return {
      ...base,
      phase: "Collecting Evaluations",
      progress: Math.floor(50 + 0.4 * evaluationProgress),
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

/** Spec: completion takes ceil(queries / 10) to ceil(queries / 5) minutes. */
export function estimateTimeRange(queries: number): { minMinutes: number; maxMinutes: number } {
  const count = Math.max(0, queries);
  return { minMinutes: Math.ceil(count / 10), maxMinutes: Math.ceil(count / 5) };
}

/** '1-2 minutes', '1 minute', '3 minutes', or 'Under a minute' when there is nothing to run. */
export function timeRangeLabel(range: { minMinutes: number; maxMinutes: number }): string {
  const { minMinutes, maxMinutes } = range;
  if (maxMinutes <= 0) return "Under a minute";
  if (minMinutes === maxMinutes) return `${maxMinutes} minute${maxMinutes === 1 ? "" : "s"}`;
  return `${minMinutes}-${maxMinutes} minutes`;
}

/**
 * Share of the work done, 0-1: half for the answers and half for the evaluations (all of it
 * for the answers when there is nothing to evaluate). Unlike the displayed percentage it
 * never goes backwards, so the time estimate does not jump when evaluation starts.
 */
export function workDone(info: ProgressInfo): number {
  if (info.phase === "Finalizing Results") return 1;
  if (info.expectedEvaluations <= 0) return info.responseProgress / 100;
  return (info.responseProgress + info.evaluationProgress) / 200;
}

/**
 * Milliseconds left at the pace so far, or null while nothing is done yet (no pace to go by).
 * `startedAt` and `now` are Unix milliseconds.
 */
export function estimateTimeRemaining(info: ProgressInfo, startedAt: number, now: number): number | null {
  const done = workDone(info);
  if (done >= 1) return 0;
  const elapsed = now - startedAt;
  if (done <= 0 || elapsed <= 0) return null;
  return Math.round((elapsed * (1 - done)) / done);
}
