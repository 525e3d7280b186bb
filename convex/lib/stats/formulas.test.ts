// The jury statistics against published and hand-worked examples.
import { describe, expect, it } from "vitest";
import { kendallW, krippendorffAlphaInterval, agreementBand } from "./agreement";
import {
  bootstrapTInterval,
  kendallTauB,
  midranks,
  percentileInterval,
  skewCorrectedInterval,
  spearman,
  studentTQuantile,
  t95,
  tInterval,
} from "./basics";
import { seriesMeans } from "./breakdown";
import { positionBias, positionConsistency, successesUpperTail } from "./bias";
import { addGame, bradleyTerryStrengths, eloRating, emptyWinMatrix, winRate } from "./bradleyTerry";
import { evidenceSummary, thinEvidence, tieRanks } from "./ranks";
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

  it("names the tied models and gives the topics needed as a range from the gap's interval: 18–240", () => {
    // w = 0.5 + 0.5 = 1. The gap A − B is 0.4, known within [0.2, 0.6]: separating them needs
    // 20 · (1 / 0.6)² = 55.6 to 20 · (1 / 0.2)² = 500 units, i.e. 35.6 to 480 more over 2 personas:
    // 18 to 240 topics. (Before issue 30 the point gap alone gave "about 53", 20 · (1 / 0.4)² = 125
    // units; one rerun's gap of 0.2 or 0.6 would have said 240 or 18.)
    const models = [
      { modelId: "a", modelName: "A", mean: 8, interval: { low: 7.5, high: 8.5 } },
      { modelId: "b", modelName: "B", mean: 7.6, interval: { low: 7.1, high: 8.1 } },
      { modelId: "c", modelName: "C", mean: 5.5, interval: { low: 5, high: 6 } },
    ];
    const summary = evidenceSummary(models, 20, 2, { gap: () => ({ low: 0.2, high: 0.6 }) });
    expect(summary.kind).toBe("tied");
    expect(summary.leaders).toEqual(["a", "b"]);
    expect(summary.extraTopicsRange).toEqual({ low: 18, high: 240 });
    expect(summary.text).toBe(
      "Too close to call: A and B are statistically tied; run more topics or judges to separate them (about 18–240 more topics).",
    );
    // A gap whose interval reaches 0 may be no gap at all: no number of topics can be promised.
    const unbounded = evidenceSummary(models, 20, 2, { gap: () => ({ low: -0.1, high: 0.9 }) });
    expect(unbounded.extraTopicsRange).toBeNull();
    expect(unbounded.text).toBe(
      "Too close to call: A and B are statistically tied; run more topics or judges to separate them.",
    );
  });

  it("makes no claim on too little evidence", () => {
    const summary = evidenceSummary(
      [
        { modelId: "a", modelName: "A", mean: 8.75, interval: null },
        { modelId: "b", modelName: "B", mean: 5, interval: null },
      ],
      1,
      1,
      { thin: thinEvidence({ pairs: 1, answers: 2, repeatedAnswers: 0 }) },
    );
    expect(summary).toEqual({
      kind: "thin",
      text: "Too little evidence: 1 persona × topic pair and one judge call per answer; an interval needs at least 4 pairs and two judge calls per answer.",
      leaders: [],
      extraTopicsRange: null,
    });
  });

  it("calls evidence too little below 4 pairs or when fewer than half the answers have two judge calls", () => {
    expect(thinEvidence({ pairs: 3, answers: 12, repeatedAnswers: 12 })).toBe(
      "Too little evidence: 3 persona × topic pairs; an interval needs at least 4.",
    );
    expect(thinEvidence({ pairs: 4, answers: 12, repeatedAnswers: 12 })).toBeNull();
    expect(thinEvidence({ pairs: 40, answers: 12, repeatedAnswers: 5 })).toBe(
      "Too little evidence: one judge call per answer; an interval needs two (add a judge, or judge in both orders).",
    );
    expect(thinEvidence({ pairs: 40, answers: 12, repeatedAnswers: 6 })).toBeNull();
  });
});

