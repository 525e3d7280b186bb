// A run's per-model statistics (ARCHITECTURE §5 `modelStats`: running sums per model for all
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

/** What one result adds to one model's sums, for all personas and for its persona. */
export type ModelDelta = ModelStatsDelta & { modelId: string; personaId: string };

/**
 * Adds results to their models' sums: as a delta row of the recording's own (runDeltas), which
 * the fold applies to modelStats (applyModelDeltas), so concurrent recordings of one test write
 * no common row.
 */
export async function bumpModelStats(
  ctx: MutationCtx,
  testId: Id<"tests">,
  modelId: string,
  personaId: string,
  delta: ModelStatsDelta,
): Promise<void> {
  await addModelDeltas(ctx, testId, [{ modelId, personaId, ...delta }]);
}

/** Several models' deltas of one recording (and a judge call's answer scores), in one row. */
export async function addModelDeltas(
  ctx: MutationCtx,
  testId: Id<"tests">,
  models: ModelDelta[],
  scores: { responseId: Id<"responses">; score: number }[] = [],
): Promise<void> {
  if (models.length > 0 || scores.length > 0)
    await ctx.db.insert("runDeltas", { testId, models, ...(scores.length > 0 ? { scores } : {}) });
}

/** Adds judge calls' answer scores to the answers' answerScores rows (the fold only writes them). */
export async function applyAnswerScores(
  ctx: MutationCtx,
  testId: Id<"tests">,
  scores: readonly { responseId: Id<"responses">; score: number }[],
): Promise<void> {
  const sums = new Map<Id<"responses">, { scoreSum: number; scoreCount: number }>();
  for (const { responseId, score } of scores) {
    const sum = sums.get(responseId) ?? { scoreSum: 0, scoreCount: 0 };
    sum.scoreSum += score;
    sum.scoreCount += 1;
    sums.set(responseId, sum);
  }
  for (const [responseId, sum] of sums) {
    const row = await ctx.db
      .query("answerScores")
      .withIndex("by_response", (q) => q.eq("responseId", responseId))
      .unique();
    if (row)
      await ctx.db.patch("answerScores", row._id, {
        scoreSum: row.scoreSum + sum.scoreSum,
        scoreCount: row.scoreCount + sum.scoreCount,
      });
    else await ctx.db.insert("answerScores", { testId, responseId, ...sum });
  }
}

/**
 * Applies deltas, in order, to each model's all-personas row ("") and its row for the persona
 * (one read and one write per row touched): called by the fold only, so no two recordings of a
 * test write the same modelStats row.
 */
export async function applyModelDeltas(
  ctx: MutationCtx,
  testId: Id<"tests">,
  deltas: readonly ModelDelta[],
): Promise<void> {
  const touched = new Map<
    string,
    { modelId: string; personaId: string; row: Doc<"modelStats"> | null; sums: ModelStatsSums }
  >();
  for (const delta of deltas) {
    for (const scope of ["", delta.personaId]) {
      const key = `${delta.modelId}\u0000${scope}`;
      let entry = touched.get(key);
      if (!entry) {
        const row = await ctx.db
          .query("modelStats")
          .withIndex("by_test_model_persona", (q) =>
            q.eq("testId", testId).eq("modelId", delta.modelId).eq("personaId", scope),
          )
          .unique();
        entry = { modelId: delta.modelId, personaId: scope, row, sums: row ?? EMPTY_MODEL_STATS };
        touched.set(key, entry);
      }
      // A delta without answers (scores) leaves the kept latencies as they are.
      entry.sums = { ...entry.sums, ...addModelStats(entry.sums, delta, scope === "") };
    }
  }
  for (const { modelId, personaId, row, sums } of touched.values()) {
    const fields: ModelStatsSums = {
      responses: sums.responses,
      tokens: sums.tokens,
      costUsd: sums.costUsd,
      latencyMsSum: sums.latencyMsSum,
      latencyBuckets: sums.latencyBuckets,
      scoreSum: sums.scoreSum,
      scoreCount: sums.scoreCount,
      ...(sums.latenciesMs ? { latenciesMs: sums.latenciesMs } : {}),
    };
    if (row) await ctx.db.patch("modelStats", row._id, fields);
    else await ctx.db.insert("modelStats", { testId, modelId, personaId, ...fields });
  }
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
