import { describe, expect, it } from "vitest";

import { testFigures } from "../../../convex/lib/metrics";

import {
  elapsedSpan,
  hiddenRankedModels,
  juryCountText,
  monitorCounters,
  monitorStage,
  previewOf,
  scoreBarPercent,
} from "./monitor-model";

describe("monitor derivations", () => {
  it("tells a test waiting for payment from a queued one", () => {
    expect(monitorStage({ status: "pending", jobStatus: "pending_payment" })).toBe("awaiting_payment");
    expect(monitorStage({ status: "pending", jobStatus: "queued" })).toBe("queued");
    expect(monitorStage({ status: "pending", jobStatus: undefined })).toBe("queued");
    expect(monitorStage({ status: "running", jobStatus: "processing" })).toBe("running");
    expect(monitorStage({ status: "completed", jobStatus: "completed" })).toBe("completed");
  });

  it("averages latency over the answers received, with the figures' formula", () => {
    const averageOf = (totalLatencyMs: number, responsesCount: number) =>
      testFigures(monitorCounters({ totalLatencyMs, responsesCount, expectedResponses: 6 })).averageResponseTimeMs;
    expect(averageOf(4500, 3)).toBe(1500);
    expect(averageOf(0, 0)).toBe(0);
  });

  it("counts the ranked models beyond the top five", () => {
    expect(hiddenRankedModels({ rankings: new Array(5).fill(null), rankedModels: 7 })).toBe(2);
    expect(hiddenRankedModels({ rankings: [], rankedModels: 0 })).toBe(0);
  });

  it("sizes score bars as score / 10", () => {
    expect(scoreBarPercent(8.5)).toBe(85);
    expect(scoreBarPercent(12)).toBe(100);
    expect(scoreBarPercent(-1)).toBe(0);
    expect(scoreBarPercent(Number.NaN)).toBe(0);
  });

  it("measures time since start from the start of the run, else from creation", () => {
    expect(elapsedSpan({ startedAt: 50, _creationTime: 10, completedAt: undefined })).toEqual({
      start: 50,
      end: undefined,
    });
    expect(elapsedSpan({ startedAt: undefined, _creationTime: 10, completedAt: 90 })).toEqual({ start: 10, end: 90 });
  });

  it("previews answers on one line", () => {
    expect(previewOf("  a\n\nb  ")).toBe("a b");
    expect(previewOf("")).toBe("(empty response)");
    expect(previewOf("x".repeat(200), 10)).toBe(`${"x".repeat(9)}…`);
  });
});

describe("juryCountText", () => {
  it("counts the test's judge scores, and says when the figures still trail them", () => {
    expect(juryCountText(216, 215)).toBe("216 judge scores · figures from 215, updating");
    expect(juryCountText(216, 216)).toBe("216 judge scores");
    expect(juryCountText(1, 1)).toBe("1 judge score");
  });
});
