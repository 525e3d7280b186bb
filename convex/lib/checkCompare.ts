// Two tests' check pass rates side by side (the compare page): for every check, and for all checks
// together, each shared model's pass rate in both tests and the 95% interval of the difference
// B − A. Pure.
//
// The interval is Newcombe's hybrid score interval (Newcombe 1998, "Interval estimation for the
// difference between independent proportions: comparison of eleven methods", Statistics in
// Medicine 17:873-890, method 10): from each rate's Wilson score interval (l, u),
//   L = d − √((p_B − l_B)² + (u_A − p_A)²),   U = d + √((u_B − p_B)² + (p_A − l_A)²),   d = p_B − p_A.
// It keeps close to 95% coverage at small counts and at rates of 0 or 1, where the usual
// normal-approximation interval collapses to a point (0 of 12 against 12 of 12 is not "certain").
import { wilsonInterval, type Interval, type PassRate } from "./checkFigures";

export const ALL_CHECKS = "All checks";

/** Newcombe's hybrid score 95% interval of p_B − p_A; null when either side has no answers. */
export function passRateDifference(
  a: { readonly passed: number; readonly answers: number },
  b: { readonly passed: number; readonly answers: number },
): Interval | null {
  const wilsonA = wilsonInterval(a.passed, a.answers);
  const wilsonB = wilsonInterval(b.passed, b.answers);
  if (wilsonA === null || wilsonB === null) return null;
  const rateA = a.passed / a.answers;
  const rateB = b.passed / b.answers;
  const difference = rateB - rateA;
  return {
    low: difference - Math.hypot(rateB - wilsonB.low, wilsonA.high - rateA),
    high: difference + Math.hypot(wilsonB.high - rateB, rateA - wilsonA.low),
  };
}

/** One test's pass rates as checks.summary gives them (convex/core/checks.ts checkSummary). */
export interface TestCheckRates {
  readonly checks: readonly { readonly id: string; readonly label: string }[];
  readonly models: readonly {
    readonly modelId: string;
    readonly overall: PassRate;
    readonly byCheck: readonly ({ readonly checkId: string } & PassRate)[];
  }[];
}

export interface CheckRateComparison {
  readonly modelId: string;
  readonly modelName: string;
  /** Null: this test does not have the check (or no checks at all). */
  readonly a: PassRate | null;
  readonly b: PassRate | null;
  /** p_B − p_A; null unless both rates exist. */
  readonly difference: number | null;
  readonly interval: Interval | null;
  /** The interval leaves out 0. */
  readonly largerThanChance: boolean;
}

export interface CheckComparison {
  /** ALL_CHECKS, or the check's label (checks are matched across tests by label: a rerun gives new ids). */
  readonly label: string;
  readonly models: CheckRateComparison[];
}

function compared(modelId: string, modelName: string, a: PassRate | null, b: PassRate | null): CheckRateComparison {
  const both = a !== null && b !== null && a.rate !== null && b.rate !== null;
  const interval = both ? passRateDifference(a, b) : null;
  return {
    modelId,
    modelName,
    a,
    b,
    difference: both ? b.rate! - a.rate! : null,
    interval,
    largerThanChance: interval !== null && (interval.low > 0 || interval.high < 0),
  };
}

/**
 * "All checks" first, then every check of A in its order, then those only B has; in each, the
 * shared models in the order given. A side without the test's checks, or without the check, is null.
 */
export function compareCheckRates(
  a: TestCheckRates | null,
  b: TestCheckRates | null,
  models: readonly { readonly modelId: string; readonly modelName: string }[],
): CheckComparison[] {
  const modelOf = (side: TestCheckRates | null, modelId: string) =>
    side?.models.find((model) => model.modelId === modelId) ?? null;
  const rateOf = (side: TestCheckRates | null, modelId: string, label: string): PassRate | null => {
    const check = side?.checks.find((entry) => entry.label === label);
    const rate = check ? modelOf(side, modelId)?.byCheck.find((entry) => entry.checkId === check.id) : undefined;
    return rate ? { answers: rate.answers, passed: rate.passed, rate: rate.rate, interval: rate.interval } : null;
  };
  const labels = [...new Set([...(a?.checks ?? []), ...(b?.checks ?? [])].map((check) => check.label))];
  return [
    {
      label: ALL_CHECKS,
      models: models.map(({ modelId, modelName }) =>
        compared(modelId, modelName, modelOf(a, modelId)?.overall ?? null, modelOf(b, modelId)?.overall ?? null),
      ),
    },
    ...labels.map((label) => ({
      label,
      models: models.map(({ modelId, modelName }) =>
        compared(modelId, modelName, rateOf(a, modelId, label), rateOf(b, modelId, label)),
      ),
    })),
  ];
}
