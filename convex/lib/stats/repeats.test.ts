// Repeats for variance (issue 35, item 4): a model's interval treats the repeats of one persona ×
// topic pair as one cluster, and the spread between repeats is read back. A hand-worked example
// and a planted-truth simulation (docs/statistics.md, "Repeats").
import { describe, expect, it } from "vitest";
import { computeJuryStats } from "./index";
import { repeatSpread } from "./repeats";
import { gaussian, streamRandom } from "./simulated.helpers";
import type { JuryRating, JuryResponse, JuryStatsInput } from "./types";

const JUDGES = ["judge-a/one", "judge-b/two"];

/** Two judges rating every answer; `score(judge, answer)` gives the verdict. */
function ratedInput(
  cells: { model: string; unit: number; repeat: number }[],
  score: (judge: number, cell: number) => number,
  options: { clustered: boolean },
): JuryStatsInput {
  const responses: JuryResponse[] = cells.map((cell, index) => ({
    id: `answer-${index}`,
    modelId: cell.model,
    // Without clustering each repeat poses as a pair of its own: the mistake the method avoids.
    personaId: options.clustered ? `persona-${cell.unit}` : `persona-${cell.unit}-${cell.repeat}`,
    topicId: "topic",
    length: 100,
    ...(options.clustered ? { repeat: cell.repeat } : {}),
  }));
  const ratings: JuryRating[] = cells.flatMap((_, index) =>
    JUDGES.map((judgeModelId, judge) => ({
      judgeModelId,
      responseId: `answer-${index}`,
      scores: { accuracy: score(judge, index) },
    })),
  );
  const models = [...new Set(cells.map((cell) => cell.model))].map((id) => ({ id, name: id }));
  return { seed: "repeats", scale: "rating", models, judges: JUDGES, responses, ratings, resamples: 1 };
}

describe("a model's interval with repeats (hand-worked)", () => {
  // One model, 4 pairs × 2 repeats; both judges give the cell's value.
  //   pair:      0     1     2     3
  //   repeat 0:  6     5     4     7
  //   repeat 1:  8     5     6     9
  //   pair mean: 7     5     5     8      mean 6.25
  // Pair means' s² = (0.75² + 1.25² + 1.25² + 1.75²) / 3 = 2.25, s = 1.5, SE = 1.5/√4 = 0.75,
  // t₀.₉₇₅,₃ = 3.182446: 6.25 ± 2.386835 = [3.863165, 8.636835].
  // Taken as 8 independent pairs instead: s² = 19.5/7, SE = 0.590097, t₀.₉₇₅,₇ = 2.364624,
  // 6.25 ± 1.395361: narrower, as if the repeats were 4 more topics.
  const table = [
    [6, 8],
    [5, 5],
    [4, 6],
    [7, 9],
  ];
  const cells = table.flatMap((row, unit) => row.map((_, repeat) => ({ model: "m/a", unit, repeat })));
  const valueOf = (index: number) => table[cells[index]!.unit]![cells[index]!.repeat]!;

  it("is the t interval of the pair means, the repeats of a pair one cluster", () => {
    const stats = computeJuryStats(ratedInput(cells, (_, index) => valueOf(index), { clustered: true }));
    const model = stats.models[0]!;
    expect(model.meanScore).toBeCloseTo(6.25, 10);
    expect(model.scoreInterval!.low).toBeCloseTo(3.863165, 5);
    expect(model.scoreInterval!.high).toBeCloseTo(8.636835, 5);
    expect(model.units).toBe(4);
  });

  it("would be narrower were the repeats taken as pairs of their own", () => {
    const naive = computeJuryStats(ratedInput(cells, (_, index) => valueOf(index), { clustered: false }));
    expect(naive.models[0]!.scoreInterval!.low).toBeCloseTo(6.25 - 1.395361, 5);
    expect(naive.models[0]!.repeatSpread).toBeUndefined();
  });

  it("gives the spread between repeats: per pair pooled, and of the model's score per repeat", () => {
    // Within pairs: (6−7)² + (8−7)² + 0 + (4−5)² + (6−5)² + (7−8)² + (9−8)² = 6 on 4 degrees of
    // freedom: cell SD √1.5 = 1.224745. Per repeat: 22/4 = 5.5 and 28/4 = 7, SD 1.06066.
    const stats = computeJuryStats(ratedInput(cells, (_, index) => valueOf(index), { clustered: true }));
    const spread = stats.models[0]!.repeatSpread!;
    expect(spread.repeats).toBe(2);
    expect(spread.pairs).toBe(4);
    expect(spread.cellSd).toBeCloseTo(1.224745, 5);
    expect(spread.byRepeat).toEqual([5.5, 7]);
    expect(spread.scoreSd).toBeCloseTo(1.06066, 5);
  });

  it("reads the per-repeat score only over pairs scored in every repeat", () => {
    const spread = repeatSpread([
      { unit: 0, repeat: 0, value: 4 },
      { unit: 0, repeat: 1, value: 6 },
      { unit: 1, repeat: 0, value: 9 },
    ]);
    expect(spread).toEqual({ repeats: 2, pairs: 1, cellSd: Math.SQRT2, byRepeat: [4, 6], scoreSd: Math.SQRT2 });
    expect(repeatSpread([{ unit: 0, repeat: 0, value: 5 }]).cellSd).toBeNull();
  });
});

