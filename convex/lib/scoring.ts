// Scores, model rankings and result summaries (spec part 1 §9, part 2 §3, §9).
import { modelIdOf, modelNameOf, type AnalysisSummary, type ModelRanking, type ModelRef } from "./types";
import { summaryTestFigures, testFigures } from "./metrics";

export const MAX_SCORE = 10;

/**
 * Ranking scale: the answer at 0-based position `rank` among `answerCount` answers scores
 * (N − rank) / N × 10, so the best (rank 0) gets 10 and the worst (rank N − 1) gets 10 / N.
 * N is the number of answers the judge ranked: generators × responses per topic when none is
 * missing (missing answers are not padded, so N can be smaller).
 */
export function rankingScore(rank: number, answerCount: number): number {
  if (!Number.isInteger(answerCount) || answerCount < 1) throw new RangeError(`Invalid answer count: ${answerCount}`);
  if (!Number.isInteger(rank) || rank < 0 || rank >= answerCount) throw new RangeError(`Invalid rank: ${rank}`);
  return ((answerCount - rank) / answerCount) * MAX_SCORE;
}

/** Key under which a ranking evaluation stores its derived score in `scores`. */
export const RANKING_SCORE_KEY = "overall";

export interface RankedScore {
  readonly responseId: string;
  /** 1-based place as shown to users (1 = best). */
  readonly position: number;
  readonly score: number;
}

/** A judge's order (best first) → one score per answer. */
export function scoresFromRanking(
  rankedResponseIds: readonly string[],
  outOf = rankedResponseIds.length,
): RankedScore[] {
  return rankedResponseIds.map((responseId, rank) => ({
    responseId,
    position: rank + 1,
    score: spreadRankingScore(rank, rankedResponseIds.length, outOf),
  }));
}

/**
 * Score of the answer at 0-based `rank` of a ranking of `ranked` answers out of a persona × topic
 * pair of `outOf` (a judge that skips its own family's answers ranks fewer). The ranks are spread
 * evenly over the pair's places, so such a call's scores have the same top (10), bottom (10/outOf)
 * and mean as a full ranking: no model gains or loses because a judge skipped some answers.
 * A full ranking (ranked = outOf) gives rankingScore's (N − rank)/N × 10.
 */
export function spreadRankingScore(rank: number, ranked: number, outOf: number): number {
  if (outOf <= ranked) return rankingScore(rank, ranked);
  if (!Number.isInteger(rank) || rank < 0 || rank >= ranked) throw new RangeError(`Invalid rank: ${rank}`);
  const place = ranked === 1 ? (outOf - 1) / 2 : (rank * (outOf - 1)) / (ranked - 1);
  return ((outOf - place) / outOf) * MAX_SCORE;
}

/**
 * The single score of one evaluation: the mean of its scores (the rated criteria, or the one
 * RANKING_SCORE_KEY entry of a ranking). Null when it has none. `criteria` limits the mean to
 * those keys.
 */
