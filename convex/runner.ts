// The scheduled pipeline (ARCHITECTURE §4): dispatch, workers, recording, and the crons that
// keep it healthy. The bookkeeping lives in model/pipeline.ts.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { internalAction, internalMutation, internalQuery } from "./functions";
import { isStuckJob, processingSince } from "./lib/jobAnalysis";
import { buildRetryMessages, type ChatMessage } from "./lib/prompts";
import { parseGenerationReply, parseRankingReply, parseRatingReply } from "./lib/replies";
import { chatCompletion, GatewayError, type ChatResult, type GatewayConfig } from "./model/gateway";
import { jobOfTest } from "./model/jobs";
import { gatewayConfigForTest } from "./model/testGateway";
import {
  claimNext,
  createGenerationCallBatch,
  dispatchQueued,
  reclaimExpiredLeases,
  recordOutcome,
} from "./model/pipeline";
import { readSetting } from "./model/settings";
import { callOutcome, workItem, type Outcome, type Usage, type WorkItem } from "./validators";
import { endTest } from "./model/testEnding";

const STALE_TEST_MS = 60 * 60 * 1000;
const STALE_REFUND_REASON = "The test made no progress for an hour and was stopped (Cancelled - Timeout).";

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

/**
 * Tests with no progress for an hour are cancelled ('Cancelled - Timeout', 0 percent), unpaid
 * drafts included (spec part 1 §4: running or pending tests older than an hour); a draft's
 * open checkout is expired.
 */
export const cancelStaleTests = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const cutoff = Date.now() - STALE_TEST_MS;
    let cancelled = 0;
    for (const status of ["running", "pending"] as const) {
      const stale = await ctx.db
        .query("tests")
        .withIndex("by_status_progress", (q) => q.eq("status", status).lt("lastProgressAt", cutoff))
        .take(100);
      for (const test of stale) {
        const job = await jobOfTest(ctx, test._id);
        const unpaid = test.awaitingPayment === true || job?.status === "pending_payment";
        await endTest(ctx, test, job, {
          status: "cancelled",
          progress: { currentPhase: "Cancelled - Timeout", percentage: 0 },
          jobError: "Cancelled - Timeout",
          // An unpaid draft's checkout is expired too, so an abandoned payment cannot start it later.
          ...(unpaid ? { checkouts: "expire" as const } : {}),
          // A paid test that delivered nothing in its hour is refunded, as a failed one is.
          ...(!unpaid && test.responsesCount === 0 ? { refundReason: STALE_REFUND_REASON } : {}),
          dispatch: false, // once for the batch, below
        });
        cancelled++;
      }
    }
    if (cancelled > 0) await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
    return cancelled;
  },
});

/** Jobs processing for over an hour are reported once each as stuck, for the admin page. */
export const reportStuckJobs = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const now = Date.now();
    const processing = await ctx.db
      .query("jobs")
      .withIndex("by_status_priority", (q) => q.eq("status", "processing"))
      .take(500);
    let reported = 0;
    for (const job of processing) {
      if (!isStuckJob(job, now)) continue;
      const existing = await ctx.db
        .query("alerts")
        .withIndex("by_job", (q) => q.eq("jobId", job._id))
        .first();
      if (existing && !existing.resolved) continue;
      const minutes = Math.floor((now - processingSince(job)) / 60000);
      await ctx.db.insert("alerts", {
        kind: "stuck_job",
        jobId: job._id,
        message: `Job ${job._id.slice(0, 8)} (${job.testName}) has been processing for ${minutes} minutes.`,
        resolved: false,
      });
      reported++;
    }
    return reported;
  },
});
