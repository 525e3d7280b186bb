// computeJuryStats on simulated juries whose true qualities and planted biases are known.
import { describe, expect, it } from "vitest";
import { computeJuryStats } from "./index";
import { FAIR, simulate, TEN_MODELS } from "./simulated.helpers";

describe("computeJuryStats", () => {
  it("gives the same figures for the same test id and other resamples for another", () => {
    const input = simulate({
      qualities: { "a/x": 0.6, "b/y": 0.55, "c/z": 0.4 },
      judges: FAIR.slice(0, 3),
      topics: 12,
    });
    const first = computeJuryStats(input);
    expect(computeJuryStats(input)).toEqual(first);
    const other = computeJuryStats({ ...input, seed: "another-test" });
    expect(other.models.map((model) => model.meanScore)).toEqual(first.models.map((model) => model.meanScore));
    // Score intervals are closed-form t intervals since issue 30 (the same for any seed); the
    // Bradley–Terry intervals still take their standard error from the seeded bootstrap.
    expect(other.models.map((model) => model.scoreInterval)).toEqual(first.models.map((model) => model.scoreInterval));
    expect(other.models.map((model) => model.ratingInterval)).not.toEqual(
      first.models.map((model) => model.ratingInterval),
    );
    expect(first.resamples).toBe(1000);
  });

  it("names the best model when it is clearly better, and says tied when two share the same quality", () => {
    const clear = computeJuryStats(
      simulate({ qualities: { "a/best": 0.9, "b/mid": 0.5, "c/low": 0.3 }, judges: FAIR, topics: 30 }),
    );
    expect(clear.summary.kind).toBe("best");
    expect(clear.summary.text).toBe("best is best: its 95% interval is above every other model's.");
    expect(clear.models[0]!.rank).toEqual({ best: 1, worst: 1 });
    const [best, ...rest] = clear.models;
    for (const model of rest) expect(best!.scoreInterval!.low).toBeGreaterThan(model.scoreInterval!.high);
    expect(best!.rating!).toBeGreaterThan(1000);
    expect(best!.ratingInterval!.low).toBeLessThanOrEqual(best!.rating!);
    expect(best!.ratingInterval!.high).toBeGreaterThanOrEqual(best!.rating!);

    const tied = computeJuryStats(
      simulate({ qualities: { "a/twin-one": 0.7, "b/twin-two": 0.7, "c/low": 0.3 }, judges: FAIR, topics: 30 }),
    );
    expect(tied.summary.kind).toBe("tied");
    expect(tied.summary.text).toMatch(
      /^Too close to call: twin-(one|two) and twin-(one|two) are statistically tied; run more topics or judges to separate them/,
    );
    expect(tied.models.slice(0, 2).map((model) => model.rank!.best)).toEqual([1, 1]);
    expect(tied.models[2]!.rank!.best).toBe(3);
  });

  it("says there is too little evidence with one judge call per answer, however many pairs; both orders make two", () => {
    const qualities = { "a/best": 0.9, "b/mid": 0.5, "c/low": 0.3 };
    const single = computeJuryStats(simulate({ qualities, judges: FAIR.slice(0, 1), topics: 30 }));
    expect(single.summary).toMatchObject({ kind: "thin", leaders: [], extraTopicsRange: null });
    const bothOrders = computeJuryStats(
      simulate({ qualities, judges: FAIR.slice(0, 1), topics: 30, bothOrders: true }),
    );
    expect(bothOrders.summary.kind).toBe("best");
    const fewPairs = computeJuryStats(simulate({ qualities, judges: FAIR, topics: 3 }));
    expect(fewPairs.summary.kind).toBe("thin");
  });

  it("flags the judge that puts the first-shown answer first, and no fair judge", () => {
    const stats = computeJuryStats(
      simulate({
        qualities: TEN_MODELS,
        judges: [...FAIR.slice(0, 4), { id: "mistral/first-lover", position: 0.5 }],
        topics: 50,
      }),
    );
    const biased = stats.judges.find((judge) => judge.judgeModelId === "mistral/first-lover")!;
    expect(biased.position!.flagged).toBe(true);
    expect(biased.position!.firstRate).toBeGreaterThan(3 * biased.position!.chance);
    expect(biased.position!.chance).toBeCloseTo(0.1, 12);
    expect(biased.flagged).toBe(true);
    for (const judge of stats.judges.filter((entry) => entry !== biased)) expect(judge.flagged).toBe(false);
    // The biased judge agrees less with the rest of the panel than the fair ones do.
    const fairAgreement = Math.min(
      ...stats.judges.filter((entry) => entry !== biased).map((judge) => judge.agreement.value!),
    );
    expect(biased.agreement.value!).toBeLessThan(fairAgreement);
  });

  it("measures position consistency when every ranking is asked in both orders", () => {
    const stats = computeJuryStats(
      simulate({
        qualities: TEN_MODELS,
        judges: [...FAIR.slice(0, 2), { id: "mistral/first-lover", position: 0.5 }],
        topics: 20,
        bothOrders: true,
      }),
    );
    const consistency = Object.fromEntries(
      stats.judges.map((judge) => [judge.judgeModelId, judge.positionConsistency!]),
    );
    expect(consistency["mistral/first-lover"]).toBeLessThan(consistency["openai/judge"]!);
    expect(consistency["openai/judge"]).toBeGreaterThan(0.5);
    expect(stats.judges[0]!.calls).toBe(40);
  });

  it("flags the judge that favours its own family, with its excess over the panel", () => {
    const stats = computeJuryStats(
      simulate({
        qualities: { ...TEN_MODELS, "google/gem": 0.5 },
        judges: [...FAIR.slice(0, 4), { id: "google/judge", self: 0.3 }],
        topics: 40,
      }),
    );
    const selfish = stats.judges.find((judge) => judge.judgeModelId === "google/judge")!;
    expect(selfish.selfPreference.flagged).toBe(true);
    expect(selfish.selfPreference.value!).toBeGreaterThan(1);
    expect(selfish.selfPreference.answers).toBe(40);
    for (const judge of stats.judges.filter((entry) => entry !== selfish))
      expect(judge.selfPreference.flagged).toBe(false);
  });

  it("flags the judge that favours long answers beyond what the panel sees in them", () => {
    const stats = computeJuryStats(
      simulate({
        qualities: TEN_MODELS,
        judges: [...FAIR.slice(0, 4), { id: "mistral/verbose", length: 0.6 }],
        topics: 50,
      }),
    );
    const verbose = stats.judges.find((judge) => judge.judgeModelId === "mistral/verbose")!;
    expect(verbose.length.flagged).toBe(true);
    expect(verbose.length.excess!).toBeGreaterThan(0);
    for (const judge of stats.judges.filter((entry) => entry !== verbose)) {
      expect(judge.length.flagged).toBe(false);
      // Length goes with quality here, so every judge's scores correlate with it.
      expect(judge.length.correlation!).toBeGreaterThan(0.3);
    }
  });

  it("reports agreement per persona × topic and overall, Kendall's W for rankings and alpha for ratings", () => {
    const ranking = computeJuryStats(
      simulate({ qualities: TEN_MODELS, judges: FAIR.slice(0, 3), topics: 6, personas: 2 }),
    );
    expect(ranking.agreement.overall.method).toBe("kendall-w");
    expect(ranking.agreement.byUnit).toHaveLength(12);
    expect(ranking.agreement.overall.value!).toBeGreaterThan(0.6);
    expect(ranking.agreement.overall.label).toMatch(/agreement/);
    expect(ranking.units).toBe(12);

    const rating = computeJuryStats(
      simulate({ qualities: TEN_MODELS, judges: FAIR.slice(0, 3), topics: 6, scale: "rating" }),
    );
    expect(rating.agreement.overall.method).toBe("krippendorff-alpha-interval");
    expect(rating.agreement.overall.value!).toBeGreaterThan(0.5);
    expect(rating.judges[0]!.agreement.method).toBe("spearman");
    expect(rating.judges[0]!.position).toBeNull();
    const noisy = computeJuryStats(
      simulate({
        qualities: TEN_MODELS,
        judges: FAIR.slice(0, 3).map((judge) => ({ ...judge, noise: 3 })),
        topics: 6,
        scale: "rating",
      }),
    );
    expect(noisy.agreement.overall.value!).toBeLessThan(rating.agreement.overall.value!);
  });

  it("returns a win-rate matrix whose opposite cells add up to 1, and costs per model and per judge", () => {
    const stats = computeJuryStats(
      simulate({ qualities: { "a/x": 0.8, "b/y": 0.5, "c/z": 0.2 }, judges: FAIR.slice(0, 2), topics: 10 }),
    );
    const { matrix, modelIds } = stats.winRates;
    expect(modelIds).toEqual(stats.models.map((model) => model.modelId));
    for (let i = 0; i < 3; i++) {
      expect(matrix[i]![i]).toBeNull();
      for (let j = 0; j < 3; j++) if (i !== j) expect(matrix[i]![j]! + matrix[j]![i]!).toBeCloseTo(1, 12);
    }
    expect(matrix[0]![2]!).toBeGreaterThan(0.8);
    expect(stats.models.every((model) => Math.abs(model.generationCostUsd - 0.01) < 1e-12)).toBe(true);
    expect(stats.judges.map((judge) => judge.costUsd)).toEqual(
      [0.002 * 10, 0.002 * 10].map((value) => expect.closeTo(value, 12) as number),
    );
    expect(stats.costs.judgingUsd).toBeCloseTo(0.04, 12);
    expect(stats.costs.generationUsd).toBeCloseTo(0.03, 12);
  });

  it("gives no interval and makes no claim on one topic and one judge (the README's ci.yaml)", () => {
    // Before issue 30 this said "95% interval 8.75–8.75", rank 1–1 and "is best" from one call.
    const stats = computeJuryStats(
      simulate({ qualities: { "a/x": 0.85, "b/y": 0.4 }, judges: FAIR.slice(0, 1), topics: 1, scale: "rating" }),
    );
    expect(stats.summary).toEqual({
      kind: "thin",
      text: "Too little evidence: 1 persona × topic pair and one judge call per answer; an interval needs at least 4 pairs and two judge calls per answer.",
      leaders: [],
      extraTopicsRange: null,
    });
    for (const model of stats.models) {
      expect(model.meanScore).not.toBeNull();
      expect([model.scoreInterval, model.rank, model.ratingInterval]).toEqual([null, null, null]);
      expect(model.byJudge.every((entry) => entry.interval === null)).toBe(true);
      expect(model.criteria.every((entry) => entry.interval === null)).toBe(true);
    }
  });

  it("needs two judge calls per answer: one judge on 8 topics is too little, the same judge in both orders is not", () => {
    const options = { qualities: { "a/x": 0.8, "b/y": 0.4, "c/z": 0.3 }, judges: FAIR.slice(0, 1), topics: 8 };
    const once = computeJuryStats(simulate(options));
    expect(once.summary.kind).toBe("thin");
    expect(once.summary.text).toBe(
      "Too little evidence: one judge call per answer; an interval needs two (add a judge, or judge in both orders).",
    );
    const both = computeJuryStats(simulate({ ...options, bothOrders: true }));
    expect(both.summary.kind).toBe("best");
    expect(both.models.every((model) => model.scoreInterval !== null && model.ratingInterval !== null)).toBe(true);
  });

  it("handles a test with no evaluations yet", () => {
    const input = simulate({ qualities: { "a/x": 0.5 }, judges: [], topics: 2 });
    const stats = computeJuryStats({ ...input, judges: ["openai/judge"] });
    expect(stats.summary).toEqual({ kind: "none", text: "No scores yet.", leaders: [], extraTopicsRange: null });
    expect(stats.models[0]!.meanScore).toBeNull();
    expect(stats.agreement.overall.value).toBeNull();
    expect(stats.judges[0]!.agreement.value).toBeNull();
  });
});

