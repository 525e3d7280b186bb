// A test's names row (tables/testNames.ts): written once, with its access row
// (core/testOwners.ts syncTestOwner), read by the queries its pages subscribe instead of the
// test with its configuration. A test written before names rows existed is read from its own
// row until migrations:testNames has written its names row.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { testNamesOf, type TestNames } from "../lib/testNames";

async function namesRowOf(ctx: QueryCtx, testId: Id<"tests">): Promise<Doc<"testNames"> | null> {
  return await ctx.db
    .query("testNames")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/** Writes the test's names row unless it has one. Returns whether it wrote it. */
export async function insertTestNames(ctx: MutationCtx, test: Doc<"tests">): Promise<boolean> {
  if ((await namesRowOf(ctx, test._id)) !== null) return false;
  await ctx.db.insert("testNames", { testId: test._id, ...testNamesOf(test.configuration) });
  return true;
}

/**
 * What the test's pages name things by: its names row, or (a test written before names rows
 * existed) its configuration's names. Null when there is no such test. Callers check access first.
 */
export async function readTestNames(ctx: QueryCtx, testId: Id<"tests">): Promise<TestNames | null> {
  const row = await namesRowOf(ctx, testId);
  if (row !== null) {
    const { _id, _creationTime, testId: _testId, ...names } = row;
    return names;
  }
  const test = await ctx.db.get("tests", testId);
  return test === null ? null : testNamesOf(test.configuration);
}

/** Tests given their names row per batch of the migration (their rows, configurations up to 256 KB, are read whole). */
const TESTS_PER_NAMES_BATCH = 20;

/**
 * One batch of migrations:testNames: a page of tests, each given its names row if it has none
 * (tests written before names rows existed). Returns how many it wrote, whether every test was
 * seen, and the next batch's cursor.
 */
export async function migrateTestNamesBatch(
  ctx: MutationCtx,
  cursor: string | null,
): Promise<{ written: number; done: boolean; cursor: string }> {
  const page = await ctx.db.query("tests").paginate({ cursor, numItems: TESTS_PER_NAMES_BATCH });
  let written = 0;
  for (const test of page.page) if (await insertTestNames(ctx, test)) written++;
  return { written, done: page.isDone, cursor: page.continueCursor };
}
