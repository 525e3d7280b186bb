// The team's figures from blind verdicts, worked by hand on a small case, and the degenerate ones.
import { describe, expect, test } from "vitest";
import { computeHumanStats, type HumanStatsInput, type HumanVerdict } from "./human";
import type { JuryRanking } from "./types";

/*
 * Hand-worked case: 3 models X, Y, Z (one answer each per unit), 4 units u1 = (p, t1),
 * u2 = (p, t2), u3 = (p, t3) and u4 = (p, t4), where u3 repeats u1's verdicts and calls and u4
 * u2's (two units before issue 30: an interval now needs four), 2 reviewers R1 and R2, 2 judges
 * J1 and J2, ranking scale. A ranking of 3 answers
 * scores 10, 20/3 and 10/3 by place (the jury's (N − r)/N × 10).
 *
 * Verdicts (best first)          team score per unit (mean of R1 and R2)
 *   u1: R1 X Y Z, R2 X Z Y         u1: X (10+10)/2 = 10,      Y (20/3+10/3)/2 = 5,    Z 5
 *   u2: R1 Y X Z, R2 X Y Z         u2: X (20/3+10)/2 = 25/3,  Y 25/3,                  Z 10/3
 * (u3 and u4 alike.) Team means over the 4 units: X (10 + 25/3)/2 = 55/6 ≈ 9.167,
 * Y (5 + 25/3)/2 = 20/3 ≈ 6.667, Z (5 + 10/3)/2 = 25/6 ≈ 4.167. t intervals (3 df,
 * t = 3.18245): X's unit values sit 5/6 either side of its mean, s = (5/6)·√(4/3) = 0.96225,
 * SE = s/2, X 55/6 ± 1.53116 = [7.63551, 10 (cut from 10.69783)]; Y ±5/3: ± 3.06232 =
 * [3.60435, 9.72899]; Z ± 1.53116 = [2.63551, 5.69783]. Rank ranges (tieRanks): X best 1,
 * worst 3 − 1 = 2 (only Z's high 5.698 is below 7.636); Y best 1, worst 3; Z best 1 + 1 = 2
 * (X's low 7.636 > 5.698), worst 3.
 *
 * Reviewers' agreement, Kendall's W per unit (m = 2 reviewers, n = 3 answers, no ties):
 *   u1 ranks (3 = best): R1 X3 Y2 Z1, R2 X3 Y1 Z2 → sums 6, 3, 3; mean m(n+1)/2 = 4;
 *      S = 4 + 1 + 1 = 6; W = 12 S / (m² (n³ − n)) = 72 / 96 = 0.75.
 *   u2: R1 X2 Y3 Z1, R2 X3 Y2 Z1 → sums 5, 5, 2; S = 1 + 1 + 4 = 6; W = 0.75.
 *   Mean 0.75 (u3, u4 alike): "strong" (0.6 ≤ W < 0.8), over 4 units.
 *
 * Judges (best first): J1 u1 X Y Z, u2 X Y Z; J2 u1 Z Y X, u2 X Z Y. Pairs of models per unit,
 * x = judge, y = team (C concordant, D discordant, Ty tied for the team only):
 *   J1 u1: XY C, XZ C, YZ Ty (team 5 = 5)         → C 2, D 0, Ty 1
 *   J1 u2: XY Ty (team 25/3 = 25/3), XZ C, YZ C   → C 2, D 0, Ty 1
 *   pooled over u1–u4 C 8, D 0, Tx 0, Ty 4: tau-b = 8 / √(8 · 12) = 0.8165; every resample has
 *   the same proportions, so the interval is [0.8165, 0.8165].
 *   J2 u1: XY D (judge Y > X), XZ D, YZ Ty        → C 0, D 2, Ty 1
 *   J2 u2: XY Ty, XZ C, YZ D (judge Z > Y)        → C 1, D 1, Ty 1
 *   pooled over u1–u4 C 2, D 6, Ty 4: tau-b = −4 / √96 = −0.4082. A resample drawing k units of
 *   u1's kind (k ~ Binomial(4, ½), SD 1) has C 4 − k, D 4 + k: tau-b = −2k / √96, SD 2 / √96.
 *   Bootstrap t interval: −0.4082 ± 3.18245 · (2/√96) · √(4/3) = −0.4082 ± 0.7502 →
 *   [−1 (cut from −1.158), 0.342] (up to the bootstrap's sampling error in the SD).
 * Judges best agreement first: J1, J2.
 */
