// Progress of a running test from its counters (spec part 2 §4) and time estimates (part 1 §9).
import { modelIdOf, type ModelRef, type ProgressInfo } from "./types";
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
  const pairs = config.personas.length * config.topics.length;
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

/** Spec: completion takes ceil(queries / 10) to ceil(queries / 5) minutes. */
export function estimateTimeRange(queries: number): { minMinutes: number; maxMinutes: number } {
  const count = Math.max(0, queries);
  return { minMinutes: Math.ceil(count / 10), maxMinutes: Math.ceil(count / 5) };
}

/** How much faster and slower than the catalog's latencies a run may go: the setup estimate's range. */
export const SETUP_ESTIMATE_SPREAD = { fast: 0.8, slow: 1.6 } as const;

/**
 * The setup page's estimate of a run's wall time, as a range in ms: the run's calls (answers,
 * then judgements) on the plan's concurrency at each chosen model's catalog latency (core/
 * modelLatencies: its last runs' observed latency, else DEFAULT_CALL_LATENCY_MS), forecast as the
 * monitor forecasts a run (forecastTimeRemaining), from a little faster to rather slower.
 */
export function setupTimeRange(
  config: ProgressConfig,
  latencies: Readonly<Record<string, number>>,
  concurrency: number,
): { minMs: number; maxMs: number } {
  const calls = expectedCallsOf(config);
  if (calls.generation + calls.judging === 0) return { minMs: 0, maxMs: 0 };
  const generators = (config.generatorModels ?? config.models ?? []).map(modelIdOf);
  const judges = config.generatorModels ? (config.evaluatorModels ?? []).map(modelIdOf) : [];
  const latencyOf = (kind: "generate" | "evaluate", modelId: string) =>
    latencies[latencyKey(kind, modelId)] ?? DEFAULT_CALL_LATENCY_MS[kind];
  const forecastAt = (scale: number) =>
    forecastTimeRemaining(
      {
        startedAt: 0,
        now: 0,
        generation: { done: 0, expected: calls.generation, busyMs: 0 },
        judging: { done: 0, expected: calls.judging, busyMs: 0 },
      },
      {
        out: { generation: [], judging: [] },
        latencyMs: {
          generation: generators.map((id) => latencyOf("generate", id) * scale),
          judging: judges.map((id) => latencyOf("evaluate", id) * scale),
        },
        slots: Math.max(1, concurrency),
      },
    ) ?? 0;
  return { minMs: forecastAt(SETUP_ESTIMATE_SPREAD.fast), maxMs: forecastAt(SETUP_ESTIMATE_SPREAD.slow) };
}

/** '5-10 seconds', '1-2 minutes', 'About 3 minutes', rounded outwards (never shorter than the estimate's low end). */
export function durationRangeLabel(range: { minMs: number; maxMs: number }): string {
  const { minMs, maxMs } = range;
  if (maxMs <= 0) return "Under a minute";
  if (maxMs < 60_000) {
    const low = Math.max(1, Math.floor(minMs / 1000));
    const high = Math.max(low, Math.ceil(maxMs / 1000));
    return low === high ? `About ${high} seconds` : `${low}-${high} seconds`;
  }
  const unit = maxMs < 2 * 3_600_000 ? 60_000 : 3_600_000;
  const name = unit === 60_000 ? "minute" : "hour";
  const low = Math.max(minMs < unit ? 0 : 1, Math.floor(minMs / unit));
  const high = Math.max(1, Math.ceil(maxMs / unit));
  if (low === 0) return `Under ${high} ${name}s`;
  if (low === high) return `About ${high} ${name}${high === 1 ? "" : "s"}`;
  return `${low}-${high} ${name}s`;
}

/** '1-2 minutes', '1 minute', '3 minutes', or 'Under a minute' when there is nothing to run. */
export function timeRangeLabel(range: { minMinutes: number; maxMinutes: number }): string {
  const { minMinutes, maxMinutes } = range;
  if (maxMinutes <= 0) return "Under a minute";
  if (minMinutes === maxMinutes) return `${maxMinutes} minute${maxMinutes === 1 ? "" : "s"}`;
  return `${minMinutes}-${maxMinutes} minutes`;
}

