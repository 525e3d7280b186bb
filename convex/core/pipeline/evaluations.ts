// Recording a judge call's verdict: an evaluation row per answer it scored (an answer's average is
// derived from its evaluations when read: several judges' calls of one answer write no common
// row), its models' score sums as a delta, and what the call adds to the test's counters.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { isReverseRankingKey } from "../../lib/prompts";
import type { Usage } from "../../validators";
import type { Counters } from "./runCounters";
import { addModelDeltas, type ModelDelta } from "./statistics";

/** What recording a verdict needs of a judged answer. */
export type JudgedAnswer = Pick<Doc<"responses">, "_id" | "modelId" | "personaId">;

/** One answer's scores from a judge call (a ranking also gives its rank and the labels shown). */
export interface ScoredAnswer {
  responseId: Id<"responses">;
  scores: Record<string, number>;
  rank?: number;
  explanation: string;
  labels?: { label: string; responseId: Id<"responses"> }[];
}

/** The label `responseId` was shown under, as a row's field (none when it was not shown). */
function labelOf(labels: readonly { label: string; responseId: Id<"responses"> }[], responseId: Id<"responses">) {
  const label = labels.find((entry) => entry.responseId === responseId)?.label;
  return label === undefined ? {} : { label };
}

/**
 * Writes the evaluations of a judge call and ends it (an answer deleted since gets none).
 * `answers`: the call's answers as the caller already read them (absent: read here), so a
 * ranking of 40 answers reads each once.
 */
export async function recordEvaluations(
  ctx: MutationCtx,
  test: Pick<Doc<"tests">, "_id">,
  call: Doc<"calls">,
  scored: ScoredAnswer[],
  usage: Usage,
  answers?: ReadonlyMap<Id<"responses">, JudgedAnswer>,
) {
  // A ranking call's one explanation and its labels are kept once (judgeExplanations), not on each
  // of its rows: a row keeps only the label its answer was shown under.
  const ranking = scored.length > 1 && scored.every((entry) => entry.rank !== undefined);
  const explanation = ranking ? scored[0]!.explanation : "";
  const labels = scored.find((entry) => entry.labels !== undefined)?.labels;
  if (explanation !== "" || labels !== undefined)
    await ctx.db.insert("judgeExplanations", {
      testId: test._id,
      callId: call._id,
      explanation,
      ...(labels === undefined ? {} : { labels }),
    });
  const byModel = new Map<string, ModelDelta>();
  const answerScores: { responseId: Id<"responses">; score: number }[] = [];
  for (const entry of scored) {
    const response = answers ? answers.get(entry.responseId) : await ctx.db.get("responses", entry.responseId);
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
        ? {
            ...labelOf(entry.labels, entry.responseId),
            order: isReverseRankingKey(call.key) ? ("reverse" as const) : ("forward" as const),
          }
        : {}),
    });
    answerScores.push({ responseId: response._id, score: average });
    const key = `${response.modelId}\u0000${response.personaId}`;
    const sums = byModel.get(key) ?? {
      modelId: response.modelId,
      personaId: response.personaId,
      scoreSum: 0,
      scoreCount: 0,
    };
    sums.scoreSum = (sums.scoreSum ?? 0) + average;
    sums.scoreCount = (sums.scoreCount ?? 0) + 1;
    byModel.set(key, sums);
  }
  await addModelDeltas(ctx, test._id, [...byModel.values()], answerScores);
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
