import Papa from "papaparse";
import { describe, expect, it, vi } from "vitest";

import { buildCsv, buildJson, collectPages, CSV_COLUMNS, exportFileName, type ExportEvaluation, type ExportResponse } from "./export";
import { makeResults } from "./test-support";

const response = (index: number, averageScore: number | null = 7.123): ExportResponse => ({
  id: `r${index}` as ExportResponse["id"],
  modelId: "openai/gpt-4o-mini",
  modelName: "GPT-4o Mini",
  personaId: "p1",
  personaName: "Pirate, the bold",
  topicId: "t1",
  topicTitle: 'Coffee "cold brew"',
  content: "Arr, coffee!",
  timestamp: Date.UTC(2026, 0, 1),
  tokens: 120,
  latencyMs: 1530.4,
  costUsd: 0.0002451,
  averageScore,
});

describe("export", () => {
  it("pages through a query until the last page", async () => {
    const fetchPage = vi.fn(async (cursor: string | null) =>
      cursor === null
        ? { page: [1, 2], isDone: false, continueCursor: "c1" }
        : cursor === "c1"
          ? { page: [3, 4], isDone: false, continueCursor: "c2" }
          : { page: [5], isDone: true, continueCursor: "end" },
    );
    expect(await collectPages(fetchPage)).toEqual([1, 2, 3, 4, 5]);
    expect(fetchPage.mock.calls.map((call) => call[0])).toEqual([null, "c1", "c2"]);
  });

  it("writes one CSV row per response: model, persona, topic, tokens, latency, cost, average score", () => {
    const csv = buildCsv([response(1), response(2, null)]);
    const parsed = Papa.parse<string[]>(csv.trim());
    expect(parsed.data[0]).toEqual([...CSV_COLUMNS]);
    expect(parsed.data[1]).toEqual(["GPT-4o Mini", "Pirate, the bold", 'Coffee "cold brew"', "120", "1530", "0.000245", "7.12"]);
    expect(parsed.data[2]?.[6]).toBe("");
    expect(parsed.data).toHaveLength(3);
  });

  it("writes JSON with the configuration and the results in the spec's shape", () => {
    const evaluation: ExportEvaluation = {
      id: "e1" as ExportEvaluation["id"],
      responseId: "r1" as ExportEvaluation["responseId"],
      evaluatorModelId: "google/gemini-2.0-flash-001",
      scores: { accuracy: 8 },
      explanation: "Good.",
      timestamp: Date.UTC(2026, 0, 1),
    };
    const document = JSON.parse(buildJson(makeResults(), [response(1)], [evaluation]));
    expect(document.configuration.generatorModels).toHaveLength(2);
    expect(document.results.modelRankings[0]).toMatchObject({ modelName: "Claude 3.5 Haiku", averageScore: 7.5, totalResponses: 4 });
    expect(document.results.rawResponses[0]).toMatchObject({
      id: "r1",
      content: "Arr, coffee!",
      metadata: { tokens: 120, latency: 1530.4, cost: 0.0002451 },
    });
    expect(document.results.evaluationScores[0]).toMatchObject({ responseId: "r1", scores: { accuracy: 8 }, explanation: "Good." });
    expect(document.results.analysisSummary).toMatchObject({
      totalTests: 8,
      totalCost: 0.0123,
      completionRate: 0.875,
      topPerformers: ["Claude 3.5 Haiku", "GPT-4o Mini"],
    });
    expect(document.test).toMatchObject({ name: "Coffee taglines", status: "completed" });
  });

  it("names files after the test", () => {
    expect(exportFileName("Coffee taglines: Q1!", "csv")).toBe("coffee-taglines-q1-results.csv");
    expect(exportFileName("???", "json")).toBe("test-results.json");
  });
});
