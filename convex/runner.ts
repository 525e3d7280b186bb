// The scheduled pipeline (ARCHITECTURE §4): dispatch, workers, recording, and the crons that
// keep it healthy. The bookkeeping lives in model/pipeline/.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { internalAction, internalMutation, internalQuery } from "./functions";
import { buildRetryMessages, type ChatMessage } from "./lib/prompts";
import { parseGenerationReply, parseRankingReply, parseRatingReply } from "./lib/replies";
import { chatCompletion, GatewayError, type ChatResult, type GatewayConfig } from "./model/gateway";
import { createGenerationCallBatch } from "./model/pipeline/calls";
import { claimNext } from "./model/pipeline/claim";
import { dispatchQueued } from "./model/pipeline/dispatch";
import { recordOutcome } from "./model/pipeline/record";
import { alertStuckJobs, cancelTestsWithoutProgress, reclaimExpiredLeases } from "./model/pipeline/recovery";
import { readSetting } from "./model/settings";
import { gatewayConfigForTest } from "./model/testGateway";
import { callOutcome, workItem, type Outcome, type Usage, type WorkItem } from "./validators";

export const dispatch = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await dispatchQueued(ctx),
});

/** The next batch of a starting test's generation calls (see createGenerationCallBatch). */
export const createCalls = internalMutation({
  args: { testId: v.id("tests"), cursor: v.number(), fresh: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { testId, cursor, fresh }) => {
    await createGenerationCallBatch(ctx, testId, cursor, fresh);
    return null;
  },
});

export const claim = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.union(v.null(), workItem),
  handler: async (ctx, { testId }) => await claimNext(ctx, testId),
});

/**
 * Records a result and, in the same transaction, leases the worker its next call. At the end
 * of a chunk the worker is rescheduled instead, so no action runs for long.
 */
export const record = internalMutation({
  args: {
    testId: v.id("tests"),
    callId: v.id("calls"),
    leaseId: v.string(),
    outcome: callOutcome,
    continueChunk: v.boolean(),
  },
  returns: v.union(v.null(), workItem),
  handler: async (ctx, { testId, callId, leaseId, outcome, continueChunk }) => {
    const current = await recordOutcome(ctx, callId, leaseId, outcome);
    // A stale lease was already written off by the reclaim cron: this worker ends uncounted.
    if (!current) return null;
    if (continueChunk) return await claimNext(ctx, testId);
    await ctx.scheduler.runAfter(0, internal.runner.work, { testId });
    return null;
  },
});

function costOf(item: WorkItem, result: ChatResult): number {
  return result.promptTokens * item.promptPrice + result.completionTokens * item.completionPrice;
}

function addUsage(total: Usage, item: WorkItem, result: ChatResult): Usage {
  return {
    promptTokens: total.promptTokens + result.promptTokens,
    completionTokens: total.completionTokens + result.completionTokens,
    latencyMs: total.latencyMs + result.latencyMs,
    costUsd: total.costUsd + costOf(item, result),
  };
}

type Parsed = { ok: true; outcome: Outcome } | { ok: false; problem: string };

function parseReply(item: WorkItem, content: string, spent: Usage): Parsed {
  if (item.kind === "generate") {
    const reply = parseGenerationReply(content, item.answersWanted);
    // A reply that ignores the format is asked for again rather than guessed at.
    if (reply.malformed || reply.answers.length === 0) {
      return { ok: false, problem: `No JSON array of ${item.answersWanted} answers was found.` };
    }
    return { ok: true, outcome: { kind: "generated", answers: reply.answers, ...spent } };
  }
  if (item.scale === "ranking") {
    const reply = parseRankingReply(
      content,
      item.labels.map((entry) => entry.label),
    );
    if (reply.malformed) return { ok: false, problem: reply.reason };
    const byLabel = new Map(item.labels.map((entry) => [entry.label, entry.responseId]));
    const ranking = reply.ranking
      .map((label) => byLabel.get(label))
      .filter((id): id is Id<"responses"> => id !== undefined);
    return { ok: true, outcome: { kind: "ranked", ranking, explanation: reply.explanation, ...spent } };
  }
  const reply = parseRatingReply(content, item.criteria);
  if (reply.malformed) return { ok: false, problem: reply.reason };
  return { ok: true, outcome: { kind: "rated", scores: reply.scores, explanation: reply.explanation, ...spent } };
}

/** One call: the gateway, the reply parsed, and one more request when the reply is unusable. */
async function perform(item: WorkItem, gateway: { config: GatewayConfig } | { error: string }): Promise<Outcome> {
  if ("error" in gateway)
    return { kind: "failed", error: gateway.error, promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0 };
  const config = gateway.config;
  let spent: Usage = { promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0 };
  let messages: ChatMessage[] = item.messages;
  let lastProblem = "";
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await chatCompletion(config, { model: item.modelId, messages, maxTokens: item.maxTokens });
      spent = addUsage(spent, item, result);
      const parsed = parseReply(item, result.content, spent);
      if (parsed.ok) return parsed.outcome;
      lastProblem = parsed.problem;
      messages = buildRetryMessages(item.messages, result.content, parsed.problem);
    }
    return { kind: "failed", error: `Malformed reply from ${item.modelId}: ${lastProblem}`, ...spent };
  } catch (error) {
    const message = error instanceof GatewayError ? error.message : `Unexpected error: ${String(error)}`;
    return { kind: "failed", error: message, ...spent };
  }
}

/** A worker: one call in flight at a time, a chunk of calls per invocation. */
export const work = internalAction({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    const chunk = await ctx.runQuery(internal.runner.chunkSize, {});
    let item: WorkItem | null = await ctx.runMutation(internal.runner.claim, { testId });
    // The deployment's key, or the owner's own key decrypted here (never in a query result).
    const gateway = item ? await gatewayConfigForTest(ctx, testId) : null;
    let handled = 0;
    while (item && gateway) {
      const outcome = await perform(item, gateway);
      handled++;
      item = await ctx.runMutation(internal.runner.record, {
        testId,
        callId: item.callId,
        leaseId: item.leaseId,
        outcome,
        continueChunk: handled < chunk,
      });
    }
    return null;
  },
});

export const chunkSize = internalQuery({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await readSetting(ctx, "callsPerChunk"),
});

// ---------------------------------------------------------------- crons

export const reclaimLeases = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await reclaimExpiredLeases(ctx, Date.now()),
});

/** Tests with no progress for an hour are cancelled, unpaid drafts included (Cancelled - Timeout). */
export const cancelStaleTests = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await cancelTestsWithoutProgress(ctx, Date.now()),
});

/** Jobs processing for over an hour are reported once each as stuck, for the admin page. */
export const reportStuckJobs = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await alertStuckJobs(ctx, Date.now()),
});
