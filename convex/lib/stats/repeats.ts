// The spread between repeats of a cell (issue 35, item 4; docs/statistics.md, "Repeats"). A
// repeated test runs each model × persona × topic cell R times; its intervals keep the persona ×
// topic pair as the unit (one cluster holds the pair's repeats), and this measures what the
// repeats add: how far one model's scores move from run to run. Pure.
import { mean, sampleSd } from "./basics";

/** One model's mean score in one repeat of one persona × topic pair (the mean over its answers there). */
export interface RepeatCell {
  readonly unit: number;
  readonly repeat: number;
  readonly value: number;
}

export interface RepeatSpread {
  /** Repeats the model was scored in (the most of any of its pairs). */
  readonly repeats: number;
  /** Pairs scored in two repeats or more: the ones the spread is read from. */
  readonly pairs: number;
  /**
   * SD between repeats of one pair's score, pooled over the pairs: √(Σ_u Σ_r (x_ur − x̄_u)² / Σ_u (R_u − 1)),
   * the one-way analysis of variance's within-pair mean square. How far a rerun of one cell moves.
   */
  readonly cellSd: number | null;
  /** The model's score in each repeat, over the pairs scored in every repeat (null: no such pair). */
  readonly byRepeat: (number | null)[];
  /** SD of byRepeat: how far the whole test's score for the model moves between repeats. */
  readonly scoreSd: number | null;
}

/**
 * The spread of one model's scores between repeats. The interval of its score needs none of
 * this: it already takes the pair (with all its repeats) as the unit, so the repeats' spread is
 * in its standard error through the pair means (docs/statistics.md).
 */
export function repeatSpread(cells: readonly RepeatCell[]): RepeatSpread {
  const byUnit = new Map<number, Map<number, number>>();
  let repeats = 0;
  for (const cell of cells) {
    if (!Number.isFinite(cell.value)) continue;
    const row = byUnit.get(cell.unit) ?? new Map<number, number>();
    row.set(cell.repeat, cell.value);
    byUnit.set(cell.unit, row);
    repeats = Math.max(repeats, cell.repeat + 1);
  }
  let squares = 0;
  let degrees = 0;
  let pairs = 0;
  for (const row of byUnit.values()) {
    if (row.size < 2) continue;
    const values = [...row.values()];
    const centre = mean(values)!;
    for (const value of values) squares += (value - centre) ** 2;
    degrees += values.length - 1;
    pairs++;
  }
  const complete = [...byUnit.values()].filter((row) => row.size === repeats);
  const byRepeat = Array.from({ length: repeats }, (_, repeat) => mean(complete.map((row) => row.get(repeat)!)));
  const scored = byRepeat.filter((value): value is number => value !== null);
  return {
    repeats,
    pairs,
    cellSd: degrees > 0 ? Math.sqrt(squares / degrees) : null,
    byRepeat,
    scoreSd: scored.length >= 2 ? sampleSd(scored) : null,
  };
}
