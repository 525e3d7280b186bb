// The test pipeline's bookkeeping (ARCHITECTURE §4): calls, leases, results, counters and the
// final summary. Thin wrappers in runner.ts expose these as internal functions.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { formatTimeRemaining } from "../lib/format";
import {
  computeProgress,
  estimateTimeRemaining,
  expectedCallsOf,
  missingWorkSummary,
  PROGRESS_DETAILS,
} from "../lib/progress";
import {
  buildGenerationMessages,
  buildRankingMessages,
  buildRatingMessages,
  combinePrompt,
  isReverseRankingKey,
  labelFor,
  reverseRankingKey,
  shownOrder,
} from "../lib/prompts";
import { addLatency, insertSorted, rankModels, scoresFromRanking, summarize } from "../lib/scoring";
import { modelFamily } from "../lib/stats";
import { selectedCriteria } from "../lib/types";
import { jobOfTest, setJobStatus } from "./jobs";
import { requestJuryStats } from "./juryStats";
import { readSetting } from "./settings";
import { endTest } from "./testEnding";

// The worker protocol is declared once, in validators.ts.
export type { Outcome, Usage, WorkItem } from "../validators";
import type { Outcome, Usage, WorkItem } from "../validators";

/** A test's run counters before its first call (at creation, and when an admin restarts it). */
export const EMPTY_RUN_COUNTERS = {
  responsesCount: 0,
  evaluationsCount: 0,
  missingResponses: 0,
  missingEvaluations: 0,
  failedCalls: 0,
  activeWorkers: 0,
  totalCalls: 0,
  finishedCalls: 0,
  totalCostUsd: 0,
  totalLatencyMs: 0,
  totalTokens: 0,
  judgingCostUsd: 0,
  judgeCallsFinished: 0,
  generationCallMs: 0,
  judgeCallMs: 0,
} as const;

const SINGLE_ANSWER_MAX_TOKENS = 2000;
const BATCH_MAX_TOKENS = 3000;
const JUDGE_MAX_TOKENS = 2000;

// ---------------------------------------------------------------- calls

export function generationKey(testId: Id<"tests">, modelId: string, personaId: string, topicId: string) {
  return `${testId}:generate:${modelId}:${personaId}:${topicId}`;
}

/**
 * Creates the generation calls of the next persona × topic pairs, from the pair index `cursor`,
 * about `callsPerBatch` calls per transaction, and schedules the batch after it: one test's
 * 1,000 calls never share a transaction with another test's, and stay far below Convex's
 * limits. While `callCursor` is set the test cannot finish (its calls do not all exist yet).
 * A batch of an earlier start (its cursor is no longer the test's) or of a test that no longer
 * runs does nothing. A first start (`fresh`: the test had no calls) needs no lookups; a retried
 * job keeps the calls it has, found with one lookup per pair rather than one per call.
 */
export async function createGenerationCallBatch(
  ctx: MutationCtx,
  testId: Id<"tests">,
  cursor: number,
  fresh: boolean,
): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running" || test.callCursor !== cursor) return;
  const config = test.configuration;
  const pairs = config.personas.flatMap((persona) =>
    config.topics.map((topic) => ({ personaId: persona.id, topicId: topic.id })),
  );
  const batchSize = await readSetting(ctx, "callsPerBatch");
  const end = Math.min(
    pairs.length,
    cursor + Math.max(1, Math.floor(batchSize / Math.max(1, config.generatorModels.length))),
  );
  let created = 0;
  for (const { personaId, topicId } of pairs.slice(cursor, end)) {
    const existing = fresh
      ? []
      : await ctx.db
          .query("calls")
          .withIndex("by_test_pair", (q) =>
            q.eq("testId", testId).eq("kind", "generate").eq("personaId", personaId).eq("topicId", topicId),
          )
          .collect(); // at most one per generator model (≤ LIMITS.maxGeneratorModels)
    const keys = new Set(existing.map((call) => call.key));
    for (const model of config.generatorModels) {
      const key = generationKey(testId, model.id, personaId, topicId);
      if (keys.has(key)) continue;
      await ctx.db.insert("calls", {
        testId,
        kind: "generate",
        key,
        modelId: model.id,
        personaId,
        topicId,
        answersWanted: config.responsesPerTopic,
        status: "pending",
        attempts: 0,
      });
      created++;
    }
  }
  const done = end >= pairs.length;
  await ctx.db.patch("tests", testId, { totalCalls: test.totalCalls + created, callCursor: done ? undefined : end });
  if (done)
    await finishIfDone(ctx, testId); // a retried job whose calls had all ended
  else await ctx.scheduler.runAfter(0, internal.runner.createCalls, { testId, cursor: end, fresh });
  await ensureWorkers(ctx, testId);
}

