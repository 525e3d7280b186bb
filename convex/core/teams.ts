// Teams' tables and the helpers convex/teams.ts builds on. Every read is by index and
// bounded by TEAM_LIMITS, so a team's pages cost the same however many teams exist.
import { teamRole } from "../tables/teams";
export { teamRole };
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { fail } from "../functions";
import { TEAM_LIMITS, TEAM_MESSAGES, teamNameProblem, type TeamRole } from "../lib/teams";
import { deleteWithinBudget, rowsOf } from "./testDeletion";

/** The trimmed name, or INVALID_INPUT with the reason. */
export function validTeamName(raw: string): string {
  const problem = teamNameProblem(raw);
  if (problem !== null) fail("INVALID_INPUT", problem);
  return raw.trim();
}

export async function membershipOf(ctx: QueryCtx, teamId: Id<"teams">, userId: Id<"users">) {
  return await ctx.db
    .query("memberships")
    .withIndex("by_team_user", (q) => q.eq("teamId", teamId).eq("userId", userId))
    .unique();
}

/** Owners of the team, counted up to 2: all the last-owner rule needs to know. */
export async function ownerCount(ctx: QueryCtx, teamId: Id<"teams">): Promise<number> {
  const owners = await ctx.db
    .query("memberships")
    .withIndex("by_team_role", (q) => q.eq("teamId", teamId).eq("role", "owner"))
    .take(2);
  return owners.length;
}

export async function teamMembers(ctx: QueryCtx, teamId: Id<"teams">): Promise<Doc<"memberships">[]> {
  return await ctx.db
    .query("memberships")
    .withIndex("by_team_user", (q) => q.eq("teamId", teamId))
    .take(TEAM_LIMITS.seatsPerTeam);
}

/** Invitations not yet accepted, declined or revoked (expired ones included: the owner sees them lapse). */
export async function openInvitations(ctx: QueryCtx, teamId: Id<"teams">): Promise<Doc<"invitations">[]> {
  return await ctx.db
    .query("invitations")
    .withIndex("by_team_closed", (q) => q.eq("teamId", teamId).eq("closedAt", undefined))
    .order("desc")
    .take(TEAM_LIMITS.seatsPerTeam);
}

/** Refuses a new seat when the team's members plus pending invitations are at the limit. */
export async function requireFreeSeat(ctx: QueryCtx, teamId: Id<"teams">, now: number) {
  const members = await teamMembers(ctx, teamId);
  const pending = (await openInvitations(ctx, teamId)).filter((row) => row.expiresAt > now);
  if (members.length + pending.length >= TEAM_LIMITS.seatsPerTeam) fail("CONFLICT", TEAM_MESSAGES.teamFull);
}

/** Each invitation may send an email: one person sends at most TEAM_LIMITS.invitationsPerHour an hour. */
export async function requireInvitationAllowance(ctx: QueryCtx, userId: Id<"users">, now: number) {
  const recent = await ctx.db
    .query("invitations")
    .withIndex("by_invited_by", (q) => q.eq("invitedBy", userId).gt("_creationTime", now - 60 * 60 * 1000))
    .take(TEAM_LIMITS.invitationsPerHour);
  if (recent.length >= TEAM_LIMITS.invitationsPerHour) fail("RATE_LIMITED", TEAM_MESSAGES.tooManyInvitations);
}

export async function requireRoomForTeam(ctx: QueryCtx, userId: Id<"users">) {
  const mine = await ctx.db
    .query("memberships")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .take(TEAM_LIMITS.teamsPerUser);
  if (mine.length >= TEAM_LIMITS.teamsPerUser) fail("CONFLICT", TEAM_MESSAGES.tooManyTeams);
}

export async function addMember(ctx: MutationCtx, teamId: Id<"teams">, userId: Id<"users">, role: TeamRole) {
  return await ctx.db.insert("memberships", { teamId, userId, role });
}

/**
 * Deletes up to one batch of the team's memberships, invitations and spend rows; true when rows remain.
 * The team row itself goes first (convex/teams.ts `remove`), so access ends at once.
 */
export async function deleteTeamRows(ctx: MutationCtx, teamId: Id<"teams">): Promise<boolean> {
  const left = await deleteWithinBudget(ctx, TEAM_LIMITS.deletionBatch, [
    rowsOf("memberships", (limit) =>
      ctx.db
        .query("memberships")
        .withIndex("by_team_user", (q) => q.eq("teamId", teamId))
        .take(limit),
    ),
    rowsOf("invitations", (limit) =>
      ctx.db
        .query("invitations")
        .withIndex("by_team_closed", (q) => q.eq("teamId", teamId))
        .take(limit),
    ),
    rowsOf("teamSpend", (limit) =>
      ctx.db
        .query("teamSpend")
        .withIndex("by_team_user", (q) => q.eq("teamId", teamId))
        .take(limit),
    ),
  ]);
  return left === 0;
}

/**
 * A deleted account leaves its teams (one batch; true when memberships remain). A team it was the
 * last owner of gets a new owner, its longest-standing member, so it is never left unmanaged;
 * a team left with nobody is deleted.
 */
export async function leaveAllTeams(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  const memberships = await ctx.db
    .query("memberships")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .take(TEAM_LIMITS.teamsPerUser);
  for (const membership of memberships) {
    await ctx.db.delete("memberships", membership._id);
    if (membership.role !== "owner" || (await ownerCount(ctx, membership.teamId)) > 0) continue;
    const successor = (await teamMembers(ctx, membership.teamId)).sort((a, b) => a._creationTime - b._creationTime)[0];
    if (successor) {
      await ctx.db.patch("memberships", successor._id, { role: "owner" });
    } else if (await ctx.db.get("teams", membership.teamId)) {
      await ctx.db.delete("teams", membership.teamId);
      if (await deleteTeamRows(ctx, membership.teamId)) {
        await ctx.scheduler.runAfter(0, internal.teams.deleteTeamData, { teamId: membership.teamId });
      }
    }
  }
  return memberships.length === TEAM_LIMITS.teamsPerUser;
}
