// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  addLatency,
  LATENCY_BUCKET_BOUNDS_MS,
  latencyBucketIndex,
  paretoFrontier,
  percentile,
  percentileFromBuckets,
  insertSorted,
  personaBreakdown,
  rankingScore,
  rankModels,
  ratingAverage,
  scoreBarPercent,
  scoresFromRanking,
  summarize,
  tallyScores,
} from "./scoring";

describe("rankingScore", () => {
  it("gives the best of N answers 10 and the worst 10/N", () => {
    // N = generators × responses per topic = 2 × 2
    expect(rankingScore(0, 4)).toBe(10);
    expect(rankingScore(1, 4)).toBe(7.5);
    expect(rankingScore(2, 4)).toBe(5);
    expect(rankingScore(3, 4)).toBe(2.5);
    // N = 3 × 2
    expect(rankingScore(5, 6)).toBeCloseTo(10 / 6, 12);
    expect(rankingScore(0, 1)).toBe(10);
  });

  it("scores a judge that skipped answers (own family) on the pair's full scale: same top, bottom and mean", () => {
    // 3 of 6 answers ranked: places 0, 2.5 and 5 of 6 → 10, 5.83…, 1.67
    const skipped = scoresFromRanking(["a", "b", "c"], 6).map((entry) => entry.score);
    expect(skipped[0]).toBe(10);
    expect(skipped[2]).toBeCloseTo(10 / 6, 12);
    const full = scoresFromRanking(["a", "b", "c", "d", "e", "f"]).map((entry) => entry.score);
    const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(average(skipped)).toBeCloseTo(average(full), 12);
    // Without the spread, 3 answers would score 10, 6.67, 3.33: a higher mean than a full ranking's.
    expect(average(scoresFromRanking(["a", "b", "c"]).map((entry) => entry.score))).toBeGreaterThan(average(full));
  });

  it("rejects ranks outside the ranking", () => {
    expect(() => rankingScore(4, 4)).toThrow(RangeError);
    expect(() => rankingScore(-1, 4)).toThrow(RangeError);
    expect(() => rankingScore(0, 0)).toThrow(RangeError);
  });

  it("turns a judge's order into scores", () => {
    expect(scoresFromRanking(["r2", "r1", "r3"])).toEqual([
      { responseId: "r2", position: 1, score: 10 },
      { responseId: "r1", position: 2, score: (2 / 3) * 10 },
      { responseId: "r3", position: 3, score: (1 / 3) * 10 },
    ]);
  });

  it("sizes score bars as score / 10", () => {
    expect(scoreBarPercent(7.5)).toBe(75);
    expect(scoreBarPercent(12)).toBe(100);
    expect(scoreBarPercent(-1)).toBe(0);
  });
});

describe("ratingAverage", () => {
  it("averages the criteria", () => {
    expect(ratingAverage({ accuracy: 8, clarity: 6 })).toBe(7);
    expect(ratingAverage({ accuracy: 8, clarity: 6 }, ["accuracy"])).toBe(8);
    expect(ratingAverage({ overall: 7.5 })).toBe(7.5);
    expect(ratingAverage({})).toBeNull();
    expect(ratingAverage({ accuracy: 8 }, ["style"])).toBeNull();
  });
});

