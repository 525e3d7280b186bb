// The compare page's texts and figure formats (issue 22 step 2: plain and short).
import { formatScore } from "../../../convex/lib/format";

export const COMPARE_TITLE = "Compare two tests";
export const ERROR_TITLE = "Error Loading Comparison";
export const PICK_TWO_TITLE = "Pick two tests to compare";
export const PICK_TWO_TEXT = "Choose two tests in History and press Compare.";
export const SAME_TEST_TEXT = "Pick two different tests to compare.";
export const NO_SHARED_MODELS = "No models in common";
export const LARGER_THAN_CHANCE = "Larger than chance";
export const WITHIN_CHANCE = "Within chance";
export const NO_DIFFERENCES = "The two configurations are the same.";
export const NO_CHECKS = "Neither test has checks.";
export const NO_ANSWERS = "No answers here yet.";
export const NOT_IN_TEST = "Not in this test.";

/** "+1.25" / "−0.50" / "0.00": score in B less score in A. */
export function formatDifference(difference: number): string {
  const text = formatScore(Math.abs(difference));
  if (text === formatScore(0)) return text;
  return `${difference > 0 ? "+" : "−"}${text}`;
}

/** "−0.40 to +1.10" */
export function formatInterval(interval: { low: number; high: number }): string {
  return `${formatDifference(interval.low)} to ${formatDifference(interval.high)}`;
}

/** A pass rate's change in percentage points: "+25.0 pts", "−100.0 pts", "0.0 pts". */
export function formatPoints(difference: number): string {
  const text = (Math.abs(difference) * 100).toFixed(1);
  if (text === "0.0") return `${text} pts`;
  return `${difference > 0 ? "+" : "−"}${text} pts`;
}

/** "−100.0 to −65.7 pts" */
export function formatPointsInterval(interval: { low: number; high: number }): string {
  return `${formatPoints(interval.low).replace(" pts", "")} to ${formatPoints(interval.high)}`;
}