/** Where a running test's calls stand, for the time remaining. Times are Unix milliseconds. */
export interface CallPace {
  readonly startedAt: number;
  readonly now: number;
  /** Calls ended, calls the run makes, and the gateway time the ended calls took (Σ latency). */
  readonly generation: { readonly done: number; readonly expected: number; readonly busyMs: number };
  readonly judging: { readonly done: number; readonly expected: number; readonly busyMs: number };
  /**
   * Calls the test has in flight now (its adaptive concurrency), when known: the time left
   * follows it rather than the average so far, which lags while the concurrency grows or backs off.
   */
  readonly concurrency?: number;
}

/**
 * Calls per second of each kind as measured so far: the workers' measured concurrency (gateway
 * time spent / time elapsed) over the kind's mean call time. A judge call is much quicker than
 * writing an answer, so each kind has its own rate. Null for a kind with no ended call; judge
 * calls go at the generation rate until one has ended.
 */
export function callRates(pace: CallPace): { generation: number | null; judging: number | null } {
  const elapsed = pace.now - pace.startedAt;
  const busy = pace.generation.busyMs + pace.judging.busyMs;
  if (elapsed <= 0 || busy <= 0) return { generation: null, judging: null };
  const concurrency = busy / elapsed;
  const rateOf = (kind: CallPace["generation"]) =>
    kind.done > 0 && kind.busyMs > 0 ? (concurrency * kind.done * 1000) / kind.busyMs : null;
  const generation = rateOf(pace.generation);
  const judging = rateOf(pace.judging);
  return { generation: generation ?? judging, judging: judging ?? generation };
}

/**
 * Milliseconds left: the calls of each kind still to end at that kind's measured rate (~600
 * judge calls left at 4.6 a second is about 2 minutes, not 'Less than a minute'). The workers
 * share the calls, so the kinds' times add up. A kind's calls run at most as many at a time as
 * are left, so its time is never under one measured call of that kind (one 65 s answer left is
 * 65 s, however many workers are idle). Null while no call has ended (no pace yet).
 */
export function estimateTimeRemaining(pace: CallPace): number | null {
  const generationLeft = Math.max(0, pace.generation.expected - pace.generation.done);
  const judgingLeft = Math.max(0, pace.judging.expected - pace.judging.done);
  if (generationLeft + judgingLeft === 0) return 0;
  const elapsed = pace.now - pace.startedAt;
  const busy = pace.generation.busyMs + pace.judging.busyMs;
  if (elapsed <= 0 || busy <= 0) return null;
  const concurrency = pace.concurrency !== undefined && pace.concurrency > 0 ? pace.concurrency : busy / elapsed;
  const meanOf = (kind: CallPace["generation"]) => (kind.done > 0 && kind.busyMs > 0 ? kind.busyMs / kind.done : null);
  // Judge calls take the generation calls' time until one has ended, and the other way round.
  const generationMean = meanOf(pace.generation) ?? meanOf(pace.judging);
  const judgingMean = meanOf(pace.judging) ?? meanOf(pace.generation);
  const msFor = (left: number, meanMs: number | null) =>
    left === 0 ? 0 : meanMs === null ? null : (left * meanMs) / Math.min(concurrency, left);
  const generationMs = msFor(generationLeft, generationMean);
  const judgingMs = msFor(judgingLeft, judgingMean);
  if (generationMs === null || judgingMs === null) return null;
  return Math.round(generationMs + judgingMs);
}

/**
 * What the pool worker sees of its gateway calls (runner.work's report): each call in flight,
 * how long it has been out and the gateway's observed latency of its model and kind (the
 * concurrency controller's moving average); and the observed latency of each model of each kind,
 * for the calls not sent yet.
 */
export interface CallsInSight {
  readonly out: { readonly generation: readonly OutCall[]; readonly judging: readonly OutCall[] };
  /** Observed latency (ms) per model of each kind; the run's calls of a kind are spread evenly over its models. */
  readonly latencyMs: { readonly generation: readonly number[]; readonly judging: readonly number[] };
  /** Calls the worker may have out now (its controller's level within its share); else the pace's concurrency. */
  readonly slots?: number;
}

