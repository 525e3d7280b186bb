// The jury statistics against published and hand-worked examples.
import { describe, expect, it } from "vitest";
import { kendallW, krippendorffAlphaInterval, agreementBand } from "./agreement";
import { kendallTauB, midranks, percentileInterval, spearman } from "./basics";
import { positionBias, positionConsistency, successesUpperTail } from "./bias";
import { addGame, bradleyTerryStrengths, eloRating, emptyWinMatrix, winRate } from "./bradleyTerry";
import { evidenceSummary, tieRanks } from "./ranks";
import { seededRandom, seedFromText } from "./random";

describe("Kendall's W", () => {
  it("is 1 when every judge orders the items alike and 0 when orders cancel out", () => {
    expect(
      kendallW([
        [1, 2, 3, 4],
        [10, 20, 30, 40],
        [0.1, 0.2, 0.3, 0.4],
      ]),
    ).toBeCloseTo(1, 12);
    expect(
      kendallW([
        [1, 2, 3],
        [3, 2, 1],
      ]),
    ).toBeCloseTo(0, 12);
  });

  it("matches a hand-worked example without ties: rank sums 4, 6, 8, 12 give S = 35 and W = 420 / 540", () => {
    expect(
      kendallW([
        [1, 2, 3, 4],
        [1, 3, 2, 4],
        [2, 1, 3, 4],
      ]),
    ).toBeCloseTo(7 / 9, 12);
  });

  it("applies the tie correction: one judge tying two items gives W = 510 / (540 − 3·6)", () => {
    const w = kendallW([
      [1, 2, 3, 4],
      [1, 2, 2, 4],
      [1, 2, 3, 4],
    ]);
    expect(w).toBeCloseTo(510 / 522, 12);
    // Without the correction the same data would give 510 / 540.
    expect(w).not.toBeCloseTo(510 / 540, 3);
  });

  it("is undefined with one judge or one item", () => {
    expect(kendallW([[1, 2, 3]])).toBeNull();
    expect(kendallW([[1], [1]])).toBeNull();
  });
});

describe("Krippendorff's alpha (interval)", () => {
  it("reproduces Krippendorff's published example (4 coders, 12 units, missing values): 0.849", () => {
    // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the reliability data
    // with missing values; each unit lists the values its coders gave.
    const units = [
      [1, 1, 1],
      [2, 2, 3, 2],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [2, 2, 2, 2],
      [1, 2, 3, 4],
      [4, 4, 4, 4],
      [1, 1, 2, 1],
      [2, 2, 2, 2],
      [5, 5, 5],
      [1, 1],
      [3],
    ];
    expect(krippendorffAlphaInterval(units)).toBeCloseTo(0.849, 3);
  });

  it("is 1 for perfect agreement and negative for systematic disagreement", () => {
    expect(
      krippendorffAlphaInterval([
        [1, 1],
        [5, 5],
        [3, 3],
      ]),
    ).toBeCloseTo(1, 12);
    expect(
      krippendorffAlphaInterval([
        [1, 5],
        [5, 1],
      ])!,
    ).toBeLessThan(0);
  });

  it("bands values in plain words", () => {
    expect(agreementBand(0.1)).toBe("none");
    expect(agreementBand(0.5)).toBe("moderate");
    expect(agreementBand(0.85)).toBe("very strong");
    expect(agreementBand(null)).toBeNull();
  });
});

