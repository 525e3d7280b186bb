// When a test's jury statistics are recomputed (juryStats.ts has the whole story): a running
// test's worker looks after its reports (core/pipeline/workerLook.ts) and recomputes when it
// reported enough new judge results; other callers ask for a recomputation, coalesced per test;
// the end of a run asks for the full one (finalRun.ts).
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
 * How often at most a running test's worker looks whether it reported judge results since the
 * statistics' last run (testConcurrency.judgedReports against testStats.judgedSeen, read in a
 * query), after a report: a test set to stop when settled recomputes (and looks whether it is
 * settled) at every such look that finds new judge results.
 */
export const JURY_STATS_POLL_MS = 1_000;
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
 * Whether the worker's look recomputes now: a test set to stop when settled at every look with
 * judge results the figures do not include yet (the settle look reads them), others as pollDue.
 */
export function lookDue(
  poll: { dirty: boolean; judgedReports: number; judgedSeen: number; computedAt?: number },
  now: number,
  stopsWhenSettled: boolean,
): boolean {
  return stopsWhenSettled ? poll.dirty || poll.judgedReports > poll.judgedSeen : pollDue(poll, now);
}

/**
 * Asks for the test's jury statistics to be recomputed: schedules it unless a recomputation is
 * already scheduled or running, in which case that one runs again when it ends. (A running
 * test's worker does not ask: its reports count judge results on their own row, and it looks
 * at them itself after its reports; see core/pipeline/workerLook.ts.)
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
 * A running test's worker starts (core/pipeline/claim.ts ensureWorkers): its statistics row
 * exists from now on (the worker's looks and the end's full run store into it). Nothing is
 * scheduled: the worker looks after its reports (core/pipeline/workerLook.ts).
 */
export async function ensureJuryStatsRow(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  if (!(await statsRow(ctx, testId)))
    await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: false, dirty: false });
}

/**
 * The worker's look takes the statistics' turn: false when a recomputation is already scheduled
 * or running (requested by a review or the end; it reads what this look would have).
 */
export async function beginWorkerLook(ctx: MutationCtx, testId: Id<"tests">): Promise<boolean> {
  const row = await statsRow(ctx, testId);
  if (!row) {
    await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: false });
    return true;
  }
  if (row.pending) return false;
  await ctx.db.patch("testStats", row._id, { pending: true });
  return true;
}