/**
 * Once every generation call of a persona × topic pair has ended, its judge calls are created:
 * ranking, one per evaluator over all the pair's answers; rating, one per evaluator per answer.
 */
async function createEvaluationCallsIfPairDone(
  ctx: MutationCtx,
  test: Doc<"tests">,
  personaId: string,
  topicId: string,
) {
  const generations = await ctx.db
    .query("calls")
    .withIndex("by_test_pair", (q) =>
      q.eq("testId", test._id).eq("kind", "generate").eq("personaId", personaId).eq("topicId", topicId),
    )
    .collect(); // at most one per generator model (≤ LIMITS.maxGeneratorModels)
  if (generations.some((call) => call.status === "pending" || call.status === "leased")) return 0;
  const responses = await ctx.db
    .query("responses")
    .withIndex("by_test_pair", (q) => q.eq("testId", test._id).eq("personaId", personaId).eq("topicId", topicId))
    .collect(); // bounded by LIMITS.maxAnswersPerRanking
  if (responses.length === 0) return 0;
  // The pair's judge calls that already exist, in one lookup: at most evaluators × answers
  // (≤ 5 × 100), so the pair's judge calls always fit one transaction.
  const existing = await ctx.db
    .query("calls")
    .withIndex("by_test_pair", (q) =>
      q.eq("testId", test._id).eq("kind", "evaluate").eq("personaId", personaId).eq("topicId", topicId),
    )
    .collect();
  const keys = new Set(existing.map((call) => call.key));
  const wanted = judgeCallsOfPair(test, personaId, topicId, responses);
  let created = 0;
  for (const call of wanted) {
    if (keys.has(call.key)) continue;
    await ctx.db.insert("calls", {
      testId: test._id,
      kind: "evaluate",
      personaId,
      topicId,
      ...call,
      status: "pending",
      attempts: 0,
    });
    created++;
  }
  return created;
}

/**
 * The judge calls of one persona × topic pair, each with its deterministic key. Ranking: one per
 * evaluator over the pair's answers, and with "Judge in both orders" a second one (key
 * reverseRankingKey) that shows them in reverse. Rating: one per evaluator per answer. With
 * "Judges skip answers from their own family" a judge gets no answer of its own provider's
 * models: it ranks the others (no call when fewer than two are left) or rates none of them.
 */
export function judgeCallsOfPair(
  test: Pick<Doc<"tests">, "_id" | "configuration">,
  personaId: string,
  topicId: string,
  responses: readonly Pick<Doc<"responses">, "_id" | "modelId">[],
): { key: string; modelId: string; responseIds: Id<"responses">[] }[] {
  const { scale, bothOrders, skipOwnFamily } = test.configuration.scoringParameters;
  return test.configuration.evaluatorModels.flatMap((evaluator) => {
    const judged = skipOwnFamily
      ? responses.filter((response) => modelFamily(response.modelId) !== modelFamily(evaluator.id))
      : responses;
    const responseIds = judged.map((response) => response._id);
    if (scale === "rating") {
      return responseIds.map((responseId) => ({
        key: `${test._id}:rate:${evaluator.id}:${responseId}`,
        modelId: evaluator.id,
        responseIds: [responseId],
      }));
    }
    if (responseIds.length === 0 || (skipOwnFamily && responseIds.length < 2 && judged.length < responses.length))
      return [];
    const key = `${test._id}:rank:${evaluator.id}:${personaId}:${topicId}`;
    const forward = { key, modelId: evaluator.id, responseIds };
    return bothOrders && responseIds.length > 1 ? [forward, { ...forward, key: reverseRankingKey(key) }] : [forward];
  });
}