/** A call kind's latency for a model never seen on this deployment (a ~500-token answer; a short judgement). */
export const DEFAULT_CALL_LATENCY_MS = { generate: 15_000, evaluate: 6_000 } as const;

/** The latency key of a model's calls of one kind, as the worker's controller keys them. */
export function latencyKey(kind: "generate" | "evaluate", modelId: string): string {
  return `${kind}:${modelId}`;
}

/**
 * The worker's view for its report: `kinds` is its concurrency controller's moving average of each
 * kind of call's latency, keyed "generate:<model>" or "evaluate:<model>" (runner.work).
 */
export function callsInSightOf(
  controller: { readonly kinds: Readonly<Record<string, { readonly averageMs: number }>> },
  out: Iterable<{ key: string; sentAt: number }>,
  slots: number,
  now: number,
  /** The test's models' catalog latencies by key (core/modelLatencies), for those not seen in this run yet. */
  priors: Readonly<Record<string, number>> = {},
) {
  const kindOf = (key: string) => (key.startsWith("evaluate:") ? "judging" : "generation");
  const latencyOf = (key: string) => {
    const seen = controller.kinds[key]?.averageMs ?? priors[key];
    return seen === undefined ? null : Math.round(seen);
  };
  const sight = {
    out: { generation: [] as OutCall[], judging: [] as OutCall[] },
    latencyMs: { generation: [] as number[], judging: [] as number[] },
    slots: Math.max(1, Math.floor(slots)),
  };
  for (const key of new Set([...Object.keys(priors), ...Object.keys(controller.kinds)])) {
    sight.latencyMs[kindOf(key)].push(latencyOf(key)!);
  }
  for (const call of out) {
    sight.out[kindOf(call.key)].push({ outForMs: Math.max(0, now - call.sentAt), expectedMs: latencyOf(call.key) });
  }
  return sight satisfies CallsInSight;
}
export interface OutCall {
  readonly outForMs: number;
  /** The observed latency of its model and kind, when one of them has ended; else the kind's. */
  readonly expectedMs: number | null;
}

/** A call out longer than its usual latency still has at least this share of it to go. */
const OVERDUE_SHARE = 0.25;
/** The most queued calls simulated one by one; past it, whole rounds of the slots are counted at once. */
const SIMULATED_CALLS = 4_000;

/** A binary min-heap of slot free times. */
function pushHeap(heap: number[], value: number): void {
  heap.push(value);
  for (let i = heap.length - 1; i > 0;) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= heap[i]!) break;
    [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
    i = parent;
  }
}
function popHeap(heap: number[]): number {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && heap[left]! < heap[least]!) least = left;
      if (right < heap.length && heap[right]! < heap[least]!) least = right;
      if (least === i) break;
      [heap[least], heap[i]] = [heap[i]!, heap[least]!];
      i = least;
    }
  }
  return top;
}

/**
 * Milliseconds left, from the calls in flight and the gateway's observed latencies: the pool's
 * slots (the concurrency) first finish the calls out (each its model's usual latency less the
 * time it has been out), then take the calls not sent yet (answers before judgements, each
 * kind's calls spread evenly over its models, at each model's observed latency), each call on
 * the first slot free; the run ends when the last slot does, and never before one judge call
 * after the last answer (a pair's judgements wait for its answers). Null while no latency is known.
 */
