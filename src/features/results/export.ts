// Results export (the Export action, spec part 2 §2): a CSV with one row per answer and one per judge
// score, and a JSON with the configuration, the results in the spec's shape (part 2 §3) and the
// jury statistics. Every figure on the results page can be rebuilt from the rows: the Cost column
// adds up to generation plus judging. A big test is read page by page through the export
// queries, never by one unbounded query.
import Papa from "papaparse";
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import { criterionLabel } from "../../../convex/lib/criteria";
import { summaryTestFigures } from "../../../convex/lib/metrics";
import type { AnswerCheck } from "../../../convex/validators";
import type { JuryStatsDoc } from "../../../convex/tables/juryStats";
import { checkCsvColumns, checkJson } from "@/components/results/check-export";
import type { ResultsData } from "@/components/results/results-model";
import { fileSlug } from "@/components/results/results-model";
import { settleCsvCells, type SettleExport, settleJson } from "./settle-export";

export type ExportResponse = FunctionReturnType<typeof api.results.exportResponses>["page"][number];
export type ExportEvaluation = FunctionReturnType<typeof api.results.exportEvaluations>["page"][number];

export const EXPORT_RESPONSES_PAGE = 500;
export const EXPORT_EVALUATIONS_PAGE = 1000;

interface Page<T> {
  page: T[];
  isDone: boolean;
  continueCursor: string;
}

/** Every item, one page after another until the last. */
export async function collectPages<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (;;) {
    const result = await fetchPage(cursor);
    items.push(...result.page);
    if (result.isDone) return items;
    cursor = result.continueCursor;
  }
}

type Cell = string | number;
type ModelFigures = JuryStatsDoc["models"][number];
type JudgeRecord = JuryStatsDoc["judges"][number];

/** An answer row: the answer, with its model's figures from the jury statistics. */
export interface AnswerRow {
  response: ExportResponse;
  model: ModelFigures | undefined;
}

/** A judgement row: one judge's score of an answer, with the answer's model and the judge's record. */
export interface JudgementRow extends AnswerRow {
  evaluation: ExportEvaluation;
  judge: JudgeRecord | undefined;
}

/**
 * One CSV column: its header and its value on each kind of row. An answer row's Cost is what
 * generating the answer cost; a judgement row's is its share of the judge call.
 */
export interface CsvColumn {
  header: string;
  answer: (row: AnswerRow) => Cell;
  judgement: (row: JudgementRow) => Cell;
}

const fixed = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined ? "" : value.toFixed(digits);

/** A column with the same value on both kinds of row. */
const both = (header: string, value: (row: AnswerRow) => Cell): CsvColumn => ({
  header,
  answer: value,
  judgement: value,
});
/** A column only an answer row fills. */
const answerOnly = (header: string, value: (row: AnswerRow) => Cell): CsvColumn => ({
  header,
  answer: value,
  judgement: () => "",
});
/** A column only a judgement row fills. */
const judgementOnly = (header: string, value: (row: JudgementRow) => Cell): CsvColumn => ({
  header,
  answer: () => "",
  judgement: value,
});
/** A figure of the judge's record; empty where the jury statistics have no record of the judge. */
const judgeFigure = (header: string, value: (judge: JudgeRecord) => Cell): CsvColumn =>
  judgementOnly(header, ({ judge }) => (judge ? value(judge) : ""));

const meanScore = (scores: Record<string, number>) => {
  const values = Object.values(scores);
  return values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
};

/** Row types: an answer (its Cost is what generating it cost) or one judge's score of it (its share of the judge call). */
export const CSV_ROW_TYPES = { answer: "Answer", judgement: "Judgement" } as const;

/**
 * The columns every export has. The first seven are the answer's, as before; the rest name the
 * row, its ids and text, the judge's score, the answer's model figures (mean with 95% interval,
 * rank range, rating, generation and judging cost) and the judge's record.
 */