const X = "x/model";
const Y = "y/model";
const Z = "z/model";
const responses = ["t1", "t2", "t3", "t4"].flatMap((topicId) =>
  [X, Y, Z].map((modelId) => ({ id: `${modelId}@${topicId}`, modelId, personaId: "p", topicId, length: 100 })),
);
const answer = (modelId: string, topicId: string) => `${modelId}@${topicId}`;
const ranked = (reviewerId: string, topicId: string, order: string[]): HumanVerdict => ({
  reviewerId,
  personaId: "p",
  topicId,
  ranking: order.map((modelId) => answer(modelId, topicId)),
});
const judgeCall = (judgeModelId: string, topicId: string, order: string[]): JuryRanking => ({
  judgeModelId,
  shown: [X, Y, Z].map((modelId) => answer(modelId, topicId)),
  ranking: order.map((modelId) => answer(modelId, topicId)),
});

const handWorked: HumanStatsInput = {
  seed: "hand-worked",
  scale: "ranking",
  models: [
    { id: X, name: "Model X" },
    { id: Y, name: "Model Y" },
    { id: Z, name: "Model Z" },
  ],
  judges: ["j/one", "j/two"],
  responses,
  rankings: [
    ...["t1", "t3"].flatMap((topic) => [judgeCall("j/one", topic, [X, Y, Z]), judgeCall("j/two", topic, [Z, Y, X])]),
    ...["t2", "t4"].flatMap((topic) => [judgeCall("j/one", topic, [X, Y, Z]), judgeCall("j/two", topic, [X, Z, Y])]),
  ],
  verdicts: [
    ...["t1", "t3"].flatMap((topic) => [ranked("R1", topic, [X, Y, Z]), ranked("R2", topic, [X, Z, Y])]),
    ...["t2", "t4"].flatMap((topic) => [ranked("R1", topic, [Y, X, Z]), ranked("R2", topic, [X, Y, Z])]),
  ],
};

