// A test's run counters (answers, evaluations, missing work, calls, spend, time) and the
// progress shown from them: each recorded call adds its share to one shard of the test
// (core/pipeline/shards.ts), and the shards are folded into the test's row about once a second
// (the row plus its shards is the whole count).
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { formatTimeRemaining } from "../../lib/format";
import { computeProgress, estimateTimeRemaining, expectedCallsOf } from "../../lib/progress";
import type { Usage } from "../../validators";
import { syncTestSummary, syncTestSummaryOf } from "../testSummaries";
import { RUN_SHARDS, shardOf } from "./shards";

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

/** What one call adds to its test's counters. */
export type Counters = Partial<
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

/**
 * The time remaining for a test with these counters: each kind's calls left at that kind's
 * measured rate (lib/progress). The monitor's benchmark reads it the same way.
 */
export function timeRemainingOf(
  test: Pick<
    Doc<"tests">,
    | "configuration"
    | "startedAt"
    | "missingResponses"
    | "finishedCalls"
    | "judgeCallsFinished"
    | "generationCallMs"
    | "judgeCallMs"
  >,
  now: number,
  concurrency?: number,
) {
  const expected = expectedCallsOf(test.configuration, test.missingResponses);
  const judgeCallsDone = test.judgeCallsFinished ?? 0;
  return estimateTimeRemaining({
    startedAt: test.startedAt ?? now,
    now,
    generation: {
      done: test.finishedCalls - judgeCallsDone,
      expected: expected.generation,
      busyMs: test.generationCallMs ?? 0,
    },
    judging: {
      done: judgeCallsDone,
      expected: Math.max(expected.judging, judgeCallsDone),
      busyMs: test.judgeCallMs ?? 0,
    },
    ...(concurrency === undefined ? {} : { concurrency }),
  });
}

/** The counter fields a shard holds, all zero. */
const EMPTY_SHARD = {
  responsesCount: 0,
  evaluationsCount: 0,
  missingResponses: 0,
  missingEvaluations: 0,
  failedCalls: 0,
  totalCalls: 0,
  finishedCalls: 0,
  totalCostUsd: 0,
  totalLatencyMs: 0,
  totalTokens: 0,
  judgingCostUsd: 0,
  judgeCallsFinished: 0,
  generationCallMs: 0,
  judgeCallMs: 0,
} satisfies Required<Counters>;

/** How often at most a test's counters are folded into its row while it runs (and the monitor re-runs). */
export const PROGRESS_FOLD_MS = 1_000;

/**
 * Adds a call's counters to one shard of its test (the call's: shardOf its id), never to the
 * test's row, so recordings of one test do not serialize on it. `error` is the call's, kept on
 * the shard with its time: the test shows the latest of its shards'.
 */
export async function addToShard(
  ctx: MutationCtx,
  testId: Id<"tests">,
  shard: number,
  delta: Counters,
  error?: string,
): Promise<void> {
  const row = await ctx.db
    .query("runShards")
    .withIndex("by_test_shard", (q) => q.eq("testId", testId).eq("shard", shard))
    .unique();
  const base = row ?? { ...EMPTY_SHARD };
  const next: Counters = {};
  for (const [key, value] of Object.entries(delta) as [keyof Counters, number][]) next[key] = (base[key] ?? 0) + value;
  const errorFields = error ? { lastCallError: error, lastErrorAt: Date.now() } : {};
  if (row) await ctx.db.patch("runShards", row._id, { ...next, ...errorFields });
  else await ctx.db.insert("runShards", { testId, shard, ...EMPTY_SHARD, ...next, ...errorFields });
}

/**
 * Folds a test's shards into its row: what they hold is added to its counters and the shards
 * are emptied (the row plus its shards is always the whole count), with the latest error any
 * of them saw. While the test runs its progress (phase, percentage, details, time remaining) is
 * computed from the sums; the percentage never goes backwards while the run goes on (a restart
 * begins again at 0). `concurrency` is the test's calls in flight now, which the time remaining
 * follows. Returns the test as written.
 */
