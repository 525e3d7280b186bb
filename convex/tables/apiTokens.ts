// The apiTokens tables: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const apiTokenTables = {
  apiTokens: defineTable({
    userId: v.id("users"),
    name: v.string(),
    /** The space the token acts in: absent for the personal space. */
    teamId: v.optional(v.id("teams")),
    /** Lower-case hex SHA-256 of the whole token. */
    tokenHash: v.string(),
    /** The token's first characters, to tell tokens apart in the list. */
    shown: v.string(),
    /** Start of the last minute the token was used in (written once per window, not per request). */
    lastUsedAt: v.optional(v.number()),
    revokedAt: v.optional(v.number()),
  })
    .index("by_hash", ["tokenHash"])
    .index("by_user_revoked", ["userId", "revokedAt"]),
  /** Requests of one token in one minute. */
  apiTokenWindows: defineTable({ tokenId: v.id("apiTokens"), windowStart: v.number(), count: v.number() }).index(
    "by_token_window",
    ["tokenId", "windowStart"],
  ),
};
