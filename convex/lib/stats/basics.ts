// Small numerical building blocks shared by the jury statistics.
import { errorFunction, gammaln, quantileSorted, sampleCorrelation } from "simple-statistics";

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** Relative difference below which two scores are the same score (see `compareScores`). */
export const SCORE_TOLERANCE = 1e-9;

/**
 * Compares two scores (or means, or interval bounds of them): 0 when they are equal within a
 * relative 1e-9, else the sign of a − b. Judges' scores are rationals with small denominators
 * (ranks over N answers, both orders averaged, criteria averaged); float sums reach the same
 * rational with errors in the 16th digit (35/6 as (10 + 10/6) / 2 is 5.833333333333333, as
 * (50/6 + 20/6) / 2 it is 5.833333333333334), while distinct ones differ far above the 9th digit.
 */
export function compareScores(a: number, b: number): -1 | 0 | 1 {
  if (a === b) return 0;
  if (Math.abs(a - b) <= SCORE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b))) return 0;
  return a < b ? -1 : 1;
}

/** The values sorted ascending with their indices, cut into runs of equal scores (compareScores). */
function tiedRuns(values: readonly number[]): { value: number; index: number }[][] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const runs: { value: number; index: number }[][] = [];
  for (const entry of order) {
    const run = runs[runs.length - 1];
    // Equal to the run's first value: a run never stretches over scores that differ.
    if (run && compareScores(entry.value, run[0]!.value) === 0) run.push(entry);
    else runs.push([entry]);
  }
  return runs;
}

/** Ranks 1..n with tied values sharing the mean of the ranks they span ("midranks"). */
export function midranks(values: readonly number[]): number[] {
  const ranks = new Array<number>(values.length);
  let start = 0;
  for (const run of tiedRuns(values)) {
    const rank = start + (run.length + 1) / 2;
    for (const entry of run) ranks[entry.index] = rank;
    start += run.length;
  }
  return ranks;
}

/** Σ (t³ − t) over the groups of tied values: the tie term of Kendall's W and tau-b. */
export function tieTerm(values: readonly number[]): number {
  let total = 0;
  for (const { length: t } of tiedRuns(values)) total += t * t * t - t;
  return total;
}

/** The 95% (or other) percentile interval of a sample; null when it is empty. */
export function percentileInterval(sample: readonly number[], level = 0.95): Interval | null {
  if (sample.length === 0) return null;
  const sorted = [...sample].sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}

/** Pearson's r; null when either side has no variance or there are fewer than 3 pairs. */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 3 || x.length !== y.length) return null;
  const r = sampleCorrelation([...x], [...y]);
  return Number.isFinite(r) ? r : null;
}

/** Spearman's rho (Pearson on midranks); null when undefined. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 2 || x.length !== y.length) return null;
  // Pearson on this module's midranks, whose ties are equal scores within the tolerance.
  const rho = sampleCorrelation(midranks(x), midranks(y));
  return Number.isFinite(rho) ? rho : null;
}

/**
 * The pairs of items Kendall's tau-b counts: ordered the same way by x and y (concordant), the
 * other way (discordant), tied in x only, tied in y only (pairs tied in both are left out). O(n²).
 */
export interface KendallCounts {
  concordant: number;
  discordant: number;
  tiedX: number;
  tiedY: number;
}

export function kendallCounts(x: readonly number[], y: readonly number[]): KendallCounts {
  const counts = { concordant: 0, discordant: 0, tiedX: 0, tiedY: 0 };
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = compareScores(x[i]!, x[j]!);
      const dy = compareScores(y[i]!, y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) counts.tiedX++;
      else if (dy === 0) counts.tiedY++;
      else if (dx === dy) counts.concordant++;
      else counts.discordant++;
    }
  }
  return counts;
}

/** tau-b = (C − D) / √((C + D + T_x)(C + D + T_y)) from the counts; null when undefined. */
export function tauBOfCounts({ concordant, discordant, tiedX, tiedY }: KendallCounts): number | null {
  const denominator = Math.sqrt((concordant + discordant + tiedX) * (concordant + discordant + tiedY));
  return denominator > 0 ? (concordant - discordant) / denominator : null;
}

/** Kendall's tau-b (ties in either variable corrected); null when undefined. O(n²). */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 2 || x.length !== y.length) return null;
  return tauBOfCounts(kendallCounts(x, y));
}

/** P(Z ≥ z) for a standard normal Z. */
export function normalUpperTail(z: number): number {
  return 0.5 * (1 - errorFunction(z / Math.SQRT2));
}

/**
 * One-sided test of a correlation r over n pairs being above 0, by Fisher's z
 * (z = atanh(r)·√(n − 3)); null below 4 pairs.
 */
export function correlationPValue(r: number, n: number): number | null {
  if (n < 4) return null;
  const clipped = Math.max(-0.999999, Math.min(0.999999, r));
  return normalUpperTail(Math.atanh(clipped) * Math.sqrt(n - 3));
}

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * The regularized incomplete beta function I_x(a, b), by its continued fraction (modified
 * Lentz; Numerical Recipes §6.4). Only used for Student's t below.
 */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let fraction = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let term = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + term * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + term / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    fraction *= d * c;
    term = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + term * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + term / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    fraction *= delta;
    if (Math.abs(delta - 1) < 1e-14) break;
  }
  return (front * fraction) / a;
}

