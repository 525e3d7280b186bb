// Recording a judge call's verdict: an evaluation row per answer it scored, the answer's and its
// model's score sums, and what the call adds to the test's counters.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { isReverseRankingKey } from "../../lib/prompts";
import type { Usage } from "../../validators";
import type { Counters } from "./runCounters";
import { shardOf } from "./shards";
import { bumpModelStats } from "./statistics";

/** One answer's scores from a judge call (a ranking also gives its rank and the labels shown). */
export interface ScoredAnswer {
  responseId: Id<"responses">;
  scores: Record<string, number>;
  rank?: number;
  explanation: string;
  labels?: { label: string; responseId: Id<"responses"> }[];
}

/** Writes the evaluations of a judge call and ends it (an answer deleted since gets none). */
export async function recordEvaluations(
  ctx: MutationCtx,
  test: Doc<"tests">,
  call: Doc<"calls">,
  scored: ScoredAnswer[],
  usage: Usage,
) {
  // A ranking call's one explanation is kept once (judgeExplanations), not on each of its rows.
  const ranking = scored.length > 1 && scored.every((entry) => entry.rank !== undefined);
  const explanation = ranking ? scored[0]!.explanation : "";
  if (explanation !== "") await ctx.db.insert("judgeExplanations", { testId: test._id, callId: call._id, explanation });
  for (const entry of scored) {
    const response = await ctx.db.get("responses", entry.responseId);
    if (!response) continue;
    const values = Object.values(entry.scores);
    const average = values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
    await ctx.db.insert("evaluations", {
      testId: test._id,
      responseId: entry.responseId,
      evaluatorModelId: call.modelId,
      scores: entry.scores,
      explanation: ranking ? "" : entry.explanation,
      ...(entry.rank === undefined ? {} : { rank: entry.rank }),
      costUsd: usage.costUsd / Math.max(1, scored.length),
      callId: call._id,
      ...(entry.labels
        ? { labels: entry.labels, order: isReverseRankingKey(call.key) ? ("reverse" as const) : ("forward" as const) }
        : {}),
    });
    await ctx.db.patch("responses", response._id, {
      scoreSum: response.scoreSum + average,
      scoreCount: response.scoreCount + 1,
    });
    await bumpModelStats(ctx, test._id, response.modelId, response.personaId, shardOf(call._id), {
      scoreSum: average,
      scoreCount: 1,
    });
  }
  await ctx.db.patch("calls", call._id, { status: "succeeded", leaseId: undefined });
  return {
    evaluationsCount: scored.length,
    missingEvaluations: (call.responseIds?.length ?? 0) - scored.length,
    totalCostUsd: usage.costUsd,
    totalTokens: usage.promptTokens + usage.completionTokens,
    finishedCalls: 1,
    judgingCostUsd: usage.costUsd,
    judgeCallsFinished: 1,
    judgeCallMs: usage.latencyMs,
  } satisfies Counters;
}