export function forecastTimeRemaining(pace: CallPace, sight: CallsInSight): number | null {
  const meanOf = (kind: CallPace["generation"]) => (kind.done > 0 && kind.busyMs > 0 ? kind.busyMs / kind.done : null);
  const generationLatencies = sight.latencyMs.generation.length
    ? sight.latencyMs.generation
    : [meanOf(pace.generation) ?? meanOf(pace.judging)].filter((ms): ms is number => ms !== null);
  const judgingLatencies = sight.latencyMs.judging.length
    ? sight.latencyMs.judging
    : [meanOf(pace.judging) ?? meanOf(pace.generation)].filter((ms): ms is number => ms !== null);
  const generationQueued = Math.max(0, pace.generation.expected - pace.generation.done - sight.out.generation.length);
  const judgingQueued = Math.max(0, pace.judging.expected - pace.judging.done - sight.out.judging.length);
  const outCount = sight.out.generation.length + sight.out.judging.length;
  if (generationQueued + judgingQueued + outCount === 0) return 0;
  const fallback = generationLatencies[0] ?? judgingLatencies[0];
  if (fallback === undefined) return null;
  const slots = Math.max(1, Math.round(sight.slots ?? pace.concurrency ?? outCount), outCount);
  const heap: number[] = [];
  const leftOf = (call: OutCall, kindLatencies: readonly number[]) => {
    const expected = call.expectedMs ?? kindLatencies[0] ?? fallback;
    return Math.max(expected - call.outForMs, expected * OVERDUE_SHARE);
  };
  let lastAnswer = 0;
  for (const call of sight.out.generation) {
    const left = leftOf(call, generationLatencies);
    lastAnswer = Math.max(lastAnswer, left);
    pushHeap(heap, left);
  }
  for (const call of sight.out.judging) pushHeap(heap, leftOf(call, judgingLatencies));
  while (heap.length < slots) pushHeap(heap, 0);
  let end = Math.max(...heap);
  /** Queues `count` calls spread over `latencies`; returns when the last of them ends. */
  const queue = (count: number, latencies: readonly number[]) => {
    if (count === 0 || latencies.length === 0) return 0;
    let last = 0;
    let left = count;
    // Many calls: whole rounds (each slot one call of the mean latency) are counted at once.
    const mean = latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length;
    if (left > SIMULATED_CALLS) {
      const rounds = Math.floor((left - SIMULATED_CALLS) / slots);
      for (let i = 0; i < heap.length; i++) heap[i]! += rounds * mean;
      left -= rounds * slots;
    }
    for (let i = 0; i < left; i++) {
      const ends = popHeap(heap) + latencies[(count - left + i) % latencies.length]!;
      pushHeap(heap, ends);
      last = Math.max(last, ends);
    }
    return last;
  };
  // The slowest models' calls are spread through the queue, as the pool claims them in creation order.
  lastAnswer = Math.max(lastAnswer, queue(generationQueued, generationLatencies));
  const lastJudgement = queue(judgingQueued, judgingLatencies);
  end = Math.max(end, lastAnswer, lastJudgement, ...heap);
  const judgeAfterLastAnswer =
    pace.judging.expected > pace.judging.done && lastAnswer > 0 ? lastAnswer + Math.min(...judgingLatencies) : 0;
  return Math.round(Math.max(end, judgeAfterLastAnswer));
}

/**
 * The end time shown: a new forecast moves it only when it differs from the one shown by more
 * than `STEADY_END` allows, so the time left counts down steadily instead of going back and forth
 * with each report's noise ('About 2 min', 'About 3 min', 'About 2 min').
 */
export const STEADY_END = { minMs: 5_000, share: 0.15 } as const;

export function steadyEndsAt(shownEndsAt: number | undefined, forecastEndsAt: number, now: number): number {
  if (shownEndsAt === undefined) return forecastEndsAt;
  const tolerance = Math.max(STEADY_END.minMs, STEADY_END.share * Math.max(0, forecastEndsAt - now));
  return Math.abs(forecastEndsAt - shownEndsAt) <= tolerance ? shownEndsAt : forecastEndsAt;
}

/**
 * When a running test's counters and progress are folded into its row again (the row the
 * results page and shared viewers re-run on; the monitor has its own, MONITOR_PROGRESS): once
 * enough calls landed since the last write to move it visibly (5% of the calls left, at least 10,
 * at most all that are left), or once the shown figures are `staleMs` old, never more often than
 * `minIntervalMs`. A fast test then writes its row every 10 or so calls, not every second for
 * one or two; a slow one (Starter's 16 calls at once: about one call a second) every 10 s rather
 * than every 3 s, which re-ran every shared viewer about once per 4 calls. (The fold at the end
 * of a run takes every call regardless.)
 */
