// A test's access row (tables/testOwners.ts): whose it is and its status, kept beside its summary
// (core/testSummaries.ts syncTestSummary calls syncTestOwner) and written only when one of
// those fields changed, so the run's folds, which sync the summary, leave it as it is.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { insertTestNames } from "./testNames";

export type TestOwner = Doc<"testOwners">;
type OwnerFields = Omit<TestOwner, "_id" | "_creationTime">;

/** The access row's fields of a test as it stands. */
export function ownerFieldsOf(test: Doc<"tests">): OwnerFields {
  return {
    testId: test._id,
    userId: test.userId,
    teamId: test.teamId,
    createdAt: test._creationTime,
    status: test.status,
    awaitingPayment: test.awaitingPayment === true,
  };
}

export async function ownerRowOf(ctx: QueryCtx, testId: Id<"tests">): Promise<TestOwner | null> {
  return await ctx.db
    .query("testOwners")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/**
 * Creates the test's access row, with its names row (core/testNames.ts), or brings it in line with
 * the test; writes nothing when nothing changed.
 */
export async function syncTestOwner(ctx: MutationCtx, test: Doc<"tests">): Promise<void> {
  const fields = ownerFieldsOf(test);
  const row = await ownerRowOf(ctx, test._id);
  if (row === null) {
    await ctx.db.insert("testOwners", fields);
    await insertTestNames(ctx, test);
    return;
  }
  const changes: Partial<OwnerFields> = {};
  let changed = false;
  for (const key of Object.keys(fields) as (keyof OwnerFields)[]) {
    if (row[key] === fields[key]) continue;
    (changes as Record<string, unknown>)[key] = fields[key];
    changed = true;
  }
  if (changed) await ctx.db.patch("testOwners", row._id, changes);
}

/** Removes the test's access row (the test is deleted: every page of it is refused at once). */
export async function deleteTestOwner(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await ownerRowOf(ctx, testId);
  if (row !== null) await ctx.db.delete("testOwners", row._id);
}