describe("model rankings", () => {
  const responses = [
    { id: "r1", modelId: "a", personaId: "p1" },
    { id: "r2", modelId: "a", personaId: "p2" },
    { id: "r3", modelId: "b", personaId: "p1" },
    { id: "r4", modelId: "b", personaId: "p2" },
    { id: "r5", modelId: "c", personaId: "p1" },
  ];
  const evaluations: { responseId: string; scores: Record<string, number> }[] = [
    { responseId: "r1", scores: { accuracy: 9, clarity: 7 } }, // 8
    { responseId: "r1", scores: { accuracy: 6, clarity: 6 } }, // 6
    { responseId: "r2", scores: { accuracy: 10, clarity: 10 } }, // 10
    { responseId: "r3", scores: { accuracy: 9, clarity: 9 } }, // 9
    { responseId: "r4", scores: { accuracy: 9, clarity: 10 } }, // 9.5
    { responseId: "missing", scores: { accuracy: 1 } },
  ];
  const models = [{ id: "a", name: "Model A" }, { id: "b", name: "Model B" }, "c"];

  it("tallies raw rows per model and persona", () => {
    expect(tallyScores(responses, evaluations)).toEqual([
      { modelId: "a", personaId: "p1", responses: 1, scoreSum: 14, scoreCount: 2 },
      { modelId: "a", personaId: "p2", responses: 1, scoreSum: 10, scoreCount: 1 },
      { modelId: "b", personaId: "p1", responses: 1, scoreSum: 9, scoreCount: 1 },
      { modelId: "b", personaId: "p2", responses: 1, scoreSum: 9.5, scoreCount: 1 },
      { modelId: "c", personaId: "p1", responses: 1, scoreSum: 0, scoreCount: 0 },
    ]);
  });

  it("ranks models by average score over their evaluations", () => {
    expect(rankModels(tallyScores(responses, evaluations), models)).toEqual([
      { modelId: "b", modelName: "Model B", totalResponses: 2, averageScore: 9.25, evaluationCount: 2 },
      { modelId: "a", modelName: "Model A", totalResponses: 2, averageScore: 8, evaluationCount: 3 },
      { modelId: "c", modelName: "c", totalResponses: 1, averageScore: 0, evaluationCount: 0 },
    ]);
  });

  it("breaks ties by answers, then by name, and puts unscored models last", () => {
    const ranked = rankModels([
      { modelId: "z", modelName: "Zed", responses: 2, scoreSum: 0, scoreCount: 0 },
      { modelId: "y", modelName: "Why", responses: 2, scoreSum: 10, scoreCount: 2 },
      { modelId: "x", modelName: "Ex", responses: 2, scoreSum: 5, scoreCount: 1 },
      { modelId: "w", modelName: "Double", responses: 4, scoreSum: 20, scoreCount: 4 },
    ]);
    expect(ranked.map((ranking) => ranking.modelId)).toEqual(["w", "x", "y", "z"]);
  });

  it("breaks results down by persona in the test's persona order", () => {
    const breakdown = personaBreakdown(
      tallyScores(responses, evaluations),
      [
        { id: "p2", name: "Critic" },
        { id: "p1", name: "Teacher" },
        { id: "p3", name: "Unused" },
      ],
      models,
    );
    expect(
      breakdown.map((entry) => [
        entry.personaName,
        entry.rankings.map((ranking) => [ranking.modelName, ranking.averageScore]),
      ]),
    ).toEqual([
      [
        "Critic",
        [
          ["Model A", 10],
          ["Model B", 9.5],
        ],
      ],
      [
        "Teacher",
        [
          ["Model B", 9],
          ["Model A", 7],
          ["c", 0],
        ],
      ],
    ]);
  });
});

