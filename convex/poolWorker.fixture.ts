// A test's pool worker played by hand, through the same internal functions as runner.work
// (claimBatch, record, beat, endWork) but with the replies chosen by the caller, so a test of
// the run engine knows every result exactly. Tests set perTestConcurrency 0 so that no real
// worker is scheduled beside it. (Two dots in the name: Convex does not deploy this file.)
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { ActionCtx } from "./_generated/server";
import { workerLooks } from "./core/pipeline/workerLook";
import type { TestBackend } from "./test.helpers";
import type { Outcome, WorkItem } from "./validators";

/** What the gateway "answers" a work item: its outcome (usage included). */
export type Replies = (item: WorkItem) => Outcome;

/** Calls a worker claims at once (runner.work's CLAIM_BATCH). */
const CLAIM_BATCH = 32;

/**
 * Works the running test's pending calls until none is left: each claimed batch is recorded,
 * then reported (which gives finished pairs their judge calls and folds when due); the worker
 * ends as runner.work does, which finishes the test. It looks at its jury statistics after its
 * reports as a real worker does (core/pipeline/workerLook.ts, through the backend's queries and
 * mutations); the caller runs the scheduled functions for the end's full run.
 */
export async function playPoolWorker(
  t: TestBackend,
  testId: Id<"tests">,
  replies: Replies,
  /** `endWork: false`: it stops before ending (the caller ends it, as a test of the end needs). */
  options: { endWork?: boolean } = {},
): Promise<void> {
  const settles = await t.run(
    async (ctx) => (await ctx.db.get("tests", testId))?.configuration.stopWhenSettled !== undefined,
  );
  const actions = { runQuery: t.query, runMutation: t.mutation } as unknown as ActionCtx;
  const looks = workerLooks(actions, testId, settles);
  for (;;) {
    const items = await t.mutation(internal.runner.claimBatch, { testId, max: CLAIM_BATCH });
    const generated: Id<"calls">[] = [];
    let judged = false;
    for (const item of items) {
      await t.mutation(internal.runner.record, { callId: item.callId, leaseId: item.leaseId, outcome: replies(item) });
      if (item.kind === "evaluate") judged = true;
      else generated.push(item.callId);
    }
    const { running } = await t.mutation(internal.runner.beat, {
      testId,
      level: 1,
      backedOff: false,
      inFlight: 0,
      exchanges: items.length,
      rateLimited: 0,
      timeouts: 0,
      serverErrors: 0,
      judged,
      generated,
      settledBefore: Date.now(),
    });
    if (running) looks.reported(judged, Date.now());
    await looks.idle();
    if (!running || items.length === 0) break;
  }
  if (options.endWork !== false) await t.mutation(internal.runner.endWork, { testId });
}

/** Leases the test's next pending call, as a worker with one free slot does; null when none is pending. */
export async function claimOne(t: TestBackend, testId: Id<"tests">): Promise<WorkItem | null> {
  const [item] = await t.mutation(internal.runner.claimBatch, { testId, max: 1 });
  return item ?? null;
}
