// Anytime-valid confidence sequences (docs/statistics.md, "Stopping when settled"): intervals that
// may be looked at after every persona × topic pair and still hold the true mean at every look at
// once with probability ≥ 1 − α, so a run may stop the first time one decides its question. The
// fixed-size t interval checked again and again does not: its chance of excluding the truth at
// some look grows with the number of looks (to ~20–30% over 100 looks at 95%).
//
// Two sequences, each where it fits:
// - Score gaps (a difference of two models' per-pair scores, anywhere in [−10, 10] but in practice
//   within a few points): the normal-mixture boundary of Robbins (1970), as Howard, Ramdas,
//   McAuliffe & Sekhon (2021, Ann. Statist. 49(2)) give it, with the running sample
//   variance plugged in: the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha,
//   Kennedy & Ramdas (2024, "Time-uniform central limit theory and asymptotic confidence
//   sequences", Ann. Statist. 52(6)). It adapts to the gaps' spread; a bounded-range
//   sequence pays for the whole 20-point range and needs ~90 pairs to see a 1-point gap that
//   varies by 1.5 points, this one ~30. Its validity is asymptotic, and bench/adaptive.ts
//   measures the false winners it allows at the sizes a test has.
// - Pass rates (a share in [0, 1], where the range is the values' own): the hedged betting
//   sequence of Waudby-Smith & Ramdas (2023, JRSS B 86(1), 1–27), valid at every size.
import { normalUpperTail, t95, type Interval } from "./basics";

/** Candidate means, in equal steps over the bounds: the interval is widened by one step outwards. */
const SEQUENCE_GRID = 1000;
/** The bets' cap c (WSR 2023 use 1/2 or 3/4): a single value can at most halve a bettor's wealth. */
const BET_CAP = 0.5;
/**
 * θ: the hedged wealth is θ·K⁺ + (1 − θ)·K⁻, a nonnegative martingale of initial value 1 (WSR 2023
 * take the larger of the two terms; the sum is at least that, so it rejects a little sooner).
 */
const HEDGE = 0.5;

interface ConfidenceSequenceState {
  readonly alpha: number;
  readonly bounds: Interval;
  /** Values seen (in [0, 1] after scaling). */
  count: number;
  sum: number;
  /** Σ (xᵢ − μ̂ᵢ)², for the plug-in variance σ̂². */
  squares: number;
  /** log K⁺(m) and log K⁻(m) at each grid point m. */
  readonly logUp: Float64Array;
  readonly logDown: Float64Array;
  /** The running intersection of the intervals so far (itself a valid sequence). */
  low: number;
  high: number;
}

/** An empty sequence for values in `bounds` at level 1 − alpha. */
function bettingSequence(alpha: number, bounds: Interval, grid = SEQUENCE_GRID): ConfidenceSequenceState {
  if (!(alpha > 0 && alpha < 1)) throw new Error(`alpha must be in (0, 1), got ${alpha}`);
  if (!(bounds.high > bounds.low)) throw new Error("bounds must have high > low");
  return {
    alpha,
    bounds,
    count: 0,
    sum: 0,
    squares: 0,
    logUp: new Float64Array(grid + 1),
    logDown: new Float64Array(grid + 1),
    low: bounds.low,
    high: bounds.high,
  };
}

/**
 * The predictable plug-in bet size before the t-th value (WSR 2023's "PrPl" bets):
 * λ̇ₜ = √(2 log(2/α) / (σ̂²ₜ₋₁ · t · log(1 + t))), σ̂²ₜ₋₁ = (1/4 + Σᵢ<ₜ (xᵢ − μ̂ᵢ)²) / t,
 * with μ̂ᵢ = (1/2 + Σⱼ≤ᵢ xⱼ) / (i + 1). Uses only values before t, as a bet must.
 */
export function plugInBet(state: Pick<ConfidenceSequenceState, "alpha" | "count" | "squares">): number {
  const t = state.count + 1;
  const variance = (0.25 + state.squares) / t;
  return Math.sqrt((2 * Math.log(2 / state.alpha)) / (variance * t * Math.log(1 + t)));
}

