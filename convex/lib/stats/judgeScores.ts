// Each judge's mean score of each answer, from its calls, and the test's models in order.
import { ratingAverage, spreadRankingScore } from "../scoring";
import { compareScores } from "./basics";
import type { JuryResponse, JuryStatsInput } from "./types";

/** The provider part of a model id ("openai/gpt-4o" → "openai"). */
export function modelFamily(modelId: string): string {
  return modelId.split("/")[0] ?? modelId;
}

/** Score of each (judge, response): mean of that judge's calls on it (both orders averaged). */
export function judgeScores(input: JuryStatsInput, known: ReadonlyMap<string, JuryResponse>) {
  const sums = new Map<string, Map<string, { sum: number; count: number }>>();
  /** Judge verdicts on each answer (calls of every judge, both orders counted). */
  const verdicts = new Map<string, number>();
  const calls = new Map<string, { calls: number; costUsd: number }>();
  /** Judging cost of each answer: its share of every judge call that showed it. */
  const judgingCost = new Map<string, number>();
  /** Rating: each judge's per-criterion sums per answer. */
  const criterionSums = new Map<string, Map<string, Map<string, { sum: number; count: number }>>>();
  const criteria: string[] = [];
  const add = (judge: string, responseId: string, score: number) => {
    let byResponse = sums.get(judge);
    if (!byResponse) sums.set(judge, (byResponse = new Map()));
    const entry = byResponse.get(responseId) ?? { sum: 0, count: 0 };
    entry.sum += score;
    entry.count += 1;
    byResponse.set(responseId, entry);
    verdicts.set(responseId, (verdicts.get(responseId) ?? 0) + 1);
  };
  const countCall = (judge: string, costUsd = 0) => {
    const entry = calls.get(judge) ?? { calls: 0, costUsd: 0 };
    entry.calls += 1;
    entry.costUsd += costUsd;
    calls.set(judge, entry);
  };
  if (input.scale === "ranking") {
    for (const call of input.rankings ?? []) {
      countCall(call.judgeModelId, call.costUsd);
      const ranking = call.ranking.filter((id) => known.has(id));
      for (const id of ranking) judgingCost.set(id, (judgingCost.get(id) ?? 0) + (call.costUsd ?? 0) / ranking.length);
      const outOf = Math.max(call.outOf ?? ranking.length, ranking.length);
      ranking.forEach((id, rank) => add(call.judgeModelId, id, spreadRankingScore(rank, ranking.length, outOf)));
    }
  } else {
    for (const call of input.ratings ?? []) {
      countCall(call.judgeModelId, call.costUsd);
      if (!known.has(call.responseId)) continue;
      judgingCost.set(call.responseId, (judgingCost.get(call.responseId) ?? 0) + (call.costUsd ?? 0));
      const score = ratingAverage(call.scores);
      if (score !== null) add(call.judgeModelId, call.responseId, score);
      let byResponse = criterionSums.get(call.judgeModelId);
      if (!byResponse) criterionSums.set(call.judgeModelId, (byResponse = new Map()));
      const byCriterion = byResponse.get(call.responseId) ?? new Map<string, { sum: number; count: number }>();
      for (const [criterion, value] of Object.entries(call.scores)) {
        if (!Number.isFinite(value)) continue;
        if (!criteria.includes(criterion)) criteria.push(criterion);
        const entry = byCriterion.get(criterion) ?? { sum: 0, count: 0 };
        entry.sum += value;
        entry.count += 1;
        byCriterion.set(criterion, entry);
      }
      byResponse.set(call.responseId, byCriterion);
    }
  }
  const scores = new Map<string, Map<string, number>>();
  for (const [judge, byResponse] of sums) {
    scores.set(judge, new Map([...byResponse].map(([id, { sum, count }]) => [id, sum / count])));
  }
  /** criterionScores.get(responseId).get(criterion): each judge's mean score of that answer there. */
  const criterionScores = new Map<string, Map<string, number[]>>();
  for (const byResponse of criterionSums.values()) {
    for (const [responseId, byCriterion] of byResponse) {
      const entry = criterionScores.get(responseId) ?? new Map<string, number[]>();
      for (const [criterion, { sum, count }] of byCriterion)
        entry.set(criterion, [...(entry.get(criterion) ?? []), sum / count]);
      criterionScores.set(responseId, entry);
    }
  }
  return { scores, calls, judgingCost, criterionScores, criteria, verdicts };
}

/** The test's models in its order, then any seen only in responses (named by their id). */
export function modelsOf(input: Pick<JuryStatsInput, "models" | "responses">): {
  modelIds: string[];
  names: Map<string, string>;
} {
  const modelIds: string[] = [];
  const names = new Map<string, string>();
  for (const model of input.models ?? []) {
    if (!names.has(model.id)) modelIds.push(model.id);
    names.set(model.id, model.name);
  }
  for (const response of input.responses) {
    if (!names.has(response.modelId)) {
      names.set(response.modelId, response.modelId);
      modelIds.push(response.modelId);
    }
  }
  return { modelIds, names };
}

/** Orders means (null last); equal means (compareScores) keep their order. */
export function compareMeans(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return compareScores(a, b);
}
