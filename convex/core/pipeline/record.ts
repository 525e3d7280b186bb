// Recording a call's outcome (ARCHITECTURE §4 step 4), one mutation per result: the answers or
// the verdict, what the call adds to its test's counters (in the call's shard, never the test's
// row), and the pair's judge calls once its answers are in. The test's row is written only by
// the fold about once a second; the end of the run is found by the worker that runs out of calls.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { labelFor, shownOrder } from "../../lib/prompts";
import { scoresFromRanking } from "../../lib/scoring";
import type { Outcome, Usage } from "../../validators";
import { createJudgeCallsIfPairDone } from "./calls";
import { recordEvaluations, type JudgedAnswer } from "./evaluations";
import { finishIfDone } from "./finish";
import { recordGeneration } from "./responses";
import { addCounters, countThrownAwaySpend, foldIfDue, type Counters } from "./runCounters";
import { runViewOf, type RunView } from "./runView";

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
export async function recordFailure(
  ctx: MutationCtx,
  test: RunView["test"],
  call: Doc<"calls">,
  error: string,
  usage?: Usage,
) {
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
 * A judge call's answers with their generators: as its claim read them (the outcome's
 * `answerModels`; answers are deleted only with their test), else each read once here.
 * recordEvaluations takes them from here rather than reading them again.
 */
async function judgedAnswers(
  ctx: MutationCtx,
  call: Doc<"calls">,
  outcome: Extract<Outcome, { kind: "ranked" | "rated" }>,
): Promise<Map<Id<"responses">, JudgedAnswer>> {
  const answers = new Map<Id<"responses">, JudgedAnswer>();
  if (outcome.answerModels) {
    for (const { responseId, modelId } of outcome.answerModels)
      answers.set(responseId, { _id: responseId, modelId, personaId: call.personaId });
    return answers;
  }
  for (const responseId of call.responseIds ?? []) {
    const answer = await ctx.db.get("responses", responseId);
    if (answer) answers.set(responseId, answer);
  }
  return answers;
}

/**
 * A ranking's evaluations: the answers the call showed (those that still exist), in the order
 * and under the labels it showed them; a judge that skipped its own family's answers is scored
 * on the pair's scale.
 */
async function recordRanking(
  ctx: MutationCtx,
  test: RunView["test"],
  call: Doc<"calls">,
  outcome: Extract<Outcome, { kind: "ranked" }>,
): Promise<Counters> {
  const answers = await judgedAnswers(ctx, call, outcome);
  const shown = [...answers.keys()];
  const labels = shownOrder(shown, call.key).map((responseId, index) => ({ label: labelFor(index), responseId }));
  const outOf = test.configuration.scoringParameters.skipOwnFamily
    ? await pairAnswerCount(ctx, test._id, call)
    : outcome.ranking.length;
  const ranked = scoresFromRanking(outcome.ranking, Math.max(outOf, outcome.ranking.length));
  return await recordEvaluations(
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
    answers,
  );
}

/**
 * What a call's outcome records, by kind: the answers, the ranking's or the rating's
 * evaluations, or the failure; returns what it adds to the test's counters, and whether the
 * call has ended (false when missing answers are asked for again). The one place a recorded
 * answer or verdict passes through, where checks on it belong.
 */
async function recordByKind(
  ctx: MutationCtx,
  test: RunView["test"],
  call: Doc<"calls">,
  outcome: Outcome,
): Promise<{ counters: Counters; ended: boolean }> {
  if (outcome.kind === "failed")
    return { counters: await recordFailure(ctx, test, call, outcome.error, outcome), ended: true };
  if (outcome.kind === "generated") return await recordGeneration(ctx, test, call, outcome);
  if (outcome.kind === "ranked") return { counters: await recordRanking(ctx, test, call, outcome), ended: true };
  const responseId = call.responseIds?.[0];
  const counters = responseId
    ? await recordEvaluations(
        ctx,
        test,
        call,
        [{ responseId, scores: outcome.scores, explanation: outcome.explanation }],
        outcome,
        await judgedAnswers(ctx, call, outcome),
      )
    : await recordFailure(ctx, test, call, "The rated answer no longer exists.");
  return { counters, ended: true };
}

/**
 * Records one call's outcome exactly once: a result for a lease that is no longer current
 * (reclaimed, cancelled, deleted) changes nothing but the spend. Adds the call's counters as a
 * delta of its own and writes no row that another call of the test writes: the call, its answers
 * or evaluations, its delta. The pool worker's next claim creates a finished pair's judge calls,
 * its report folds the counters, and its worker looks at the jury statistics; a small test's recording
 * creates the judge calls and folds itself, so its figures and its end are exact at once (its
 * worker still looks at its statistics). `concurrency` is the test's
 * calls in flight, for the time remaining.
 */
export async function recordOutcome(
  ctx: MutationCtx,
  callId: Id<"calls">,
  leaseId: string,
  outcome: Outcome,
  concurrency?: number,
): Promise<boolean> {
  const call = await ctx.db.get("calls", callId);
  // Sent again after its first recording committed unseen (a batch whose answer was lost): done.
  if (call?.recordedLeaseId === leaseId) return true;
  if (!call || call.status !== "leased" || call.leaseId !== leaseId) {
    if (call) await countThrownAwaySpend(ctx, call, outcome);
    return false;
  }
  // The run row, not the test's: the folds and the jury statistics write that while it runs.
  const run = await runViewOf(ctx, call.testId);
  if (!run) return false;
  if (!run.running) {
    await ctx.db.patch("calls", call._id, { status: "cancelled", leaseId: undefined });
    await countThrownAwaySpend(ctx, call, outcome);
    return false;
  }
  const { counters, ended } = await recordByKind(ctx, run.test, call, outcome);
  // A larger test's pair gets its judge calls later, from its worker's next claim: until then the
  // call is marked, so a worker that dies meanwhile leaves its replacement a short list to sweep.
  const awaitsJudges = ended && call.kind === "generate" && !run.foldEveryCall;
  await ctx.db.patch("calls", call._id, {
    recordedLeaseId: leaseId,
    ...(awaitsJudges ? { awaitingJudges: true } : {}),
  });
  await addCounters(ctx, call.testId, counters, outcome.kind === "failed" ? outcome.error : undefined);
  // A larger test's recordings stop here: two recordings of one pair would each read the other's
  // call (a conflict on every pair's last answers), and each fold would meet the next recording.
  if (!run.foldEveryCall) return true;
  if (ended) await createJudgeCallsIfPairDone(ctx, call, run);
  const test = await ctx.db.get("tests", call.testId);
  if (!test) return true;
  // Its jury statistics are not asked for here (a scheduled job per judge result): its worker
  // looks after its reports as a larger test's does (workerLook.ts), and its end runs them in full.
  const folded = await foldIfDue(ctx, test, concurrency);
  // Its counters say every call has ended: the test ends (else its worker finds it running dry).
  if (folded && folded.callCursor === undefined && folded.finishedCalls >= folded.totalCalls)
    await finishIfDone(ctx, test._id);
  return true;
}