/** P(T ≥ t) for Student's t with `df` degrees of freedom. */
export function studentTUpperTail(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? tail : 1 - tail;
}

/** The q-quantile of Student's t with `df` degrees of freedom (q > 0.5), by bisection on its tail. */
export function studentTQuantile(q: number, df: number): number {
  let low = 0;
  let high = 1;
  while (studentTUpperTail(high, df) > 1 - q) high *= 2;
  for (let step = 0; step < 100 && high - low > 1e-12 * high; step++) {
    const middle = (low + high) / 2;
    if (studentTUpperTail(middle, df) > 1 - q) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

const t975 = new Map<number, number>();
/** t_{0.975, df}: the multiplier of a 95% t interval (cached: every interval of a test shares a few df). */
export function t95(df: number): number {
  let value = t975.get(df);
  if (value === undefined) t975.set(df, (value = studentTQuantile(0.975, df)));
  return value;
}

/** Sample standard deviation (n − 1 denominator); null below 2 values. */
export function sampleSd(values: ArrayLike<number>): number | null {
  const n = values.length;
  if (n < 2) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const centre = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i]! - centre) ** 2;
  return Math.sqrt(squares / (n - 1));
}

function clipped(low: number, high: number, bounds?: Interval): Interval {
  return bounds ? { low: Math.max(bounds.low, low), high: Math.min(bounds.high, high) } : { low, high };
}

/**
 * The 95% t interval of a mean of n independent values (one per persona × topic pair):
 * mean ± t_{0.975, n−1} · s / √n, cut to `bounds` (a mean of scores cannot leave the scale).
 * Null below 2 values. Each value already averages that pair's answers and judge calls, so their
 * spread carries the pairs', the answers' and the judges' noise at once (see docs/statistics.md).
 */
export function tInterval(values: ArrayLike<number>, bounds?: Interval): Interval | null {
  const n = values.length;
  const sd = sampleSd(values);
  if (sd === null) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const centre = sum / n;
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  return clipped(centre - half, centre + half, bounds);
}

/**
 * The 95% interval of a mean of n independent values with Hall's (1992) skewness correction of
 * the t statistic: with Δ = (mean − μ)/s and γ the values' skewness (third central moment over
 * s³, n denominator), g(Δ) = √n · (Δ + γΔ²/3 + γ²Δ³/27 + γ/(6n)) is nearly Student's t with n − 1
 * degrees of freedom and, unlike Johnson's (1978) quadratic, monotone, so it inverts in closed
 * form: Δ(q) = (3/γ) · (∛(1 + γ·(q/√n − γ/(6n))) − 1), and the interval is
 * [mean − s·Δ(t), mean − s·Δ(−t)], t = t_{0.975, n−1}. With γ = 0 it is the t interval. Why: one
 * judge's verdicts on a model, pair by pair, are few and lopsided (a weak model is ranked last in
 * most pairs), and the symmetric t interval then misses on the long tail's side (docs/statistics.md).
 */
export function skewCorrectedInterval(
  { mean, sd, thirdMoment, n }: { mean: number; sd: number; thirdMoment: number; n: number },
  bounds?: Interval,
): Interval | null {
  if (n < 2) return null;
  const t = t95(n - 1);
  if (sd === 0) return clipped(mean, mean, bounds);
  const skew = thirdMoment / sd ** 3;
  const root = Math.sqrt(n);
  const delta = (q: number) =>
    Math.abs(skew) < 1e-12 ? q / root : (3 / skew) * (Math.cbrt(1 + skew * (q / root - skew / (6 * n))) - 1);
  return clipped(mean - sd * delta(t), mean - sd * delta(-t), bounds);
}

/**
 * A 95% interval from bootstrap replicates over n resampled pairs, for statistics without a
 * closed-form standard error (Bradley–Terry ratings, pooled tau-b): estimate ± t_{0.975, df} · SE,
 * SE the replicates' standard deviation (read from their ±1 SD percentiles) times √(n / (n − 1)),
 * which undoes the bootstrap's known shrinkage of the variance by (n − 1) / n (Efron & Tibshirani
 * 1993, §5.2 and §12.5; Hesterberg 2015), unless `widen` is false. df defaults to n − 1. Null
 * below 2 pairs or replicates.
 */
export function bootstrapTInterval(
  estimate: number,
  replicates: ArrayLike<number>,
  n: number,
  { df = n - 1, bounds, widen = true }: { df?: number; bounds?: Interval; widen?: boolean } = {},
): Interval | null {
  if (replicates.length < 2 || n < 2 || df < 1) return null;
  // The replicates' spread from their 15.87th to 84.13th percentiles (±1 SD of a normal): with few
  // pairs some resamples give one model every win, and their extreme ratings would inflate a SD.
  const sorted = Float64Array.from(replicates).sort();
  const sd =
    (quantileSorted(sorted as unknown as number[], 0.841345) -
      quantileSorted(sorted as unknown as number[], 0.158655)) /
    2;
  const half = t95(df) * sd * (widen ? Math.sqrt(n / (n - 1)) : 1);
  return clipped(estimate - half, estimate + half, bounds);
}
