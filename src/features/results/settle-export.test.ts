// The export of a test that stopped when settled (issue 35): every row carries why it stopped and
// its pair's place in the drawn order, appended after the columns every export had, so the stop
// can be rebuilt from the rows alone: the pairs' model means in that order, through the same
// confidence sequences, settle exactly at "Stopped After Pairs" and not one pair before.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { makeResults } from "@/test/fixtures/results";

import { settleStatus, type SettlePair, type SettleQuestion } from "../../../convex/lib/settle";
import { orderedPairs } from "../../../convex/lib/settleInput";
import { settledAfterText, settleLine, stoppedReasonText } from "../../../convex/lib/settleWords";
import { buildCsv, buildJson, CSV_COLUMNS, type ExportEvaluation, type ExportResponse } from "./export";
import { settleExportOf, type SettleStatusView } from "./settle-export";

const MODELS = [
  { id: "m/strong", name: "Strong" },
  { id: "m/weak", name: "Weak" },
];
const question: SettleQuestion = { question: "best", confidence: 0.95, seed: "export-seed" };
/** 5 personas × 6 topics: 30 pairs, drawn in the seed's order. */
const configuration = {
  personas: [0, 1, 2, 3, 4].map((index) => ({ id: `p${index}` })),
  topics: [0, 1, 2, 3, 4, 5].map((index) => ({ id: `t${index}` })),
  stopWhenSettled: question,
};
const ordered = orderedPairs(configuration);
/** Strong scores 7.5–8.5, weak 4–6, varying by pair. */
const scoreOf = (modelId: string, pair: { personaId: string; topicId: string }) => {
  const index = Number(pair.personaId.slice(1)) * 6 + Number(pair.topicId.slice(1));
  return modelId === "m/strong" ? 7.5 + (index % 3) * 0.5 : 4 + (index % 5) * 0.5;
};
const settlePair = (pair: { personaId: string; topicId: string }): SettlePair => ({
  means: new Map(MODELS.map((model) => [model.id, scoreOf(model.id, pair)])),
});
const ids = MODELS.map((model) => model.id);

// Where the run stopped: the first look, in the drawn order, at which the question settles.
const stopAt =
  ordered.findIndex(
    (_, index) => settleStatus(question, ids, ordered.slice(0, index + 1).map(settlePair), ordered.length).settled,
  ) + 1;
const look = settleStatus(question, ids, ordered.slice(0, stopAt).map(settlePair), ordered.length);
const names = new Map(MODELS.map((model) => [model.id, model.name]));
const stopped = { reason: "settled" as const, pairsDone: stopAt, pairsTotal: ordered.length };
/** settle.status as the server words it (core/settleView.ts). */
const status: SettleStatusView = {
  question: "Which model is best?",
  line: settleLine(look, names),
  settled: true,
  pairsDone: stopAt,
  pairsTotal: ordered.length,
  stopped,
  settledAfter: settledAfterText(stopped),
  stoppedReason: stoppedReasonText(stopped),
  setting: question,
};

// The rows the export reads: the judged pairs plus two whose answers were in when the test stopped,
// listed by persona (not in the drawn order), each answer with one judge's score.
const exported = ordered.slice(0, stopAt + 2).sort((x, y) => x.personaId.localeCompare(y.personaId));
const answers: ExportResponse[] = exported.flatMap((pair) =>
  MODELS.map((model) => ({
    id: `${pair.personaId}-${pair.topicId}-${model.id}` as ExportResponse["id"],
    modelId: model.id,
    modelName: model.name,
    personaId: pair.personaId,
    personaName: pair.personaId,
    topicId: pair.topicId,
    topicTitle: pair.topicId,
    content: "An answer",
    timestamp: Date.UTC(2026, 0, 1),
    tokens: 100,
    latencyMs: 1000,
    costUsd: 0.0001,
    averageScore: scoreOf(model.id, pair),
  })),
);
const judgements: ExportEvaluation[] = answers.map((answer) => ({
  id: `e-${answer.id}` as ExportEvaluation["id"],
  responseId: answer.id,
  evaluatorModelId: "j/judge",
  scores: { accuracy: answer.averageScore! },
  explanation: "",
  timestamp: Date.UTC(2026, 0, 1),
  costUsd: 0.0001,
}));

