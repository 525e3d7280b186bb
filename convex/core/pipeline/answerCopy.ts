// A re-judging's answers (issue 22 step 3, "Judge again"): when its job starts, the finished
// original's answers are copied into the new test pair by pair, in bounded batches, and each
// pair's judge calls are created as its answers land. No generation call is made.
//
// Copied rather than referenced: every reader of a test's answers (results, Raw Responses,
// exports, the monitor, the jury statistics' juryStateChunks, checks, team reviews, compare,
// deletion) reads `responses` by testId, and a judge's evaluations, an answer's score sums and
// the per-model statistics are kept on rows of one test. Copies keep all of that working
// unchanged, the new test's figures are its own jury's only, and it survives the original's
// deletion; a reference would have every one of those readers follow it.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { internal } from "../../_generated/api";
import { tallyOf } from "../../lib/checkFigures";
import { appliesTo } from "../../lib/checks";
import { TEST_LIMITS } from "../../lib/limits";
import { responsesPerTopicOf } from "../../lib/pricing";
import { repeatsOf } from "../../lib/repeats";
import { readSetting } from "../settings";
import { insertMissingJudgeCalls } from "./calls";
import { ensureWorkers } from "./claim";
import { finishIfDone } from "./finish";
import { openRun } from "./runView";
import { bumpModelStats } from "./statistics";

/** Answers of one persona × topic pair at most: every generator's answers to it. */
const MAX_ANSWERS_PER_PAIR = TEST_LIMITS.maxGeneratorModels * TEST_LIMITS.maxResponsesPerTopic * TEST_LIMITS.maxRepeats;

async function answersOfPair(ctx: MutationCtx, testId: Id<"tests">, personaId: string, topicId: string) {
  return await ctx.db
    .query("responses")
    .withIndex("by_test_pair", (q) => q.eq("testId", testId).eq("personaId", personaId).eq("topicId", topicId))
    .take(MAX_ANSWERS_PER_PAIR);
}

/** What copying one pair adds to the test's counters. */
interface PairCopy {
  responsesCount: number;
  missingResponses: number;
  totalLatencyMs: number;
  calls: number;
  judgeCalls: number;
}

/**
 * Copies one pair's answers from the original (unless an earlier start of this job did: a
 * retried job keeps what it has) with their check results, adds them to the per-model
 * statistics and the checks' tallies, and creates the pair's judge calls that do not exist yet.
 */
async function copyPair(
  ctx: MutationCtx,
  test: Doc<"tests">,
  originalId: Id<"tests">,
  personaId: string,
  topicId: string,
): Promise<PairCopy> {
  const config = test.configuration;
  const copy: PairCopy = { responsesCount: 0, missingResponses: 0, totalLatencyMs: 0, calls: 0, judgeCalls: 0 };
  let answers = await answersOfPair(ctx, test._id, personaId, topicId);
  if (answers.length === 0) {
    const source = await answersOfPair(ctx, originalId, personaId, topicId);
    const checks = config.checks ?? [];
    const checked = new Map<
      string,
      { applied: string[]; failures: NonNullable<Doc<"responses">["checkFailures"]> }[]
    >();
    for (const answer of source) {
      await ctx.db.insert("responses", {
        testId: test._id,
        modelId: answer.modelId,
        personaId,
        topicId,
        content: answer.content,
        promptTokens: answer.promptTokens,
        completionTokens: answer.completionTokens,
        tokens: answer.tokens,
        latencyMs: answer.latencyMs,
        costUsd: answer.costUsd,
        scoreSum: 0,
        scoreCount: 0,
        ...(answer.checkFailures === undefined ? {} : { checkFailures: answer.checkFailures }),
        ...(answer.failedCheck === undefined ? {} : { failedCheck: answer.failedCheck }),
        ...(answer.repeat === undefined ? {} : { repeat: answer.repeat }),
      });
      // The answer's own figures (tokens, cost and latency of the call that wrote it), so the
      // per-model figures of the two tests match; the test's spend counts its judge calls only.
      await bumpModelStats(ctx, test._id, answer.modelId, personaId, {
        responses: 1,
        tokens: answer.tokens,
        costUsd: answer.costUsd,
        latencyMs: answer.latencyMs,
      });
      const applied = checks.filter((check) => appliesTo(check, topicId)).map((check) => check.id);
      if (applied.length > 0) {
        const results = checked.get(answer.modelId) ?? [];
        results.push({ applied, failures: answer.checkFailures ?? [] });
        checked.set(answer.modelId, results);
      }
      copy.totalLatencyMs += answer.latencyMs;
    }
    // The checks' tallies, one per model of the pair, from the stored results (checks are pure
    // functions of the answer, its latency and cost, so these are the original's figures).
    for (const [modelId, results] of checked) {
      const callId = source.find((answer) => answer.modelId === modelId)?.callId;
      const tally = tallyOf(modelId, personaId, results);
      // A tally names the call its answers came from: the original's generation call.
      if (callId !== undefined && tally.answers > 0)
        await ctx.db.insert("checkTallies", {
          testId: test._id,
          callId,
          topicId,
          ...tally,
          byCheck: [...tally.byCheck],
        });
    }
    copy.responsesCount = source.length;
    copy.missingResponses = Math.max(
      0,
      config.generatorModels.length * responsesPerTopicOf(config.responsesPerTopic) * repeatsOf(config.repeats) -
        source.length,
    );
    // The original's generation calls of the pair, ended before this test began: counted as
    // ended calls so the progress and the time remaining measure the judge calls left.
    copy.calls = config.generatorModels.length * repeatsOf(config.repeats);
    answers = await answersOfPair(ctx, test._id, personaId, topicId);
  }
  if (answers.length === 0) return copy;
  // A repeated test's answers are judged per repeat, as its run judged them (calls.ts).
  copy.judgeCalls += await insertMissingJudgeCalls(ctx, test, personaId, topicId, answers);
  return copy;
}

