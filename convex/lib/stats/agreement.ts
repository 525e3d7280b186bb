// Agreement of a jury: Kendall's W (rankings) and Krippendorff's alpha, interval metric (ratings).
import { midranks, tieTerm } from "./basics";

/**
 * Kendall's coefficient of concordance W with the tie correction:
 *   W = 12 S / (m² (n³ − n) − m Σ_j T_j),  S = Σ_i (R_i − R̄)²,  T_j = Σ (t³ − t) over judge j's ties,
 * for m judges each scoring the same n items (`scores[judge][item]`, higher = better; ties allowed).
 * Null with fewer than 2 judges or 2 items, or when every judge ties every item.
 */
export function kendallW(scores: readonly (readonly number[])[]): number | null {
  const m = scores.length;
  const n = scores[0]?.length ?? 0;
  if (m < 2 || n < 2 || scores.some((row) => row.length !== n)) return null;
  const rankSums = new Array<number>(n).fill(0);
  let ties = 0;
  for (const row of scores) {
    const ranks = midranks(row);
    for (let i = 0; i < n; i++) rankSums[i]! += ranks[i]!;
    ties += tieTerm(row);
  }
  const meanSum = (m * (n + 1)) / 2;
  let s = 0;
  for (const sum of rankSums) s += (sum - meanSum) ** 2;
  const denominator = m * m * (n * n * n - n) - m * ties;
  return denominator > 0 ? (12 * s) / denominator : null;
}

/**
 * Krippendorff's alpha with the interval metric, for units each holding the values the coders
 * gave it (missing values simply left out). Units with fewer than 2 values are not pairable and
 * are ignored. alpha = 1 − D_o / D_e with
 *   D_o = (1/n) Σ_u Σ_{i≠j in u} (v_i − v_j)² / (m_u − 1),  D_e = Σ_{i≠j over all} (v_i − v_j)² / (n (n − 1)),
 * n the number of pairable values. Null when fewer than 2 pairable values or no variation at all.
 */
export function krippendorffAlphaInterval(units: readonly (readonly number[])[]): number | null {
  // Σ_{i≠j} (v_i − v_j)² = 2 (m Σv² − (Σv)²).
  let n = 0;
  let observed = 0;
  let sum = 0;
  let sumSquares = 0;
  for (const values of units) {
    const m = values.length;
    if (m < 2) continue;
    let unitSum = 0;
    let unitSquares = 0;
    for (const value of values) {
      unitSum += value;
      unitSquares += value * value;
    }
    observed += (2 * (m * unitSquares - unitSum * unitSum)) / (m - 1);
    n += m;
    sum += unitSum;
    sumSquares += unitSquares;
  }
  if (n < 2) return null;
  const expected = (2 * (n * sumSquares - sum * sum)) / (n * (n - 1));
  if (expected <= 0) return null;
  return 1 - observed / n / expected;
}

export type AgreementBand = "none" | "weak" | "moderate" | "strong" | "very strong";

/** Plain-word band of a W or alpha value (Landis and Koch's cut-offs, merged to five words). */
export function agreementBand(value: number | null): AgreementBand | null {
  if (value === null) return null;
  if (value < 0.2) return "none";
  if (value < 0.4) return "weak";
  if (value < 0.6) return "moderate";
  if (value < 0.8) return "strong";
  return "very strong";
}

export const AGREEMENT_WORDS: Record<AgreementBand, string> = {
  none: "The judges barely agree",
  weak: "Weak agreement",
  moderate: "Moderate agreement",
  strong: "Strong agreement",
  "very strong": "Very strong agreement",
};
