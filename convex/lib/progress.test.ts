// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  computeProgress,
  deliveredShare,
  deliveryShortfall,
  estimateTimeRange,
  estimateTimeRemaining,
  expectedEvaluationsOf,
  expectedResponsesOf,
  initialProgress,
  missingWorkSummary,
  timeRangeLabel,
  workDone,
} from "./progress";

// 2 generators × 3 topics × 2 personas × 2 responses = 24 answers; × 3 evaluators = 72 evaluations.
const config = {
  generatorModels: ["g1", "g2"],
  evaluatorModels: ["e1", "e2", "e3"],
  personas: [{}, {}],
  topics: [{}, {}, {}],
  responsesPerTopic: 2,
};

describe("expected counts", () => {
  it("follows the spec's formulas", () => {
    expect(expectedResponsesOf(config)).toBe(24);
    expect(expectedEvaluationsOf(config)).toBe(72);
    expect(expectedResponsesOf({ ...config, responsesPerTopic: undefined })).toBe(12);
  });

  it("treats an older models list as generators with no evaluators", () => {
    const legacy = { models: ["g1", "g2"], personas: [{}], topics: [{}], responsesPerTopic: 1 };
    expect(expectedResponsesOf(legacy)).toBe(2);
    expect(expectedEvaluationsOf(legacy)).toBe(0);
  });
});

describe("computeProgress", () => {
  it("is Unknown without a configuration", () => {
    expect(computeProgress(null, { actualResponses: 3, actualEvaluations: 1 })).toEqual({
      phase: "Unknown",
      progress: 0,
      details: "Test configuration not available",
      expectedResponses: 0,
      actualResponses: 3,
      expectedEvaluations: 0,
      actualEvaluations: 1,
      responseProgress: 0,
      evaluationProgress: 0,
    });
  });

  it("starts response generation", () => {
    expect(computeProgress(config, { actualResponses: 0, actualEvaluations: 0 })).toEqual({
      phase: "Starting Response Generation",
      progress: 0,
      details: "Expected 24 responses, found 0",
      expectedResponses: 24,
      actualResponses: 0,
      expectedEvaluations: 72,
      actualEvaluations: 0,
      responseProgress: 0,
      evaluationProgress: 0,
    });
  });

  it("reports the response percentage while generating", () => {
    const info = computeProgress(config, { actualResponses: 6, actualEvaluations: 0 });
    expect(info.phase).toBe("Generating Responses");
    expect(info.progress).toBe(25);
    expect(info.responseProgress).toBe(25);
    expect(info.details).toBe("6 of 24 responses generated");
    // evaluations may already arrive for finished persona × topic pairs
    expect(computeProgress(config, { actualResponses: 23, actualEvaluations: 40 }).progress).toBe(95);
    expect(computeProgress(config, { actualResponses: 8, actualEvaluations: 0 }).progress).toBe(33);
  });

  it("maps evaluations to 50 + 40% of their percentage", () => {
    const info = computeProgress(config, { actualResponses: 24, actualEvaluations: 36 });
    expect(info.phase).toBe("Collecting Evaluations");
    expect(info.progress).toBe(70);
    expect(info.evaluationProgress).toBe(50);
    expect(info.responseProgress).toBe(100);
    expect(computeProgress(config, { actualResponses: 24, actualEvaluations: 0 }).progress).toBe(50);
    expect(computeProgress(config, { actualResponses: 24, actualEvaluations: 71 }).progress).toBe(89);
  });

  it("finalizes at 95% once everything is in", () => {
    const info = computeProgress(config, { actualResponses: 24, actualEvaluations: 72 });
    expect(info).toMatchObject({ phase: "Finalizing Results", progress: 95, details: "All responses and evaluations completed" });
  });

  it("counts answers recorded as missing as done, and expects no evaluations for them", () => {
    const counts = { actualResponses: 22, missingResponses: 2, actualEvaluations: 60 };
    const info = computeProgress(config, counts);
    expect(info.phase).toBe("Collecting Evaluations");
    expect(info.expectedEvaluations).toBe(66);
    expect(info.evaluationProgress).toBe(90);
    expect(computeProgress(config, { ...counts, actualEvaluations: 63, missingEvaluations: 3 }).phase).toBe("Finalizing Results");
  });

  it("skips evaluation when there are no evaluators", () => {
    const noJudges = { ...config, evaluatorModels: [] };
    expect(computeProgress(noJudges, { actualResponses: 24, actualEvaluations: 0 }).phase).toBe("Finalizing Results");
  });

  it("has an initial label", () => {
    expect(initialProgress(config)).toMatchObject({ phase: "Initializing", progress: 0, expectedResponses: 24, expectedEvaluations: 72 });
    expect(initialProgress(null).expectedResponses).toBe(0);
  });
});

