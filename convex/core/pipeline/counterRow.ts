// A running test's counters live in a row of their own (tables/testCounters.ts): the folds add to
// it, never to the test's row, so a query that shows the test and none of its counters does not
// re-run with them. The test's figures are its row plus this one (withCounterRow); the run's end
// adds the row into the test's row and deletes it (closeCounterRow), so an ended test is its row
// alone, and what changes its row's counters directly (the calls created at the opening, a
// re-judging's copied answers, spend counted after the end) adds up either way.
import type { Infer } from "convex/values";
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../../_generated/server";
import { runCounters } from "../../validators";
import { pickFields } from "../../lib/fields";
import { withCounters } from "../../lib/resultsFigures";
import { testCounterTables } from "../../tables/testCounters";

type Sums = Partial<Infer<typeof runCounters>>;
type CounterKey = keyof Sums;

const COUNTER_FIELDS = Object.keys(runCounters.fields) as CounterKey[];

/** The fields of the test's row a fold writes besides the counters. */
type FoldFields = Partial<Pick<Doc<"tests">, "progress" | "lastProgressAt" | "lastCallError">>;

/** The test's counter row, or null (not running, or no fold yet). */
export async function counterRowOf(ctx: QueryCtx, testId: Id<"tests">): Promise<Doc<"testCounters"> | null> {
  return await ctx.db
    .query("testCounters")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/** The test with its counter row added: its figures as the pages show them. Give it the test as stored. */
export function withCounterRow<Test extends Doc<"tests">>(test: Test, row: Doc<"testCounters"> | null): Test {
  return withCounters(test, row);
}

/** What a page is sent of the counter row: all of it but its ids. */
export const counterFiguresValidator = testCounterTables.testCounters.validator.omit("testId");

export function counterFiguresOf(row: Doc<"testCounters">): Infer<typeof counterFiguresValidator> {
  return pickFields(row, ["sums", "progress", "lastProgressAt", "lastCallError"]);
}

/** The test as stored with its counter row added (null when there is no such test). */
export async function countedTest(ctx: QueryCtx, testId: Id<"tests">): Promise<Doc<"tests"> | null> {
  const test = await ctx.db.get("tests", testId);
  return test === null ? null : withCounterRow(test, await counterRowOf(ctx, testId));
}

/** withCounterRow for a test as stored, reading its row. */
export async function countedTestOf(ctx: QueryCtx, test: Doc<"tests">): Promise<Doc<"tests">> {
  return withCounterRow(test, await counterRowOf(ctx, test._id));
}

/**
 * Stores what a fold adds (`sums`) and sets (`fields`): on the counter row while the test runs
 * (or while it still has one), on the test's row once it has ended. `test` is the test as stored.
 */
export async function storeFold(
  ctx: MutationCtx,
  test: Doc<"tests">,
  row: Doc<"testCounters"> | null,
  sums: Sums,
  fields: FoldFields,
): Promise<void> {
  const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as FoldFields;
  if (row !== null) {
    await ctx.db.patch("testCounters", row._id, { sums: addSums(row.sums, sums), ...set });
  } else if (test.status === "running") {
    await ctx.db.insert("testCounters", {
      testId: test._id,
      sums: addSums({}, sums),
      progress: set.progress ?? test.progress,
      lastProgressAt: set.lastProgressAt ?? test.lastProgressAt,
      ...((set.lastCallError ?? test.lastCallError) === undefined
        ? {}
        : { lastCallError: set.lastCallError ?? test.lastCallError }),
    });
  } else {
    await ctx.db.patch("tests", test._id, { ...totalsOf(test, sums), ...set });
  }
}

/** The run's end: the counter row is added into the test's row and deleted. */
export async function closeCounterRow(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await counterRowOf(ctx, testId);
  if (row === null) return;
  const test = await ctx.db.get("tests", testId);
  if (test !== null) {
    await ctx.db.patch("tests", testId, {
      ...totalsOf(test, row.sums),
      progress: row.progress,
      lastProgressAt: row.lastProgressAt,
      ...(row.lastCallError === undefined ? {} : { lastCallError: row.lastCallError }),
    });
  }
  await ctx.db.delete("testCounters", row._id);
}

function totalsOf(test: Doc<"tests">, sums: Sums): Sums {
  const totals: Sums = {};
  for (const key of COUNTER_FIELDS) if ((sums[key] ?? 0) !== 0) totals[key] = (test[key] ?? 0) + sums[key]!;
  return totals;
}

function addSums(before: Sums, added: Sums): Sums {
  const sums: Sums = { ...before };
  for (const key of COUNTER_FIELDS) if ((added[key] ?? 0) !== 0) sums[key] = (sums[key] ?? 0) + added[key]!;
  return sums;
}

/** A restart's run begins from nothing: the old run's counter row goes at once, with its counters. */
export async function dropCounterRow(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await counterRowOf(ctx, testId);
  if (row !== null) await ctx.db.delete("testCounters", row._id);
}
