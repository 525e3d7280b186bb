// Means with bootstrap intervals for many series at once: per model × criterion
// and per model × judge. Each series has one value per persona × topic unit (NaN where it has
// none); every series is resampled with the same unit draws, as the model intervals are.
import { quantileSorted } from "simple-statistics";
import type { Interval } from "./basics";
import type { SeededRandom } from "./random";

export interface SeriesMean {
  /** Mean over the units that have a value; null when none has. */
  readonly mean: number | null;
  readonly interval: Interval | null;
}

/**
 * `values[u * series + k]` is series k's value in unit u (NaN: none). Returns each series' mean
 * over its units and the 2.5–97.5 percentile interval of that mean over `resamples` draws of the
 * units with replacement.
 */
export function bootstrapSeriesMeans(
  values: Float64Array,
  units: number,
  series: number,
  resamples: number,
  random: SeededRandom,
): SeriesMean[] {
  const sum = new Float64Array(series);
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
  // samples[k * resamples + b]: series k's mean in draw b (typed and sorted natively: many series).
  const samples = new Float64Array(series * resamples);
  const drawn = new Uint32Array(series);
  if (units > 0 && series > 0) {
    const times = new Uint32Array(units);
    const resampledSum = new Float64Array(series);
    const resampledCount = new Float64Array(series);
    for (let b = 0; b < resamples; b++) {
      times.fill(0);
      for (let k = 0; k < units; k++) times[random.index(units)]! += 1;
      resampledSum.fill(0);
      resampledCount.fill(0);
      for (let u = 0; u < units; u++) {
        const weight = times[u]!;
        if (weight === 0) continue;
        const offset = u * series;
        for (let k = 0; k < series; k++) {
          const value = values[offset + k]!;
          if (!Number.isNaN(value)) {
            resampledSum[k]! += weight * value;
            resampledCount[k]! += weight;
          }
        }
      }
      for (let k = 0; k < series; k++) {
        if (resampledCount[k]! > 0) samples[k * resamples + drawn[k]!++] = resampledSum[k]! / resampledCount[k]!;
      }
    }
  }
  return Array.from({ length: series }, (_, k) => {
    if (count[k]! === 0 || drawn[k]! === 0) return { mean: count[k]! > 0 ? sum[k]! / count[k]! : null, interval: null };
    // The 2.5 and 97.5 percentiles, as percentileInterval computes them for the model intervals.
    const sorted = samples.subarray(k * resamples, k * resamples + drawn[k]!).sort() as unknown as number[];
    return {
      mean: sum[k]! / count[k]!,
      interval: { low: quantileSorted(sorted, 0.025), high: quantileSorted(sorted, 0.975) },
    };
  });
}
