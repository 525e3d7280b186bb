// A share link resolved to its test, for the shared page's queries (shares.ts, checks.ts).
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";

/** Share ids are short random strings; anything longer is not one of ours. */
const MAX_SHARE_ID_LENGTH = 64;

/** The test an active share link points at, or null (no such link, switched off, or the test is gone). */
export async function sharedTestOf(ctx: QueryCtx, shareId: string): Promise<Doc<"tests"> | null> {
  if (shareId.length === 0 || shareId.length > MAX_SHARE_ID_LENGTH) return null;
  const share = await ctx.db
    .query("shares")
    .withIndex("by_share_id", (q) => q.eq("shareId", shareId))
    .unique();
  if (!share || !share.isActive) return null;
  return await ctx.db.get("tests", share.testId);
}
