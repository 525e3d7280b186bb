// A test's run counters (answers, evaluations, missing work, calls, spend, time) and the
// progress shown from them: each recorded call inserts what it adds as a delta row of its own
// (runDeltas), and the deltas are folded into the test's counter row (core/pipeline/counterRow.ts,
// added into the test's row when the run ends) by the worker's report when enough calls landed or
// at least every 10 s (lib/progressWrites PROGRESS_FOLD); the test's row plus its counter row plus
// its deltas is the whole count.
import type { Infer } from "convex/values";
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { formatTimeRemaining } from "../../lib/format";
import { PROGRESS_FOLD, progressWriteDue, callsPerProgressWrite } from "../../lib/progressWrites";
import { computeProgress, expectedCallsOf } from "../../lib/progress";
import {
  estimateTimeRemaining,
  forecastTimeRemaining,
  steadyEndsAt,
  type CallPace,
  type CallsInSight,
} from "../../lib/timeEstimates";
import type { runCounters, Usage } from "../../validators";
import { foldCheckTallies } from "../checkTotals";
import { writeMonitorRowIfDue } from "../monitorProgress";
import { syncTestSummary, syncTestSummaryOf } from "../testSummaries";
import { counterRowOf, countedTestOf, storeFold, withCounterRow } from "./counterRow";
import { applyAnswerScores, applyModelDeltas } from "./statistics";

