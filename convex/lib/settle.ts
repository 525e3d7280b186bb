// "Stop when settled" (issue 35): the run draws its persona × topic pairs in a seeded random order
// and, after each look, asks whether the question the user chose is settled at their confidence,
// from anytime-valid confidence sequences over the pairs judged so far (lib/stats/sequential.ts,
// docs/statistics.md "Stopping when settled"). Pure: the pipeline gives it the pairs in order and
// ends the test when it says settled; the words are lib/settleWords.ts.
import type { Interval } from "./stats/basics";
import { bettingInterval, MIXTURE_MIN_VALUES, mixtureInterval } from "./stats/sequential";
import { seededRandom } from "./stats/random";

/** Which model is best; is one model within δ points of the best; does each model pass its checks at a rate ≥ p. */
export type SettleQuestionKind = "best" | "withinDelta" | "passRate";

/** A test's "stop when settled" setting (validators.ts stopWhenSettled). */
export interface SettleQuestion {
  readonly question: SettleQuestionKind;
  /** e.g. 0.95. */
  readonly confidence: number;
  /** withinDelta: the model asked about, and δ in points on the 0–10 score. */
  readonly modelId?: string;
  readonly delta?: number;
  /** passRate: the lowest acceptable share of answers passing every check (0–1). */
  readonly minPassRate?: number;
  /** Seeds the pairs' order; set when the test is created. */
  readonly seed?: string;
}

export const SETTLE_CONFIDENCES = [0.9, 0.95, 0.99] as const;
export const DEFAULT_SETTLE_CONFIDENCE = 0.95;
/** δ and p the setup page starts from. */
export const DEFAULT_SETTLE_DELTA = 0.5;
export const DEFAULT_SETTLE_PASS_RATE = 0.9;
/** Score differences live in [−10, 10]; pass shares in [0, 1]. */
const GAP_BOUNDS: Interval = { low: -10, high: 10 };
const SHARE_BOUNDS: Interval = { low: 0, high: 1 };

/** One judged pair: each model's mean score there, and the share of its answers passing every check. */
export interface SettlePair {
  readonly means: ReadonlyMap<string, number>;
  readonly passShares?: ReadonlyMap<string, number>;
}

/** Where the question stands after the pairs judged so far (stored on the test's stats, shown on the monitor). */
export interface SettleStatus {
  readonly question: SettleQuestionKind;
  readonly confidence: number;
  readonly pairsDone: number;
  readonly pairsTotal: number;
  readonly settled: boolean;
  /** The answer so far: best → "best" when settled; withinDelta → "within" / "outside"; passRate → "pass" / "fail". */
  readonly outcome: "best" | "within" | "outside" | "pass" | "fail" | null;
  /** best: the leader; withinDelta: the model asked about; passRate: the model furthest from settled. */
  readonly modelId: string | null;
  /** The comparison that decides, or that keeps it open: the gap to this model (or its pass rate when absent). */
  readonly otherModelId: string | null;
  /** Its confidence sequence now, and the value it must clear (0 for a gap, −δ, or p). */
  readonly interval: Interval | null;
  readonly threshold: number;
  /** passRate: the models settled below p. */
  readonly failing: string[];
}

