// A run's per-model statistics (ARCHITECTURE §3 `modelStats`: running sums per model for all
// personas, personaId "", and per model × persona) and the results summary written when it
// ends. The arithmetic is pure, so the seed fixture (finishedTests.fixture.ts) keeps its rows
// exactly as the pipeline does.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { addLatency, insertSorted, rankModels, summarize } from "../../lib/scoring";
import type { ModelRef } from "../../lib/types";
import type { ResultsSummary } from "../../validators";

/** The sums of one modelStats row. */
export type ModelStatsSums = Pick<
  Doc<"modelStats">,
  "responses" | "tokens" | "costUsd" | "latencyMsSum" | "latencyBuckets" | "latenciesMs" | "scoreSum" | "scoreCount"
>;

/** What one result adds to a row: answers (each taking `latencyMs`), their tokens and cost, scores. */
export interface ModelStatsDelta {
  responses?: number;
  tokens?: number;
  costUsd?: number;
  latencyMs?: number;
  scoreSum?: number;
  scoreCount?: number;
}

export const EMPTY_MODEL_STATS: ModelStatsSums = {
  responses: 0,
  tokens: 0,
  costUsd: 0,
  latencyMsSum: 0,
  latencyBuckets: [],
  scoreSum: 0,
  scoreCount: 0,
};

/**
 * The sums after `delta`. With `keepLatencies` every answer's latency is also kept, sorted, for
 * exact percentiles (the pipeline keeps them on the all-personas row only).
 */
export function addModelStats(current: ModelStatsSums, delta: ModelStatsDelta, keepLatencies: boolean): ModelStatsSums {
  const responses = delta.responses ?? 0;
  const latencyMs = delta.latencyMs;
  const timed = latencyMs !== undefined && responses > 0;
  const latenciesMs =
    timed && keepLatencies ? insertSorted(current.latenciesMs ?? [], latencyMs, responses) : undefined;
  return {
    responses: current.responses + responses,
    tokens: current.tokens + (delta.tokens ?? 0),
    costUsd: current.costUsd + (delta.costUsd ?? 0),
    latencyMsSum: current.latencyMsSum + (latencyMs ?? 0) * responses,
    latencyBuckets: timed
      ? Array.from({ length: responses }).reduce<number[]>(
          (buckets) => addLatency(buckets, latencyMs),
          current.latencyBuckets,
        )
      : current.latencyBuckets,
    scoreSum: current.scoreSum + (delta.scoreSum ?? 0),
    scoreCount: current.scoreCount + (delta.scoreCount ?? 0),
    ...(latenciesMs ? { latenciesMs } : {}),
  };
}

/**
 * Adds a result to the model's all-personas row and to its row for the persona, in the shard
 * of the call (core/pipeline/shards.ts), so concurrent recordings of one test write
 * different rows; readers merge a row's shards (mergeModelStats).
 */
export async function bumpModelStats(
  ctx: MutationCtx,
  testId: Id<"tests">,
  modelId: string,
  personaId: string,
  shard: number,
  delta: ModelStatsDelta,
): Promise<void> {
  for (const scope of ["", personaId]) {
    const row = await ctx.db
      .query("modelStats")
      .withIndex("by_test_model_persona", (q) =>
        q.eq("testId", testId).eq("modelId", modelId).eq("personaId", scope).eq("shard", shard),
      )
      .unique();
    const next = addModelStats(row ?? EMPTY_MODEL_STATS, delta, scope === "");
    if (row) await ctx.db.patch("modelStats", row._id, next);
    else await ctx.db.insert("modelStats", { testId, modelId, personaId: scope, shard, ...next });
  }
}

/** Two sorted lists as one sorted list. */
function mergeSorted(left: readonly number[], right: readonly number[]): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length || (i < left.length && left[i]! <= right[j]!)) merged.push(left[i++]!);
    else merged.push(right[j++]!);
  }
  return merged;
}

/**
 * A test's modelStats rows with each model × persona's shards merged into one row (the first
 * shard's id and fields, the sums added, latencies merged in order): what a single row would
 * hold had every result been added to it. Row order: as read (by model, then persona).
 */
export function mergeModelStats(rows: readonly Doc<"modelStats">[]): Doc<"modelStats">[] {
  const merged = new Map<string, Doc<"modelStats">>();
  for (const row of rows) {
    const key = `${row.modelId}\u0000${row.personaId}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, row);
      continue;
    }
    const buckets = Array.from(
      { length: Math.max(seen.latencyBuckets.length, row.latencyBuckets.length) },
      (_, index) => (seen.latencyBuckets[index] ?? 0) + (row.latencyBuckets[index] ?? 0),
    );
    const latencies =
      seen.latenciesMs !== undefined || row.latenciesMs !== undefined
        ? { latenciesMs: mergeSorted(seen.latenciesMs ?? [], row.latenciesMs ?? []) }
        : {};
    merged.set(key, {
      ...seen,
      responses: seen.responses + row.responses,
      tokens: seen.tokens + row.tokens,
      costUsd: seen.costUsd + row.costUsd,
      latencyMsSum: seen.latencyMsSum + row.latencyMsSum,
      latencyBuckets: buckets,
      scoreSum: seen.scoreSum + row.scoreSum,
      scoreCount: seen.scoreCount + row.scoreCount,
      ...latencies,
    });
  }
  return [...merged.values()];
}

/** What the summary counts besides the rankings. */
export interface RunTotals {
  expectedResponses: number;
  actualResponses: number;
  /** Gateway cost in dollars. */
  totalCost: number;
  totalLatencyMs: number;
}

/** A run's results summary: its models ranked from their all-personas rows, and its totals. */
export function runSummary(
  rows: readonly Pick<Doc<"modelStats">, "modelId" | "personaId" | "responses" | "scoreSum" | "scoreCount">[],
  models: readonly ModelRef[],
  totals: RunTotals,
): ResultsSummary {
  const modelRankings = rankModels(
    rows
      .filter((row) => row.personaId === "")
      .map((row) => ({
        modelId: row.modelId,
        responses: row.responses,
        scoreSum: row.scoreSum,
        scoreCount: row.scoreCount,
      })),
    models,
  );
  return { modelRankings, analysisSummary: summarize({ ...totals, rankings: modelRankings }) };
}
