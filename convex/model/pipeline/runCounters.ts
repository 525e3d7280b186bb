// A test's run counters (answers, evaluations, missing work, calls, spend, time) and the
// progress shown from them: each recorded call adds its share in one patch.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { formatTimeRemaining } from "../../lib/format";
import { computeProgress, estimateTimeRemaining, expectedCallsOf } from "../../lib/progress";
import type { Usage } from "../../validators";

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

function addCounters(test: Doc<"tests">, delta: Counters) {
  const next: Counters = {};
  for (const [key, value] of Object.entries(delta) as [keyof Counters, number][]) next[key] = (test[key] ?? 0) + value;
  return next;
}

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
  });
}

/**
 * Adds a call's counters to its test, with the progress (phase, percentage, details and time
 * remaining) they give; `error` is the call's, shown as the test's last call error.
 */
export async function applyCounters(ctx: MutationCtx, test: Doc<"tests">, delta: Counters, error?: string) {
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
  const remaining = timeRemainingOf(next, now);
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

/**
 * Money policy: the gateway charged for a reply even when it is thrown away (its lease was
 * reclaimed, or the test was stopped or had ended), so its spend is counted in the test's cost,
 * also in a summary already written. Nothing else of the reply is recorded.
 */
export async function countThrownAwaySpend(
  ctx: MutationCtx,
  testId: Id<"tests">,
  usage: Usage,
  kind: Doc<"calls">["kind"],
) {
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
