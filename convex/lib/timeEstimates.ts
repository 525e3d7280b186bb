// How long a test takes: the setup page's estimate (spec part 1 §9) and a running test's time
// remaining, forecast from its calls' pace and latencies (spec part 2 §4).
import { modelIdOf } from "./types";
import { type ProgressConfig, expectedCallsOf } from "./progress";

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
  const models = catalogLatenciesOf(config, latencies);
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
          generation: models.generation.map((ms) => ms * scale),
          judging: models.judging.map((ms) => ms * scale),
        },
        slots: Math.max(1, concurrency),
      },
    ) ?? 0;
  return { minMs: forecastAt(SETUP_ESTIMATE_SPREAD.fast), maxMs: forecastAt(SETUP_ESTIMATE_SPREAD.slow) };
}

/**
 * Each chosen generator's and judge's catalog latency (ms), in the configuration's order: its
 * last runs' observed latency (core/modelLatencies), else its kind's DEFAULT_CALL_LATENCY_MS.
 */
export function catalogLatenciesOf(
  config: ProgressConfig,
  latencies: Readonly<Record<string, number>>,
): { generation: number[]; judging: number[] } {
  const generators = (config.generatorModels ?? config.models ?? []).map(modelIdOf);
  const judges = config.generatorModels ? (config.evaluatorModels ?? []).map(modelIdOf) : [];
  const latencyOf = (kind: "generate" | "evaluate", modelId: string) =>
    latencies[latencyKey(kind, modelId)] ?? DEFAULT_CALL_LATENCY_MS[kind];
  return {
    generation: generators.map((id) => latencyOf("generate", id)),
    judging: judges.map((id) => latencyOf("evaluate", id)),
  };
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
