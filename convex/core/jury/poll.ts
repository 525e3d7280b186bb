// When a test's jury statistics are recomputed (juryStats.ts has the whole story): a
// running test's poll, started with its worker, recomputes when the worker reported enough new
// judge results; other callers ask for a recomputation, coalesced per test; the end of a run asks
// for the full one.
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";

/** How long results may gather before a recomputation starts. */
export const JURY_STATS_DELAY_MS = 1_000;
export async function statsRow(ctx: MutationCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/**
 * How often a running test's statistics look whether its worker reported judge results since
 * their last run (testConcurrency.judgedReports against testStats.judgedSeen, read in a query).
 */
export const JURY_STATS_POLL_MS = 1_000;
/**
 * A running test whose worker has not reported for this long, or that has no worker (its
 * recordings ask for statistics themselves), stops polling; its next worker starts it again.
 */
export const JURY_STATS_POLL_IDLE_MS = 60_000;
/**
 * A running test's statistics are recomputed in proportion to what arrived: once the worker's
 * judged reports since the last run are at least this fraction of those the stored figures
 * include (each run reads all kept rows, and the margin of rows before its cursor, again; run
 * after every report, the 650-call test read its kept rows ~20 times and its judge scores ~4
 * times), or once the stored figures are JURY_STATS_STALE_MS old. The run's end is the exact one.
 */
export const JURY_STATS_GROWTH = 0.5;
/** How old a running test's figures may get while new judge results wait for the growth above. */
export const JURY_STATS_STALE_MS = 20_000;

/** Whether a running test's poll recomputes now (pure; the poll's figures and the time). */
export function pollDue(
  poll: { dirty: boolean; judgedReports: number; judgedSeen: number; computedAt?: number },
  now: number,
): boolean {
  if (poll.dirty) return true;
  const fresh = poll.judgedReports - poll.judgedSeen;
  if (fresh <= 0) return false;
  return (
    fresh >= JURY_STATS_GROWTH * poll.judgedSeen ||
    poll.computedAt === undefined ||
    now - poll.computedAt >= JURY_STATS_STALE_MS
  );
}

/**
 * Asks for the test's jury statistics to be recomputed: schedules it unless a recomputation is
 * already scheduled or running, in which case that one runs again when it ends. (A running
 * test's worker does not ask: its reports count judge results on their own row, which the poll
 * started with the run reads; see startJuryStatsPoll.)
 */
export async function requestJuryStats(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await statsRow(ctx, testId);
  if (row?.pending) {
    if (!row.dirty) await ctx.db.patch("testStats", row._id, { dirty: true });
    return;
  }
  if (row) await ctx.db.patch("testStats", row._id, { pending: true, dirty: true });
  else await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: true });
  await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.juryStats.recompute, { testId });
}

/**
 * A running test's worker starts (core/pipeline/claim.ts ensureWorkers): its statistics poll
 * while the run goes on (recompute reschedules itself while the run row says running and the
 * worker reports) and recompute when the worker's reports counted judge results they have not
 * seen, so neither the worker's report nor the statistics' store reads a row the other writes.
 * The poll's last run, after the test ended, is the full one. Nothing when a recomputation is
 * already scheduled (it polls from its end on).
 */
export async function startJuryStatsPoll(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await statsRow(ctx, testId);
  if (row?.pending) return;
  if (row) await ctx.db.patch("testStats", row._id, { pending: true });
  else await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: false });
  await ctx.scheduler.runAfter(JURY_STATS_POLL_MS, internal.juryStats.recompute, { testId });
}

/**
 * When a test ends: its kept rows were read incrementally, so one full recomputation makes the
 * figures shown from now on a full recomputation's. Tests without jury statistics are left alone.
 * While its worker reports, the statistics poll: their next run sees the run row closed and is
 * that full one (store runs once more when the run closed under it), so the ending, often in
 * the worker's report, does not read the statistics' row their store writes.
 */
export async function finishJuryStats(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const reports = await ctx.db
    .query("testConcurrency")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
  if (reports && Date.now() - reports.updatedAt <= JURY_STATS_POLL_IDLE_MS / 2) return;
  const row = await statsRow(ctx, testId);
  if (row && row.exact !== true) await requestJuryStats(ctx, testId);
}
