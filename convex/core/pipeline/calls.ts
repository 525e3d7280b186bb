// A test's calls (ARCHITECTURE §4 step 5): its generation calls, created in batches when it
// starts, and the judge calls of each persona × topic pair, created once the pair's answers are in.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { internal } from "../../_generated/api";
import { reverseRankingKey } from "../../lib/prompts";
import { repeatIndexes, repeatKeySuffix, repeatsCells } from "../../lib/repeats";
import { orderedPairs } from "../../lib/settleInput";
import { modelFamily } from "../../lib/stats/judgeScores";
import { readSetting } from "../settings";
import { ensureWorkers } from "./claim";
import { dispatchSoon } from "./dispatchSoon";
import { finishIfDone } from "./finish";
import { addCounters } from "./runCounters";
import { openRun, runViewOf, type RunView } from "./runView";

export function generationKey(
  testId: Id<"tests">,
  modelId: string,
  personaId: string,
  topicId: string,
  repeat?: number,
) {
  return `${testId}:generate:${modelId}:${personaId}:${topicId}${repeatKeySuffix(repeat)}`;
}

/**
 * The calls of one kind of a persona × topic pair: at most one per generator model and repeat
 * (≤ LIMITS.maxGeneratorModels × maxRepeats), or its judge calls (bounded by maxCallsPerTest).
 */
async function callsOfPair(
  ctx: MutationCtx,
  testId: Id<"tests">,
  kind: Doc<"calls">["kind"],
  personaId: string,
  topicId: string,
): Promise<Doc<"calls">[]> {
  return await ctx.db
    .query("calls")
    .withIndex("by_test_pair", (q) =>
      q.eq("testId", testId).eq("kind", kind).eq("personaId", personaId).eq("topicId", topicId),
    )
    .collect();
}

/**
 * Creates the generation calls of the next persona × topic pairs, from the pair index `cursor`,
 * about `callsPerBatch` calls per transaction, and schedules the batch after it: one test's
 * 1,000 calls never share a transaction with another test's, and stay far below Convex's
 * limits. While `callCursor` is set the test cannot finish (its calls do not all exist yet).
 * A batch of an earlier start (its cursor is no longer the test's) or of a test that no longer
 * runs does nothing. A first start (`fresh`: the test had no calls) needs no lookups; a retried
 * job keeps the calls it has, found with one lookup per pair rather than one per call.
 * The last batch of a chain asks for the dispatch of the next queued job (one chain at a time:
 * dispatch.ts). True when a batch follows.
 */
export async function createGenerationCallBatch(
  ctx: MutationCtx,
  testId: Id<"tests">,
  cursor: number,
  fresh: boolean,
): Promise<boolean> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running" || test.callCursor !== cursor) {
    if (cursor > 0) await dispatchSoon(ctx); // a chain ends here: the next queued job starts
    return false;
  }
  const config = test.configuration;
  // The run's first batch: its recordings read the run row from now on, not the test's.
  if (cursor === 0) await openRun(ctx, test);
  // "Stop when settled" draws the pairs in the test's seeded order (lib/settle.ts); else in order.
  const pairs = orderedPairs(config);
  const batchSize = await readSetting(ctx, "callsPerBatch");
  // Repeats (lib/repeats.ts): each cell's calls once per repeat, the repeat on the call.
  const repeats = repeatIndexes(config);
  const repeated = repeatsCells(config);
  const callsPerPair = Math.max(1, config.generatorModels.length * repeats.length);
  const end = Math.min(pairs.length, cursor + Math.max(1, Math.floor(batchSize / callsPerPair)));
  let created = 0;
  for (const { personaId, topicId } of pairs.slice(cursor, end)) {
    const existing = fresh ? [] : await callsOfPair(ctx, testId, "generate", personaId, topicId);
    const keys = new Set(existing.map((call) => call.key));
    for (const repeat of repeats) {
      for (const model of config.generatorModels) {
        const key = generationKey(testId, model.id, personaId, topicId, repeat);
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
          ...(repeated ? { repeat } : {}),
        });
        created++;
      }
    }
  }
  const done = end >= pairs.length;
  await ctx.db.patch("tests", testId, { totalCalls: test.totalCalls + created, callCursor: done ? undefined : end });
  if (!done) {
    await ctx.scheduler.runAfter(0, internal.runner.createCalls, { testId, cursor: end, fresh });
    return true;
  }
  await finishIfDone(ctx, testId); // a retried job whose calls had all ended
  // The worker starts once every generation call exists: its reports fold into the test's row,
  // which each batch writes, so the two never run at once (a batch takes milliseconds).
  await ensureWorkers(ctx, testId);
  if (cursor > 0) await dispatchSoon(ctx); // a chain's last batch (a first batch's dispatch asks itself)
  return false;
}

/** The pair is done: none of its generation calls awaits its judge calls any more (host.ts sweepPairs). */
async function clearAwaitingJudges(ctx: MutationCtx, testId: Id<"tests">, personaId: string, topicId: string) {
  const awaiting = await ctx.db
    .query("calls")
    .withIndex("by_test_awaiting_judges", (q) =>
      q.eq("testId", testId).eq("awaitingJudges", true).eq("personaId", personaId).eq("topicId", topicId),
    )
    .collect(); // the pair's generation calls: ≤ LIMITS.maxGeneratorModels × maxRepeats
  for (const call of awaiting) await ctx.db.patch("calls", call._id, { awaitingJudges: undefined });
}

