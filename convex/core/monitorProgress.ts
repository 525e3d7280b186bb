// A running test's monitor row (tables/testProgress.ts): what the live monitor shows while the
// test runs, written by the counter fold on the monitor's own cadence (lib/progressWrites.ts
// MONITOR_PROGRESS: about once per 10 ended calls, or after a slow fallback) instead of on every
// write of the test's row or every new answer. Deleted when the run ends, restarts or the test is
// deleted, after which the monitor reads the test.
import type { Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { monitorSizeOf, monitorWriteDue } from "../lib/progressWrites";
import type { runningHeader } from "../tables/testProgress";
import { namesOf, namesOfResponse } from "./results";

/** The monitor's top rankings, and its Recent Activity's answers. */
export const MONITOR_RANKINGS = 5;
export const MONITOR_RESPONSES = 10;

export async function monitorRowOf(ctx: QueryCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testProgress")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/** The run is over (ended, restarted, deleted): the monitor reads the test again. */
export async function dropMonitorRow(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await monitorRowOf(ctx, testId);
  if (row) await ctx.db.delete("testProgress", row._id);
}

/**
 * Each generator's all-personas figures (its modelStats row), best first: the
 * monitor's rankings, the first MONITOR_RANKINGS of them shown.
 */
export async function monitorRankingsOf(ctx: QueryCtx, test: Doc<"tests">) {
  const stats = [];
  for (const model of test.configuration.generatorModels) {
    const row = await ctx.db
      .query("modelStats")
      .withIndex("by_test_model_persona", (q) => q.eq("testId", test._id).eq("modelId", model.id).eq("personaId", ""))
      .unique();
    if (row && row.scoreCount > 0) {
      stats.push({
        modelId: model.id,
        modelName: model.name,
        averageScore: row.scoreSum / row.scoreCount,
        totalResponses: row.responses,
      });
    }
  }
  stats.sort((a, b) => b.averageScore - a.averageScore || a.modelName.localeCompare(b.modelName));
  return { rankings: stats.slice(0, MONITOR_RANKINGS), rankedModels: stats.length };
}

function runningHeaderOf(test: Doc<"tests">): Infer<typeof runningHeader> {
  return {
    name: test.name,
    taskType: test.taskType,
    status: test.status,
    progress: test.progress,
    estimate: test.estimate,
    priceCents: test.priceCents,
    expectedResponses: test.expectedResponses,
    expectedEvaluations: test.expectedEvaluations,
    responsesCount: test.responsesCount,
    evaluationsCount: test.evaluationsCount,
    missingResponses: test.missingResponses,
    missingEvaluations: test.missingEvaluations,
    ...(test.lastCallError === undefined ? {} : { lastCallError: test.lastCallError }),
    failedCalls: test.failedCalls,
    totalCostUsd: test.totalCostUsd,
    totalLatencyMs: test.totalLatencyMs,
    totalTokens: test.totalTokens,
    ...(test.errorMessage === undefined ? {} : { errorMessage: test.errorMessage }),
    ...(test.startedAt === undefined ? {} : { startedAt: test.startedAt }),
    ...(test.rerunOf === undefined ? {} : { rerunOf: test.rerunOf }),
    createdAt: test._creationTime,
    size: monitorSizeOf(test.configuration, test.missingResponses),
  };
}

type RunningHeader = Infer<typeof runningHeader>;

/** Whether a figure the monitor shows moved (the time remaining alone does not count). */
function figuresMoved(before: RunningHeader, after: RunningHeader): boolean {
  return (
    before.responsesCount !== after.responsesCount ||
    before.evaluationsCount !== after.evaluationsCount ||
    before.missingResponses !== after.missingResponses ||
    before.missingEvaluations !== after.missingEvaluations ||
    before.failedCalls !== after.failedCalls ||
    before.totalCostUsd !== after.totalCostUsd ||
    before.lastCallError !== after.lastCallError ||
    before.progress.currentPhase !== after.progress.currentPhase ||
    before.progress.percentage !== after.progress.percentage ||
    before.progress.details !== after.progress.details
  );
}

/**
 * Writes a running test's monitor row from the test as just folded, when due (lib/progress
 * monitorWriteDue) or when it has none yet. Its percentage never falls below the row's (the
 * fold's never does either). The newest answers are read below `settledBefore`, a range no
 * recording in flight inserts into, so the fold does not conflict with them.
 */
export async function writeMonitorRowIfDue(
  ctx: MutationCtx,
  test: Doc<"tests">,
  now: number,
  settledBefore: number,
): Promise<void> {
  if (test.status !== "running") return;
  const row = await monitorRowOf(ctx, test._id);
  const header = runningHeaderOf(test);
  if (row) {
    const before = row.header;
    const totalCalls = Math.max(before.size.generationCalls + before.size.judgingCalls, test.totalCalls);
    const due = monitorWriteDue({
      sinceLastWriteMs: now - row.writtenAt,
      newCalls: test.finishedCalls - row.finishedCalls,
      remainingCalls: Math.max(0, totalCalls - row.finishedCalls),
      totalCalls,
      changed: figuresMoved(before, header),
    });
    if (!due) return;
    header.progress = {
      ...header.progress,
      percentage: Math.max(header.progress.percentage, before.progress.percentage),
    };
  }
  const names = namesOf(test);
  const latest = await ctx.db
    .query("responses")
    .withIndex("by_test", (q) => q.eq("testId", test._id).lt("_creationTime", settledBefore))
    .order("desc")
    .take(MONITOR_RESPONSES);
  const fields = {
    userId: test.userId,
    ...(test.teamId === undefined ? {} : { teamId: test.teamId }),
    header,
    ...(await monitorRankingsOf(ctx, test)),
    latestResponses: latest.map((response) => ({ responseId: response._id, ...namesOfResponse(response, names) })),
    finishedCalls: test.finishedCalls,
    writtenAt: now,
  };
  if (row) await ctx.db.replace("testProgress", row._id, { testId: test._id, ...fields });
  else await ctx.db.insert("testProgress", { testId: test._id, ...fields });
}