describe("summarize", () => {
  it("builds the analysis summary", () => {
    const rankings = [
      { modelId: "a", modelName: "Model A", totalResponses: 4, averageScore: 8, evaluationCount: 4 },
      { modelId: "d", modelName: "Model D", totalResponses: 4, averageScore: 6, evaluationCount: 4 },
      { modelId: "b", modelName: "Model B", totalResponses: 4, averageScore: 9, evaluationCount: 4 },
      { modelId: "c", modelName: "Model C", totalResponses: 4, averageScore: 7, evaluationCount: 4 },
    ];
    expect(
      summarize({ expectedResponses: 20, actualResponses: 16, totalCost: 0.0421, totalLatencyMs: 40_000, rankings }),
    ).toEqual({
      totalTests: 16,
      totalCost: 0.0421,
      averageLatency: 2500,
      completionRate: 0.8,
      topPerformers: ["Model B", "Model A", "Model C"],
    });
  });

  it("handles a test with nothing recorded", () => {
    expect(
      summarize({ expectedResponses: 0, actualResponses: 0, totalCost: 0, totalLatencyMs: 0, rankings: [] }),
    ).toEqual({
      totalTests: 0,
      totalCost: 0,
      averageLatency: 0,
      completionRate: 0,
      topPerformers: [],
    });
  });

  it("names only models that have been scored", () => {
    const summary = summarize({
      expectedResponses: 2,
      actualResponses: 2,
      totalCost: 0,
      totalLatencyMs: 0,
      rankings: [{ modelId: "a", modelName: "A", totalResponses: 2, averageScore: 0, evaluationCount: 0 }],
    });
    expect(summary.topPerformers).toEqual([]);
    expect(summary.completionRate).toBe(1);
  });
});

describe("paretoFrontier", () => {
  it("keeps the points nothing beats on both cost and score", () => {
    const points = [
      { id: "c", cost: 3, score: 7 }, // beaten by b
      { id: "e", cost: 4, score: 9 },
      { id: "a", cost: 1, score: 5 },
      { id: "d", cost: 1, score: 4 }, // same cost as a, lower score
      { id: "b", cost: 2, score: 8 },
      { id: "f", cost: 5, score: 9 }, // same score as e, dearer
    ];
    expect(paretoFrontier(points)).toEqual(["a", "b", "e"]);
  });

  it("keeps identical points and handles the empty case", () => {
    expect(
      paretoFrontier([
        { id: "x", cost: 1, score: 1 },
        { id: "y", cost: 1, score: 1 },
      ]),
    ).toEqual(["x", "y"]);
    expect(paretoFrontier([])).toEqual([]);
  });
});

describe("percentile", () => {
  it("interpolates between the closest ranks", () => {
    expect(percentile([4, 1, 3, 2], 50)).toBe(2.5);
    expect(percentile([1200, 800, 3000], 50)).toBe(1200);
    const hundred = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(hundred, 95)).toBeCloseTo(95.05, 10);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });

  it("reads percentiles from a latency histogram", () => {
    expect(latencyBucketIndex(250)).toBe(0);
    expect(latencyBucketIndex(251)).toBe(1);
    expect(latencyBucketIndex(999_999)).toBe(LATENCY_BUCKET_BOUNDS_MS.length - 1);
    let buckets: number[] = [];
    for (const latency of [1100, 1200, 1300, 1400]) buckets = addLatency(buckets, latency); // all in (1000, 1500]
    expect(buckets[latencyBucketIndex(1100)]).toBe(4);
    expect(percentileFromBuckets(buckets, 50)).toBe(1250);
    expect(percentileFromBuckets(buckets, 100)).toBe(1500);
    expect(percentileFromBuckets(addLatency([], 120_000), 50)).toBe(60_000);
    expect(percentileFromBuckets([], 50)).toBeNull();
  });

  it("keeps every latency sorted, so the percentiles are exact (the histogram put 7.25 s above a slowest 5.7 s)", () => {
    let sorted: number[] = [];
    let buckets: number[] = [];
    for (const latency of [5700, 900, 5200, 700, 5600, 800]) {
      sorted = insertSorted(sorted, latency);
      buckets = addLatency(buckets, latency);
    }
    expect(sorted).toEqual([700, 800, 900, 5200, 5600, 5700]);
    expect(percentile(sorted, 95)).toBe(5675);
    expect(percentileFromBuckets(buckets, 95)).toBe(7250);
    // An answer batch shares one latency: its copies go in together, after equal values.
    expect(insertSorted([1, 2, 2, 3], 2, 3)).toEqual([1, 2, 2, 2, 2, 2, 3]);
    expect(insertSorted([], 4, 0)).toEqual([]);
  });
});
