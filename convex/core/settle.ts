// "Stop when settled" (lib/settle.ts) in the run: each jury-statistics run looks whether the
// test's question is settled (settleCheck, called once from core/jury/recompute.ts); the look is
// kept on the test's stats row for the monitor, and a settled running test ends as completed
// through endTest, its calls not yet made left unmade (the run closes as with the owner's Stop:
// its workers claim nothing more) and their price refunded above the minimum (refundUnrun).
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx, MutationCtx } from "../_generated/server";
import { settleStatusOf } from "../lib/settleInput";
import type { SettleStatus } from "../lib/settle";
import { stoppedReasonText } from "../lib/settleWords";
import type { JuryStatsInput } from "../lib/stats/types";
import { jobOfTest } from "./jobs";
import { statsRow } from "./jury/poll";
import { MAX_STATS_ROWS } from "./results";
import { foldCounters } from "./pipeline/runCounters";
import { runSummary } from "./pipeline/statistics";
import { endTest } from "./testEnding";

/** Answers read per page of the failing ones (a pass-rate question). */
const SETTLE_FAILING_PAGE = 1000;

/** Looks whether a "stop when settled" test's question is settled, from the statistics' input. */
export async function settleCheck(ctx: ActionCtx, testId: Id<"tests">, input: JuryStatsInput): Promise<void> {
  const info = await ctx.runQuery(internal.settle.checkInfo, { testId });
  if (info === null) return;
  const failing = new Set<string>();
  if (info.configuration.stopWhenSettled?.question === "passRate") {
    let cursor: string | null = null;
    for (;;) {
      const result: { page: string[]; isDone: boolean; continueCursor: string } = await ctx.runQuery(
        internal.settle.failingPage,
        { testId, paginationOpts: { numItems: SETTLE_FAILING_PAGE, cursor } },
      );
      for (const id of result.page) failing.add(id);
      if (result.isDone) break;
      cursor = result.continueCursor;
    }
  }
  const status = settleStatusOf(info.configuration, input, failing);
  if (status !== null) await ctx.runMutation(internal.settle.record, { testId, status });
}

/** Keeps the look on the stats row and ends a running test it settles. */
export async function recordSettle(ctx: MutationCtx, testId: Id<"tests">, status: SettleStatus): Promise<void> {
  const row = await statsRow(ctx, testId);
  if (row) await ctx.db.patch("testStats", row._id, { settle: status });
  if (!status.settled) return;
  const running = await ctx.db.get("tests", testId);
  if (!running || running.status !== "running") return;
  const test = (await foldCounters(ctx, testId)) ?? running;
  const rows = await ctx.db
    .query("modelStats")
    .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
    .take(MAX_STATS_ROWS);
  const resultsSummary = runSummary(rows, test.configuration.generatorModels, {
    expectedResponses: test.expectedResponses,
    actualResponses: test.responsesCount,
    totalCost: test.totalCostUsd,
    totalLatencyMs: test.totalLatencyMs,
  });
  const stopped = { reason: "settled" as const, pairsDone: status.pairsDone, pairsTotal: status.pairsTotal };
  const reason = stoppedReasonText(stopped);
  await endTest(ctx, test, await jobOfTest(ctx, testId), {
    status: "completed",
    test: { resultsSummary, stopped },
    progress: { currentPhase: "Completed", percentage: 100, details: reason },
    jobError: undefined,
    jobProgress: { responses: test.responsesCount, evaluations: test.evaluationsCount, failedCalls: test.failedCalls },
    checkouts: "end",
    refundUnrun: reason,
  });
}
