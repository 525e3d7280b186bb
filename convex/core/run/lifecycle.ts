// What the end of a run, the force restart and the deletion of a test do to its rows, as the
// per-test registry (core/run/tables.ts) says. The restart's and the deletion's batches walk the registry's tables in order within one
// budget of rows and bytes, so a test of thousands of answers (or of large jury-state chunks) is
// cleared over several transactions, each far inside Convex's limits (16 MiB read, 16,000
// documents written).
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { takeWithinBytes } from "../../lib/boundedList";
import { dropMonitorRow } from "../monitorProgress";
import { closeCounterRow } from "../pipeline/counterRow";
import { foldCounters } from "../pipeline/runCounters";
import { closeRun } from "../pipeline/runView";
import { PER_TEST_TABLES, rowsOfTest, type PerTestTable, type PerTestTableName } from "./tables";

/** Rows of one table handled per batch. */
export const CLEAR_ROWS_PER_TABLE = 500;
/** Rows handled per batch over all tables: well inside the 16,000 documents a transaction may write. */
export const CLEAR_ROWS_PER_BATCH = 4_000;
/**
 * Bytes of rows read per batch. A row is read twice, by the query and by its delete, so a batch
 * reads about 8 MiB of the 16 MiB a transaction may: half, for what the estimate of a row's size
 * (its JSON) misses (20 MB of jury state took one transaction over the limit when only the rows
 * were bounded; at 6 MiB a batch came to 12-13 MB).
 */
export const CLEAR_BYTES_PER_BATCH = 4 * 1024 * 1024;

/**
 * A running or pending test's run ends (finished, stopped, cancelled, timed out): its deltas are
 * folded into its row (the figures it ends with, its counter row added in), its run row is closed, so results still
 * landing are thrown away (their spend counted), and its monitor row goes (the monitor reads the
 * ended test from now on). Returns the test as counted.
 */
export async function endRun(ctx: MutationCtx, test: Doc<"tests">): Promise<Doc<"tests">> {
  const counted = test.status === "running" ? ((await foldCounters(ctx, test._id)) ?? test) : test;
  // The ended test is its row alone: the counter row is added into it.
  await closeCounterRow(ctx, test._id);
  await closeRun(ctx, test._id);
  await dropMonitorRow(ctx, test._id);
  return counted;
}

/** A test's rows that the step removes, in the registry's order. */
function tablesFor(step: "restart" | "delete"): PerTestTableName[] {
  return (Object.keys(PER_TEST_TABLES) as PerTestTableName[]).filter(
    (table) => PER_TEST_TABLES[table][step] !== "keep",
  );
}

/**
 * One batch of what `step` does to the test's rows: "restart" deletes the previous run's, "delete"
 * deletes all of them (money records lose their link to the test instead). `rows` caps the rows
 * handled in this transaction. Returns true when none are left, false when another batch is
 * needed.
 */
export async function clearTestRows(
  ctx: MutationCtx,
  testId: Id<"tests">,
  step: "restart" | "delete",
  rows: number = CLEAR_ROWS_PER_BATCH,
): Promise<boolean> {
  return (await clearTestRowsBatch(ctx, testId, step, rows)).done;
}

/** clearTestRows, with the rows it removed and their bytes (as lib/limits.ts storedBytes counts them). */
export async function clearTestRowsBatch(
  ctx: MutationCtx,
  testId: Id<"tests">,
  step: "restart" | "delete",
  rows: number = CLEAR_ROWS_PER_BATCH,
): Promise<{ done: boolean; rows: number; bytes: number }> {
  const rowsBudget = Math.min(rows, CLEAR_ROWS_PER_BATCH);
  let rowsLeft = rowsBudget;
  let bytesLeft = CLEAR_BYTES_PER_BATCH;
  let done = true;
  for (const table of tablesFor(step)) {
    if (rowsLeft <= 0 || bytesLeft <= 0) {
      done = false;
      break;
    }
    const limit = Math.min(rowsLeft, CLEAR_ROWS_PER_TABLE);
    const read = await takeWithinBytes(rowsOfTest(ctx, table, testId), limit, bytesLeft);
    const entry = PER_TEST_TABLES[table] as PerTestTable<typeof table>;
    for (const row of read.rows) await removeRow(ctx, table, entry, row, step);
    rowsLeft -= read.rows.length;
    bytesLeft -= read.bytes;
    if (read.rows.length === limit || read.cutByBytes) done = false;
  }
  return { done, rows: rowsBudget - rowsLeft, bytes: CLEAR_BYTES_PER_BATCH - bytesLeft };
}

async function removeRow<Table extends PerTestTableName>(
  ctx: MutationCtx,
  table: Table,
  entry: PerTestTable<Table>,
  row: Doc<Table>,
  step: "restart" | "delete",
): Promise<void> {
  if (step === "delete" && entry.delete === "unlink") {
    // Money records stay (with the test's name in testName / description); only the link goes.
    await ctx.db.patch(table, row._id, { testId: undefined } as never);
    return;
  }
  if (entry.remove) await entry.remove(ctx, row);
  else await ctx.db.delete(table, row._id);
}
