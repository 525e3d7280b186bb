// The setup page's time estimate for a test set to stop when settled. Such a test does not run
// its calls side by side as a plain test does (lib/timeEstimates setupTimeRange): it takes a new
// pair's answers only once the pair before has its answers in (lib/claimOrder.ts,
// SETTLE_PAIRS_AHEAD = 1), so a look can read every pair before it spends more. One pair's
// judging overlaps the next pair's answers, and each step waits for the slower of the two: a
// 60-pair test at 4 s answers and 2 s verdicts that never settles takes ~6.5–7 minutes where the
// plain run takes seconds (bench/adaptive.ts). Pure.
import { expectedCallsOf, type ProgressConfig } from "./progress";
import { repeatsOf } from "./repeats";
import { settleInFlightCap } from "./claimOrder";
import { catalogLatenciesOf, durationRangeLabel, SETUP_ESTIMATE_SPREAD } from "./timeEstimates";

/**
 * Time a step spends beyond its calls: the worker reports a pair 100 ms after its last answer
 * (core/pipeline/worker.ts PAIR_REPORT_MS), the report creates its judge calls and the next claim
 * takes them with the next pair's answers.
 */
export const SETTLE_STEP_GAP_MS = 300;

export const SETTLE_TIME_REASON = "Stop when settled runs pairs one after another to look between them";

/**
 * When the last of `latencies` (calls in this order) ends on `slots` calls at once, each call
 * taking the first slot free.
 */
export function makespan(latencies: readonly number[], slots: number): number {
  const free = Array<number>(Math.max(1, Math.min(slots, latencies.length))).fill(0);
  let end = 0;
  for (const latency of latencies) {
    let first = 0;
    for (let slot = 1; slot < free.length; slot++) if (free[slot]! < free[first]!) first = slot;
    free[first]! += latency;
    end = Math.max(end, free[first]!);
  }
  return end;
}

/** `count` calls spread in turn over the models' latencies, as the calls are created. */
function spread(count: number, latencies: readonly number[]): number[] {
  if (latencies.length === 0) return [];
  return Array.from({ length: count }, (_, index) => latencies[index % latencies.length]!);
}

/**
 * The wall time (ms) of a test set to stop when settled, as a range: from settling after its
 * fewest possible pairs (`fewestPairs`, lib/settle fewestSettlingPairs) a little faster than the
 * catalog's latencies, to running every pair rather slower (SETUP_ESTIMATE_SPREAD, as for a
 * plain test). Each repeat of a pair is one step (its answers' calls at a time). The calls out
 * at once are the plan's `concurrency`, at most the test's in-flight cap (settleInFlightCap).
 */
export function settleTimeRange(
  config: ProgressConfig,
  latencies: Readonly<Record<string, number>>,
  concurrency: number,
  fewestPairs: number,
): { minMs: number; maxMs: number } {
  const calls = expectedCallsOf(config);
  const pairs = config.personas.length * config.topics.length;
  if (pairs === 0 || calls.generation + calls.judging === 0) return { minMs: 0, maxMs: 0 };
  const steps = pairs * repeatsOf(config.repeats);
  const models = catalogLatenciesOf(config, latencies);
  const slots = Math.max(
    1,
    Math.min(concurrency, settleInFlightCap((calls.generation + calls.judging) / pairs, pairs)),
  );
  const answersPerStep = Math.round(calls.generation / steps);
  const verdictsPerStep = Math.round(calls.judging / steps);
  const timeOf = (stepCount: number, scale: number) => {
    const answers = spread(answersPerStep, models.generation).map((ms) => ms * scale);
    const verdicts = spread(verdictsPerStep, models.judging).map((ms) => ms * scale);
    // The first step's answers alone, then each step's verdicts beside the next step's answers
    // (claimed verdicts first), then the last step's verdicts alone.
    const overlapped = makespan([...verdicts, ...answers], slots);
    const ms =
      makespan(answers, slots) +
      (stepCount - 1) * overlapped +
      makespan(verdicts, slots) +
      stepCount * SETTLE_STEP_GAP_MS;
    return Math.round(ms);
  };
  const earliest = Math.max(1, Math.min(pairs, fewestPairs)) * repeatsOf(config.repeats);
  return { minMs: timeOf(earliest, SETUP_ESTIMATE_SPREAD.fast), maxMs: timeOf(steps, SETUP_ESTIMATE_SPREAD.slow) };
}

/**
 * The estimate in words: the range, and why it is longer than a plain run's, e.g. "Under 7
 * minutes" and "Stop when settled runs pairs one after another to look between them: under a
 * minute if it settles early, about 7 minutes if it runs every pair."
 */
export function settleTimeWords(range: { minMs: number; maxMs: number }): { label: string; note: string } {
  return {
    label: durationRangeLabel(range),
    note: `${SETTLE_TIME_REASON}: ${aboutLabel(range.minMs)} if it settles early, ${aboutLabel(range.maxMs)} if it runs every pair.`,
  };
}

/** One time in words: "under a minute", "about 7 minutes", "about 3 hours". */
export function aboutLabel(ms: number): string {
  if (ms < 60_000) return "under a minute";
  if (ms < 2 * 3_600_000) {
    const minutes = Math.round(ms / 60_000);
    return `about ${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  return `about ${Math.round(ms / 3_600_000)} hours`;
}
