// The teams tables: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { TEAM_ROLES } from "../lib/teams";

export const teamRole = v.union(...TEAM_ROLES.map((role) => v.literal(role)));

export const teamTables = {
  teams: defineTable({
    name: v.string(),
    createdBy: v.id("users"),
    updatedAt: v.number(),
    /** The team's dashboard figures, kept as its tests run and end (core/userStats.ts), as on the user row. */
    testCount: v.optional(v.number()),
    completedTestCount: v.optional(v.number()),
    responseCount: v.optional(v.number()),
    evaluationCount: v.optional(v.number()),
    /** What the team's tests were paid, less refunds (core/payments.ts), whoever paid. */
    totalSpentCents: v.optional(v.number()),
  }),
  /** One row per member; a team always has at least one owner (the last-owner rule). */
  memberships: defineTable({
    teamId: v.id("teams"),
    userId: v.id("users"),
    role: teamRole,
  })
    .index("by_user", ["userId"])
    .index("by_team_user", ["teamId", "userId"])
    .index("by_team_role", ["teamId", "role"]),
  /**
   * An email invitation. `token` is 128 random bits and is the only thing the link carries;
   * `email` is normalised (trimmed, lower-case), and only the account with that email can accept.
   */
  invitations: defineTable({
    teamId: v.id("teams"),
    email: v.string(),
    role: teamRole,
    token: v.string(),
    expiresAt: v.number(),
    invitedBy: v.id("users"),
    acceptedAt: v.optional(v.number()),
    acceptedBy: v.optional(v.id("users")),
    declinedAt: v.optional(v.number()),
    revokedAt: v.optional(v.number()),
    /** Set with any of the three above: pending invitations are those without it. */
    closedAt: v.optional(v.number()),
  })
    .index("by_token", ["token"])
    .index("by_team_closed", ["teamId", "closedAt"])
    .index("by_team_email", ["teamId", "email"])
    .index("by_invited_by", ["invitedBy"]),
};