/** Schedules workers until the test has `perTestConcurrency` of them or one per pending call. */
export async function ensureWorkers(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running") return;
  const concurrency = await readSetting(ctx, "perTestConcurrency");
  if (test.activeWorkers >= concurrency) return;
  const pending = await ctx.db
    .query("calls")
    .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
    .take(concurrency);
  const wanted = Math.min(concurrency, test.activeWorkers + pending.length) - test.activeWorkers;
  if (wanted <= 0) return;
  await ctx.db.patch("tests", testId, { activeWorkers: test.activeWorkers + wanted });
  for (let index = 0; index < wanted; index++) {
    await ctx.scheduler.runAfter(0, internal.runner.work, { testId });
  }
}

// ---------------------------------------------------------------- claiming

async function modelPrices(ctx: MutationCtx, modelId: string) {
  const row = await ctx.db
    .query("llmModels")
    .withIndex("by_model_id", (q) => q.eq("modelId", modelId))
    .first();
  // Unknown models are priced like the estimate prices them (spec part 1 §9).
  return { promptPrice: row?.pricingPrompt ?? 1e-6, completionPrice: row?.pricingCompletion ?? 1e-6 };
}

async function buildWorkItem(
  ctx: MutationCtx,
  test: Doc<"tests">,
  call: Doc<"calls">,
  leaseId: string,
): Promise<WorkItem> {
  const config = test.configuration;
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
  };
  if (call.kind === "generate") {
    const count = call.answersWanted ?? config.responsesPerTopic;
    return {
      ...base,
      answersWanted: count,
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
    };
  }
  return {
    ...base,
    maxTokens: JUDGE_MAX_TOKENS,
    criteria,
    messages: buildRatingMessages({
      question,
      answer: responses[0]?.content ?? "",
      criteria,
      persona: personaContext,
      includeExplanations: config.scoringParameters.includeExplanations,
    }),
  };
}

/**
 * Leases the test's next pending call to the calling worker, or returns null, in which case the
 * worker ends and is no longer counted. A cancelled or finished test hands out nothing.
 */
export async function claimNext(ctx: MutationCtx, testId: Id<"tests">): Promise<WorkItem | null> {
  const test = await ctx.db.get("tests", testId);
  if (!test) return null;
  const call =
    test.status === "running"
      ? await ctx.db
          .query("calls")
          .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
          .first()
      : null;
  if (!call) {
    await ctx.db.patch("tests", testId, { activeWorkers: Math.max(0, test.activeWorkers - 1) });
    return null;
  }
  const attempts = call.attempts + 1;
  const leaseId = `${call._id}:${attempts}`;
  await ctx.db.patch("calls", call._id, {
    status: "leased",
    attempts,
    leaseId,
    leaseExpiresAt: Date.now() + (await readSetting(ctx, "leaseMs")),
  });
  return await buildWorkItem(ctx, test, call, leaseId);
}

// ---------------------------------------------------------------- recording

async function bumpModelStats(
  ctx: MutationCtx,
  testId: Id<"tests">,
  modelId: string,
  personaId: string,
  delta: {
    responses?: number;
    tokens?: number;
    costUsd?: number;
    latencyMs?: number;
    scoreSum?: number;
    scoreCount?: number;
  },
) {
  for (const scope of ["", personaId]) {
    const row = await ctx.db
      .query("modelStats")
      .withIndex("by_test_model_persona", (q) => q.eq("testId", testId).eq("modelId", modelId).eq("personaId", scope))
      .unique();
    const current = row ?? {
      responses: 0,
      tokens: 0,
      costUsd: 0,
      latencyMsSum: 0,
      latencyBuckets: [] as number[],
      scoreSum: 0,
      scoreCount: 0,
    };
    const next = {
      responses: current.responses + (delta.responses ?? 0),
      tokens: current.tokens + (delta.tokens ?? 0),
      costUsd: current.costUsd + (delta.costUsd ?? 0),
      latencyMsSum: current.latencyMsSum + (delta.latencyMs ?? 0) * (delta.responses ?? 0),
      latencyBuckets:
        delta.latencyMs !== undefined && (delta.responses ?? 0) > 0
          ? Array.from({ length: delta.responses ?? 0 }).reduce<number[]>(
              (buckets) => addLatency(buckets, delta.latencyMs ?? 0),
              current.latencyBuckets,
            )
          : current.latencyBuckets,
      scoreSum: current.scoreSum + (delta.scoreSum ?? 0),
      scoreCount: current.scoreCount + (delta.scoreCount ?? 0),
      // Exact percentiles: every answer's latency, sorted, kept on the all-personas row only.
      ...(scope === "" && delta.latencyMs !== undefined && (delta.responses ?? 0) > 0
        ? { latenciesMs: insertSorted(row?.latenciesMs ?? [], delta.latencyMs, delta.responses) }
        : {}),
    };
    if (row) await ctx.db.patch("modelStats", row._id, next);
    else await ctx.db.insert("modelStats", { testId, modelId, personaId: scope, ...next });
  }
}