/** The counter fields a delta may hold, all zero. */
const EMPTY_COUNTERS = {
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

/** A test's run counters before its first call (at creation, and when an admin restarts it). */
export const EMPTY_RUN_COUNTERS = { ...EMPTY_COUNTERS, activeWorkers: 0 } as const;

/** What one call adds to its test's counters. */
export type Counters = Partial<Infer<typeof runCounters>>;

/**
 * The time remaining for a test with these counters: each kind's calls left at that kind's
 * measured rate (lib/timeEstimates.ts). The monitor's benchmark reads it the same way.
 */
export function timeRemainingOf(test: PacedTest, now: number, concurrency?: number, sight?: CallsInSight) {
  const pace = callPaceOf(test, now, concurrency);
  // With the pool worker's view of its calls in flight and the gateway's latencies, a forecast
  // of the run's end; a recording's own fold has only the counters' averages.
  return sight ? forecastTimeRemaining(pace, sight) : estimateTimeRemaining(pace);
}

type PacedTest = Pick<
  Doc<"tests">,
  | "configuration"
  | "startedAt"
  | "missingResponses"
  | "finishedCalls"
  | "judgeCallsFinished"
  | "generationCallMs"
  | "judgeCallMs"
>;

function callPaceOf(test: PacedTest, now: number, concurrency?: number): CallPace {
  const expected = expectedCallsOf(test.configuration, test.missingResponses);
  const judgeCallsDone = test.judgeCallsFinished ?? 0;
  return {
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
  };
}

const COUNTER_KEYS = Object.keys(EMPTY_COUNTERS) as (keyof Counters)[];

/**
 * A running fold takes only deltas older than this: a recording that inserts one while the fold
 * runs (a mutation runs at most a second of code) lands outside the range the fold read, so the
 * two never conflict. The figures shown lag by as much.
 */
export const FOLD_SETTLE_MS = 3_000;

/**
 * How far below the worker's bound (its clock) a fold reads: on a deployment the worker's action
 * and the recordings' mutations may run on machines whose clocks differ by a little.
 */
export const FOLD_CLOCK_MARGIN_MS = 250;

/** Most deltas folded in one transaction (each a few hundred bytes, with ≤ 2 × models rows written). */
export const FOLD_BATCH = 500;
/** Batches the fold that ends a run takes at most (deltas of a few thousand recordings). */
const FINAL_FOLD_BATCHES = 8;

/**
 * Adds a call's counters to its test as a delta row of its own (runDeltas), never to the test's
 * row or a row another call writes, so recordings of one test do not serialize. `error` is the
 * call's, kept with its time: the test shows the latest.
 */
export async function addCounters(
  ctx: MutationCtx,
  testId: Id<"tests">,
  delta: Counters,
  error?: string,
): Promise<void> {
  const counters: Record<string, number> = {};
  for (const key of COUNTER_KEYS) if ((delta[key] ?? 0) !== 0) counters[key] = delta[key]!;
  if (Object.keys(counters).length === 0 && !error) return;
  await ctx.db.insert("runDeltas", {
    testId,
    counters,
    ...(error ? { lastCallError: error, lastErrorAt: Date.now() } : {}),
  });
}

/**
 * Folds a test's deltas into its counter row (its row once it has ended) and its modelStats
 * (statistics.applyModelDeltas) and deletes them (the rows plus the deltas are always the whole
 * count), with the latest error any of them saw. `settledBefore` (a running test's periodic fold) takes only deltas created before
 * that time, so it reads nothing a recording in flight writes; without it every delta is folded
 * (the end of a run, a small test). While the test runs its progress (phase, percentage,
 * details, time remaining) is computed from the sums; the percentage never goes backwards while
 * the run goes on (a restart begins again at 0). `concurrency` is the test's calls in flight
 * now, which the time remaining follows. Returns the test as counted (its row plus its counter row).
 */
export async function foldCounters(
  ctx: MutationCtx,
  testId: Id<"tests">,
  concurrency?: number,
  settledBefore?: number,
  sight?: CallsInSight,
) {
  const stored = await ctx.db.get("tests", testId);
  if (!stored) return null;
  // The counters are the test's row plus its counter row (core/pipeline/counterRow.ts).
  const counterRow = await counterRowOf(ctx, testId);
  const test = withCounterRow(stored, counterRow);
  const now = Date.now();
  // A periodic fold takes one batch; the fold that ends a run takes every delta (a few batches
  // at most: the periodic folds keep up with the recordings).
  const rows: Doc<"runDeltas">[] = [];
  for (let round = 0; round < (settledBefore === undefined ? FINAL_FOLD_BATCHES : 1); round++) {
    const batch = await ctx.db
      .query("runDeltas")
      .withIndex("by_test", (q) =>
        settledBefore === undefined
          ? q.eq("testId", testId)
          : q.eq("testId", testId).lt("_creationTime", settledBefore),
      )
      .take(FOLD_BATCH);
    for (const row of batch) await ctx.db.delete("runDeltas", row._id);
    rows.push(...batch);
    if (batch.length < FOLD_BATCH) break;
  }
  const sums: Required<Counters> = { ...EMPTY_COUNTERS };
  let latest: { error: string; at: number } | undefined;
  for (const row of rows) {
    for (const [key, value] of Object.entries(row.counters ?? {}))
      if (key in sums) sums[key as keyof Counters] += value;
    if (row.lastCallError !== undefined && (latest === undefined || (row.lastErrorAt ?? 0) >= latest.at))
      latest = { error: row.lastCallError, at: row.lastErrorAt ?? 0 };
  }
  await applyModelDeltas(
    ctx,
    testId,
    rows.flatMap((row) => row.models ?? []),
  );
  await applyAnswerScores(
    ctx,
    testId,
    rows.flatMap((row) => row.scores ?? []),
  );
  // The checks' tallies, at the same bound as the deltas (core/checkTotals.ts).
  await foldCheckTallies(ctx, test, settledBefore);
  const totals: Counters = {};
  for (const key of COUNTER_KEYS) totals[key] = (test[key] ?? 0) + sums[key];
  const next = { ...test, ...totals, lastCallError: latest?.error ?? test.lastCallError };
  const errorField = latest ? { lastCallError: latest.error } : {};
  if (test.status !== "running") {
    if (rows.length > 0) {
      await storeFold(ctx, stored, counterRow, sums, errorField);
      await syncTestSummary(ctx, next);
    }
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
  const remaining = timeRemainingOf(next, now, concurrency, sight);
  // The end shown moves only on a real change (lib/timeEstimates steadyEndsAt); the monitor counts down to it.
  const endsAt = remaining === null ? undefined : steadyEndsAt(test.progress.endsAt, now + remaining, now);
  const progress = {
    currentPhase: info.phase,
    percentage: Math.max(info.progress, Math.min(94, test.progress.percentage)),
    details: info.details,
    estimatedTimeRemaining: formatTimeRemaining(endsAt === undefined ? null : endsAt - now),
    ...(endsAt === undefined ? {} : { endsAt }),
  };
  // On the counter row, not the test's: the queries that show none of the counters do not re-run.
  await storeFold(ctx, stored, counterRow, sums, { ...errorField, lastProgressAt: now, progress });
  // History's cost and missing work: the summary is written only when one of them changed.
  await syncTestSummary(ctx, next);
  // The monitor's row, on its own slower cadence (about once per 10 ended calls).
  // Its newest answers below the fold's own bound (the worker's oldest recording out), which no
  // recording in flight inserts under.
  await writeMonitorRowIfDue(
    ctx,
    { ...next, lastProgressAt: now, progress },
    now,
    settledBefore ?? now - FOLD_SETTLE_MS,
  );
  return { ...next, lastProgressAt: now, progress };
}

/**
 * A test this small folds on every recording: its few calls gain nothing from waiting, and its
 * figures and end are then exact at once (a larger test's end is found by its worker running dry).
 */
export const FOLD_EVERY_CALL_UP_TO = 32;

/**
 * Whether a test is small by the calls it will make, judge calls included. Not by its row's
 * totalCalls: judge calls are counted once created, so a test of 32 answers and 8 judge calls
 * counts 32 until its worker reports its pairs, and a full fold meanwhile found every call ended
 * and completed it unjudged.
 */
export function foldsEveryCall(test: Pick<Doc<"tests">, "configuration">): boolean {
  const expected = expectedCallsOf(test.configuration);
  return expected.generation + expected.judging <= FOLD_EVERY_CALL_UP_TO;
}

/** The calls a running test has still to make, as its row counts them (the last fold). */
function remainingCallsOf(test: Doc<"tests">): number {
  const expected = expectedCallsOf(test.configuration, test.missingResponses);
  return Math.max(0, Math.max(expected.generation + expected.judging, test.totalCalls) - test.finishedCalls);
}

/**
 * Folds the counters when its progress is worth writing again (lib/progressWrites PROGRESS_FOLD: enough
 * calls landed since the last fold, or its figures are 10 s old; at most once a second), or on
 * every call of a small test; returns the test as folded, or null when it was not due. The
 * calls that landed are counted on the settled deltas the fold would take (at most as many as
 * are needed), a range no recording in flight writes: `settled` is the time the pool worker sent
 * its oldest recording still out (runner.beat), so every recording in flight inserts its deltas
 * after it, outside the range read; without it (a recording's own fold), deltas FOLD_SETTLE_MS old.
 * `stored` is the test as stored (its counter row is added here).
 */
export async function foldIfDue(
  ctx: MutationCtx,
  stored: Doc<"tests">,
  concurrency?: number,
  settled?: number,
  sight?: CallsInSight,
) {
  const test = await countedTestOf(ctx, stored);
  if (foldsEveryCall(test)) return await foldCounters(ctx, test._id, concurrency, undefined, sight);
  const now = Date.now();
  const sinceLastWriteMs = now - test.lastProgressAt;
  if (sinceLastWriteMs < PROGRESS_FOLD.minIntervalMs) return null;
  const settledBefore = Math.min(now, settled === undefined ? now - FOLD_SETTLE_MS : settled - FOLD_CLOCK_MARGIN_MS);
  const remainingCalls = remainingCallsOf(test);
  // The pool worker's report counts the calls that ended since the last fold on its own row
  // (its gateway exchanges), instead of reading the deltas that landed: read on every report
  // until a fold took them, each delta (a judge call's carries its 40 scores) was read ~8 times
  // on Starter.
  const reports =
    settled === undefined
      ? null
      : await ctx.db
          .query("testConcurrency")
          .withIndex("by_test", (q) => q.eq("testId", test._id))
          .unique();
  let newCalls = 0;
  if (sinceLastWriteMs < PROGRESS_FOLD.staleMs) {
    if (reports) newCalls = reports.exchanges - (reports.foldedExchanges ?? 0);
    else {
      const landed = await ctx.db
        .query("runDeltas")
        .withIndex("by_test", (q) => q.eq("testId", test._id).lt("_creationTime", settledBefore))
        .take(callsPerProgressWrite(remainingCalls));
      newCalls = landed.length;
    }
  }
  if (!progressWriteDue({ sinceLastWriteMs, newCalls, remainingCalls })) return null;
  if (reports) await ctx.db.patch("testConcurrency", reports._id, { foldedExchanges: reports.exchanges });
  // A larger test's fold leaves the newest deltas (a small one's figures are exact at once).
  return await foldCounters(ctx, test._id, concurrency, settledBefore, sight);
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
  // A running test adds it as a delta like any result; an ended one shows it at once, in its
  // summary too.
  if (test.status === "running") {
    await addCounters(ctx, test._id, delta);
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