/**
 * After a generation call has ended: once every generation call of its persona × topic pair has
 * ended, the pair's judge calls are created (see judgeCallsOfPair) and counted in the test's
 * calls. Those that exist already (a retried job's) are not made again.
 */
export async function createJudgeCallsIfPairDone(
  ctx: MutationCtx,
  call: Pick<Doc<"calls">, "_id" | "testId" | "kind" | "personaId" | "topicId">,
  run?: RunView | null,
): Promise<void> {
  if (call.kind !== "generate") return;
  const { testId, personaId, topicId } = call;
  const view = run === undefined ? await runViewOf(ctx, testId) : run;
  if (!view) return;
  const test = view.test;
  for (const status of ["pending", "leased"] as const) {
    const open = await ctx.db
      .query("calls")
      .withIndex("by_test_pair_status", (q) =>
        q
          .eq("testId", testId)
          .eq("kind", "generate")
          .eq("personaId", personaId)
          .eq("topicId", topicId)
          .eq("status", status),
      )
      .first();
    if (open) return;
  }
  await clearAwaitingJudges(ctx, testId, personaId, topicId);
  const responses = await ctx.db
    .query("responses")
    .withIndex("by_test_pair", (q) => q.eq("testId", testId).eq("personaId", personaId).eq("topicId", topicId))
    .collect(); // bounded by LIMITS.maxAnswersPerRanking × maxRepeats
  if (responses.length === 0) return;
  const created = await insertMissingJudgeCalls(ctx, test, personaId, topicId, responses);
  // Counted as a delta: the test's row is not written per pair.
  if (created > 0) await addCounters(ctx, testId, { totalCalls: created });
}

/**
 * Gives the pairs of these recorded generation calls their judge calls, each pair once, where all
 * of a pair's answers are in (createJudgeCallsIfPairDone). The worker sends only pairs none of
 * whose calls it holds is out, so no recording of the pair runs beside this.
 */
export async function createJudgeCallsOfPairsDone(
  ctx: MutationCtx,
  callIds: readonly Id<"calls">[],
  run?: RunView | null,
): Promise<void> {
  const pairs = new Set<string>();
  for (const callId of callIds) {
    const call = await ctx.db.get("calls", callId);
    if (!call || pairs.has(`${call.personaId}\u0000${call.topicId}`)) continue;
    pairs.add(`${call.personaId}\u0000${call.topicId}`);
    await createJudgeCallsIfPairDone(ctx, call, run);
  }
}

/**
 * Inserts the pair's judge calls that do not exist yet (with repeats, each repeat's answers are
 * judged apart, as a pair's are without them); returns how many. The existing ones are read in one
 * lookup, so they always fit one transaction.
 */
export async function insertMissingJudgeCalls(
  ctx: MutationCtx,
  test: Parameters<typeof judgeCallsOfPair>[0],
  personaId: string,
  topicId: string,
  responses: readonly Pick<Doc<"responses">, "_id" | "modelId" | "repeat">[],
): Promise<number> {
  const existing = await callsOfPair(ctx, test._id, "evaluate", personaId, topicId);
  const keys = new Set(existing.map((judgeCall) => judgeCall.key));
  let created = 0;
  for (const [repeat, answers] of responsesByRepeat(responses)) {
    for (const judgeCall of judgeCallsOfPair(test, personaId, topicId, answers, repeat)) {
      if (keys.has(judgeCall.key)) continue;
      await ctx.db.insert("calls", {
        testId: test._id,
        kind: "evaluate",
        personaId,
        topicId,
        ...judgeCall,
        status: "pending",
        attempts: 0,
        ...(repeat === undefined ? {} : { repeat }),
      });
      created++;
    }
  }
  return created;
}

/** A pair's answers by the repeat they came from (undefined: a test without repeats), in repeat order. */
export function responsesByRepeat<Row extends Pick<Doc<"responses">, "repeat">>(
  responses: readonly Row[],
): [number | undefined, Row[]][] {
  const groups = new Map<number | undefined, Row[]>();
  for (const response of responses) groups.set(response.repeat, [...(groups.get(response.repeat) ?? []), response]);
  return [...groups].sort(([a], [b]) => (a ?? 0) - (b ?? 0));
}

/**
 * The judge calls of one persona × topic pair (of one repeat: its key carries the repeat), each
 * with its deterministic key. Ranking: one per
 * evaluator over the pair's answers, and with "Judge in both orders" a second one (key
 * reverseRankingKey) that shows them in reverse. Rating: one per evaluator per answer. With
 * "Judges skip answers from their own family" a judge gets no answer of its own provider's
 * models: it ranks the others (no call when fewer than two are left) or rates none of them.
 */
export function judgeCallsOfPair(
  test: {
    _id: Id<"tests">;
    configuration: Pick<Doc<"tests">["configuration"], "scoringParameters" | "evaluatorModels">;
  },
  personaId: string,
  topicId: string,
  responses: readonly Pick<Doc<"responses">, "_id" | "modelId">[],
  repeat?: number,
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
    const key = `${test._id}:rank:${evaluator.id}:${personaId}:${topicId}${repeatKeySuffix(repeat)}`;
    const forward = { key, modelId: evaluator.id, responseIds };
    return bothOrders && responseIds.length > 1 ? [forward, { ...forward, key: reverseRankingKey(key) }] : [forward];
  });
}