type Counters = Partial<
  Pick<
    Doc<"tests">,
    | "responsesCount"
    | "evaluationsCount"
    | "missingResponses"
    | "missingEvaluations"
    | "failedCalls"
    | "finishedCalls"
    | "totalCalls"
    | "totalCostUsd"
    | "totalLatencyMs"
    | "totalTokens"
    | "judgingCostUsd"
    | "judgeCallsFinished"
    | "generationCallMs"
    | "judgeCallMs"
  >
>;

function addCounters(test: Doc<"tests">, delta: Counters) {
  const next: Counters = {};
  for (const [key, value] of Object.entries(delta) as [keyof Counters, number][]) next[key] = (test[key] ?? 0) + value;
  return next;
}

async function recordGeneration(
  ctx: MutationCtx,
  test: Doc<"tests">,
  call: Doc<"calls">,
  outcome: Extract<Outcome, { kind: "generated" }>,
) {
  const wanted = call.answersWanted ?? test.configuration.responsesPerTopic;
  const answers = outcome.answers.slice(0, wanted);
  const share = Math.max(1, answers.length);
  for (const content of answers) {
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

async function recordEvaluations(
  ctx: MutationCtx,
  test: Doc<"tests">,
  call: Doc<"calls">,
  scored: {
    responseId: Id<"responses">;
    scores: Record<string, number>;
    rank?: number;
    explanation: string;
    labels?: { label: string; responseId: Id<"responses"> }[];
  }[],
  usage: Usage,
) {
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
      explanation: entry.explanation,
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
    await bumpModelStats(ctx, test._id, response.modelId, response.personaId, { scoreSum: average, scoreCount: 1 });
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

/** Answers of a judge call's persona × topic pair (the scale its ranking is scored on). */
async function pairAnswerCount(ctx: MutationCtx, testId: Id<"tests">, call: Doc<"calls">): Promise<number> {
  const responses = await ctx.db
    .query("responses")
    .withIndex("by_test_pair", (q) =>
      q.eq("testId", testId).eq("personaId", call.personaId).eq("topicId", call.topicId),
    )
    .collect(); // bounded by LIMITS.maxAnswersPerRanking
  return responses.length;
}

/** A call given up on: its answers or evaluations are recorded as missing. */
async function recordFailure(ctx: MutationCtx, test: Doc<"tests">, call: Doc<"calls">, error: string, usage?: Usage) {
  await ctx.db.patch("calls", call._id, { status: "failed", error, leaseId: undefined });
  const missing =
    call.kind === "generate"
      ? { missingResponses: call.answersWanted ?? test.configuration.responsesPerTopic }
      : { missingEvaluations: call.responseIds?.length ?? 0 };
  return {
    ...missing,
    failedCalls: 1,
    finishedCalls: 1,
    totalCostUsd: usage?.costUsd ?? 0,
    totalTokens: (usage?.promptTokens ?? 0) + (usage?.completionTokens ?? 0),
    ...(call.kind === "evaluate"
      ? { judgingCostUsd: usage?.costUsd ?? 0, judgeCallsFinished: 1, judgeCallMs: usage?.latencyMs ?? 0 }
      : { generationCallMs: usage?.latencyMs ?? 0 }),
  } satisfies Counters;
}

/**
 * Records one call's outcome exactly once: a result for a lease that is no longer current
 * (reclaimed, cancelled, deleted) changes nothing. Updates the test's counters and progress,
 * creates judge calls for a finished pair, and closes the test when nothing is left.
 */
export async function recordOutcome(
  ctx: MutationCtx,
  callId: Id<"calls">,
  leaseId: string,
  outcome: Outcome,
): Promise<boolean> {
  const call = await ctx.db.get("calls", callId);
  if (!call || call.status !== "leased" || call.leaseId !== leaseId) {
    if (call) await countThrownAwaySpend(ctx, call.testId, outcome, call.kind);
    return false;
  }
  const test = await ctx.db.get("tests", call.testId);
  if (!test) return false;
  if (test.status !== "running") {
    await ctx.db.patch("calls", call._id, { status: "cancelled", leaseId: undefined });
    await countThrownAwaySpend(ctx, test._id, outcome, call.kind);
    return false;
  }
  let counters: Counters;
  let ended = true;
  if (outcome.kind === "failed") {
    counters = await recordFailure(ctx, test, call, outcome.error, outcome);
  } else if (outcome.kind === "generated") {
    ({ counters, ended } = await recordGeneration(ctx, test, call, outcome));
  } else if (outcome.kind === "ranked") {
    // The answers the call showed (those that still existed), in the order and under the labels
    // it showed them; a judge that skipped its own family's answers is scored on the pair's scale.
    const shown: Id<"responses">[] = [];
    for (const responseId of call.responseIds ?? [])
      if (await ctx.db.get("responses", responseId)) shown.push(responseId);
    const labels = shownOrder(shown, call.key).map((responseId, index) => ({ label: labelFor(index), responseId }));
    const outOf = test.configuration.scoringParameters.skipOwnFamily
      ? await pairAnswerCount(ctx, test._id, call)
      : outcome.ranking.length;
    const ranked = scoresFromRanking(outcome.ranking, Math.max(outOf, outcome.ranking.length));
    counters = await recordEvaluations(
      ctx,
      test,
      call,
      ranked.map((entry) => ({
        responseId: entry.responseId as Id<"responses">,
        scores: { overall: entry.score },
        rank: entry.position,
        explanation: outcome.explanation,
        labels,
      })),
      outcome,
    );
  } else {
    const responseId = call.responseIds?.[0];
    counters = responseId
      ? await recordEvaluations(
          ctx,
          test,
          call,
          [{ responseId, scores: outcome.scores, explanation: outcome.explanation }],
          outcome,
        )
      : await recordFailure(ctx, test, call, "The rated answer no longer exists.");
  }
  await applyCounters(ctx, test, counters, outcome.kind === "failed" ? outcome.error : undefined);
  // Judge results: the jury statistics are recomputed, coalesced per test (model/juryStats).
  if (outcome.kind === "ranked" || outcome.kind === "rated") await requestJuryStats(ctx, test._id);
  if (ended && call.kind === "generate") {
    const created = await createEvaluationCallsIfPairDone(
      ctx,
      (await ctx.db.get("tests", test._id))!,
      call.personaId,
      call.topicId,
    );
    if (created > 0) {
      const fresh = (await ctx.db.get("tests", test._id))!;
      await ctx.db.patch("tests", test._id, { totalCalls: fresh.totalCalls + created });
    }
  }
  await finishIfDone(ctx, test._id);
  await ensureWorkers(ctx, test._id);
  return true;
}

/**
 * Money policy: the gateway charged for a reply even when it is thrown away (its lease was
 * reclaimed, or the test was stopped or had ended), so its spend is counted in the test's cost,
 * also in a summary already written. Nothing else of the reply is recorded.
 */
async function countThrownAwaySpend(ctx: MutationCtx, testId: Id<"tests">, usage: Usage, kind: Doc<"calls">["kind"]) {
  if (usage.costUsd <= 0 && usage.promptTokens + usage.completionTokens <= 0) return;
  const test = await ctx.db.get("tests", testId);
  if (!test) return;
  const summary = test.resultsSummary;
  await ctx.db.patch("tests", testId, {
    totalCostUsd: test.totalCostUsd + usage.costUsd,
    ...(kind === "evaluate" ? { judgingCostUsd: (test.judgingCostUsd ?? 0) + usage.costUsd } : {}),
    totalTokens: test.totalTokens + usage.promptTokens + usage.completionTokens,
    ...(summary
      ? {
          resultsSummary: {
            ...summary,
            analysisSummary: {
              ...summary.analysisSummary,
              totalCost: summary.analysisSummary.totalCost + usage.costUsd,
            },
          },
        }
      : {}),
  });
}

async function applyCounters(ctx: MutationCtx, test: Doc<"tests">, delta: Counters, error?: string) {
  const now = Date.now();
  const next = { ...test, ...addCounters(test, delta) };
  const info = computeProgress(test.configuration, {
    actualResponses: next.responsesCount,
    actualEvaluations: next.evaluationsCount,
    missingResponses: next.missingResponses,
    missingEvaluations: next.missingEvaluations,
    lastCallError: error ?? test.lastCallError,
    finishedCalls: next.finishedCalls,
    createdCalls: next.totalCalls,
  });
  // Each kind's calls left at that kind's measured rate (lib/progress).
  const expected = expectedCallsOf(test.configuration, next.missingResponses);
  const judgeCallsDone = next.judgeCallsFinished ?? 0;
  const remaining = estimateTimeRemaining({
    startedAt: test.startedAt ?? now,
    now,
    generation: {
      done: next.finishedCalls - judgeCallsDone,
      expected: expected.generation,
      busyMs: next.generationCallMs ?? 0,
    },
    judging: {
      done: judgeCallsDone,
      expected: Math.max(expected.judging, judgeCallsDone),
      busyMs: next.judgeCallMs ?? 0,
    },
  });
  await ctx.db.patch("tests", test._id, {
    ...addCounters(test, delta),
    ...(error ? { lastCallError: error } : {}),
    lastProgressAt: now,
    progress: {
      currentPhase: info.phase,
      // Never backwards while the run goes on (a restart begins again at 0).
      percentage: Math.max(info.progress, Math.min(94, test.progress.percentage)),
      details: info.details,
      estimatedTimeRemaining: formatTimeRemaining(remaining),
    },
  });
}

/** When every call has ended: the summary, and the test and its job closed the same way. */
export async function finishIfDone(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running" || test.callCursor !== undefined || test.finishedCalls < test.totalCalls)
    return;
  const rows = await ctx.db
    .query("modelStats")
    .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
    .collect(); // models × (personas + 1), bounded by the test's limits
  const models = [...test.configuration.generatorModels];
  const rankings = rankModels(
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
  const analysisSummary = summarize({
    expectedResponses: test.expectedResponses,
    actualResponses: test.responsesCount,
    totalCost: test.totalCostUsd,
    totalLatencyMs: test.totalLatencyMs,
    rankings,
  });
  const failed = test.responsesCount === 0;
  const errorMessage = failed
    ? `No responses were generated${test.lastCallError ? `: ${test.lastCallError}` : "."}`
    : undefined;
  // A test that lost calls says so, with the reason, instead of 'All responses and evaluations completed'.
  const missing = missingWorkSummary(test);
  await endTest(ctx, test, await jobOfTest(ctx, testId), {
    status: failed ? "failed" : "completed",
    test: { errorMessage, resultsSummary: { modelRankings: rankings, analysisSummary } },
    progress: failed
      ? { currentPhase: "Failed", percentage: 0, details: errorMessage }
      : { currentPhase: "Completed", percentage: 100, details: missing ?? PROGRESS_DETAILS.finalizing },
    jobError: errorMessage,
    jobProgress: { responses: test.responsesCount, evaluations: test.evaluationsCount, failedCalls: test.failedCalls },
    // Nothing usable came back: the payment (if any; none in free mode) goes back to the owner.
    ...(failed ? { refundReason: errorMessage ?? "The test failed." } : {}),
  });
}

// ---------------------------------------------------------------- dispatch

/**
 * Starts the next queued job by priority (highest first), then age, while fewer than the global
 * limit are processing: marks it processing and creates its first batch of calls (the rest
 * follow in their own transactions), which schedules its workers. One job per transaction, so
 * ten large tests queued at once never share one; after taking a job off the queue it schedules
 * another dispatch for the next. Returns how many queued jobs it took (0 or 1): started, or
 * cancelled when their test was.
 */
export async function dispatchQueued(ctx: MutationCtx): Promise<number> {
  const limit = await readSetting(ctx, "maxProcessingJobs");
  const processing = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "processing"))
    .take(limit);
  if (processing.length >= limit) return 0;
  const top = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "queued"))
    .order("desc")
    .first();
  if (!top) return 0;
  // Within one priority the index keeps creation order: oldest first.
  const job = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "queued").eq("priority", top.priority))
    .first();
  if (!job) return 0;
  // Scheduled first, so the next job starts before this one's workers and batches run.
  await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
  await startJob(ctx, job);
  return 1;
}