describe("the export of a test that stopped when settled", () => {
  it("appends the settle columns, and the stop can be rebuilt from the rows", () => {
    expect(stopAt).toBeGreaterThanOrEqual(12);
    expect(stopAt).toBeLessThan(ordered.length);
    const settle = settleExportOf(configuration, status);
    const [header, ...rows] = Papa.parse<string[]>(buildCsv(answers, judgements, null, [], settle).trim()).data;
    // Every existing column keeps its name and place; the settle columns come last.
    expect(header!.slice(0, CSV_COLUMNS.length)).toEqual(CSV_COLUMNS);
    expect(header!.slice(-9)).toEqual([
      "Settle Question",
      "Settle Confidence",
      "Pair Order",
      "Settle Pairs Judged",
      "Settle Pairs Planned",
      "Settled",
      "Settle Status",
      "Stopped After Pairs",
      "Stop Reason",
    ]);
    const cell = (row: string[], name: string) => row[header!.indexOf(name)]!;
    for (const row of rows) {
      expect(cell(row, "Stop Reason")).toBe(stoppedReasonText(stopped));
      expect(cell(row, "Settle Status")).toMatch(/^Settled at 95%: Strong is best$/);
    }

    // Rebuilt from the rows alone: each pair's model means, in the exported pair order.
    const byPlace = new Map<number, Map<string, number>>();
    for (const row of rows.filter((row) => cell(row, "Row Type") === "Answer")) {
      const means = byPlace.get(Number(cell(row, "Pair Order"))) ?? new Map<string, number>();
      means.set(cell(row, "Model ID"), Number(cell(row, "Average Score")));
      byPlace.set(Number(cell(row, "Pair Order")), means);
    }
    const first = rows[0]!;
    const after = Number(cell(first, "Stopped After Pairs"));
    const planned = Number(cell(first, "Settle Pairs Planned"));
    const rebuilt = { question: "best" as const, confidence: Number(cell(first, "Settle Confidence")) };
    const upTo = (count: number) =>
      settleStatus(
        rebuilt,
        ids,
        [...byPlace.entries()]
          .sort(([x], [y]) => x - y)
          .filter(([place]) => place <= count)
          .map(([, means]) => ({ means })),
        planned,
      );
    expect([...byPlace.keys()].sort((x, y) => x - y)).toEqual(
      Array.from({ length: stopAt + 2 }, (_, index) => index + 1),
    );
    expect(upTo(after)).toMatchObject({ settled: true, pairsDone: stopAt, outcome: "best", modelId: "m/strong" });
    expect(upTo(after - 1).settled).toBe(false);
    expect(stoppedReasonText({ pairsDone: after, pairsTotal: planned })).toBe(cell(first, "Stop Reason"));
    // A judgement row carries its answer's pair place.
    const judgementRow = rows.find((row) => cell(row, "Row Type") === "Judgement")!;
    const answerRow = rows.find(
      (row) => cell(row, "Row Type") === "Answer" && cell(row, "Response ID") === cell(judgementRow, "Response ID"),
    )!;
    expect(cell(judgementRow, "Pair Order")).toBe(cell(answerRow, "Pair Order"));
  });

  it("the JSON carries the words and the pairs in their drawn order", () => {
    const settle = settleExportOf(configuration, status);
    const document = JSON.parse(buildJson(makeResults(), answers, judgements, null, settle)) as {
      results: {
        stopWhenSettled: { stoppedReason: string; pairOrder: { order: number; personaId: string; topicId: string }[] };
      };
    };
    expect(document.results.stopWhenSettled.stoppedReason).toBe(stoppedReasonText(stopped));
    expect(document.results.stopWhenSettled.pairOrder).toEqual(
      ordered.map((pair, index) => ({ order: index + 1, ...pair })),
    );
  });

  it("a test without the setting exports exactly the columns it had", () => {
    const header = Papa.parse<string[]>(buildCsv(answers, judgements).trim()).data[0]!;
    expect(header).toEqual([...CSV_COLUMNS, "Accuracy Score"]);
    expect(settleExportOf({ ...configuration, stopWhenSettled: undefined }, null)).toBeNull();
    expect(JSON.parse(buildJson(makeResults(), answers, judgements)).results).not.toHaveProperty("stopWhenSettled");
  });
});