describe("computeHumanStats: the hand-worked case", () => {
  const stats = computeHumanStats(handWorked);

  test("the team's ranking: means over units, t intervals of the unit values, rank ranges", () => {
    expect(stats.models.map((model) => model.modelName)).toEqual(["Model X", "Model Y", "Model Z"]);
    const [x, y, z] = stats.models;
    expect(x!.meanScore).toBeCloseTo(55 / 6, 10);
    expect(y!.meanScore).toBeCloseTo(20 / 3, 10);
    expect(z!.meanScore).toBeCloseTo(25 / 6, 10);
    expect(x!.interval!.low).toBeCloseTo(7.63551147, 6);
    expect(x!.interval!.high).toBe(10);
    expect(y!.interval!.low).toBeCloseTo(3.60435628, 6);
    expect(y!.interval!.high).toBeCloseTo(9.72897705, 6);
    expect(z!.interval!.low).toBeCloseTo(2.63551147, 6);
    expect(z!.interval!.high).toBeCloseTo(5.69782186, 6);
    expect(stats.models.map((model) => model.rank)).toEqual([
      { best: 1, worst: 2 },
      { best: 1, worst: 3 },
      { best: 2, worst: 3 },
    ]);
    expect(stats.models.map((model) => model.units)).toEqual([4, 4, 4]);
  });

  test("the reviewers agree with W = 0.75 (strong) over 4 units", () => {
    expect(stats.reviewerAgreement).toEqual({
      method: "kendall-w",
      value: 0.75,
      band: "strong",
      label: "Strong agreement",
      units: 4,
    });
  });

  test("each judge's tau-b with the team, pooled over units, with its bootstrap interval, best first", () => {
    expect(stats.judges.map((judge) => judge.judgeModelId)).toEqual(["j/one", "j/two"]);
    const [one, two] = stats.judges;
    expect(one!.tau).toBeCloseTo(4 / Math.sqrt(24), 10);
    expect(one!.interval!.low).toBeCloseTo(4 / Math.sqrt(24), 10);
    expect(one!.interval!.high).toBeCloseTo(4 / Math.sqrt(24), 10);
    expect(two!.tau).toBeCloseTo(-2 / Math.sqrt(24), 10);
    expect(two!.interval!.low).toBe(-1);
    expect(two!.interval!.high).toBeCloseTo(
      -2 / Math.sqrt(24) + 3.18244631 * (2 / Math.sqrt(96)) * Math.sqrt(4 / 3),
      1,
    );
    expect(stats.judges.map((judge) => judge.units)).toEqual([4, 4]);
  });

  test("reviewers and pairs counted", () => {
    expect(stats.reviewers).toEqual([
      { reviewerId: "R1", pairs: 4 },
      { reviewerId: "R2", pairs: 4 },
    ]);
    expect(stats.pairsReviewed).toBe(4);
  });

  test("the same input gives the same figures (seeded)", () => {
    expect(computeHumanStats(handWorked)).toEqual(stats);
  });
});