/** The pairs in the seeded order the run draws them (Fisher–Yates with the test's seed). */
export function pairOrder<Pair>(pairs: readonly Pair[], seed: string): Pair[] {
  const random = seededRandom(`pair-order:${seed}`);
  const order = [...pairs];
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.index(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * The pairs the sequences may read: the longest start of the seeded order whose pairs are all
 * fully judged. The order of the looks is then fixed before any verdict, as a confidence
 * sequence needs, whatever order the calls land in; a pair whose calls failed holds the rest back
 * (the run then goes on to the end, as without stopping).
 */
export function judgedPrefix<Pair>(ordered: readonly Pair[], judged: (pair: Pair) => boolean): Pair[] {
  const prefix: Pair[] = [];
  for (const pair of ordered) {
    if (!judged(pair)) break;
    prefix.push(pair);
  }
  return prefix;
}

/** The confidence sequence of A's score minus B's over the pairs scoring both. */
function gapInterval(
  pairs: readonly SettlePair[],
  a: string,
  b: string,
  alpha: number,
  total: number,
  sides: 1 | 2 = 2,
): Interval {
  const gaps: number[] = [];
  for (const pair of pairs) {
    const x = pair.means.get(a);
    const y = pair.means.get(b);
    if (x !== undefined && y !== undefined) gaps.push(x - y);
  }
  return mixtureInterval(gaps, alpha, GAP_BOUNDS, tunedPairs(total), sides);
}

/** The pairs the normal mixture is tuned for: a quarter of the test (where a clear gap settles). */
function tunedPairs(total: number): number {
  return Math.max(10, Math.round(total / 4));
}

function meanScores(pairs: readonly SettlePair[], models: readonly string[]): Map<string, number> {
  const means = new Map<string, number>();
  for (const modelId of models) {
    let sum = 0;
    let count = 0;
    for (const pair of pairs) {
      const value = pair.means.get(modelId);
      if (value === undefined) continue;
      sum += value;
      count += 1;
    }
    if (count > 0) means.set(modelId, sum / count);
  }
  return means;
}

/**
 * Where the question stands after `pairs` (the judged prefix, in order) of `pairsTotal`. Errors
 * are bounded over every look at once: a wrong "best" needs the sequence of its gap to the truly
 * best model to miss, one of K − 1 sequences at α/(K − 1) each; a wrong "within δ" or "not within
 * δ" likewise; a wrong pass or fail one of K per-model sequences at α/K.
 */
export function settleStatus(
  question: SettleQuestion,
  models: readonly string[],
  pairs: readonly SettlePair[],
  pairsTotal: number,
): SettleStatus {
  const alpha = 1 - question.confidence;
  const base = {
    question: question.question,
    confidence: question.confidence,
    pairsDone: pairs.length,
    pairsTotal,
    failing: [] as string[],
  };
  const open = { ...base, settled: false, outcome: null, modelId: null, otherModelId: null, interval: null };
  if (question.question === "passRate") {
    const threshold = question.minPassRate ?? DEFAULT_SETTLE_PASS_RATE;
    const each = alpha / Math.max(1, models.length);
    let undecided: { modelId: string; interval: Interval; distance: number } | null = null;
    const failing: string[] = [];
    let decided = 0;
    for (const modelId of models) {
      const shares = pairs.flatMap((pair) => {
        const share = pair.passShares?.get(modelId);
        return share === undefined ? [] : [share];
      });
      const interval = bettingInterval(shares, each, SHARE_BOUNDS);
      if (interval.high < threshold) failing.push(modelId);
      if (interval.low >= threshold || interval.high < threshold) {
        decided += 1;
        continue;
      }
      const distance = Math.min(threshold - interval.low, interval.high - threshold);
      if (!undecided || distance > undecided.distance) undecided = { modelId, interval, distance };
    }
    const settled = models.length > 0 && decided === models.length;
    return {
      ...open,
      threshold,
      failing,
      settled,
      outcome: settled ? (failing.length > 0 ? "fail" : "pass") : null,
      modelId: undecided?.modelId ?? null,
      interval: undecided?.interval ?? null,
    };
  }
  const scored = meanScores(pairs, models);
  const ranked = [...scored.keys()].sort((a, b) => scored.get(b)! - scored.get(a)!);
  if (ranked.length < 2) return { ...open, threshold: 0 };
  const each = alpha / (ranked.length - 1);
  if (question.question === "best") {
    const leader = ranked[0]!;
    // Only the gaps' lower bounds decide, each on its own side at α / (K − 1); at least α / 2, so
    // that with two equal models neither side's miss names a winner more than α of the time.
    const eachSide = alpha / Math.max(2, ranked.length - 1);
    // The rival whose gap to the leader is least surely positive decides.
    let closest: { modelId: string; interval: Interval } | null = null;
    for (const other of ranked.slice(1)) {
      const interval = gapInterval(pairs, leader, other, eachSide, pairsTotal, 1);
      if (!closest || interval.low < closest.interval.low) closest = { modelId: other, interval };
    }
    const settled = closest !== null && closest.interval.low > 0;
    return {
      ...open,
      threshold: 0,
      settled,
      outcome: settled ? "best" : null,
      modelId: leader,
      otherModelId: closest?.modelId ?? null,
      interval: closest?.interval ?? null,
    };
  }
  const delta = question.delta ?? 0;
  const target = question.modelId ?? "";
  if (!scored.has(target)) return { ...open, threshold: -delta, modelId: target || null };
  let closest: { modelId: string; interval: Interval } | null = null;
  let outside: { modelId: string; interval: Interval } | null = null;
  for (const other of ranked) {
    if (other === target) continue;
    const interval = gapInterval(pairs, target, other, each, pairsTotal);
    if (interval.high < -delta && (!outside || interval.high < outside.interval.high))
      outside = { modelId: other, interval };
    if (!closest || interval.low < closest.interval.low) closest = { modelId: other, interval };
  }
  const within = closest !== null && closest.interval.low > -delta;
  const decisive = outside ?? closest;
  return {
    ...open,
    threshold: -delta,
    settled: within || outside !== null,
    outcome: outside ? "outside" : within ? "within" : null,
    modelId: target,
    otherModelId: decisive?.modelId ?? null,
    interval: decisive?.interval ?? null,
  };
}

/**
 * The fewest persona × topic pairs after which the question could settle (the low end of the
 * price range shown before paying): a score gap has no sequence before MIXTURE_MIN_VALUES pairs; a
 * pass rate settles soonest when every answer passes (or every one fails), at α/K per model.
 */
export function fewestSettlingPairs(question: SettleQuestion, modelCount: number, pairsTotal: number): number {
  if (question.question !== "passRate") return Math.min(pairsTotal, MIXTURE_MIN_VALUES);
  const threshold = question.minPassRate ?? DEFAULT_SETTLE_PASS_RATE;
  const each = (1 - question.confidence) / Math.max(1, modelCount);
  for (let pairs = 1; pairs < pairsTotal; pairs += 1) {
    const allPass = bettingInterval(Array<number>(pairs).fill(1), each, SHARE_BOUNDS);
    const allFail = bettingInterval(Array<number>(pairs).fill(0), each, SHARE_BOUNDS);
    if (allPass.low >= threshold || allFail.high < threshold) return pairs;
  }
  return pairsTotal;
}

/** Everything wrong with a "stop when settled" setting, under its field (empty when it can run). */
export function settleProblems(
  setting: SettleQuestion | undefined,
  generatorModels: readonly { readonly id: string }[],
): { field: string; message: string }[] {
  if (setting === undefined) return [];
  const problems: { field: string; message: string }[] = [];
  const field = (name: string) => `stopWhenSettled.${name}`;
  if (!(setting.confidence >= 0.8 && setting.confidence <= 0.999))
    problems.push({ field: field("confidence"), message: "The confidence must be between 80% and 99.9%." });
  if (setting.question === "withinDelta") {
    if (!generatorModels.some((model) => model.id === setting.modelId))
      problems.push({ field: field("modelId"), message: "Choose one of the test's models to compare with the best." });
    if (setting.delta === undefined || !(setting.delta >= 0 && setting.delta <= 10))
      problems.push({ field: field("delta"), message: "δ must be between 0 and 10 points." });
  }
  if (
    setting.question === "passRate" &&
    (setting.minPassRate === undefined || !(setting.minPassRate > 0 && setting.minPassRate < 1))
  )
    problems.push({ field: field("minPassRate"), message: "The pass rate must be between 0% and 100%." });
  return problems;
}