describe("per-criterion, per-judge and cost figures", () => {
  // Two models, two judges, two criteria, four units (three before issue 30: an interval now needs
  // four); worked by hand below.
  const units = ["u1", "u2", "u3", "u4"];
  const responses = units.flatMap((topicId) => [
    { id: `a-${topicId}`, modelId: "a/one", personaId: "p", topicId, length: 100, costUsd: 0.01 },
    { id: `b-${topicId}`, modelId: "b/two", personaId: "p", topicId, length: 100, costUsd: 0.02 },
  ]);
  const accuracy = { a: [8, 6, 7, 7], b: [4, 5, 3, 4] };
  const ratings = units.flatMap((topicId, u) => [
    {
      judgeModelId: "j/one",
      responseId: `a-${topicId}`,
      scores: { accuracy: accuracy.a[u]!, clarity: 9 },
      costUsd: 0.001,
    },
    {
      judgeModelId: "j/two",
      responseId: `a-${topicId}`,
      scores: { accuracy: accuracy.a[u]! - 2, clarity: 7 },
      costUsd: 0.003,
    },
    {
      judgeModelId: "j/one",
      responseId: `b-${topicId}`,
      scores: { accuracy: accuracy.b[u]!, clarity: 5 },
      costUsd: 0.001,
    },
    {
      judgeModelId: "j/two",
      responseId: `b-${topicId}`,
      scores: { accuracy: accuracy.b[u]!, clarity: 5 },
      costUsd: 0.003,
    },
  ]);
  const stats = computeJuryStats({
    seed: "breakdown",
    scale: "rating",
    judges: ["j/one", "j/two"],
    responses,
    ratings,
  });
  const model = (id: string) => stats.models.find((entry) => entry.modelId === id)!;

  it("gives a rating test each model's mean per criterion and per judge, with intervals around them", () => {
    expect(stats.criteria).toEqual(["accuracy", "clarity"]);
    // a: accuracy (8+6)/2, (6+4)/2, (7+5)/2, (7+5)/2 → 7, 5, 6, 6 → 6; clarity (9+7)/2 = 8 everywhere.
    const a = model("a/one");
    expect(a.criteria.map((entry) => [entry.criterion, entry.mean])).toEqual([
      ["accuracy", 6],
      ["clarity", 8],
    ]);
    // t interval of 7, 5, 6, 6: 6 ± 3.1824 · 0.8165 / 2 (scipy ttest_1samp: 4.700772, 7.299228).
    expect(a.criteria[0]!.interval!.low).toBeCloseTo(4.70077174, 6);
    expect(a.criteria[0]!.interval!.high).toBeCloseTo(7.29922826, 6);
    // Every pair gave clarity 8: the data cannot vary, nor can the interval.
    expect(a.criteria[1]!.interval).toEqual({ low: 8, high: 8 });
    // a by judge: j/one (8+9)/2, (6+9)/2, (7+9)/2, (7+9)/2 → 8; j/two (6+7)/2, (4+7)/2, (5+7)/2, (5+7)/2 → 6.
    expect(a.byJudge.map((entry) => [entry.judgeModelId, entry.mean])).toEqual([
      ["j/one", 8],
      ["j/two", 6],
    ]);
    expect(model("b/two").criteria[0]!.mean).toBe(4);
  });

  it("splits generation and judging cost per model, adding up to the test's totals", () => {
    expect(model("a/one").generationCostUsd).toBeCloseTo(0.04, 12);
    expect(model("b/two").generationCostUsd).toBeCloseTo(0.08, 12);
    expect(model("a/one").judgingCostUsd).toBeCloseTo(0.016, 12);
    expect(model("b/two").judgingCostUsd).toBeCloseTo(0.016, 12);
    expect(stats.costs).toEqual({ generationUsd: expect.closeTo(0.12, 12), judgingUsd: expect.closeTo(0.032, 12) });
    expect(stats.judges.map((judge) => [judge.judgeModelId, judge.costUsd])).toEqual([
      ["j/one", expect.closeTo(0.008, 12)],
      ["j/two", expect.closeTo(0.024, 12)],
    ]);
  });

  it("gives a ranking test per-judge means and each call's cost shared over the answers it ranked", () => {
    const ranked = computeJuryStats({
      seed: "ranked",
      scale: "ranking",
      judges: ["j/one"],
      responses: responses.slice(0, 2),
      rankings: [{ judgeModelId: "j/one", shown: ["a-u1", "b-u1"], ranking: ["a-u1", "b-u1"], costUsd: 0.004 }],
    });
    expect(ranked.criteria).toEqual([]);
    const a = ranked.models.find((entry) => entry.modelId === "a/one")!;
    expect(a.criteria).toEqual([]);
    // One pair ranked by one call: too little evidence, so no interval (it was [10, 10] before
    // issue 30, a certainty one judge call cannot give).
    expect(a.byJudge).toEqual([{ judgeModelId: "j/one", mean: 10, interval: null }]);
    expect(ranked.summary.kind).toBe("thin");
    expect(a.judgingCostUsd).toBeCloseTo(0.002, 12);
  });
});

