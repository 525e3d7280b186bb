// Results export (the Export action, spec part 2 §2): a CSV with one row per answer and one per judge
// score, and a JSON with the configuration, the results in the spec's shape (part 2 §3) and the
// jury statistics. Every figure on the results page can be rebuilt from the rows: the Cost column
// adds up to generation plus judging. A big test is read page by page through the export
// queries, never by one unbounded query.
import Papa from "papaparse";
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import { criterionLabel } from "../../../convex/lib/criteria";
import type { AnswerCheck, JuryStatsDoc } from "../../../convex/validators";
import { checkCsvColumns, checkJson } from "../checks/check-export";
import type { ResultsData } from "./results-model";
import { fileSlug } from "./results-model";

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

/** The first seven columns are the answer's, as before; the rest name the row and the jury's figures. */
export const CSV_COLUMNS = [
  "Model",
  "Persona",
  "Topic",
  "Tokens",
  "Latency (ms)",
  "Cost (USD)",
  "Average Score",
  "Row Type",
  "Response ID",
  "Model ID",
  "Persona ID",
  "Topic ID",
  "Answer",
  "Evaluation ID",
  "Judge",
  "Order",
  "Label",
  "Rank",
  "Score",
  "Explanation",
  "Model Mean Score",
  "Model Score 95% Low",
  "Model Score 95% High",
  "Model Rank Best",
  "Model Rank Worst",
  "Model Rating",
  "Model Rating 95% Low",
  "Model Rating 95% High",
  "Model Generation Cost (USD)",
  "Model Judging Cost (USD)",
  "Judge Agreement",
  "Judge First-Shown Rate",
  "Judge Position Consistency",
  "Judge Length Correlation",
  "Judge Self-Preference",
  "Judge Flagged",
  "Judge Cost (USD)",
] as const;

/** Row types: an answer (its Cost is what generating it cost) or one judge's score of it (its share of the judge call). */
export const CSV_ROW_TYPES = { answer: "Answer", judgement: "Judgement" } as const;

const fixed = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined ? "" : value.toFixed(digits);

/** The criteria a rating test scored, as extra "<criterion> Score" columns (none for ranking). */
function criteriaOf(evaluations: readonly ExportEvaluation[], stats: JuryStatsDoc | null): string[] {
  const seen = new Set(stats?.criteria ?? []);
  for (const evaluation of evaluations) {
    if (evaluation.rank !== undefined) continue;
    for (const criterion of Object.keys(evaluation.scores)) seen.add(criterion);
  }
  return [...seen];
}

/**
 * One row per answer (Row Type "Answer": its tokens, latency, generation cost and average score)
 * followed by one row per judge score of it (Row Type "Judgement": judge, order, label, rank,
 * score, per-criterion scores, explanation and its share of the judge call's cost). Each row
 * carries the ids, the answer's model figures (mean with 95% interval, rank range, rating,
 * generation and judging cost) and, on judgement rows, its judge's record.
 */
export function buildCsv(
  responses: readonly ExportResponse[],
  evaluations: readonly ExportEvaluation[] = [],
  stats: JuryStatsDoc | null = null,
  checks: readonly AnswerCheck[] = [],
): string {
  const criteria = criteriaOf(evaluations, stats);
  const checkColumns = checkCsvColumns(responses, checks);
  const models = new Map((stats?.models ?? []).map((model) => [model.modelId, model]));
  const judges = new Map((stats?.judges ?? []).map((judge) => [judge.judgeModelId, judge]));
  const byResponse = new Map<string, ExportEvaluation[]>();
  for (const evaluation of evaluations)
    byResponse.set(evaluation.responseId, [...(byResponse.get(evaluation.responseId) ?? []), evaluation]);
  const modelColumns = (modelId: string) => {
    const model = models.get(modelId);
    return [
      fixed(model?.meanScore, 4),
      fixed(model?.scoreInterval?.low, 4),
      fixed(model?.scoreInterval?.high, 4),
      model?.rank?.best ?? "",
      model?.rank?.worst ?? "",
      fixed(model?.rating, 1),
      fixed(model?.ratingInterval?.low, 1),
      fixed(model?.ratingInterval?.high, 1),
      fixed(model?.generationCostUsd, 6),
      fixed(model?.judgingCostUsd, 6),
    ];
  };
  const judgeColumns = (judgeModelId: string | null) => {
    const judge = judgeModelId === null ? undefined : judges.get(judgeModelId);
    if (!judge) return ["", "", "", "", "", "", ""];
    return [
      fixed(judge.agreement.value, 4),
      fixed(judge.position?.firstRate, 4),
      fixed(judge.positionConsistency, 4),
      fixed(judge.length.correlation, 4),
      fixed(judge.selfPreference.value, 4),
      judge.flagged ? "yes" : "no",
      fixed(judge.costUsd, 6),
    ];
  };
  const data: (string | number)[][] = [];
  for (const response of responses) {
    const answer = [response.modelName, response.personaName, response.topicTitle];
    const ids = [response.id, response.modelId, response.personaId, response.topicId, response.content];
    data.push([
      ...answer,
      response.tokens,
      Math.round(response.latencyMs),
      response.costUsd.toFixed(6),
      fixed(response.averageScore, 2),
      CSV_ROW_TYPES.answer,
      ...ids,
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      ...modelColumns(response.modelId),
      ...judgeColumns(null),
      ...criteria.map(() => ""),
      ...checkColumns.answerCells(response),
    ]);
    for (const evaluation of byResponse.get(response.id) ?? []) {
      const score = Object.values(evaluation.scores);
      data.push([
        ...answer,
        "",
        "",
        evaluation.costUsd.toFixed(6),
        "",
        CSV_ROW_TYPES.judgement,
        ...ids,
        evaluation.id,
        evaluation.evaluatorModelId,
        evaluation.order ?? "",
        evaluation.label ?? "",
        evaluation.rank ?? "",
        fixed(score.length > 0 ? score.reduce((sum, value) => sum + value, 0) / score.length : null, 4),
        evaluation.explanation,
        ...modelColumns(response.modelId),
        ...judgeColumns(evaluation.evaluatorModelId),
        ...criteria.map((criterion) => (evaluation.rank === undefined ? fixed(evaluation.scores[criterion], 2) : "")),
        ...checkColumns.emptyCells,
      ]);
    }
  }
  return Papa.unparse({
    fields: [
      ...CSV_COLUMNS,
      ...criteria.map((criterion) => `${criterionLabel(criterion)} Score`),
      ...checkColumns.fields,
    ],
    data,
  });
}

/** The JSON export: the test, its configuration, and its results in the spec's field names. */
export function buildJson(
  results: ResultsData,
  responses: readonly ExportResponse[],
  evaluations: readonly ExportEvaluation[],
  stats: JuryStatsDoc | null = null,
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
      analysisSummary: {
        totalTests: metrics.totalResponses,
        totalCost: test.totalCostUsd,
        averageLatency: metrics.averageResponseTimeMs,
        completionRate: metrics.completionRate,
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