async function startJob(ctx: MutationCtx, job: Doc<"jobs">): Promise<void> {
  const now = Date.now();
  const test = await ctx.db.get("tests", job.testId);
  if (!test || test.status === "cancelled") {
    await setJobStatus(ctx, job, "cancelled", { completedAt: now, errorMessage: "The test was cancelled or deleted." });
    return;
  }
  await setJobStatus(ctx, job, "processing", { startedAt: now });
  await ctx.db.patch("tests", test._id, {
    status: "running",
    startedAt: test.startedAt ?? now,
    lastProgressAt: now,
    progress: {
      currentPhase: "Starting Response Generation",
      percentage: 0,
      details: `Expected ${test.expectedResponses} responses, found 0`,
    },
    callCursor: 0,
  });
  // Only a retried job's test has calls already (a restart deletes them before queueing).
  await createGenerationCallBatch(ctx, test._id, 0, test.totalCalls === 0);
}

// ---------------------------------------------------------------- recovery

/**
 * Expired leases handled per transaction: a generation call given up on can create its pair's
 * judge calls (up to 5 judges × 100 answers), so 25 stay below Convex's 16,000 writes.
 */
const RECLAIM_BATCH = 25;

/**
 * Hands expired leases back out. A lease outlives every call the client can make, so an
 * expired one means its worker died: that worker is no longer counted. A full batch schedules
 * the next one.
 */
