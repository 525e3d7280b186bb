// What a worker is handed for one call (the WorkItem of validators.ts): the messages to send,
// the model's prices, and for a judge call the labels its answers are shown under.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { UNKNOWN_MODEL_COST_PER_TOKEN } from "../../lib/pricing";
import { buildGenerationMessages, buildRankingMessages, buildRatingMessages, combinePrompt } from "../../lib/prompts";
import { repeatSeed } from "../../lib/repeats";
import { selectedCriteria } from "../../lib/types";
import type { WorkItem } from "../../validators";
import type { WorkConfiguration } from "./runView";

const SINGLE_ANSWER_MAX_TOKENS = 2000;
const BATCH_MAX_TOKENS = 3000;
const JUDGE_MAX_TOKENS = 2000;

async function modelPrices(ctx: MutationCtx, modelId: string) {
  const row = await ctx.db
    .query("llmModels")
    .withIndex("by_model_id", (q) => q.eq("modelId", modelId))
    .first();
  // Unknown models are priced like the estimate prices them (spec part 1 §9).
  return {
    promptPrice: row?.pricingPrompt ?? UNKNOWN_MODEL_COST_PER_TOKEN,
    completionPrice: row?.pricingCompletion ?? UNKNOWN_MODEL_COST_PER_TOKEN,
  };
}

/** The work item of a call just leased under `leaseId`. */
export async function buildWorkItem(
  ctx: MutationCtx,
  config: WorkConfiguration,
  call: Doc<"calls">,
  leaseId: string,
): Promise<WorkItem> {
  const persona = config.personas.find((entry) => entry.id === call.personaId);
  const topic = config.topics.find((entry) => entry.id === call.topicId);
  const question = combinePrompt(topic?.prompt ?? "", config.userPrompt);
  const personaContext = persona ? { name: persona.name, description: persona.description } : undefined;
  const base = {
    callId: call._id,
    leaseId,
    kind: call.kind,
    scale: config.scoringParameters.scale,
    modelId: call.modelId,
    ...(await modelPrices(ctx, call.modelId)),
    labels: [] as WorkItem["labels"],
    criteria: [] as string[],
    answersWanted: 0,
    pair: `${call.personaId}\u0000${call.topicId}`,
  };
  if (call.kind === "generate") {
    const count = call.answersWanted ?? config.responsesPerTopic;
    return {
      ...base,
      answersWanted: count,
      ...(call.repeat === undefined ? {} : { seed: repeatSeed(call.repeat) }),
      maxTokens: count === 1 ? SINGLE_ANSWER_MAX_TOKENS : BATCH_MAX_TOKENS,
      messages: buildGenerationMessages({
        systemPrompt: persona?.systemPrompt ?? "",
        topicPrompt: topic?.prompt ?? "",
        userPrompt: config.userPrompt,
        count,
      }),
    };
  }
  const responses: Doc<"responses">[] = [];
  for (const responseId of call.responseIds ?? []) {
    const response = await ctx.db.get("responses", responseId);
    if (response) responses.push(response);
  }
  const criteria = selectedCriteria(config.evaluationCriteria);
  const answerModels = responses.map((response) => ({ responseId: response._id, modelId: response.modelId }));
  if (config.scoringParameters.scale === "ranking") {
    const { messages, labels } = buildRankingMessages({
      question,
      answers: responses.map((response) => ({ responseId: response._id, content: response.content })),
      rankingPrompt: config.rankingPrompt,
      criteria,
      persona: personaContext,
      includeExplanations: config.scoringParameters.includeExplanations,
      seed: call.key,
    });
    return {
      ...base,
      maxTokens: JUDGE_MAX_TOKENS,
      messages,
      labels: labels.map((entry) => ({ label: entry.label, responseId: entry.responseId as Id<"responses"> })),
      answerModels,
    };
  }
  return {
    ...base,
    maxTokens: JUDGE_MAX_TOKENS,
    criteria,
    answerModels,
    messages: buildRatingMessages({
      question,
      answer: responses[0]?.content ?? "",
      criteria,
      persona: personaContext,
      includeExplanations: config.scoringParameters.includeExplanations,
    }),
  };
}
