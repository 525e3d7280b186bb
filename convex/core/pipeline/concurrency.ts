// A running test's gateway concurrency as its worker reports it (testConcurrency rows): the
// adaptive controller's level (lib/concurrency.ts) and what the gateway answered, for the
// worker's next chunk, the monitor's time remaining and the admin's System Health.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../../_generated/server";
import { fairShare } from "../../lib/concurrency";
import type { WorkerReport } from "../../validators";
import { readSetting } from "../settings";

export async function concurrencyRowOf(ctx: QueryCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testConcurrency")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/**
 * Stores a worker's report: the state as it stands, the exchanges added to the test's tallies,
 * and (`judged`) one more report of judge results, which the worker's statistics look compares
 * with what it computed (juryStats.ts): the report asks for statistics without reading or
 * writing their row. Only the test's worker writes this row.
 */
export async function storeConcurrency(ctx: MutationCtx, testId: Id<"tests">, report: WorkerReport, judged = false) {
  const row = await concurrencyRowOf(ctx, testId);
  const state = {
    level: report.level,
    ceiling: report.ceiling,
    backedOff: report.backedOff,
    inFlight: report.inFlight,
    updatedAt: Date.now(),
  };
  if (!row) {
    await ctx.db.insert("testConcurrency", {
      testId,
      ...state,
      exchanges: report.exchanges,
      rateLimited: report.rateLimited,
      timeouts: report.timeouts,
      serverErrors: report.serverErrors,
      ...(judged ? { judgedReports: 1 } : {}),
    });
    return;
  }
  await ctx.db.patch("testConcurrency", row._id, {
    ...state,
    exchanges: row.exchanges + report.exchanges,
    rateLimited: row.rateLimited + report.rateLimited,
    timeouts: row.timeouts + report.timeouts,
    serverErrors: row.serverErrors + report.serverErrors,
    ...(judged ? { judgedReports: (row.judgedReports ?? 0) + 1 } : {}),
  });
}

/** Each running test's share of the deployment-wide cap on gateway calls in flight. */
export async function concurrencyShare(ctx: QueryCtx): Promise<number> {
  const cap = await readSetting(ctx, "maxGatewayConcurrency");
  const running = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "processing"))
    .take(await readSetting(ctx, "maxProcessingJobs"));
  return fairShare(cap, running.length);
}

/** The level a test's worker starts a chunk at: where the last chunk left it, else the setting. */
export async function startingConcurrency(ctx: QueryCtx, testId: Id<"tests">) {
  const row: Doc<"testConcurrency"> | null = await concurrencyRowOf(ctx, testId);
  const start = await readSetting(ctx, "perTestConcurrency");
  return {
    start,
    share: await concurrencyShare(ctx),
    // A row the host made before any report (level 0) has nothing to resume from.
    ...(row && row.level > 0
      ? {
          resume: {
            level: row.level,
            backedOff: row.backedOff,
            ...(row.ceiling === undefined ? {} : { ceiling: row.ceiling }),
          },
        }
      : {}),
  };
}