/** Adds one value (in the sequence's bounds) and narrows the interval. */
function observeBet(state: ConfidenceSequenceState, value: number): void {
  const { low, high } = state.bounds;
  const x = Math.min(1, Math.max(0, (value - low) / (high - low)));
  const bet = plugInBet(state);
  const grid = state.logUp.length - 1;
  for (let i = 0; i <= grid; i++) {
    const m = i / grid;
    // Capped so that 1 ± λ(x − m) stays ≥ 1 − c for every x in [0, 1].
    const up = Math.min(bet, BET_CAP / Math.max(m, 1e-12));
    const down = Math.min(bet, BET_CAP / Math.max(1 - m, 1e-12));
    state.logUp[i]! += Math.log1p(up * (x - m));
    state.logDown[i]! += Math.log1p(-down * (x - m));
  }
  state.count += 1;
  state.sum += x;
  const mean = (0.5 + state.sum) / (state.count + 1);
  state.squares += (x - mean) ** 2;
  const threshold = Math.log(1 / state.alpha);
  let first = -1;
  let last = -1;
  for (let i = 0; i <= grid; i++) {
    const a = Math.log(HEDGE) + state.logUp[i]!;
    const b = Math.log(1 - HEDGE) + state.logDown[i]!;
    const wealth = Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
    if (wealth < threshold) {
      if (first < 0) first = i;
      last = i;
    }
  }
  // Every candidate rejected can only happen when the truth was rejected too (an α event);
  // the interval then shrinks to the sample mean's point rather than to nothing.
  const scale = (m: number) => low + Math.min(1, Math.max(0, m)) * (high - low);
  const meanNow = scale(state.sum / state.count);
  const lowNow = first < 0 ? meanNow : scale((first - 1) / grid);
  const highNow = first < 0 ? meanNow : scale((last + 1) / grid);
  state.low = Math.min(Math.max(state.low, lowNow), state.high);
  state.high = Math.max(Math.min(state.high, highNow), state.low);
}

/** The interval after these values, in order (the running intersection over every look). */
export function bettingInterval(values: readonly number[], alpha: number, bounds: Interval, grid?: number): Interval {
  const state = bettingSequence(alpha, bounds, grid);
  for (const value of values) observeBet(state, value);
  return { low: state.low, high: state.high };
}

/**
 * The mixture's precision ρ² that makes the boundary narrowest at `pairs` values: the Lambert-W
 * optimum (−W₋₁(−α²e^(α²−1)) − 1) / t* of Waudby-Smith et al. (2024) in its first-order form, as
 * their code's best_rho2_approx without the α² terms: ρ² = (−2 log α + log(1 − 2 log α)) / t*.
 * (Any ρ² gives a valid sequence; this one only decides where it is narrowest.)
 */
export function mixturePrecision(alpha: number, pairs: number): number {
  return (-2 * Math.log(alpha) + Math.log(1 - 2 * Math.log(alpha))) / pairs;
}

/**
 * The normal-mixture boundary's half-width for the mean of t values of standard deviation σ:
 * σ · √(2(tρ² + 1) / (t²ρ²) · log(√(tρ² + 1) / α)).
 */
export function mixtureHalfWidth(t: number, sd: number, alpha: number, precision: number): number {
  const grown = t * precision + 1;
  return sd * Math.sqrt(((2 * grown) / (t * t * precision)) * Math.log(Math.sqrt(grown) / alpha));
}

/** Bisection steps for the one-sided boundary (the interval of S halves each step). */
const ONE_SIDED_STEPS = 60;
const oneSidedBoundaries = new Map<string, number>();