export function ratingAverage(scores: Readonly<Record<string, number>>, criteria?: readonly string[]): number | null {
  const values = (criteria ?? Object.keys(scores))
    .filter((key) => Object.hasOwn(scores, key))
    .map((key) => scores[key])
    .filter((value) => Number.isFinite(value));
  if (values.length === 0) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Width of a score bar, 0-100 (%): score / 10. */
export function scoreBarPercent(score: number): number {
  return Math.min(100, Math.max(0, (score / MAX_SCORE) * 100));
}

/** Running sums for one model (optionally within one persona), as kept in modelStats. */
export interface ScoreTally {
  readonly modelId: string;
  readonly modelName?: string;
  readonly personaId?: string;
  readonly responses: number;
  readonly scoreSum: number;
  readonly scoreCount: number;
}

/** Raw rows → tallies per model × persona; evaluations of unknown responses are ignored. */
export function tallyScores(
  responses: readonly { readonly id: string; readonly modelId: string; readonly personaId?: string }[],
  evaluations: readonly { readonly responseId: string; readonly scores: Readonly<Record<string, number>> }[],
): ScoreTally[] {
  const tallies = new Map<
    string,
    { modelId: string; personaId?: string; responses: number; scoreSum: number; scoreCount: number }
  >();
  const tallyOfResponse = new Map<string, { scoreSum: number; scoreCount: number }>();
  for (const response of responses) {
    const key = JSON.stringify([response.modelId, response.personaId ?? null]);
    let tally = tallies.get(key);
    if (!tally) {
      tally = { modelId: response.modelId, personaId: response.personaId, responses: 0, scoreSum: 0, scoreCount: 0 };
      if (response.personaId === undefined) delete tally.personaId;
      tallies.set(key, tally);
    }
    tally.responses += 1;
    tallyOfResponse.set(response.id, tally);
  }
  for (const evaluation of evaluations) {
    const tally = tallyOfResponse.get(evaluation.responseId);
    const score = ratingAverage(evaluation.scores);
    if (!tally || score === null) continue;
    tally.scoreSum += score;
    tally.scoreCount += 1;
  }
  return [...tallies.values()];
}

function nameLookup(models: readonly ModelRef[] | undefined): Map<string, string> {
  return new Map((models ?? []).map((ref) => [modelIdOf(ref), modelNameOf(ref)]));
}

/** Scored models first, by average score (highest first), then by answers, then by name. */
export function compareRankings(a: ModelRanking, b: ModelRanking): number {
  return (
    Number(b.evaluationCount > 0) - Number(a.evaluationCount > 0) ||
    b.averageScore - a.averageScore ||
    b.totalResponses - a.totalResponses ||
    a.modelName.localeCompare(b.modelName, "en")
  );
}

/**
 * Model rankings from tallies of one level (per model, or per model × persona; the rows are
 * summed by model). The average is over evaluations: scoreSum / scoreCount. Names come from the
 * tally, else from `models` (the test's model references), else the id.
 */
export function rankModels(tallies: readonly ScoreTally[], models?: readonly ModelRef[]): ModelRanking[] {
  const names = nameLookup(models);
  const byModel = new Map<string, { modelName?: string; responses: number; scoreSum: number; scoreCount: number }>();
  for (const tally of tallies) {
    const sums = byModel.get(tally.modelId) ?? { responses: 0, scoreSum: 0, scoreCount: 0 };
    sums.modelName ??= tally.modelName;
    sums.responses += tally.responses;
    sums.scoreSum += tally.scoreSum;
    sums.scoreCount += tally.scoreCount;
    byModel.set(tally.modelId, sums);
  }
  return [...byModel.entries()]
    .map(([modelId, sums]) => ({
      modelId,
      modelName: sums.modelName ?? names.get(modelId) ?? modelId,
      totalResponses: sums.responses,
      averageScore: sums.scoreCount > 0 ? sums.scoreSum / sums.scoreCount : 0,
      evaluationCount: sums.scoreCount,
    }))
    .sort(compareRankings);
}

export interface PersonaBreakdown {
  readonly personaId: string;
  readonly personaName: string;
  readonly rankings: ModelRanking[];
}

/**
 * Rankings within each persona, in the order of `personas` (the test's personas), followed by
 * any persona the tallies name that the list lacks. Tallies without a personaId are skipped.
 */
export function personaBreakdown(
  tallies: readonly ScoreTally[],
  personas: readonly { readonly id: string; readonly name: string }[],
  models?: readonly ModelRef[],
): PersonaBreakdown[] {
  const byPersona = new Map<string, ScoreTally[]>();
  for (const tally of tallies) {
    if (tally.personaId === undefined || tally.personaId === "") continue;
    const list = byPersona.get(tally.personaId) ?? [];
    list.push(tally);
    byPersona.set(tally.personaId, list);
  }
  const order = [...personas.map((persona) => persona.id), ...byPersona.keys()];
  const names = new Map(personas.map((persona) => [persona.id, persona.name]));
  return [...new Set(order)]
    .filter((personaId) => byPersona.has(personaId))
    .map((personaId) => ({
      personaId,
      personaName: names.get(personaId) ?? "Unknown persona",
      rankings: rankModels(byPersona.get(personaId) ?? [], models),
    }));
}

export interface SummaryInput {
  readonly expectedResponses: number;
  readonly actualResponses: number;
  /** Gateway cost in dollars. */
  readonly totalCost: number;
  /** Sum of the answers' latencies in milliseconds. */
  readonly totalLatencyMs: number;
  readonly rankings: readonly ModelRanking[];
}

export const TOP_PERFORMER_COUNT = 3;

/** results_summary.analysisSummary of a test. */
export function summarize(input: SummaryInput): AnalysisSummary {
  return {
    totalTests: input.actualResponses,
    totalCost: input.totalCost,
    ...summaryTestFigures(
      testFigures({
        responses: input.actualResponses,
        expectedResponses: input.expectedResponses,
        latencyMsSum: input.totalLatencyMs,
      }),
    ),
    topPerformers: [...input.rankings]
      .filter((ranking) => ranking.evaluationCount > 0)
      .sort(compareRankings)
      .slice(0, TOP_PERFORMER_COUNT)
      .map((ranking) => ranking.modelName),
  };
}

export interface CostScorePoint {
  readonly id: string;
  readonly cost: number;
  readonly score: number;
}

/**
 * Ids of the points on the cost-quality frontier, cheapest first. A point is off the frontier
 * when another costs no more and scores no less, and is strictly better on one of the two
 * (so of two models at the same cost, only the better scoring one stays). Identical points
 * both stay.
 */
export function paretoFrontier(points: readonly CostScorePoint[]): string[] {
  const dominated = (point: CostScorePoint) =>
    points.some(
      (other) =>
        other !== point &&
        other.cost <= point.cost &&
        other.score >= point.score &&
        (other.cost < point.cost || other.score > point.score),
    );
  return points
    .filter((point) => !dominated(point))
    .sort((a, b) => a.cost - b.cost || b.score - a.score)
    .map((point) => point.id);
}

/**
 * The p-th percentile (0-100) with linear interpolation between the closest ranks
 * (median of [1, 2, 3, 4] is 2.5). Null when there are no values.
 */
export function percentile(values: readonly number[], p: number): number | null {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const clamped = Math.min(100, Math.max(0, p));
  const position = (clamped / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/** A sorted list with `count` copies of `value` added in place of order (returns a new array). */
export function insertSorted(sorted: readonly number[], value: number, count = 1): number[] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return [...sorted.slice(0, low), ...Array.from({ length: Math.max(0, count) }, () => value), ...sorted.slice(low)];
}

/**
 * Upper bounds (ms) of the latency histogram buckets kept in running sums, so the median and
 * p95 can be read without loading every answer. Bucket i counts latencies in
 * (bound[i − 1], bound[i]]; the last bucket is open-ended.
 */
export const LATENCY_BUCKET_BOUNDS_MS: readonly number[] = [
  250,
  500,
  750,
  1_000,
  1_500,
  2_000,
  3_000,
  4_000,
  5_000,
  7_500,
  10_000,
  15_000,
  20_000,
  30_000,
  45_000,
  60_000,
  Number.POSITIVE_INFINITY,
];

export function latencyBucketIndex(latencyMs: number): number {
  const index = LATENCY_BUCKET_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
  return index === -1 ? LATENCY_BUCKET_BOUNDS_MS.length - 1 : index;
}

/** Adds one latency to a histogram (returns a new array sized to the bucket list). */
export function addLatency(buckets: readonly number[], latencyMs: number): number[] {
  const next = LATENCY_BUCKET_BOUNDS_MS.map((_, index) => buckets[index] ?? 0);
  next[latencyBucketIndex(latencyMs)] += 1;
  return next;
}

/**
 * Approximate p-th percentile (0-100) from a histogram, interpolating inside the bucket that
 * holds it; the open-ended last bucket reports its lower bound. Null for an empty histogram.
 */
export function percentileFromBuckets(buckets: readonly number[], p: number): number | null {
  const total = buckets.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const target = (Math.min(100, Math.max(0, p)) / 100) * total;
  let seen = 0;
  for (let index = 0; index < buckets.length; index++) {
    const count = buckets[index] ?? 0;
    if (count === 0) continue;
    const lower = index === 0 ? 0 : LATENCY_BUCKET_BOUNDS_MS[index - 1];
    const upper = LATENCY_BUCKET_BOUNDS_MS[index] ?? Number.POSITIVE_INFINITY;
    if (seen + count >= target) {
      if (!Number.isFinite(upper)) return lower;
      return lower + ((upper - lower) * (target - seen)) / count;
    }
    seen += count;
  }
  return LATENCY_BUCKET_BOUNDS_MS[LATENCY_BUCKET_BOUNDS_MS.length - 2];
}
