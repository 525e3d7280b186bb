// The per-test figures registry: every figure is computed, validated where the results query and
// the stored summary return it, and shown; the stored summary keeps its own names.
import { describe, expect, test } from "vitest";
import { metricsValidator } from "../core/results";
import { resultsSummary } from "../validators";
import { summarize } from "./scoring";
import { TEST_FIGURES, summaryTestFigures, testFigureFields, testFigures, type SummaryTestFigures } from "./metrics";

const COUNTERS = { responses: 8, expectedResponses: 10, latencyMsSum: 20_000 };

describe("TEST_FIGURES", () => {
  test("every figure has a validator field, a computed value and a label; its stored name a summary field", () => {
    const figures = testFigures(COUNTERS);
    const summaryFields = resultsSummary.fields.analysisSummary.fields;
    expect(TEST_FIGURES.length).toBeGreaterThan(0);
    for (const figure of TEST_FIGURES) {
      expect(testFigureFields[figure.key].kind).toBe("float64");
      expect(metricsValidator.fields[figure.key].kind).toBe("float64");
      expect(Number.isFinite(figures[figure.key])).toBe(true);
      expect(figure.label).not.toBe("");
      if (figure.summaryKey !== undefined) {
        expect(summaryFields[figure.summaryKey as keyof typeof summaryFields].kind).toBe("float64");
      }
    }
    expect(Object.keys(figures)).toEqual(TEST_FIGURES.map((figure) => figure.key));
    expect(Object.keys(testFigureFields)).toEqual(TEST_FIGURES.map((figure) => figure.key));
  });

  test("the figures the results page shows today, in their order", () => {
    expect(TEST_FIGURES.map(({ key, label, format }) => ({ key, label, format }))).toEqual([
      { key: "averageResponseTimeMs", label: "Average Response Time", format: "latency" },
      { key: "completionRate", label: "Completion Rate", format: "ratio" },
    ]);
  });
});

describe("testFigures", () => {
  test("from the counters", () => {
    expect(testFigures(COUNTERS)).toEqual({ averageResponseTimeMs: 2500, completionRate: 0.8 });
    expect(testFigures({ responses: 0, expectedResponses: 0, latencyMsSum: 0 })).toEqual({
      averageResponseTimeMs: 0,
      completionRate: 0,
    });
    expect(testFigures({ responses: 12, expectedResponses: 10, latencyMsSum: 1200 }).completionRate).toBe(1);
  });

  test("the stored summary and the JSON export keep their names (existing summaries still validate)", () => {
    const stored: SummaryTestFigures = { averageLatency: 2500, completionRate: 0.8 };
    expect(summaryTestFigures(testFigures(COUNTERS))).toEqual(stored);
    const summary = summarize({
      expectedResponses: 10,
      actualResponses: 8,
      totalCost: 1,
      totalLatencyMs: 20_000,
      rankings: [],
    });
    expect(summary).toEqual({
      totalTests: 8,
      totalCost: 1,
      averageLatency: 2500,
      completionRate: 0.8,
      topPerformers: [],
    });
    expect(Object.keys(resultsSummary.fields.analysisSummary.fields).sort()).toEqual(
      ["averageLatency", "completionRate", "topPerformers", "totalCost", "totalTests"].sort(),
    );
  });
});
