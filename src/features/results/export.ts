// Results export (issue 6 §7): CSV with one row per response, JSON with the configuration and
// the results in the spec's shape (part 2 §3). A big test is read page by page through the
// export queries, never by one unbounded query.
import Papa from "papaparse";
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
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

export const CSV_COLUMNS = ["Model", "Persona", "Topic", "Tokens", "Latency (ms)", "Cost (USD)", "Average Score"] as const;

export function buildCsv(responses: readonly ExportResponse[]): string {
  return Papa.unparse({
    fields: [...CSV_COLUMNS],
    data: responses.map((response) => [
      response.modelName,
      response.personaName,
      response.topicTitle,
      response.tokens,
      Math.round(response.latencyMs),
      response.costUsd.toFixed(6),
      response.averageScore === null ? "" : response.averageScore.toFixed(2),
    ]),
  });
}

/** The JSON export: the test, its configuration, and its results in the spec's field names. */
export function buildJson(
  results: ResultsData,
  responses: readonly ExportResponse[],
  evaluations: readonly ExportEvaluation[],
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
      })),
      evaluationScores: evaluations.map((evaluation) => ({
        id: evaluation.id,
        responseId: evaluation.responseId,
        evaluatorModelId: evaluation.evaluatorModelId,
        scores: evaluation.scores,
        explanation: evaluation.explanation,
        ...(evaluation.rank === undefined ? {} : { rank: evaluation.rank }),
        timestamp: new Date(evaluation.timestamp).toISOString(),
      })),
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

/** Hands a file to the browser's download. */
export function downloadFile(name: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
