// Means with 95% intervals for many series at once: per model × criterion, per model × judge, and
// the team's score per model. Each series has one value per persona × topic unit (NaN where it
// has none); its interval is the t interval of its unit values (basics.tInterval), as the model
// scores' are, or with `skewCorrected` Hall's skewness-corrected t interval
// (basics.skewCorrectedInterval), which the per-judge and per-criterion means use.
import { skewCorrectedInterval, t95, type Interval } from "./basics";

export interface SeriesMean {
  /** Mean over the units that have a value; null when none has. */
  readonly mean: number | null;
  readonly interval: Interval | null;
}

/**
 * `values[u * series + k]` is series k's value in unit u (NaN: none). Returns each series' mean
 * over its units and the 95% t interval of that mean, cut to `bounds`; no interval when the
 * series has fewer than `minUnits` values (or fewer than 2).
 */
export function seriesMeans(
  values: Float64Array,
  units: number,
  series: number,
  {
    minUnits = 2,
    bounds,
    skewCorrected = false,
  }: {
    minUnits?: number;
    bounds?: Interval;
    /** Hall's skewness-corrected t interval (basics.skewCorrectedInterval) instead of the plain one. */
    skewCorrected?: boolean;
  } = {},
): SeriesMean[] {
  const sum = new Float64Array(series);
  const squares = new Float64Array(series);
  const cubes = new Float64Array(series);
  const count = new Float64Array(series);
  for (let u = 0; u < units; u++) {
    for (let k = 0; k < series; k++) {
      const value = values[u * series + k]!;
      if (!Number.isNaN(value)) {
        sum[k]! += value;
        count[k]! += 1;
      }
    }
  }
  // Squared deviations from each series' mean in a second pass (no cancellation of large sums).
  for (let u = 0; u < units; u++) {
    for (let k = 0; k < series; k++) {
      const value = values[u * series + k]!;
      if (Number.isNaN(value)) continue;
      const deviation = value - sum[k]! / count[k]!;
      squares[k]! += deviation ** 2;
      cubes[k]! += deviation ** 3;
    }
  }
  return Array.from({ length: series }, (_, k) => {
    const n = count[k]!;
    if (n === 0) return { mean: null, interval: null };
    const centre = sum[k]! / n;
    if (n < Math.max(2, minUnits)) return { mean: centre, interval: null };
    if (skewCorrected) {
      const sd = Math.sqrt(squares[k]! / (n - 1));
      return {
        mean: centre,
        interval: skewCorrectedInterval({ mean: centre, sd, thirdMoment: cubes[k]! / n, n }, bounds),
      };
    }
    const half = (t95(n - 1) * Math.sqrt(squares[k]! / (n - 1))) / Math.sqrt(n);
    const low = centre - half;
    const high = centre + half;
    return {
      mean: centre,
      interval: bounds ? { low: Math.max(bounds.low, low), high: Math.min(bounds.high, high) } : { low, high },
    };
  });
}
