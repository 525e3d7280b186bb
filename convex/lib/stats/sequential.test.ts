import { describe, expect, it } from "vitest";
import {
  bettingInterval,
  MIXTURE_MIN_VALUES,
  mixtureHalfWidth,
  mixtureInterval,
  mixturePrecision,
  oneSidedMixtureHalfWidth,
  plugInBet,
} from "./sequential";
import { seededRandom } from "./random";

/** The half-width worked by hand below (t = 12, α = 0.05, tuned for 12: never below the first look). */
const HALF = 0.513844;

describe("the normal-mixture confidence sequence (score gaps)", () => {
  it("has the half-width worked by hand: α = 0.05, tuned for and read at t = 10, σ = 1", () => {
    // ρ² = (−2 ln 0.05 + ln(1 − 2 ln 0.05)) / 10 = (5.99146 + 1.94470) / 10 = 0.793615;
    // tρ² + 1 = 8.93615; 2 · 8.93615 / (100 · 0.793615) = 0.225201; ln(√8.93615 / 0.05) = 4.09074;
    // √(0.225201 · 4.09074) = 0.959817.
    const precision = mixturePrecision(0.05, 10);
    expect(precision).toBeCloseTo(0.793615, 5);
    expect(mixtureHalfWidth(10, 1, 0.05, precision)).toBeCloseTo(0.959817, 5);
    // Wider than the fixed-size t interval's 2.262 / √10 = 0.715: the price of looking at every pair.
    expect(mixtureHalfWidth(10, 1, 0.05, precision)).toBeGreaterThan(0.715);
  });

  it("has the one-sided half-width worked by hand: between the two-sided ones at 2α and at α", () => {
    // t = 10, α = 0.05, ρ² = 0.793615, g = tρ² + 1 = 8.936155, √g = 2.989340. The half-normal
    // mixture 2/√g · exp(ρ²S²/(2g)) · Φ(ρS/√g) reaches 1/α where x = ρS/√g solves
    // exp(x²/2) · Φ(x) = √g / (2α) = 29.893402: x = 2.608523 (exp(3.402199) = 30.029939,
    // Φ(2.608523) = 0.995453, product 29.893402). Half-width S/t = x · √g / (ρ · t) =
    // 2.608523 · 2.989340 / (0.890851 · 10) = 0.875316.
    const precision = mixturePrecision(0.05, 10);
    const oneSided = oneSidedMixtureHalfWidth(10, 1, 0.05, precision);
    expect(oneSided).toBeCloseTo(0.875316, 5);
    // Two-sided at 2α: √(0.225201 · ln(29.893402)) = 0.874730; at α: 0.959817 (above).
    expect(oneSided).toBeGreaterThan(mixtureHalfWidth(10, 1, 0.1, precision));
    expect(oneSided).toBeLessThan(mixtureHalfWidth(10, 1, 0.05, precision));
    expect(mixtureHalfWidth(10, 1, 0.1, precision)).toBeCloseTo(0.87473, 5);
    // It scales with σ.
    expect(oneSidedMixtureHalfWidth(10, 2, 0.05, precision)).toBeCloseTo(2 * 0.875316, 5);
  });

  it("gives no interval before 12 values, then mean ± studentized half-width (worked by hand)", () => {
    const gaps = [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2];
    expect(mixtureInterval(gaps.slice(0, MIXTURE_MIN_VALUES - 1), 0.05, { low: -10, high: 10 }, 10)).toEqual({
      low: -10,
      high: 10,
    });
    // t = 12: mean 1.5, s = √(12 · 0.25 / 11) = 0.522233, studentized by t₀.₉₇₅,₁₁ / z₀.₉₇₅ =
    // 2.200985 / 1.959964: 0.586453; tρ² + 1 = 10.52339;
    // half = 0.586448 · √(2 · 10.52338 / (144 · 0.793615) · ln(√10.52338 / 0.05)) = HALF.
    const interval = mixtureInterval(gaps, 0.05, { low: -10, high: 10 }, 10);
    expect(interval.low).toBeCloseTo(1.5 - HALF, 5);
    expect(interval.high).toBeCloseTo(1.5 + HALF, 5);
  });

  it("keeps the running intersection: a later, wider look does not widen it", () => {
    const gaps = [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 6];
    const interval = mixtureInterval(gaps, 0.05, { low: -10, high: 10 }, 10);
    expect(interval.low).toBeCloseTo(1.5 - HALF, 5);
  });

  it("holds the true mean at every look at once in ≥ 95% of runs (where the repeated t interval does not)", () => {
    const random = seededRandom("sequence-coverage");
    const runs = 400;
    let missed = 0;
    for (let run = 0; run < runs; run++) {
      const values: number[] = [];
      for (let t = 0; t < 100; t++) values.push(random.index(11) - 5); // mean 0, in [−5, 5]
      let ever = false;
      for (let t = MIXTURE_MIN_VALUES; t <= values.length && !ever; t++) {
        const interval = mixtureInterval(values.slice(0, t), 0.05, { low: -10, high: 10 }, 25);
        ever = interval.low > 0 || interval.high < 0;
      }
      if (ever) missed += 1;
    }
    expect(missed / runs).toBeLessThanOrEqual(0.05);
  });
});

describe("the hedged betting confidence sequence (pass rates)", () => {
  it("bets as worked by hand before the first value: √(2 ln 40 / (0.25 · 1 · ln 2)) = 6.52498", () => {
    expect(plugInBet({ alpha: 0.05, count: 0, squares: 0 })).toBeCloseTo(6.52498, 4);
  });

  it("rejects nothing after one value: no claim from one pair", () => {
    // x = 1, m = 0.1: K⁺ = 1 + min(6.52, 0.5/0.1)·0.9 = 5.5, K⁻ = 1 − min(6.52, 0.5/0.9)·0.9 = 0.5;
    // ½K⁺ + ½K⁻ = 3 < 1/α = 20. Every other m keeps less wealth.
    expect(bettingInterval([1], 0.05, { low: 0, high: 1 })).toEqual({ low: 0, high: 1 });
  });

  it("settles that every answer passing is above 90% after enough pairs, and not after a few", () => {
    expect(bettingInterval(Array(5).fill(1), 0.05, { low: 0, high: 1 }).low).toBeLessThan(0.9);
    expect(bettingInterval(Array(100).fill(1), 0.05, { low: 0, high: 1 }).low).toBeGreaterThan(0.9);
  });

  it("holds a true rate of 0.8 at every look in ≥ 95% of runs", () => {
    const random = seededRandom("betting-coverage");
    let missed = 0;
    for (let run = 0; run < 200; run++) {
      const values = Array.from({ length: 150 }, () => (random.unit() < 0.8 ? 1 : 0));
      // The running intersection misses at some look exactly when the last interval misses.
      const interval = bettingInterval(values, 0.05, { low: 0, high: 1 }, 200);
      if (interval.low > 0.8 || interval.high < 0.8) missed += 1;
    }
    expect(missed / 200).toBeLessThanOrEqual(0.05);
  });
});