describe("planted truth: coverage with repeats", () => {
  // Each answer's verdict = quality + pair difficulty + the model's fit to the pair + the
  // generator's run-to-run draw (per repeat) + each judge's noise. True score: the quality.
  const SD = { pair: 0.8, fit: 0.5, repeat: 1.0, judge: 0.5 };
  const QUALITY: Record<string, number> = { "m/strong": 6, "m/weak": 5 };
  const PAIRS = 8;
  const REPEATS = 4;
  const REPLICATIONS = 400;

  function replication(index: number, clustered: boolean) {
    const random = streamRandom(`repeats-coverage:${index}`);
    const cells: { model: string; unit: number; repeat: number }[] = [];
    const truth: number[] = [];
    for (let unit = 0; unit < PAIRS; unit++) {
      const difficulty = SD.pair * gaussian(random);
      for (const model of Object.keys(QUALITY)) {
        const fit = SD.fit * gaussian(random);
        for (let repeat = 0; repeat < REPEATS; repeat++) {
          cells.push({ model, unit, repeat });
          truth.push(QUALITY[model]! + difficulty + fit + SD.repeat * gaussian(random));
        }
      }
    }
    const noise = cells.map(() => JUDGES.map(() => SD.judge * gaussian(random)));
    return computeJuryStats(ratedInput(cells, (judge, cell) => truth[cell]! + noise[cell]![judge]!, { clustered }));
  }

  function coverage(clustered: boolean) {
    let covered = 0;
    let intervals = 0;
    let cellVariance = 0;
    for (let index = 0; index < REPLICATIONS; index++) {
      for (const model of replication(index, clustered).models) {
        const interval = model.scoreInterval!;
        intervals++;
        if (interval.low <= QUALITY[model.modelId]! && QUALITY[model.modelId]! <= interval.high) covered++;
        cellVariance += (model.repeatSpread?.cellSd ?? 0) ** 2;
      }
    }
    return { share: covered / intervals, cellVariance: cellVariance / intervals };
  }

  it("covers the true score at the nominal 95% when repeats are clustered, and not when taken as pairs", () => {
    const clustered = coverage(true);
    // 800 intervals: a correct 95% interval lands in 92.7–97.3% (±3 binomial SEs of 0.77%); with
    // 600 replications it covered 94.9%, and 79.0% taken as pairs.
    expect(clustered.share).toBeGreaterThan(0.927);
    expect(clustered.share).toBeLessThan(0.973);
    // Repeats as pairs: SE √(2.0/32) against the true √((0.89 + 1.125/4)/8), about 0.66×: ~80%.
    expect(coverage(false).share).toBeLessThan(0.88);
    // The pooled cell SD reads back the planted run-to-run variance (repeat plus the two judges' mean).
    expect(clustered.cellVariance).toBeGreaterThan((SD.repeat ** 2 + SD.judge ** 2 / 2) * 0.95);
    expect(clustered.cellVariance).toBeLessThan((SD.repeat ** 2 + SD.judge ** 2 / 2) * 1.05);
  }, 60_000);
});
