import Papa from "papaparse";
import { describe, expect, it, vi } from "vitest";

import { computeJuryStats } from "../../../convex/lib/stats";
import {
  buildCsv,
  buildJson,
  collectPages,
  CSV_COLUMNS,
  CSV_ROW_TYPES,
  csvColumns,
  exportFileName,
  type ExportEvaluation,
  type ExportResponse,
} from "./export";
import { makeResults } from "@/test/fixtures/results";

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

  it("writes one CSV row per response: model, persona, topic, tokens, latency, cost, average score, then its ids and text", () => {
    const csv = buildCsv([response(1), response(2, null)]);
    const parsed = Papa.parse<string[]>(csv.trim());
    expect(parsed.data[0]).toEqual([...CSV_COLUMNS]);
    expect(parsed.data[1]!.slice(0, 7)).toEqual([
      "GPT-4o Mini",
      "Pirate, the bold",
      'Coffee "cold brew"',
      "120",
      "1530",
      "0.000245",
      "7.12",
    ]);
    const column = (name: string) => CSV_COLUMNS.indexOf(name as (typeof CSV_COLUMNS)[number]);
    expect(parsed.data[1]![column("Row Type")]).toBe(CSV_ROW_TYPES.answer);
    expect(parsed.data[1]![column("Response ID")]).toBe("r1");
    expect(parsed.data[1]![column("Answer")]).toBe("Arr, coffee!");
    expect(parsed.data[2]?.[6]).toBe("");
    expect(parsed.data).toHaveLength(3);
  });

  it("adds a row per judge score with judge, label, order, criterion scores and its cost, and the jury's figures, so the costs add up", () => {
    const judged = (id: string, judge: string, scores: Record<string, number>, costUsd: number): ExportEvaluation => ({
      id: id as ExportEvaluation["id"],
      responseId: "r1" as ExportEvaluation["responseId"],
      evaluatorModelId: judge,
      scores,
      explanation: `${judge} liked it`,
      timestamp: Date.UTC(2026, 0, 1),
      costUsd,
    });
    const evaluations = [
      judged("e1", "google/gemini-2.0-flash-001", { accuracy: 8, clarity: 6 }, 0.0001),
      judged("e2", "x-ai/grok-3", { accuracy: 6, clarity: 4 }, 0.0003),
    ];
    const stats = computeJuryStats({
      seed: "export",
      scale: "rating",
      judges: ["google/gemini-2.0-flash-001", "x-ai/grok-3"],
      responses: [
        { id: "r1", modelId: "openai/gpt-4o-mini", personaId: "p1", topicId: "t1", length: 12, costUsd: 0.0002451 },
      ],
      ratings: evaluations.map((evaluation) => ({
        judgeModelId: evaluation.evaluatorModelId,
        responseId: "r1",
        scores: evaluation.scores,
        costUsd: evaluation.costUsd,
      })),
      resamples: 50,
    });
    const parsed = Papa.parse<string[]>(buildCsv([response(1)], evaluations, stats).trim());
    const header = parsed.data[0]!;
    expect(header).toEqual([...CSV_COLUMNS, "Accuracy Score", "Clarity Score"]);
    const rows = parsed.data.slice(1).map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]])));
    expect(rows.map((row) => row["Row Type"])).toEqual(["Answer", "Judgement", "Judgement"]);
    expect(rows[1]).toMatchObject({
      "Response ID": "r1",
      "Evaluation ID": "e1",
      Judge: "google/gemini-2.0-flash-001",
      "Accuracy Score": "8.00",
      "Clarity Score": "6.00",
      Score: "7.0000",
      Explanation: "google/gemini-2.0-flash-001 liked it",
      "Model Mean Score": "6.0000",
      "Model Generation Cost (USD)": "0.000245",
      "Model Judging Cost (USD)": "0.000400",
      "Judge Cost (USD)": "0.000100",
    });
    // Generation plus judging, from the rows alone.
    const total = rows.reduce((sum, row) => sum + Number(row["Cost (USD)"]), 0);
    expect(total).toBeCloseTo(stats.costs.generationUsd + stats.costs.judgingUsd, 6);
    const document = JSON.parse(buildJson(makeResults(), [response(1)], evaluations, stats));
    expect(document.results.juryStatistics.models[0]).toMatchObject({ modelId: "openai/gpt-4o-mini", meanScore: 6 });
    expect(document.results.juryStatistics.criteria).toEqual(["accuracy", "clarity"]);
  });

  it("puts a ranking's label, order and the call's label → answer map on each judge score", () => {
    const ranked: ExportEvaluation = {
      id: "e9" as ExportEvaluation["id"],
      responseId: "r1" as ExportEvaluation["responseId"],
      evaluatorModelId: "x-ai/grok-3",
      scores: { overall: 10 },
      rank: 1,
      explanation: "B is the most specific.",
      timestamp: Date.UTC(2026, 0, 1),
      costUsd: 0.0002,
      order: "reverse",
      label: "B",
      labels: [
        { label: "A", responseId: "r2" as ExportEvaluation["responseId"] },
        { label: "B", responseId: "r1" as ExportEvaluation["responseId"] },
      ],
    };
    const parsed = Papa.parse<string[]>(buildCsv([response(1)], [ranked]).trim());
    const header = parsed.data[0]!;
    const row = Object.fromEntries(header.map((name, index) => [name, parsed.data[2]![index]]));
    expect(row).toMatchObject({ Order: "reverse", Label: "B", Rank: "1", Score: "10.0000" });
    const document = JSON.parse(buildJson(makeResults(), [response(1)], [ranked]));
    expect(document.results.evaluationScores[0]).toMatchObject({
      order: "reverse",
      label: "B",
      cost: 0.0002,
      labels: [
        { label: "A", responseId: "r2" },
        { label: "B", responseId: "r1" },
      ],
    });
  });

  it("writes JSON with the configuration and the results in the spec's shape", () => {
    const evaluation: ExportEvaluation = {
      id: "e1" as ExportEvaluation["id"],
      responseId: "r1" as ExportEvaluation["responseId"],
      evaluatorModelId: "google/gemini-2.0-flash-001",
      scores: { accuracy: 8 },
      explanation: "Good.",
      timestamp: Date.UTC(2026, 0, 1),
      costUsd: 0.0001,
    };
    const document = JSON.parse(buildJson(makeResults(), [response(1)], [evaluation]));
    expect(document.configuration.generatorModels).toHaveLength(2);
    expect(document.results.modelRankings[0]).toMatchObject({
      modelName: "Claude 3.5 Haiku",
      averageScore: 7.5,
      totalResponses: 4,
    });
    expect(document.results.rawResponses[0]).toMatchObject({
      id: "r1",
      content: "Arr, coffee!",
      metadata: { tokens: 120, latency: 1530.4, cost: 0.0002451 },
    });
    expect(document.results.evaluationScores[0]).toMatchObject({
      responseId: "r1",
      scores: { accuracy: 8 },
      explanation: "Good.",
    });
    expect(document.results.analysisSummary).toMatchObject({
      totalTests: 8,
      totalCost: 0.0123,
      completionRate: 0.875,
      topPerformers: ["Claude 3.5 Haiku", "GPT-4o Mini"],
    });
    expect(document.test).toMatchObject({ name: "Coffee taglines", status: "completed" });
  });

  it("lists every column with its header and its value for an answer row and for a judgement row", () => {
    const evaluation: ExportEvaluation = {
      id: "e1" as ExportEvaluation["id"],
      responseId: "r1" as ExportEvaluation["responseId"],
      evaluatorModelId: "x-ai/grok-3",
      scores: { accuracy: 8, clarity: 6 },
      explanation: "Clear.",
      timestamp: Date.UTC(2026, 0, 1),
      costUsd: 0.0001,
    };
    const stats = computeJuryStats({
      seed: "columns",
      scale: "rating",
      judges: ["x-ai/grok-3"],
      responses: [
        { id: "r1", modelId: "openai/gpt-4o-mini", personaId: "p1", topicId: "t1", length: 12, costUsd: 0.0002 },
      ],
      ratings: [{ judgeModelId: "x-ai/grok-3", responseId: "r1", scores: evaluation.scores, costUsd: 0.0001 }],
      resamples: 20,
    });
    const checks = [{ id: "json", kind: "json" as const }];
    const columns = csvColumns([response(1)], [evaluation], stats, checks);
    const headers = columns.map((column) => column.header);
    expect(headers.filter((header) => header.trim() === "")).toEqual([]);
    expect(new Set(headers).size).toBe(headers.length);
    expect(headers).toEqual(expect.arrayContaining(["Accuracy Score", "Clarity Score", "Check 1: is valid JSON"]));
    const answerRow = { response: response(1), model: stats.models[0] };
    const judgementRow = { ...answerRow, evaluation, judge: stats.judges[0] };
    const cellTypes = (row: "answer" | "judgement") =>
      columns
        .filter((column) => {
          const value = row === "answer" ? column.answer(answerRow) : column.judgement(judgementRow);
          return typeof value !== "string" && typeof value !== "number";
        })
        .map((column) => `${column.header} (${row})`);
    expect([...cellTypes("answer"), ...cellTypes("judgement")]).toEqual([]);
    // The CSV is exactly these columns: every row has one cell per header.
    const parsed = Papa.parse<string[]>(buildCsv([response(1)], [evaluation], stats, checks).trim());
    expect(parsed.data[0]).toEqual(headers);
    expect(parsed.data.map((row) => row.length)).toEqual([headers.length, headers.length, headers.length]);
  });

  it("names files after the test", () => {
    expect(exportFileName("Coffee taglines: Q1!", "csv")).toBe("coffee-taglines-q1-results.csv");
    expect(exportFileName("???", "json")).toBe("test-results.json");
  });
});