describe("computeJuryStats: ties are ties", () => {
  // Six answers in one unit, "Judge in both orders". j/both ranks a first and b second forward,
  // and b fifth and a last in reverse: a scores (10 + 10/6) / 2 and b (50/6 + 20/6) / 2, both
  // 35/6, which floats reach as 5.833333333333333 and 5.833333333333334. j/once ranks forward only.
  const ids = ["a", "b", "c", "d", "e", "f"];
  const stats = computeJuryStats({
    seed: "ties",
    scale: "ranking",
    judges: ["j/both", "j/once"],
    responses: ids.map((id) => ({ id, modelId: `${id}/model`, personaId: "p", topicId: "t", length: 100 })),
    rankings: [
      { judgeModelId: "j/both", shown: ids, ranking: ids, order: "forward" },
      { judgeModelId: "j/both", shown: [...ids].reverse(), ranking: ["c", "d", "e", "f", "b", "a"], order: "reverse" },
      { judgeModelId: "j/once", shown: ids, ranking: ids, order: "forward" },
    ],
  });
  const model = (id: string) => stats.models.find((entry) => entry.modelId === `${id}/model`)!;

  it("gives the two answers the same score from the judge, so neither beats the other", () => {
    const both = (id: string) => model(id).byJudge.find((entry) => entry.judgeModelId === "j/both")!.mean;
    expect(both("a")).toBeCloseTo(35 / 6, 12);
    expect(both("b")).toBeCloseTo(35 / 6, 12);
    const a = stats.winRates.modelIds.indexOf("a/model");
    const b = stats.winRates.modelIds.indexOf("b/model");
    // a beats b with j/once and ties with j/both: 1.5 of 2 games.
    expect(stats.winRates.matrix[a]![b]).toBe(0.75);
    expect(stats.winRates.matrix[b]![a]).toBe(0.25);
  });

  it("counts the tie in Kendall's W: ranks a 3.5 and b 3.5 for j/both", () => {
    // Midranks (6 = best): j/both f1 e2 a3.5 b3.5 d5 c6, j/once f1 e2 d3 c4 b5 a6; sums a 9.5,
    // b 8.5, c 10, d 8, e 4, f 2 around m(n+1)/2 = 7: S = 52.5. Tie term 2³ − 2 = 6:
    // W = 12 S / (m² (n³ − n) − m T) = 630 / (4 · 210 − 2 · 6) = 630 / 828.
    expect(stats.agreement.overall.value).toBeCloseTo(630 / 828, 12);
  });
});
