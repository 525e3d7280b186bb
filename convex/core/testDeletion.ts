// Deleting a test (spec part 2 §4, §7 delete_test_cascade). The test document goes at once, so it
// leaves every view in the same transaction; its children are then removed in batches by a
// self-scheduling internal mutation, which stays within Convex's per-transaction limits for
// tests of thousands of responses. Payments and the credit ledger are money records: they are
// kept (they carry the test's name) and only their link to the test is cleared.
import { internal } from "../_generated/api";
import type { Doc, Id, TableNames } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { deleteJob, jobOfTest } from "./jobs";
import { endOpenCheckouts } from "./payments";
import { deleteRun } from "./pipeline/runView";
import { deleteTestSummary } from "./testSummaries";
import { forgetTestStats } from "./userStats";
import { dropMonitorRow } from "./monitorProgress";

/** Rows of one table handled per run; several tables per run stay far below the write limit. */
export const DELETE_BATCH_SIZE = 500;

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

/** The presence room of a test (see presence.ts). */
export function testRoom(testId: Id<"tests">): string {
  return `test:${testId}`;
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
  if (job?.status === "processing") await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
  await ctx.scheduler.runAfter(0, internal.testDeletion.deleteChildren, { testId: test._id });
}

/**
 * One batch of a deleted test's rows. Returns true when a table still had a full batch, i.e.
 * when another run is needed.
 */
export async function deleteChildrenBatch(ctx: MutationCtx, testId: Id<"tests">): Promise<boolean> {
  let more = false;
  const full = (rows: unknown[]) => {
    if (rows.length === DELETE_BATCH_SIZE) more = true;
  };

  const evaluations = await ctx.db
    .query("evaluations")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of evaluations) await ctx.db.delete("evaluations", row._id);
  full(evaluations);

  const responses = await ctx.db
    .query("responses")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of responses) await ctx.db.delete("responses", row._id);
  full(responses);

  const calls = await ctx.db
    .query("calls")
    .withIndex("by_test_status", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of calls) await ctx.db.delete("calls", row._id);
  full(calls);

  const stats = await ctx.db
    .query("modelStats")
    .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of stats) await ctx.db.delete("modelStats", row._id);
  full(stats);

  const shards = await ctx.db
    .query("runShards")
    .withIndex("by_test_shard", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of shards) await ctx.db.delete("runShards", row._id);
  full(shards);

  const deltas = await ctx.db
    .query("runDeltas")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of deltas) await ctx.db.delete("runDeltas", row._id);
  full(deltas);

  const answerScores = await ctx.db
    .query("answerScores")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of answerScores) await ctx.db.delete("answerScores", row._id);
  full(answerScores);

  const juryStats = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE); // at most one per test
  for (const row of juryStats) await ctx.db.delete("testStats", row._id);
  full(juryStats);

  const explanations = await ctx.db
    .query("judgeExplanations")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of explanations) await ctx.db.delete("judgeExplanations", row._id);
  full(explanations);

  const juryState = await ctx.db
    .query("juryStateChunks")
    .withIndex("by_test_index", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of juryState) await ctx.db.delete("juryStateChunks", row._id);
  full(juryState);

  const humanJudgements = await ctx.db
    .query("humanJudgements")
    .withIndex("by_test_user", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of humanJudgements) await ctx.db.delete("humanJudgements", row._id);
  full(humanJudgements);

  const shares = await ctx.db
    .query("shares")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of shares) await ctx.db.delete("shares", row._id);
  full(shares);

  const notes = await ctx.db
    .query("notes")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of notes) await ctx.db.delete("notes", row._id);
  full(notes);

  const viewers = await ctx.db
    .query("presence")
    .withIndex("by_room_viewer", (q) => q.eq("room", testRoom(testId)))
    .take(DELETE_BATCH_SIZE);
  for (const row of viewers) await ctx.db.delete("presence", row._id);
  full(viewers);
  const sessions = await ctx.db
    .query("presenceSessions")
    .withIndex("by_room_viewer", (q) => q.eq("room", testRoom(testId)))
    .take(DELETE_BATCH_SIZE);
  for (const row of sessions) await ctx.db.delete("presenceSessions", row._id);
  full(sessions);

  // Money records stay (with the test's name in testName / description); only the link goes.
  const payments = await ctx.db
    .query("payments")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of payments) await ctx.db.patch("payments", row._id, { testId: undefined });
  full(payments);

  const credits = await ctx.db
    .query("creditTransactions")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(DELETE_BATCH_SIZE);
  for (const row of credits) await ctx.db.patch("creditTransactions", row._id, { testId: undefined });
  full(credits);

  // A job is deleted with its test; one inserted later by a race is removed here too.
  const job = await jobOfTest(ctx, testId);
  if (job) await deleteJob(ctx, job);

  return more;
}