export async function foldCounters(ctx: MutationCtx, testId: Id<"tests">, concurrency?: number) {
  const test = await ctx.db.get("tests", testId);
  if (!test) return null;
  const now = Date.now();
  const rows = await ctx.db
    .query("runShards")
    .withIndex("by_test_shard", (q) => q.eq("testId", testId))
    .take(RUN_SHARDS * 2); // one row per shard
  const sums: Required<Counters> = { ...EMPTY_SHARD };
  let latest: { error: string; at: number } | undefined;
  for (const row of rows) {
    const held = (Object.keys(EMPTY_SHARD) as (keyof Counters)[]).some((key) => row[key] !== 0);
    if (!held && row.lastCallError === undefined) continue;
    for (const key of Object.keys(EMPTY_SHARD) as (keyof Counters)[]) sums[key] += row[key];
    if (row.lastCallError !== undefined && (latest === undefined || (row.lastErrorAt ?? 0) >= latest.at))
      latest = { error: row.lastCallError, at: row.lastErrorAt ?? 0 };
    await ctx.db.patch("runShards", row._id, { ...EMPTY_SHARD, lastCallError: undefined, lastErrorAt: undefined });
  }
  const totals: Counters = {};
  for (const key of Object.keys(EMPTY_SHARD) as (keyof Counters)[]) totals[key] = (test[key] ?? 0) + sums[key];
  const next = { ...test, ...totals, lastCallError: latest?.error ?? test.lastCallError };
  const errorField = latest ? { lastCallError: latest.error } : {};
  if (test.status !== "running") {
    await ctx.db.patch("tests", testId, { ...totals, ...errorField });
    await syncTestSummary(ctx, next);
    return next;
  }
  const info = computeProgress(test.configuration, {
    actualResponses: next.responsesCount,
    actualEvaluations: next.evaluationsCount,
    missingResponses: next.missingResponses,
    missingEvaluations: next.missingEvaluations,
    lastCallError: next.lastCallError,
    finishedCalls: next.finishedCalls,
    createdCalls: next.totalCalls,
  });
  const remaining = timeRemainingOf(next, now, concurrency);
  const progress = {
    currentPhase: info.phase,
    percentage: Math.max(info.progress, Math.min(94, test.progress.percentage)),
    details: info.details,
    estimatedTimeRemaining: formatTimeRemaining(remaining),
  };
  await ctx.db.patch("tests", testId, { ...totals, ...errorField, lastProgressAt: now, progress });
  // History's cost and missing work: the summary is written only when one of them changed.
  await syncTestSummary(ctx, next);
  return { ...next, lastProgressAt: now, progress };
}

/**
 * A test this small folds on every recording: its few calls gain nothing from waiting, and its
 * figures and end are then exact at once (a larger test's end is found by its worker running dry).
 */
export const FOLD_EVERY_CALL_UP_TO = 2 * RUN_SHARDS;

/**
 * Folds the counters when the last fold is older than PROGRESS_FOLD_MS (or the test is small);
 * returns the test as folded, or null when it was not due.
 */
export async function foldIfDue(ctx: MutationCtx, test: Doc<"tests">, concurrency?: number) {
  const due = Date.now() - test.lastProgressAt >= PROGRESS_FOLD_MS || test.totalCalls <= FOLD_EVERY_CALL_UP_TO;
  return due ? await foldCounters(ctx, test._id, concurrency) : null;
}

/**
 * Money policy: the gateway charged for a reply even when it is thrown away (its lease was
 * reclaimed, or the test was stopped or had ended), so its spend is counted in the test's cost,
 * also in a summary already written. Nothing else of the reply is recorded.
 */
export async function countThrownAwaySpend(
  ctx: MutationCtx,
  call: Pick<Doc<"calls">, "_id" | "testId" | "kind">,
  usage: Usage,
) {
  if (usage.costUsd <= 0 && usage.promptTokens + usage.completionTokens <= 0) return;
  const test = await ctx.db.get("tests", call.testId);
  if (!test) return;
  const delta: Counters = {
    totalCostUsd: usage.costUsd,
    ...(call.kind === "evaluate" ? { judgingCostUsd: usage.costUsd } : {}),
    totalTokens: usage.promptTokens + usage.completionTokens,
  };
  // A running test adds it to the call's shard like any result; an ended one shows it at once,
  // in its summary too.
  if (test.status === "running") {
    await addToShard(ctx, test._id, shardOf(call._id), delta);
    return;
  }
  const summary = test.resultsSummary;
  await ctx.db.patch("tests", test._id, {
    totalCostUsd: test.totalCostUsd + usage.costUsd,
    ...(call.kind === "evaluate" ? { judgingCostUsd: (test.judgingCostUsd ?? 0) + usage.costUsd } : {}),
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
  await syncTestSummaryOf(ctx, test._id);
}