/**
 * The one-sided normal-mixture boundary's half-width: the half-normal mixture of Howard et al.
 * (2021, §3), whose martingale is 2/√g · exp(ρ²S²/(2g)) · Φ(ρS/√g) with g = tρ² + 1, for the sum S
 * of t unit-variance values; by Ville's inequality its crossing of 1/α bounds the chance that S
 * ever exceeds it by α, on that side alone. Solved by bisection for S, memoized per (t, α, ρ²).
 * It lies between the two-sided boundary (mixtureHalfWidth) at 2α and at α: a question that only
 * needs the lower bound of a gap, such as "which model is best", pays for one side.
 */
export function oneSidedMixtureHalfWidth(t: number, sd: number, alpha: number, precision: number): number {
  const key = `${t}|${alpha}|${precision}`;
  let boundary = oneSidedBoundaries.get(key);
  if (boundary === undefined) {
    const grown = t * precision + 1;
    const logTarget = -Math.log(alpha);
    const logMartingale = (sum: number) =>
      Math.log(2) -
      0.5 * Math.log(grown) +
      (precision * sum * sum) / (2 * grown) +
      Math.log(1 - normalUpperTail((Math.sqrt(precision) * sum) / Math.sqrt(grown)));
    let low = 0;
    let high = t * mixtureHalfWidth(t, 1, alpha, precision); // the two-sided boundary is crossed later
    for (let step = 0; step < ONE_SIDED_STEPS; step++) {
      const middle = (low + high) / 2;
      if (logMartingale(middle) >= logTarget) high = middle;
      else low = middle;
    }
    boundary = high;
    oneSidedBoundaries.set(key, boundary);
  }
  return (sd * boundary) / t;
}

/**
 * Values before which the sample variance is too unsteady to plug in: the interval is the bounds.
 * With 8 a sequence of 100 looks at 95% missed a mean of 0 in 6.5% of runs (values uniform on
 * −5…5, 3,000 runs), with 12 and the SD studentized 3.7% (normal values 3.6%).
 */
export const MIXTURE_MIN_VALUES = 12;
const NORMAL_975 = 1.959963984540054;

/**
 * The asymptotic confidence sequence of these values, in order, at level 1 − alpha: the running
 * intersection over every look of mean ± mixtureHalfWidth, within the bounds, tuned to be narrowest
 * at `tunedFor` values. The plugged-in SD (n − 1) is studentized, s · t₀.₉₇₅,ₙ₋₁ / z₀.₉₇₅, for the
 * variance's own uncertainty in small samples (the asymptotic sequence assumes it known). Before
 * MIXTURE_MIN_VALUES values it is the bounds. Its validity is asymptotic: gaps that are mostly
 * small and now and then very large the other way (a model failing badly on one topic in ten)
 * can settle before the rare gap shows, which a bounded-range sequence would not (it needs ~3×
 * the pairs); bench/adaptive.ts measures the false winners at the sizes a test has.
 */
export function mixtureInterval(
  values: readonly number[],
  alpha: number,
  bounds: Interval,
  tunedFor: number,
  /** 1: each bound holds on its own side at 1 − alpha (oneSidedMixtureHalfWidth); 2: both at once. */
  sides: 1 | 2 = 2,
): Interval {
  const precision = mixturePrecision(alpha, Math.max(MIXTURE_MIN_VALUES, tunedFor));
  let low = bounds.low;
  let high = bounds.high;
  let sum = 0;
  let squares = 0;
  values.forEach((value, index) => {
    const t = index + 1;
    // Welford's update of the mean and the sum of squared deviations.
    const before = sum / Math.max(1, index);
    sum += value;
    const mean = sum / t;
    if (index > 0) squares += (value - before) * (value - mean);
    if (t < MIXTURE_MIN_VALUES) return;
    const sd = (Math.sqrt(squares / (t - 1)) * t95(t - 1)) / NORMAL_975;
    const half = (sides === 1 ? oneSidedMixtureHalfWidth : mixtureHalfWidth)(t, sd, alpha, precision);
    low = Math.min(Math.max(low, mean - half), high);
    high = Math.max(Math.min(high, mean + half), low);
  });
  return { low, high };
}