export const FIXED_CSV_COLUMNS: readonly CsvColumn[] = [
  both("Model", ({ response }) => response.modelName),
  both("Persona", ({ response }) => response.personaName),
  both("Topic", ({ response }) => response.topicTitle),
  answerOnly("Tokens", ({ response }) => response.tokens),
  answerOnly("Latency (ms)", ({ response }) => Math.round(response.latencyMs)),
  {
    header: "Cost (USD)",
    answer: ({ response }) => response.costUsd.toFixed(6),
    judgement: ({ evaluation }) => evaluation.costUsd.toFixed(6),
  },
  answerOnly("Average Score", ({ response }) => fixed(response.averageScore, 2)),
  { header: "Row Type", answer: () => CSV_ROW_TYPES.answer, judgement: () => CSV_ROW_TYPES.judgement },
  both("Response ID", ({ response }) => response.id),
  both("Model ID", ({ response }) => response.modelId),
  both("Persona ID", ({ response }) => response.personaId),
  both("Topic ID", ({ response }) => response.topicId),
  both("Answer", ({ response }) => response.content),
  judgementOnly("Evaluation ID", ({ evaluation }) => evaluation.id),
  judgementOnly("Judge", ({ evaluation }) => evaluation.evaluatorModelId),
  judgementOnly("Order", ({ evaluation }) => evaluation.order ?? ""),
  judgementOnly("Label", ({ evaluation }) => evaluation.label ?? ""),
  judgementOnly("Rank", ({ evaluation }) => evaluation.rank ?? ""),
  judgementOnly("Score", ({ evaluation }) => fixed(meanScore(evaluation.scores), 4)),
  judgementOnly("Explanation", ({ evaluation }) => evaluation.explanation),
  both("Model Mean Score", ({ model }) => fixed(model?.meanScore, 4)),
  both("Model Score 95% Low", ({ model }) => fixed(model?.scoreInterval?.low, 4)),
  both("Model Score 95% High", ({ model }) => fixed(model?.scoreInterval?.high, 4)),
  both("Model Rank Best", ({ model }) => model?.rank?.best ?? ""),
  both("Model Rank Worst", ({ model }) => model?.rank?.worst ?? ""),
  both("Model Rating", ({ model }) => fixed(model?.rating, 1)),
  both("Model Rating 95% Low", ({ model }) => fixed(model?.ratingInterval?.low, 1)),
  both("Model Rating 95% High", ({ model }) => fixed(model?.ratingInterval?.high, 1)),
  both("Model Generation Cost (USD)", ({ model }) => fixed(model?.generationCostUsd, 6)),
  both("Model Judging Cost (USD)", ({ model }) => fixed(model?.judgingCostUsd, 6)),
  judgeFigure("Judge Agreement", (judge) => fixed(judge.agreement.value, 4)),
  judgeFigure("Judge First-Shown Rate", (judge) => fixed(judge.position?.firstRate, 4)),
  judgeFigure("Judge Position Consistency", (judge) => fixed(judge.positionConsistency, 4)),
  judgeFigure("Judge Length Correlation", (judge) => fixed(judge.length.correlation, 4)),
  judgeFigure("Judge Self-Preference", (judge) => fixed(judge.selfPreference.value, 4)),
  judgeFigure("Judge Flagged", (judge) => (judge.flagged ? "yes" : "no")),
  judgeFigure("Judge Cost (USD)", (judge) => fixed(judge.costUsd, 6)),
];

/**
 * A repeated test's columns (issue 35, item 4): which run of its cell a row's answer is (1 …
 * repeats), so each repeat's scores and the spread between them can be rebuilt from the rows,
 * and the model's spread as the results page shows it.
 */
const REPEAT_CSV_COLUMNS: readonly CsvColumn[] = [
  both("Repeat", ({ response }) => (response.repeat ?? 0) + 1),
  both("Model Repeats", ({ model }) => model?.repeatSpread?.repeats ?? ""),
  both("Model Between-Repeat SD (Pair)", ({ model }) => fixed(model?.repeatSpread?.cellSd, 4)),
  both("Model Between-Repeat SD (Score)", ({ model }) => fixed(model?.repeatSpread?.scoreSd, 4)),
];