describe("rank correlations", () => {
  it("gives tied values the mean of their ranks", () => {
    expect(midranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });

  it("Kendall's tau-b: 5 concordant and 1 discordant pair give 4/6; with one tie on each side 4/√(5·5)", () => {
    expect(kendallTauB([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(2 / 3, 12);
    expect(kendallTauB([1, 2, 2, 3], [1, 2, 3, 3])).toBeCloseTo(0.8, 12);
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
  });

  it("Spearman: Σd² = 4 over 5 items gives 1 − 6·4 / (5·24) = 0.8", () => {
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
  });
});

describe("position bias", () => {
  it("binomial tail: P(X ≥ 3) for 10 trials at 1/10 is 0.0701908", () => {
    expect(successesUpperTail(new Array(10).fill(0.1), 3)).toBeCloseTo(0.0701908264, 9);
    expect(successesUpperTail([0.5, 0.5], 0)).toBe(1);
    expect(successesUpperTail([0.5, 0.5], 3)).toBe(0);
  });

  it("compares how often the first-shown answer comes first with chance", () => {
    const calls = Array.from({ length: 10 }, (_, index) => ({
      shown: ["a", "b", "c", "d"],
      ranking: index < 6 ? ["a", "b", "c", "d"] : ["b", "a", "c", "d"],
    }));
    const bias = positionBias(calls)!;
    expect(bias.firstRate).toBe(0.6);
    expect(bias.chance).toBe(0.25);
    // P(X ≥ 6), X ~ Binomial(10, 1/4) = 0.0197277.
    expect(bias.pValue).toBeCloseTo(0.0197277, 6);
  });

  it("measures position consistency as the share of pairs kept in order when the answers are reversed", () => {
    expect(positionConsistency([{ forward: ["a", "b", "c"], reverse: ["a", "b", "c"] }])).toBe(1);
    // a>b kept, a>c kept, b>c flipped.
    expect(positionConsistency([{ forward: ["a", "b", "c"], reverse: ["a", "c", "b"] }])).toBeCloseTo(2 / 3, 12);
  });
});

describe("Bradley–Terry on the Elo scale", () => {
  it("solves the two-player case by hand: 3 wins in 4 games is a 3:1 strength, 400·log10 3 points apart", () => {
    const wins = emptyWinMatrix(2);
    for (const outcome of [1, 1, 1, 0]) addGame(wins, 2, 0, 1, outcome);
    const [a, b] = bradleyTerryStrengths(wins, 2);
    expect(eloRating(a!)).toBeCloseTo(1000 + 200 * Math.log10(3), 6);
    expect(eloRating(b!)).toBeCloseTo(1000 - 200 * Math.log10(3), 6);
  });

  it("recovers strengths 4:2:1 from counts that fit them exactly, ties counting half", () => {
    // A–B: 3 wins, 2 ties, 1 loss (4 of 6 points); A–C: 4 of 5; B–C: 2 of 3.
    // Check: A scores 8 = 6·4/6 + 5·4/5, B scores 4 = 6·2/6 + 3·2/3, C scores 2 = 5·1/5 + 3·1/3.
    const wins = emptyWinMatrix(3);
    for (const outcome of [1, 1, 1, 0.5, 0.5, 0]) addGame(wins, 3, 0, 1, outcome);
    for (const outcome of [1, 1, 1, 1, 0]) addGame(wins, 3, 0, 2, outcome);
    for (const outcome of [1, 1, 0]) addGame(wins, 3, 1, 2, outcome);
    const ratings = [...bradleyTerryStrengths(wins, 3)].map(eloRating);
    // 400·log10 of 4, 2, 1, shifted so their mean is the 1000 anchor.
    expect(ratings[0]).toBeCloseTo(1120.412, 3);
    expect(ratings[1]).toBeCloseTo(1000, 3);
    expect(ratings[2]).toBeCloseTo(879.588, 3);
    expect(winRate(wins, 3, 0, 1)).toBeCloseTo(4 / 6, 12);
    expect(winRate(wins, 3, 1, 0)).toBeCloseTo(2 / 6, 12);
  });

  it("keeps an unbeaten player finite with virtual tied games", () => {
    const wins = emptyWinMatrix(2);
    for (let i = 0; i < 5; i++) addGame(wins, 2, 0, 1, 1);
    const [a] = bradleyTerryStrengths(wins, 2, { pseudoTies: 0.1 });
    expect(Number.isFinite(eloRating(a!))).toBe(true);
    expect(eloRating(a!)).toBeGreaterThan(1200);
  });
});

describe("tie ranks and the summary sentence", () => {
  it("ranks 1 + the number of models whose lower bound is above this model's upper bound", () => {
    const ranges = tieRanks([
      { low: 7, high: 9 },
      { low: 6.5, high: 8 },
      { low: 3, high: 5 },
      { low: 2, high: 4.5 },
    ]);
    expect(ranges).toEqual([
      { best: 1, worst: 2 },
      { best: 1, worst: 2 },
      { best: 3, worst: 4 },
      { best: 3, worst: 4 },
    ]);
  });

  it('says "A is best" only when its interval clears the rest', () => {
    const summary = evidenceSummary(
      [
        { modelId: "b", modelName: "B", mean: 6, interval: { low: 5.5, high: 6.5 } },
        { modelId: "a", modelName: "A", mean: 8, interval: { low: 7.5, high: 8.5 } },
      ],
      20,
      2,
    );
    expect(summary).toEqual({
      kind: "best",
      text: "A is best: its 95% interval is above every other model's.",
      leaders: ["a"],
      extraTopicsRange: null,
    });
  });

  it("says there is too little evidence below 4 units, or with one judge call per answer, and names no leader", () => {
    const clear = [
      { modelId: "b", modelName: "B", mean: 6, interval: { low: 6, high: 6 } },
      { modelId: "a", modelName: "A", mean: 8.75, interval: { low: 8.75, high: 8.75 } },
    ];
    expect(evidenceSummary(clear, 1, 1)).toEqual({
      kind: "thin",
      text:
        "Too little evidence to name a best model: the jury judged only 1 persona × topic pair; " +
        "it needs at least 4, with each answer judged at least twice.",
      leaders: [],
      extraTopicsRange: null,
    });
    expect(evidenceSummary(clear, 20, 2, false).kind).toBe("thin");
    expect(evidenceSummary(clear, 4, 1, true).kind).toBe("best");
  });

  // The estimate is a range: the gap d = 0.4 moved one standard error (√(0.5² + 0.5²) / 1.96 = 0.3608)
  // either side: 20 · (1 / 0.7608)² = 34.6 units, 8 more topics over 2 personas; 20 · (1 / 0.0392)² =
  // 13,000 units, 6,490 more. (It was the one figure 53, from d alone.)
  it("names the tied models and estimates the topics needed as a range, from the gap ± its standard error", () => {
    const summary = evidenceSummary(
      [
        { modelId: "a", modelName: "A", mean: 8, interval: { low: 7.5, high: 8.5 } },
        { modelId: "b", modelName: "B", mean: 7.6, interval: { low: 7.1, high: 8.1 } },
        { modelId: "c", modelName: "C", mean: 5.5, interval: { low: 5, high: 6 } },
      ],
      20,
      2,
    );
    expect(summary.kind).toBe("tied");
    expect(summary.leaders).toEqual(["a", "b"]);
    expect(summary.extraTopicsRange).toEqual({ low: 8, high: 6490 });
    expect(summary.text).toBe(
      "Too close to call: A and B are statistically tied; run more topics or judges to separate them (about 8–6490 more topics).",
    );
  });
});

describe("seeded resampling helpers", () => {
  it("repeats the same draws for the same seed and differs for another", () => {
    const draw = (seed: string) =>
      Array.from(
        { length: 20 },
        (
          (random) => () =>
            random.index(50)
        )(seededRandom(seed)),
      );
    expect(draw("test-1")).toEqual(draw("test-1"));
    expect(draw("test-1")).not.toEqual(draw("test-2"));
    expect(seedFromText("abc")).toBe(seedFromText("abc"));
    for (const value of draw("x")) expect(value).toBeGreaterThanOrEqual(0);
  });

  it("takes the 2.5th and 97.5th percentiles", () => {
    const sample = Array.from({ length: 41 }, (_, index) => index);
    const interval = percentileInterval(sample)!;
    expect(interval.low).toBeCloseTo(1, 9);
    expect(interval.high).toBeCloseTo(39, 9);
    expect(percentileInterval([])).toBeNull();
  });
});

describe("Student's t tail", () => {
  it("matches printed t tables: 2.306 with 8 df and 1.96 with many df leave 2.5% above", async () => {
    const { studentTUpperTail } = await import("./basics");
    expect(studentTUpperTail(2.306, 8)).toBeCloseTo(0.025, 4);
    expect(studentTUpperTail(3.355, 8)).toBeCloseTo(0.005, 4);
    expect(studentTUpperTail(1.96, 100000)).toBeCloseTo(0.025, 4);
    expect(studentTUpperTail(0, 5)).toBeCloseTo(0.5, 12);
    expect(studentTUpperTail(-2.306, 8)).toBeCloseTo(0.975, 4);
  });
});
