// What saved personas and saved topics share: owner-only reads, the per-user cap and count.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { fail } from "../functions";
import { COLLECTION_LIMITS } from "../lib/limits";
import { savedAssetCount, setSavedAssetCount, type SavedAsset } from "./userStats";

/** A user's saved personas or topics are capped, so every list stays bounded (lib/limits). */
export const MAX_SAVED_ASSETS = COLLECTION_LIMITS.maxSavedAssets;

const LABELS: Record<SavedAsset, { one: string; many: string }> = {
  personas: { one: "Persona", many: "personas" },
  topics: { one: "Topic", many: "topics" },
};

export async function requireOwnAsset<Kind extends SavedAsset>(
  ctx: QueryCtx,
  kind: Kind,
  userId: Id<"users">,
  assetId: Id<Kind>,
): Promise<Doc<Kind>> {
  const asset = (await ctx.db.get(kind, assetId)) as Doc<Kind> | null;
  if (!asset || asset.userId !== userId) fail("NOT_FOUND", `${LABELS[kind].one} not found.`);
  return asset;
}

/** The owner's items, newest first, without the owner field; `total` counts them all. */
export async function listOwnAssets<Kind extends SavedAsset>(
  ctx: QueryCtx,
  kind: Kind,
  userId: Id<"users">,
  limit?: number,
) {
  // Queried through the union type, which both tables' by_user index satisfies.
  const table: SavedAsset = kind;
  const rows = (await ctx.db
    .query(table)
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .order("desc")
    .take(MAX_SAVED_ASSETS)) as unknown as Doc<Kind>[]; // rows of `kind`, as queried
  const items = rows.slice(0, limit ?? rows.length).map(({ userId: _userId, ...asset }) => asset);
  return { items, total: rows.length };
}

/** Checks the cap and counts the item about to be inserted. */
export async function reserveAssetSlot(ctx: MutationCtx, user: Doc<"users">, kind: SavedAsset): Promise<void> {
  const count = (
    await ctx.db
      .query(kind)
      .withIndex("by_user", (q) => q.eq("userId", user._id))
      .take(MAX_SAVED_ASSETS)
  ).length;
  if (count >= MAX_SAVED_ASSETS) fail("INVALID_INPUT", `You can save up to ${MAX_SAVED_ASSETS} ${LABELS[kind].many}.`);
  await setSavedAssetCount(ctx, user, kind, count + 1);
}

export async function removeOwnAsset<Kind extends SavedAsset>(
  ctx: MutationCtx,
  user: Doc<"users">,
  kind: Kind,
  assetId: Id<Kind>,
): Promise<void> {
  await requireOwnAsset(ctx, kind, user._id, assetId);
  const count = await savedAssetCount(ctx, user, kind, MAX_SAVED_ASSETS);
  await ctx.db.delete(kind, assetId);
  await setSavedAssetCount(ctx, user, kind, count - 1);
}