describe("time estimates", () => {
  it("shows ceil(queries/10) to ceil(queries/5) minutes", () => {
    expect(estimateTimeRange(25)).toEqual({ minMinutes: 3, maxMinutes: 5 });
    expect(estimateTimeRange(10)).toEqual({ minMinutes: 1, maxMinutes: 2 });
    expect(estimateTimeRange(1)).toEqual({ minMinutes: 1, maxMinutes: 1 });
    expect(timeRangeLabel(estimateTimeRange(25))).toBe("3-5 minutes");
    expect(timeRangeLabel(estimateTimeRange(10))).toBe("1-2 minutes");
    expect(timeRangeLabel(estimateTimeRange(1))).toBe("1 minute");
    expect(timeRangeLabel({ minMinutes: 4, maxMinutes: 4 })).toBe("4 minutes");
    expect(timeRangeLabel(estimateTimeRange(0))).toBe("Under a minute");
  });

  it("extrapolates the time remaining from the work done so far", () => {
    const start = 1_700_000_000_000;
    const halfJudged = computeProgress(config, { actualResponses: 24, actualEvaluations: 36 });
    expect(workDone(halfJudged)).toBe(0.75);
    expect(estimateTimeRemaining(halfJudged, start, start + 60_000)).toBe(20_000);

    const quarterGenerated = computeProgress(config, { actualResponses: 6, actualEvaluations: 0 });
    expect(workDone(quarterGenerated)).toBe(0.125);
    expect(estimateTimeRemaining(quarterGenerated, start, start + 10_000)).toBe(70_000);

    const starting = computeProgress(config, { actualResponses: 0, actualEvaluations: 0 });
    expect(estimateTimeRemaining(starting, start, start + 10_000)).toBeNull();
    const done = computeProgress(config, { actualResponses: 24, actualEvaluations: 72 });
    expect(estimateTimeRemaining(done, start, start + 10_000)).toBe(0);
  });
});

describe("missing work", () => {
  it("says how many answers and judgements are missing and why instead of 'All ... completed'", () => {
    const info = computeProgress(config, {
      actualResponses: 22,
      missingResponses: 2,
      actualEvaluations: 63,
      missingEvaluations: 3,
      lastCallError: "HTTP 429: Too Many Requests",
    });
    expect(info).toMatchObject({
      phase: "Finalizing Results",
      details: "2 answers and 3 judgements are missing. Last gateway error: HTTP 429: Too Many Requests",
    });
    expect(missingWorkSummary({ missingResponses: 1, missingEvaluations: 0 })).toBe("1 answer is missing.");
    expect(missingWorkSummary({ missingResponses: 0, missingEvaluations: 0, lastCallError: "ignored" })).toBeNull();
  });

  it("states the shortfall of a test that delivered less than it was quoted for", () => {
    const full = { expectedResponses: 8, responsesCount: 8, expectedEvaluations: 16, evaluationsCount: 16 };
    expect(deliveredShare(full)).toBe(1);
    expect(deliveryShortfall(full)).toBeNull();
    const short = { ...full, responsesCount: 6, evaluationsCount: 10 };
    expect(deliveredShare(short)).toBeCloseTo(16 / 24, 10);
    expect(deliveryShortfall(short)).toBe("Delivered 6 of 8 answers and 10 of 16 judgements (66%).");
  });
});