export const PROGRESS_FOLD = {
  /** Never written more often than this. */
  minIntervalMs: 1_000,
  /** The shown figures are never older than this (counted from the last write). */
  staleMs: 10_000,
  /** Calls that landed worth a write: this share of the calls left … */
  shareOfRemaining: 0.05,
  /** … but at least this many (or every call left, when fewer are). */
  minCalls: 10,
} as const;

/** How many newly landed calls make a running test's progress worth writing (≥ 1). */
export function callsPerProgressWrite(remainingCalls: number): number {
  const remaining = Math.max(0, Math.floor(remainingCalls));
  const wanted = Math.max(PROGRESS_FOLD.minCalls, Math.ceil(remaining * PROGRESS_FOLD.shareOfRemaining));
  return Math.max(1, Math.min(remaining, wanted));
}

/** Whether a running test's progress is written now (see PROGRESS_FOLD). */
export function progressWriteDue(state: {
  /** Milliseconds since its progress was last written. */
  sinceLastWriteMs: number;
  /** Calls that landed since (and are not yet in the row). */
  newCalls: number;
  /** Calls the test still has to make, as of the last write. */
  remainingCalls: number;
}): boolean {
  if (state.sinceLastWriteMs < PROGRESS_FOLD.minIntervalMs) return false;
  if (state.sinceLastWriteMs >= PROGRESS_FOLD.staleMs) return true;
  return state.newCalls >= callsPerProgressWrite(state.remainingCalls);
}

/**
 * When a running test's monitor row (core/monitorProgress.ts) is written again: once enough
 * calls ended since its last write (callsPerMonitorWrite: 5% of the calls left, at least 10, but
 * a small test in at least `minSteps` steps), or, when fewer did, after `slowMs` if anything it
 * shows moved, so a slow tail still moves. The monitor re-runs only on these writes: at most
 * about one per 10 ended calls (a test of under 50 calls: one per fifth of them), plus one per
 * `slowMs` while calls trickle in. (The row goes when the run ends; the monitor then reads the
 * ended test.)
 */
export const MONITOR_PROGRESS = {
  /** The slow fallback: a row with something new is never older than this. */
  slowMs: 10_000,
  /** A small test's monitor still moves in about this many steps (a 6-call test: every 2 calls). */
  minSteps: 5,
} as const;

/** How many newly ended calls make a running test's monitor row worth writing (≥ 1). */
export function callsPerMonitorWrite(remainingCalls: number, totalCalls: number): number {
  const smallTestStep = Math.max(1, Math.ceil(totalCalls / MONITOR_PROGRESS.minSteps));
  return Math.min(callsPerProgressWrite(remainingCalls), smallTestStep);
}

/** Whether a running test's monitor row is written now (see MONITOR_PROGRESS). */
export function monitorWriteDue(state: {
  /** Milliseconds since the row was last written. */
  sinceLastWriteMs: number;
  /** Calls that ended since (by the counters as now folded). */
  newCalls: number;
  /** Calls the test still had to make at the row's last write, and all it makes. */
  remainingCalls: number;
  totalCalls: number;
  /** Whether a figure the monitor shows changed since (counters, phase, errors). */
  changed: boolean;
}): boolean {
  if (state.newCalls > 0 && state.newCalls >= callsPerMonitorWrite(state.remainingCalls, state.totalCalls)) return true;
  return state.changed && state.sinceLastWriteMs >= MONITOR_PROGRESS.slowMs;
}

/** What the monitor says of a test's size: its models, judges, personas, topics and calls. */
export function monitorSizeOf(config: ProgressConfig, missingResponses = 0) {
  const calls = expectedCallsOf(config, missingResponses);
  return {
    models: (config.generatorModels ?? config.models ?? []).length,
    judges: config.generatorModels ? (config.evaluatorModels ?? []).length : 0,
    personas: config.personas.length,
    topics: config.topics.length,
    generationCalls: calls.generation,
    judgingCalls: calls.judging,
  };
}
