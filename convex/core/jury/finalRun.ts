// The full jury-statistics run a test owes once it has ended (juryStats.ts has the whole story),
// off the scheduled-job slots where it can be (issue 32): a test that the pipeline finishes has
// its run done by the worker that finished it, inside the host's running action, so ten tests
// ending together schedule no statistics job each; tests ended elsewhere (Stop, an admin's
// cancel, the stale-test cron, the lease reclaimer) schedule it. Either way the row notes when the
// run was handed out (`finalDueAt`, cleared by the run that stores exact figures), and a cron
// hands out again a run whose runner died (a host or an action killed, a deployment restarted),
// a few at a time, so no test stays without its final statistics.
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { ActionCtx, MutationCtx } from "../../_generated/server";
import { recomputeJuryStats } from "./recompute";
import { JURY_STATS_DELAY_MS, requestJuryStats, statsRow } from "./poll";

/**
 * How long a handed-out final run may take before it is handed out again (a full read of the
 * largest allowed test takes seconds; one handed out twice computes the same exact figures).
 */
export const FINAL_STATS_LEASE_MS = 120_000;
/** Final runs handed out again per cron run (each a scheduled job: the slots stay free). */
const HAND_OUT_BATCH = 2;

/** Who runs the ended test's full statistics: a scheduled job, or the caller in its own action. */
export type FinalStatsRunner = "scheduled" | "caller";

/**
 * When a test ends: its kept rows were read incrementally, so one full recomputation makes the
 * figures shown from now on a full recomputation's. A look or request still pending is marked to
 * run once more (the full one). With "caller", nothing is scheduled: true when the caller must
 * run it (runFinalJuryStats). Tests without jury statistics, or already exact, are left alone.
 */
export async function finishJuryStats(
  ctx: MutationCtx,
  testId: Id<"tests">,
  runner: FinalStatsRunner = "scheduled",
): Promise<boolean> {
  const row = await statsRow(ctx, testId);
  if (!row || row.exact === true) return false;
  const finalDueAt = Date.now();
  if (runner === "caller") {
    // A request pending meanwhile (a review's) is read by this run, or runs again after it.
    await ctx.db.patch("testStats", row._id, { pending: true, dirty: true, finalDueAt });
    return true;
  }
  await requestJuryStats(ctx, testId);
  await ctx.db.patch("testStats", row._id, { finalDueAt });
  return false;
}

/**
 * The ended test's full run in the caller's action (the worker that finished it). A failure
 * gives the turn back (a request made meanwhile then runs); a run that never stores is handed
 * out again by the cron.
 */
export async function runFinalJuryStats(ctx: ActionCtx, testId: Id<"tests">): Promise<void> {
  try {
    await recomputeJuryStats(ctx, testId);
  } catch (error) {
    console.error(`The final statistics of test ${testId} failed: ${String(error)}`);
    await ctx.runMutation(internal.juryStats.stopPoll, { testId }).catch(() => undefined);
  }
}

/**
 * The cron: final runs handed out over FINAL_STATS_LEASE_MS ago and never stored are scheduled
 * again (their runner died). Returns how many were.
 */
export async function handOutOwedJuryStats(ctx: MutationCtx, now: number): Promise<number> {
  const owed = await ctx.db
    .query("testStats")
    .withIndex("by_final_due", (q) => q.gt("finalDueAt", 0).lt("finalDueAt", now - FINAL_STATS_LEASE_MS))
    .take(HAND_OUT_BATCH);
  for (const row of owed) {
    if (row.exact === true || !(await ctx.db.get("tests", row.testId))) {
      await ctx.db.patch("testStats", row._id, { finalDueAt: undefined });
      continue;
    }
    await ctx.db.patch("testStats", row._id, { pending: true, dirty: true, finalDueAt: now });
    await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.juryStats.recompute, { testId: row.testId });
  }
  return owed.length;
}