export async function reclaimExpiredLeases(ctx: MutationCtx, now: number): Promise<number> {
  const expired = await ctx.db
    .query("calls")
    .withIndex("by_status_lease", (q) => q.eq("status", "leased").lt("leaseExpiresAt", now))
    .take(RECLAIM_BATCH);
  if (expired.length === RECLAIM_BATCH) await ctx.scheduler.runAfter(0, internal.runner.reclaimLeases, {});
  const maxAttempts = await readSetting(ctx, "maxCallAttempts");
  const touched = new Set<Id<"tests">>();
  for (const call of expired) {
    const test = await ctx.db.get("tests", call.testId);
    // Every call handled leaves the expired range, so the next batch never sees it again.
    if (!test) {
      await ctx.db.patch("calls", call._id, { status: "cancelled", leaseId: undefined }); // deleted with its test
      continue;
    }
    await ctx.db.patch("tests", test._id, { activeWorkers: Math.max(0, test.activeWorkers - 1) });
    if (test.status !== "running") {
      await ctx.db.patch("calls", call._id, { status: "cancelled", leaseId: undefined });
      continue;
    }
    if (call.attempts >= maxAttempts) {
      const counters = await recordFailure(ctx, test, call, "The call did not finish after several attempts.");
      await applyCounters(
        ctx,
        (await ctx.db.get("tests", test._id))!,
        counters,
        "The call did not finish after several attempts.",
      );
      if (call.kind === "generate") {
        const fresh = (await ctx.db.get("tests", test._id))!;
        const created = await createEvaluationCallsIfPairDone(ctx, fresh, call.personaId, call.topicId);
        if (created > 0) await ctx.db.patch("tests", test._id, { totalCalls: fresh.totalCalls + created });
      }
    } else {
      await ctx.db.patch("calls", call._id, { status: "pending", leaseId: undefined, leaseExpiresAt: undefined });
    }
    touched.add(test._id);
  }
  for (const testId of touched) {
    await finishIfDone(ctx, testId);
    await ensureWorkers(ctx, testId);
  }
  return expired.length;
}
