// Deleting a test (spec part 2 §4, §7 delete_test_cascade). The test document goes at once, so it
// leaves every view in the same transaction; its rows in every per-test table (core/run/tables.ts)
// are then removed in batches by a self-scheduling internal mutation (core/run/lifecycle.ts),
// within Convex's per-transaction limits for tests of thousands of responses. Payments and the
// credit ledger are money records: they are kept (they carry the test's name) and only their
// link to the test is cleared.
import { internal } from "../_generated/api";
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { deleteJob, jobOfTest } from "./jobs";
import { clearTestRows } from "./run/lifecycle";
import { endOpenCheckouts } from "./payments";
import { deleteRun } from "./pipeline/runView";
import { deleteTestSummary } from "./testSummaries";
import { forgetTestStats } from "./userStats";
import { dropMonitorRow } from "./monitorProgress";
import { dispatchSoon } from "./pipeline/dispatchSoon";

/** One table's rows to delete: the table and a read of up to `limit` of them. */
export function rowsOf<Table extends TableNames>(table: Table, take: (limit: number) => Promise<Doc<Table>[]>) {
  return async (ctx: MutationCtx, limit: number): Promise<number> => {
    const rows = await take(limit);
    for (const row of rows) await ctx.db.delete(table, row._id);
    return rows.length;
  };
}

/**
 * Deletes rows table after table within one budget: each table's read takes up to what is left
 * of it, and the work stops when it is spent. Returns what is left: 0 means rows may remain.
 */
export async function deleteWithinBudget(
  ctx: MutationCtx,
  budget: number,
  tables: ReturnType<typeof rowsOf>[],
): Promise<number> {
  let left = budget;
  for (const deleteRows of tables) {
    if (left <= 0) return 0;
    left -= await deleteRows(ctx, left);
  }
  return left;
}

/** Removes the test, its job and the job's alerts now, and schedules the batched cleanup. */
export async function deleteTest(ctx: MutationCtx, test: Doc<"tests">): Promise<void> {
  const job = await jobOfTest(ctx, test._id);
  if (job) {
    const alerts = await ctx.db
      .query("alerts")
      .withIndex("by_job", (q) => q.eq("jobId", job._id))
      .take(100); // one per stuck episode of this job
    for (const alert of alerts) await ctx.db.delete("alerts", alert._id);
    await deleteJob(ctx, job);
  }
  await forgetTestStats(ctx, test);
  // An open checkout ends with its test; a payment that still lands for it is refunded.
  await endOpenCheckouts(ctx, test._id);
  await ctx.db.delete("tests", test._id);
  await deleteTestSummary(ctx, test._id);
  await deleteRun(ctx, test._id); // results still landing for it are thrown away
  await dropMonitorRow(ctx, test._id); // its monitor shows it gone at once
  // Workers still running for it find no test and stop; a freed processing slot starts the next job.
  if (job?.status === "processing") await dispatchSoon(ctx);
  // Kept until the last batch: a cleanup whose batches stopped is resumed by the cron.
  const deletionId = await ctx.db.insert("testDeletions", { testId: test._id, lastBatchAt: Date.now() });
  await ctx.scheduler.runAfter(0, internal.testDeletion.deleteChildren, { testId: test._id, deletionId });
}

/**
 * One batch of a deleted test's rows (every per-test table of core/run/tables.ts, within the
 * batch's budget of rows and bytes), then the next batch, or, when none are left, the end of its
 * deletion row. Returns true when another batch was scheduled.
 */
export async function deleteChildrenBatch(
  ctx: MutationCtx,
  testId: Id<"tests">,
  deletionId?: Id<"testDeletions">,
): Promise<boolean> {
  const done = await clearTestRows(ctx, testId, "delete");
  const deletion = deletionId === undefined ? null : await ctx.db.get("testDeletions", deletionId);
  if (done) {
    if (deletion !== null) await ctx.db.delete("testDeletions", deletion._id);
    return false;
  }
  if (deletion !== null) await ctx.db.patch("testDeletions", deletion._id, { lastBatchAt: Date.now() });
  await ctx.scheduler.runAfter(0, internal.testDeletion.deleteChildren, { testId, deletionId });
  return true;
}

/** A cleanup is taken as stopped when its latest batch is this old (a batch takes seconds at most). */
export const DELETION_STALLED_MS = 5 * 60 * 1000;
/** Stopped cleanups resumed per run of the cron. */
const RESUMED_PER_RUN = 20;

/**
 * Starts again the cleanups of deleted tests whose batches stopped (their latest batch is
 * DELETION_STALLED_MS old): a scheduled batch that failed for good, or a restart of the
 * deployment between two batches. Returns how many were resumed.
 */
export async function resumeStalledDeletions(ctx: MutationCtx): Promise<number> {
  const now = Date.now();
  const stalled = await ctx.db
    .query("testDeletions")
    .withIndex("by_last_batch", (q) => q.lt("lastBatchAt", now - DELETION_STALLED_MS))
    .take(RESUMED_PER_RUN);
  for (const deletion of stalled) {
    await ctx.db.patch("testDeletions", deletion._id, { lastBatchAt: now });
    await ctx.scheduler.runAfter(0, internal.testDeletion.deleteChildren, {
      testId: deletion.testId,
      deletionId: deletion._id,
    });
  }
  return stalled.length;
}
