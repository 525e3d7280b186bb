// A share link resolved to its test, for the shared page's queries (shares.ts, checks.ts).
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { accessRowOf, type TestAccessRow } from "./testAccess";
import { readTestNames } from "./testNames";
import type { TestNames } from "../lib/testNames";

/** Share ids are short random strings; anything longer is not one of ours. */
const MAX_SHARE_ID_LENGTH = 64;

/** The test an active share link points at, or null (no such link, switched off, or the test is gone). */
export async function sharedTestOf(ctx: QueryCtx, shareId: string): Promise<Doc<"tests"> | null> {
  const testId = await sharedTestIdOf(ctx, shareId);
  return testId === null ? null : await ctx.db.get("tests", testId);
}

/** The id of the test an active share link points at (its link and access row, not the test), or null. */
export async function sharedTestIdOf(ctx: QueryCtx, shareId: string): Promise<Id<"tests"> | null> {
  return (await sharedAccessRowOf(ctx, shareId))?.testId ?? null;
}

/** The access row (whose, and its status) of the test an active share link points at, or null. */
export async function sharedAccessRowOf(ctx: QueryCtx, shareId: string): Promise<TestAccessRow | null> {
  if (shareId.length === 0 || shareId.length > MAX_SHARE_ID_LENGTH) return null;
  const share = await ctx.db
    .query("shares")
    .withIndex("by_share_id", (q) => q.eq("shareId", shareId))
    .unique();
  if (!share || !share.isActive) return null;
  // A deleted test's link goes with its other rows a batch later; its access row goes at once.
  return await accessRowOf(ctx, share.testId);
}

/**
 * What the pages of the test an active share link points at name things by, with its access row
 * (core/testNames.ts), or null: the shared page's jury figures and settle line read no configuration.
 */
export async function sharedTestNamesOf(
  ctx: QueryCtx,
  shareId: string,
): Promise<{ access: TestAccessRow; names: TestNames } | null> {
  const access = await sharedAccessRowOf(ctx, shareId);
  if (access === null) return null;
  const names = await readTestNames(ctx, access.testId);
  return names === null ? null : { access, names };
}