/** The fixed columns' headers, in order. */
export const CSV_COLUMNS = FIXED_CSV_COLUMNS.map((column) => column.header);

/** The criteria a rating test scored, as extra "<criterion> Score" columns (none for ranking). */
function criteriaOf(evaluations: readonly ExportEvaluation[], stats: JuryStatsDoc | null): string[] {
  const seen = new Set(stats?.criteria ?? []);
  for (const evaluation of evaluations) {
    if (evaluation.rank !== undefined) continue;
    for (const criterion of Object.keys(evaluation.scores)) seen.add(criterion);
  }
  return [...seen];
}

/** A rating judge's score on one criterion; empty on a ranking judgement. */
function criterionColumn(criterion: string): CsvColumn {
  return judgementOnly(`${criterionLabel(criterion)} Score`, ({ evaluation }) =>
    evaluation.rank === undefined ? fixed(evaluation.scores[criterion], 2) : "",
  );
}

/** The checks' columns (checks/check-export.ts): filled on answer rows, each answer's cells computed once. */
function checkColumns(responses: readonly ExportResponse[], checks: readonly AnswerCheck[]): CsvColumn[] {
  const { fields, answerCells } = checkCsvColumns(responses, checks);
  const cells = new Map<ExportResponse, string[]>();
  const cellsOf = (response: ExportResponse) => {
    let answerRow = cells.get(response);
    if (!answerRow) cells.set(response, (answerRow = answerCells(response)));
    return answerRow;
  };
  return fields.map((header, index) => answerOnly(header, ({ response }) => cellsOf(response)[index] ?? ""));
}

/**
 * Every column of a test's CSV: the fixed ones, a repeated test's, one per rated criterion, the
 * checks', then a settled test's (settle-export.ts), last so that every other keeps its place.
 */
export function csvColumns(
  responses: readonly ExportResponse[],
  evaluations: readonly ExportEvaluation[] = [],
  stats: JuryStatsDoc | null = null,
  checks: readonly AnswerCheck[] = [],
  settle: SettleExport | null = null,
): CsvColumn[] {
  const repeated = responses.some((response) => response.repeat !== undefined);
  return [
    ...FIXED_CSV_COLUMNS,
    ...(repeated ? REPEAT_CSV_COLUMNS : []),
    ...criteriaOf(evaluations, stats).map(criterionColumn),
    ...checkColumns(responses, checks),
    ...(settle === null
      ? []
      : settleCsvCells(settle).map(({ header, value }) => both(header, ({ response }) => value(response)))),
  ];
}

/**
 * One row per answer (Row Type "Answer": its tokens, latency, generation cost and average score)
 * followed by one row per judge score of it (Row Type "Judgement": judge, order, label, rank,
 * score, per-criterion scores, explanation and its share of the judge call's cost). Each row
 * carries the ids, the answer's model figures and, on judgement rows, its judge's record; each
 * cell is its column's value for the row's kind (csvColumns).
 */
export function buildCsv(
  responses: readonly ExportResponse[],
  evaluations: readonly ExportEvaluation[] = [],
  stats: JuryStatsDoc | null = null,
  checks: readonly AnswerCheck[] = [],
  settle: SettleExport | null = null,
): string {
  const columns = csvColumns(responses, evaluations, stats, checks, settle);
  const models = new Map((stats?.models ?? []).map((model) => [model.modelId, model]));
  const judges = new Map((stats?.judges ?? []).map((judge) => [judge.judgeModelId, judge]));
  const byResponse = new Map<string, ExportEvaluation[]>();
  for (const evaluation of evaluations)
    byResponse.set(evaluation.responseId, [...(byResponse.get(evaluation.responseId) ?? []), evaluation]);
  const data: Cell[][] = [];
  for (const response of responses) {
    const answerRow: AnswerRow = { response, model: models.get(response.modelId) };
    data.push(columns.map((column) => column.answer(answerRow)));
    for (const evaluation of byResponse.get(response.id) ?? []) {
      const judgementRow: JudgementRow = { ...answerRow, evaluation, judge: judges.get(evaluation.evaluatorModelId) };
      data.push(columns.map((column) => column.judgement(judgementRow)));
    }
  }
  return Papa.unparse({ fields: columns.map((column) => column.header), data });
}

