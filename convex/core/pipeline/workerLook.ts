// The running test's jury statistics and its settle look, inside its pool worker (issue 32: a
// running test takes no scheduled-job slot of its own for statistics). After a report that
// counted judge results, at most once every JURY_STATS_POLL_MS, the worker reads whether the
// figures are due (juryStats.pollInfo: small rows) and, if so, recomputes them in its own action
// (core/jury/recompute.ts: bounded page queries and one store), which also looks whether a test
// set to stop when settled is settled (core/settle.ts). One look at a time; the claim loop goes
// on meanwhile. A look the host cannot finish gives its turn back (a review's request then runs).
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { ActionCtx } from "../../_generated/server";
import { JURY_STATS_POLL_MS, lookDue } from "../jury/poll";
import { recomputeJuryStats } from "../jury/recompute";

export interface WorkerLooks {
  /**
   * A report was stored: `judged` when it counted judge results; every answer and judge score
   * created before `committedBefore` (the worker's clock) is committed.
   */
  reported(judged: boolean, committedBefore: number): void;
  /** The look in flight, if any, has ended. */
  idle(): Promise<void>;
}

export function workerLooks(ctx: ActionCtx, testId: Id<"tests">, stopsWhenSettled: boolean): WorkerLooks {
  /** Judge results were reported that no look has found included yet. */
  let owed = false;
  let lastLook = -Infinity;
  let looking: Promise<void> | null = null;
  const look = async (committedBefore: number) => {
    const poll = await ctx.runQuery(internal.juryStats.pollInfo, { testId });
    if (poll.judgedReports <= poll.judgedSeen && !poll.dirty) owed = false;
    if (!poll.running || !lookDue(poll, Date.now(), stopsWhenSettled)) return;
    if (!(await ctx.runMutation(internal.juryStats.beginLook, { testId }))) return;
    try {
      await recomputeJuryStats(ctx, testId, { committedBefore });
    } catch (error) {
      await ctx.runMutation(internal.juryStats.stopPoll, { testId });
      throw error;
    }
  };
  return {
    reported(judged, committedBefore) {
      if (judged) owed = true;
      if (!owed || looking !== null || Date.now() - lastLook < JURY_STATS_POLL_MS) return;
      lastLook = Date.now();
      looking = look(committedBefore)
        .catch((error: unknown) => {
          // The figures wait for the next look; the run goes on.
          console.error(`The statistics look of test ${testId} failed: ${String(error)}`);
        })
        .finally(() => {
          looking = null;
        });
    },
    async idle() {
      while (looking) await looking;
    },
  };
}