/**
 * One batch of a starting re-judging: copies the answers of the persona × topic pairs from the
 * pair index `cursor` (about `callsPerBatch` rows written per transaction: each pair's answers
 * and their judge calls) and schedules the batch after it. While `callCursor` is set the test
 * cannot finish. A batch of an earlier start, or of a test no longer running, does nothing.
 */
export async function copyAnswerBatch(ctx: MutationCtx, testId: Id<"tests">, cursor: number): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running" || test.callCursor !== cursor || test.rejudgeOf === undefined) return;
  const config = test.configuration;
  // The run's first batch, as for a test that generates (calls.createGenerationCallBatch): its
  // recordings read the run row from now on, not the test's row, which the folds write.
  if (cursor === 0) await openRun(ctx, test);
  const pairs = config.personas.flatMap((persona) =>
    config.topics.map((topic) => ({ personaId: persona.id, topicId: topic.id })),
  );
  const answersPerPair =
    config.generatorModels.length * responsesPerTopicOf(config.responsesPerTopic) * repeatsOf(config.repeats);
  const rowsPerPair = Math.max(1, answersPerPair * (1 + config.evaluatorModels.length));
  const batchSize = await readSetting(ctx, "callsPerBatch");
  const end = Math.min(pairs.length, cursor + Math.max(1, Math.floor(batchSize / rowsPerPair)));
  const sum: PairCopy = { responsesCount: 0, missingResponses: 0, totalLatencyMs: 0, calls: 0, judgeCalls: 0 };
  for (const { personaId, topicId } of pairs.slice(cursor, end)) {
    const copy = await copyPair(ctx, test, test.rejudgeOf, personaId, topicId);
    for (const key of Object.keys(sum) as (keyof PairCopy)[]) sum[key] += copy[key];
  }
  const done = end >= pairs.length;
  await ctx.db.patch("tests", testId, {
    responsesCount: test.responsesCount + sum.responsesCount,
    missingResponses: test.missingResponses + sum.missingResponses,
    totalLatencyMs: test.totalLatencyMs + sum.totalLatencyMs,
    totalCalls: test.totalCalls + sum.calls + sum.judgeCalls,
    finishedCalls: test.finishedCalls + sum.calls,
    callCursor: done ? undefined : end,
  });
  if (done) await finishIfDone(ctx, testId);
  else await ctx.scheduler.runAfter(0, internal.runner.copyAnswers, { testId, cursor: end });
  await ensureWorkers(ctx, testId);
}
