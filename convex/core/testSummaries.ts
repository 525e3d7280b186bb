// A test's summary row (tables/testSummaries.ts): what the lists show of it, without its
// configuration. Written where the test's list-visible fields change: its creation, its start,
// its payment, its end, an admin's restart, the ~1/s fold of its run counters (only when a
// figure a list shows changed), spend counted after it ended, and the jury's verdict; removed
// with the test. Never written by a recording: recordings insert deltas, the fold reads them.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { juryVerdictOf, type JuryVerdict } from "./juryView";
import { countedTest } from "./pipeline/counterRow";
import { deleteTestOwner, syncTestOwner } from "./testOwners";

/** The latest gateway error as a summary keeps it (History words it under the row). */
export const SUMMARY_ERROR_LENGTH = 500;
/** Top performers a summary keeps (History's badges). */
export const SUMMARY_TOP_PERFORMERS = 3;

export type TestSummary = Doc<"testSummaries">;
type SummaryFields = Omit<TestSummary, "_id" | "_creationTime" | "juryVerdict">;

/**
 * The summary fields of a test as it stands (the verdict aside: it comes from the jury's
 * statistics, setSummaryVerdict). Optional fields the test lacks are present as undefined, so a
 * patch with them clears what the summary held (a restarted test loses its end).
 */
export function summaryOf(test: Doc<"tests">): SummaryFields {
  return {
    testId: test._id,
    userId: test.userId,
    teamId: test.teamId,
    createdAt: test._creationTime,
    name: test.name,
    taskType: test.taskType,
    status: test.status,
    awaitingPayment: test.awaitingPayment === true,
    priceCents: test.priceCents,
    modelCount: test.configuration.generatorModels.length,
    startedAt: test.startedAt,
    completedAt: test.completedAt,
    totalCostUsd: test.totalCostUsd,
    missingResponses: test.missingResponses,
    missingEvaluations: test.missingEvaluations,
    lastCallError: test.lastCallError?.slice(0, SUMMARY_ERROR_LENGTH),
    topPerformers: test.resultsSummary?.analysisSummary.topPerformers.slice(0, SUMMARY_TOP_PERFORMERS) ?? [],
    rerunOf: test.rerunOf,
    rejudgeOf: test.rejudgeOf,
    stopped: test.stopped,
    repeats: (test.configuration.repeats ?? 1) > 1 ? test.configuration.repeats : undefined,
  };
}

export async function summaryRowOf(ctx: QueryCtx, testId: Id<"tests">): Promise<TestSummary | null> {
  return await ctx.db
    .query("testSummaries")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of `next` that differ from `row`'s; null when none does. */
function changedFields<T extends object>(row: Partial<T>, next: T): Partial<T> | null {
  const changes: Partial<T> = {};
  let changed = false;
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (same(row[key], next[key])) continue;
    changes[key] = next[key];
    changed = true;
  }
  return changed ? changes : null;
}

/**
 * Brings the test's summary in line with the test (`test` as it now stands, after the caller's
 * patch): writes only the fields that changed, nothing when none did; creates the row when the
 * test has none yet (with the verdict its statistics hold).
 */
export async function syncTestSummary(ctx: MutationCtx, test: Doc<"tests">): Promise<void> {
  // The access row changes with the summary's owner, team and status fields (a fold changes none).
  await syncTestOwner(ctx, test);
  const fields = summaryOf(test);
  const row = await summaryRowOf(ctx, test._id);
  if (row === null) {
    const verdict = await verdictOfTest(ctx, test._id);
    await ctx.db.insert("testSummaries", { ...fields, ...(verdict === undefined ? {} : { juryVerdict: verdict }) });
    return;
  }
  const changes = changedFields(row, fields);
  if (changes !== null) await ctx.db.patch("testSummaries", row._id, changes);
}

/** Syncs the summary of the test `testId` as stored now (after the caller's patch), its counter row added. */
export async function syncTestSummaryOf(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const test = await countedTest(ctx, testId);
  if (test !== null) await syncTestSummary(ctx, test);
}

/** The jury's verdict on the summary (juryStats.store, when statistics are stored); written only when it changed. */
export async function setSummaryVerdict(
  ctx: MutationCtx,
  testId: Id<"tests">,
  verdict: JuryVerdict | undefined,
): Promise<void> {
  const row = await summaryRowOf(ctx, testId);
  if (row !== null && !same(row.juryVerdict, verdict))
    await ctx.db.patch("testSummaries", row._id, { juryVerdict: verdict });
}

/**
 * The verdict of a test from its jury statistics (the testStats row), the one place a summary's
 * verdict is read from when it is built; undefined before any model is scored.
 */
export async function verdictOfTest(ctx: QueryCtx, testId: Id<"tests">): Promise<JuryVerdict | undefined> {
  const row = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
  return row?.stats ? juryVerdictOf(row.stats) : undefined;
}

/** Removes the test's summary and access row (the test is deleted: it leaves every list and page at once). */
export async function deleteTestSummary(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  await deleteTestOwner(ctx, testId);
  const row = await summaryRowOf(ctx, testId);
  if (row !== null) await ctx.db.delete("testSummaries", row._id);
}
