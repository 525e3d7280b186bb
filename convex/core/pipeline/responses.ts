// Recording a generation call's answers (ARCHITECTURE §4 step 5): each answer is a response
// row with its share of the call's tokens and cost; missing answers are asked for once more.
import type { Doc } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import type { Outcome } from "../../validators";
import type { Counters } from "./runCounters";
import { recordAnswerChecks } from "../checks";
import type { RunView } from "./runView";
import { bumpModelStats } from "./statistics";

/**
 * Writes a generation call's answers (at most the number it asked for) and returns what they add
 * to the test's counters; `ended` is false when the missing answers are asked for again.
 */
export async function recordGeneration(
  ctx: MutationCtx,
  test: RunView["test"],
  call: Doc<"calls">,
  outcome: Extract<Outcome, { kind: "generated" }>,
) {
  const wanted = call.answersWanted ?? test.configuration.responsesPerTopic;
  const answers = outcome.answers.slice(0, wanted);
  const share = Math.max(1, answers.length);
  const checked = await recordAnswerChecks(ctx, test, call, answers, outcome);
  for (const [index, content] of answers.entries()) {
    await ctx.db.insert("responses", {
      testId: test._id,
      callId: call._id,
      modelId: call.modelId,
      personaId: call.personaId,
      topicId: call.topicId,
      content,
      promptTokens: Math.round(outcome.promptTokens / share),
      completionTokens: Math.round(outcome.completionTokens / share),
      tokens: Math.round((outcome.promptTokens + outcome.completionTokens) / share),
      latencyMs: outcome.latencyMs,
      costUsd: outcome.costUsd / share,
      scoreSum: 0,
      scoreCount: 0,
      ...checked[index],
      ...(call.repeat === undefined ? {} : { repeat: call.repeat }),
    });
  }
  if (answers.length > 0) {
    await bumpModelStats(ctx, test._id, call.modelId, call.personaId, {
      responses: answers.length,
      tokens: outcome.promptTokens + outcome.completionTokens,
      costUsd: outcome.costUsd,
      latencyMs: outcome.latencyMs,
    });
  }
  const missing = wanted - answers.length;
  const counters: Counters = {
    responsesCount: answers.length,
    totalCostUsd: outcome.costUsd,
    totalLatencyMs: outcome.latencyMs * answers.length,
    totalTokens: outcome.promptTokens + outcome.completionTokens,
    generationCallMs: outcome.latencyMs,
  };
  if (missing > 0 && !call.missingRetried) {
    // Missing answers are asked for once more, never padded (ARCHITECTURE §4).
    await ctx.db.patch("calls", call._id, {
      status: "pending",
      answersWanted: missing,
      missingRetried: true,
      leaseId: undefined,
    });
    return { counters, ended: false };
  }
  const anyAnswer = answers.length > 0 || call.missingRetried === true;
  await ctx.db.patch("calls", call._id, {
    status: anyAnswer ? "succeeded" : "failed",
    ...(anyAnswer ? {} : { error: "The model returned no usable answers." }),
    leaseId: undefined,
  });
  return {
    counters: { ...counters, missingResponses: missing, finishedCalls: 1, failedCalls: anyAnswer ? 0 : 1 },
    ended: true,
  };
}