describe("computeHumanStats: degenerate cases", () => {
  test("one reviewer: a ranking, but no reviewers' agreement", () => {
    const stats = computeHumanStats({
      ...handWorked,
      verdicts: handWorked.verdicts.filter((v) => v.reviewerId === "R1"),
    });
    expect(stats.reviewerAgreement).toBeNull();
    // R1 alone: X 10 and 20/3 → 25/3; Y 20/3 and 10 → 25/3; Z 10/3 in both.
    const [first, second, third] = stats.models.map((model) => model.meanScore!);
    expect(first).toBeCloseTo(25 / 3, 10);
    expect(second).toBeCloseTo(25 / 3, 10);
    expect(third).toBeCloseTo(10 / 3, 10);
    // J1 against R1: u1 C 3; u2 XY D, XZ C, YZ C → pooled C 5, D 1: tau = 4/6.
    expect(stats.judges.find((judge) => judge.judgeModelId === "j/one")!.tau).toBeCloseTo(4 / 6, 10);
  });

  test("two reviewers on different pairs: no common pair, no agreement", () => {
    const stats = computeHumanStats({
      ...handWorked,
      verdicts: [ranked("R1", "t1", [X, Y, Z]), ranked("R2", "t2", [X, Y, Z])],
    });
    expect(stats.reviewerAgreement).toBeNull();
    expect(stats.pairsReviewed).toBe(2);
  });

  test("a team that ties every model gives no tau (undefined), and no judge overlap gives null", () => {
    // R1 and R2 reverse each other in u1: X (10 + 10/3)/2 = 20/3, Y 20/3, Z 20/3: all tied.
    const tied = computeHumanStats({
      ...handWorked,
      verdicts: [ranked("R1", "t1", [X, Y, Z]), ranked("R2", "t1", [Z, Y, X])],
    });
    expect(tied.judges.map((judge) => [judge.tau, judge.interval, judge.units])).toEqual([
      [null, null, 1],
      [null, null, 1],
    ]);
    // Kendall's W of two opposite orders is 0: "The reviewers barely agree".
    expect(tied.reviewerAgreement).toMatchObject({ value: 0, band: "none", label: "The reviewers barely agree" });
    // The judges ranked only t2; the team reviewed only t1.
    const apart = computeHumanStats({
      ...handWorked,
      rankings: handWorked.rankings!.filter((call) => call.ranking[0]!.endsWith("@t2")),
      verdicts: [ranked("R1", "t1", [X, Y, Z])],
    });
    expect(apart.judges.map((judge) => [judge.tau, judge.interval, judge.units])).toEqual([
      [null, null, 0],
      [null, null, 0],
    ]);
  });

  test("no verdicts: every model listed without a score", () => {
    const stats = computeHumanStats({ ...handWorked, verdicts: [] });
    expect(stats.models.map((model) => [model.meanScore, model.interval, model.rank, model.units])).toEqual([
      [null, null, null, 0],
      [null, null, null, 0],
      [null, null, null, 0],
    ]);
    expect(stats.reviewerAgreement).toBeNull();
    expect(stats.pairsReviewed).toBe(0);
  });

  test("rating: a reviewer's score is the mean over criteria; agreement is Krippendorff's alpha", () => {
    // u1: R1 scores X (8, 6) → 7, Y (4, 4) → 4; R2 X (9, 7) → 8, Y (3, 3) → 3.
    // Team: X (7 + 8)/2 = 7.5, Y (4 + 3)/2 = 3.5.
    // Alpha over answers {7, 8} and {4, 3}: n = 4 values; D_o = (1/4)(2·1/1 + 2·1/1) = 1;
    // D_e = Σ_{i≠j}(v_i − v_j)² / (n(n − 1)) = 2(4·138 − 22²)/12 = 2·68/12 = 34/3; alpha = 1 − 3/34.
    const rated = (reviewerId: string, x: [number, number], y: [number, number]): HumanVerdict => ({
      reviewerId,
      personaId: "p",
      topicId: "t1",
      scores: [
        { responseId: answer(X, "t1"), scores: { accuracy: x[0], clarity: x[1] } },
        { responseId: answer(Y, "t1"), scores: { accuracy: y[0], clarity: y[1] } },
      ],
    });
    const stats = computeHumanStats({
      ...handWorked,
      scale: "rating",
      rankings: [],
      ratings: [],
      verdicts: [rated("R1", [8, 6], [4, 4]), rated("R2", [9, 7], [3, 3])],
    });
    expect(stats.models.slice(0, 2).map((model) => [model.modelId, model.meanScore])).toEqual([
      [X, 7.5],
      [Y, 3.5],
    ]);
    expect(stats.reviewerAgreement!.method).toBe("krippendorff-alpha-interval");
    expect(stats.reviewerAgreement!.value).toBeCloseTo(1 - 3 / 34, 10);
    expect(stats.reviewerAgreement!.band).toBe("very strong");
  });
});

describe("computeHumanStats: ties are ties", () => {
  test("a judge's equal scores from both orders are a tie against the team, not a disagreement", () => {
    // j/both ranks a first and b second forward, b fifth and a last in reverse: a and b both score
    // 35/6 (5.833333333333333 and 5.833333333333334 in floats). Its order: c > d > a = b > e > f.
    // The team: a > b > c > d > e > f. Of 15 pairs, a–b is tied for the judge only; a or b against
    // c or d are discordant (4); the other 10 concordant: tau-b = (10 − 4) / √(15 · 14).
    const ids = ["a", "b", "c", "d", "e", "f"];
    const stats = computeHumanStats({
      seed: "ties",
      scale: "ranking",
      judges: ["j/both"],
      responses: ids.map((id) => ({ id, modelId: `${id}/model`, personaId: "p", topicId: "t", length: 100 })),
      rankings: [
        { judgeModelId: "j/both", shown: ids, ranking: ids, order: "forward" },
        {
          judgeModelId: "j/both",
          shown: [...ids].reverse(),
          ranking: ["c", "d", "e", "f", "b", "a"],
          order: "reverse",
        },
      ],
      verdicts: [{ reviewerId: "R1", personaId: "p", topicId: "t", ranking: ids }],
    });
    expect(stats.judges[0]!.tau).toBeCloseTo(6 / Math.sqrt(210), 12);
  });
});