/** The JSON export: the test, its configuration, and its results in the spec's field names. */
export function buildJson(
  results: ResultsData,
  responses: readonly ExportResponse[],
  evaluations: readonly ExportEvaluation[],
  stats: JuryStatsDoc | null = null,
  settle: SettleExport | null = null,
): string {
  const { test, metrics } = results;
  const document = {
    test: {
      id: test._id,
      name: test.name,
      taskType: test.taskType,
      status: test.status,
      createdAt: new Date(test._creationTime).toISOString(),
      startedAt: test.startedAt ? new Date(test.startedAt).toISOString() : null,
      completedAt: test.completedAt ? new Date(test.completedAt).toISOString() : null,
    },
    configuration: test.configuration,
    results: {
      modelRankings: results.rankings.map((ranking) => ({
        modelId: ranking.modelId,
        modelName: ranking.modelName,
        totalResponses: ranking.totalResponses,
        averageScore: ranking.averageScore,
        evaluationCount: ranking.evaluationCount,
      })),
      personaBreakdown: results.personaBreakdown,
      rawResponses: responses.map((response) => ({
        id: response.id,
        modelId: response.modelId,
        topicId: response.topicId,
        personaId: response.personaId,
        content: response.content,
        timestamp: new Date(response.timestamp).toISOString(),
        metadata: { tokens: response.tokens, latency: response.latencyMs, cost: response.costUsd },
        ...(response.checkFailures === undefined ? {} : { checkFailures: response.checkFailures }),
        // A repeated test's repeat of the answer's cell, 1 … repeats as in the CSV.
        ...(response.repeat === undefined ? {} : { repeat: response.repeat + 1 }),
      })),
      evaluationScores: evaluations.map((evaluation) => ({
        id: evaluation.id,
        responseId: evaluation.responseId,
        evaluatorModelId: evaluation.evaluatorModelId,
        scores: evaluation.scores,
        explanation: evaluation.explanation,
        ...(evaluation.rank === undefined ? {} : { rank: evaluation.rank }),
        timestamp: new Date(evaluation.timestamp).toISOString(),
        cost: evaluation.costUsd,
        ...(evaluation.callId === undefined ? {} : { callId: evaluation.callId }),
        ...(evaluation.order === undefined ? {} : { order: evaluation.order }),
        ...(evaluation.label === undefined ? {} : { label: evaluation.label }),
        ...(evaluation.labels === undefined ? {} : { labels: evaluation.labels }),
      })),
      /** The jury's evidence as last computed: intervals, ranks, ratings, agreement, judges, costs. */
      juryStatistics: stats,
      /** The checks on every answer, their labels and pass rates (absent without checks). */
      checks: checkJson(responses, test.configuration.checks ?? [], test.configuration.failedChecksRankLast === true),
      /** A test set to stop when settled: its question, the last look, why it stopped and the pairs' drawn order (absent otherwise). */
      ...(settle === null ? {} : { stopWhenSettled: settleJson(settle) }),
      analysisSummary: {
        totalTests: metrics.totalResponses,
        totalCost: test.totalCostUsd,
        ...summaryTestFigures(metrics),
        topPerformers: results.rankings
          .filter((ranking) => ranking.evaluationCount > 0)
          .slice(0, 3)
          .map((ranking) => ranking.modelName),
      },
    },
  };
  return JSON.stringify(document, null, 2);
}

export function exportFileName(testName: string, format: "csv" | "json"): string {
  return `${fileSlug(testName)}-results.${format}`;
}
