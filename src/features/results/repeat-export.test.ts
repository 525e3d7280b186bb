// A repeated test's export (issue 35, item 4): every answer row names its repeat, and the model's
// spread between repeats can be rebuilt from those rows; a test without repeats exports as before.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { computeJuryStats } from "../../../convex/lib/stats";
import { buildCsv, CSV_COLUMNS, type ExportEvaluation, type ExportResponse } from "./export";

const PAIRS = ["p1", "p2"];
// Cell value per pair and repeat, as the one judge scores it.
const VALUES: Record<string, number[]> = { p1: [6, 8], p2: [5, 7] };

const answers: ExportResponse[] = PAIRS.flatMap((personaId) =>
  [0, 1].map((repeat) => ({
    id: `${personaId}-${repeat}` as ExportResponse["id"],
    modelId: "openai/gpt-4o-mini",
    modelName: "GPT-4o Mini",
    personaId,
    personaName: personaId,
    topicId: "t1",
    topicTitle: "Coffee",
    content: `Answer ${repeat}`,
    timestamp: Date.UTC(2026, 0, 1),
    tokens: 100,
    latencyMs: 1000,
    costUsd: 0.0001,
    averageScore: VALUES[personaId]![repeat]!,
    repeat,
  })),
);
const judgements: ExportEvaluation[] = answers.map((answer) => ({
  id: `e-${answer.id}` as ExportEvaluation["id"],
  responseId: answer.id,
  evaluatorModelId: "google/gemini-2.0-flash-001",
  scores: { accuracy: answer.averageScore! },
  explanation: "",
  timestamp: Date.UTC(2026, 0, 1),
  costUsd: 0.0001,
}));
const stats = computeJuryStats({
  seed: "repeat-export",
  scale: "rating",
  judges: ["google/gemini-2.0-flash-001"],
  responses: answers.map((answer) => ({ ...answer, length: answer.content.length })),
  ratings: judgements.map((judgement) => ({
    judgeModelId: judgement.evaluatorModelId,
    responseId: judgement.responseId,
    scores: judgement.scores,
  })),
  resamples: 10,
});

describe("the export of a repeated test", () => {
  it("names each answer's repeat, and the model's spread can be rebuilt from the rows", () => {
    const parsed = Papa.parse<string[]>(buildCsv(answers, judgements, stats as never).trim());
    const [header, ...rows] = parsed.data;
    expect(header!.slice(CSV_COLUMNS.length, CSV_COLUMNS.length + 4)).toEqual([
      "Repeat",
      "Model Repeats",
      "Model Between-Repeat SD (Pair)",
      "Model Between-Repeat SD (Score)",
    ]);
    const cell = (row: string[], name: string) => row[header!.indexOf(name)]!;
    const answerRows = rows.filter((row) => cell(row, "Row Type") === "Answer");
    expect(answerRows.map((row) => cell(row, "Repeat"))).toEqual(["1", "2", "1", "2"]);
    // Rebuilt from the rows: per pair the two repeats differ by 2 (SD √2), and the score per
    // repeat is (6 + 5)/2 = 5.5 and (8 + 7)/2 = 7.5 (SD √2 as well).
    const byRepeat = [1, 2].map((repeat) => {
      const scores = answerRows.filter((row) => cell(row, "Repeat") === String(repeat));
      return scores.reduce((sum, row) => sum + Number(cell(row, "Average Score")), 0) / scores.length;
    });
    expect(byRepeat).toEqual([5.5, 7.5]);
    expect(Number(cell(answerRows[0]!, "Model Between-Repeat SD (Pair)"))).toBeCloseTo(Math.SQRT2, 4);
    expect(Number(cell(answerRows[0]!, "Model Between-Repeat SD (Score)"))).toBeCloseTo(Math.SQRT2, 4);
    expect(cell(answerRows[0]!, "Model Repeats")).toBe("2");
  });

  it("has no repeat columns without repeats", () => {
    const single = answers.map(({ repeat: _repeat, ...answer }) => answer);
    const header = Papa.parse<string[]>(buildCsv(single, judgements).trim()).data[0]!;
    expect(header).not.toContain("Repeat");
  });
});