describe("t intervals over persona × topic pairs", () => {
  it("takes Student's t quantiles from printed tables: 12.706 (1 df), 3.182 (3), 2.571 (5), 1.960 (∞); scipy for 3.594 df", () => {
    expect(t95(1)).toBeCloseTo(12.7062047, 6);
    expect(t95(3)).toBeCloseTo(3.18244631, 7);
    expect(t95(5)).toBeCloseTo(2.57058184, 7);
    expect(t95(3.594059405940594)).toBeCloseTo(2.90460256, 6);
    expect(t95(1e6)).toBeCloseTo(1.95996636, 5);
    expect(studentTQuantile(0.995, 8)).toBeCloseTo(3.355387, 5);
  });

  it("gives the t interval of a mean by hand: 6, 7, 8, 9 → 7.5 ± 3.1824 · 1.2910 / 2 = [5.4457, 9.5543]", () => {
    // scipy.stats.ttest_1samp([6, 7, 8, 9], 0).confidence_interval(): 5.445740, 9.554260.
    const interval = tInterval([6, 7, 8, 9])!;
    expect(interval.low).toBeCloseTo(5.44573974, 7);
    expect(interval.high).toBeCloseTo(9.55426026, 7);
    // Cut to the score scale: 9, 10, 10, 10 → 9.75 ± 0.7956 reaches past 10.
    expect(tInterval([9, 10, 10, 10], { low: 0, high: 10 })!.high).toBe(10);
    expect(tInterval([5])).toBeNull();
    // Every pair alike: the data cannot vary, and the interval has no width.
    expect(tInterval([7, 7, 7, 7])).toEqual({ low: 7, high: 7 });
  });

  it("takes a bootstrap standard error from the replicates' ±1 SD percentiles, widens it by √(n / (n − 1)), uses t(n − 1)", () => {
    // Replicates 0, 1, …, 100: the 15.8655th and 84.1345th percentiles (linear, as numpy's
    // percentile) are 15.8655 and 84.1345, so SD = 34.1345. With n = 5 pairs, SE = 34.1345 · √(5/4)
    // = 38.1635 and t(4) = 2.7764451: 10 ± 105.9589.
    const replicates = Array.from({ length: 101 }, (_, index) => index);
    const interval = bootstrapTInterval(10, replicates, 5)!;
    expect(interval.low).toBeCloseTo(10 - 2.77644511 * 34.1345 * Math.sqrt(5 / 4), 6);
    expect(interval.high).toBeCloseTo(115.9589, 3);
    // One extreme resample does not move it (a standard deviation would grow by half).
    expect(bootstrapTInterval(10, [...replicates, 10_000], 5)!.high).toBeLessThan(118);
    expect(bootstrapTInterval(10, [1, 2, 3], 1)).toBeNull();
    // Not widened (the Bradley–Terry ratings): 10 ± 2.7764451 · 34.1345 = [−84.7726, 104.7726].
    const plain = bootstrapTInterval(10, replicates, 5, { widen: false })!;
    expect(plain.low).toBeCloseTo(10 - 2.77644511 * 34.1345, 6);
    expect(plain.high).toBeCloseTo(104.7726, 3);
  });

  it("corrects the t interval for skewness (Hall 1992): a weak model ranked last in 4 of 6 pairs", () => {
    // One judge's ranking scores of a weak model over six pairs: 2.5, 2.5, 2.5, 5, 2.5, 7.5.
    // By hand (numpy/scipy): mean 3.75, s = 2.0916501, skewness γ = m₃ / s³ = 0.8537347 (m₃ with
    // n denominator), t(5) = 2.5705818; Δ(q) = (3/γ)(∛(1 + γ(q/√6 − γ/36)) − 1) gives
    // [3.75 − s·Δ(t), 3.75 − s·Δ(−t)] = [2.0355534, 7.8834290], where the plain t interval,
    // [1.5549479, 5.9450521], sits too low: the long tail is above.
    const values = [2.5, 2.5, 2.5, 5, 2.5, 7.5];
    const centre = 3.75;
    const sd = 2.091650066335189;
    const thirdMoment = values.reduce((sum, value) => sum + (value - centre) ** 3, 0) / values.length;
    const interval = skewCorrectedInterval({ mean: centre, sd, thirdMoment, n: 6 })!;
    expect(interval.low).toBeCloseTo(2.0355534, 6);
    expect(interval.high).toBeCloseTo(7.883429, 6);
    // Symmetric values: the t interval itself (6, 7, 8, 9 → [5.4457, 9.5543]).
    const symmetric = skewCorrectedInterval({ mean: 7.5, sd: Math.sqrt(5 / 3), thirdMoment: 0, n: 4 })!;
    expect(symmetric.low).toBeCloseTo(5.44573974, 7);
    expect(symmetric.high).toBeCloseTo(9.55426026, 7);
    // Cut to the scale, and no width only where nothing varied.
    expect(skewCorrectedInterval({ mean: centre, sd, thirdMoment, n: 6 }, { low: 0, high: 7 })!.high).toBe(7);
    expect(skewCorrectedInterval({ mean: 7, sd: 0, thirdMoment: 0, n: 4 })).toEqual({ low: 7, high: 7 });
    // Through seriesMeans, as the per-judge and per-criterion means use it.
    const [series] = seriesMeans(Float64Array.from(values), 6, 1, { skewCorrected: true });
    expect(series!.interval!.low).toBeCloseTo(2.0355534, 6);
    expect(series!.interval!.high).toBeCloseTo(7.883429, 6);
  });

  it("gives each series its mean and t interval, and none below the units asked for", () => {
    // Two series over four units (NaN: no value there): 6, 7, 8, 9 and 1, NaN, 3, NaN.
    const values = Float64Array.from([6, 1, 7, NaN, 8, 3, 9, NaN]);
    const [first, second] = seriesMeans(values, 4, 2, { minUnits: 4 });
    expect(first!.mean).toBe(7.5);
    expect(first!.interval!.low).toBeCloseTo(5.44573974, 7);
    expect(second).toEqual({ mean: 2, interval: null });
    // With two units allowed: 2 ± 12.7062 · √2 / √2 = [−10.706, 14.706].
    expect(seriesMeans(values, 4, 2)[1]!.interval!.low).toBeCloseTo(2 - 12.7062047, 6);
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
