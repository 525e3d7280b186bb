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
    /** When the token was last used, right to the minute (written when the stored time is a minute old). */
    lastUsedAt: v.optional(v.number()),
    revokedAt: v.optional(v.number()),
  })
    .index("by_hash", ["tokenHash"])
    .index("by_user_revoked", ["userId", "revokedAt"]),
  /** A token's requests in the last minute (their times, oldest first): its sliding rate window. */
  apiTokenRequests: defineTable({ tokenId: v.id("apiTokens"), times: v.array(v.number()) }).index("by_token", [
    "tokenId",
  ]),
};
