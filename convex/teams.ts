// Teams: create, rename, delete; invite by email with a role; accept or
// decline by the link's token; change roles, remove members, leave. Every function that names a
// team checks the caller's role in it through `requireTeamRole` (convex/functions.ts), which reads
// the membership on every call: a removed member is refused at once.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  fail,
  internalAction,
  internalMutation,
  internalQuery,
  publicQuery,
  requireTeamRole,
  userMutation,
  userQuery,
  currentUser,
} from "./functions";
import { emailProblem, normalizeEmail } from "./lib/credentials";
import { withoutTrailingSlashes } from "./lib/text";
import {
  invitationProblem,
  invitationStatus,
  invitePath,
  lastOwnerProblem,
  TEAM_LIMITS,
  TEAM_MESSAGES,
  ROLE_LABELS,
} from "./lib/teams";
import { isEmailConfigured, sendEmail } from "./core/email";
import {
  addMember,
  deleteTeamRows,
  membershipOf,
  openInvitations,
  ownerCount,
  requireFreeSeat,
  requireInvitationAllowance,
  requireRoomForTeam,
  teamMembers,
  teamRole,
  validTeamName,
} from "./core/teams";
import { env } from "./env";
import { newShareId } from "./lib/shareId";

const teamSummary = v.object({ teamId: v.id("teams"), name: v.string(), role: teamRole });

/** The caller's teams with their role in each, by name: the space switcher and the Teams page. */
export const mine = userQuery({
  args: {},
  returns: v.array(teamSummary),
  handler: async (ctx) => {
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .take(TEAM_LIMITS.teamsPerUser);
    const teams = [];
    for (const membership of memberships) {
      const team = await ctx.db.get("teams", membership.teamId);
      if (team) teams.push({ teamId: team._id, name: team.name, role: membership.role });
    }
    return teams.sort((a, b) => a.name.localeCompare(b.name));
  },
});

const memberView = v.object({
  userId: v.id("users"),
  email: v.string(),
  name: v.union(v.string(), v.null()),
  role: teamRole,
  isMe: v.boolean(),
});

/** A team and its members, for anyone in it (viewers included). */
export const get = userQuery({
  args: { teamId: v.id("teams") },
  returns: v.object({
    teamId: v.id("teams"),
    name: v.string(),
    createdAt: v.number(),
    myRole: teamRole,
    members: v.array(memberView),
  }),
  handler: async (ctx, { teamId }) => {
    const { team, membership } = await requireTeamRole(ctx, teamId, "viewer");
    const members = [];
    for (const row of await teamMembers(ctx, teamId)) {
      const user = await ctx.db.get("users", row.userId);
      members.push({
        userId: row.userId,
        email: user?.email ?? "",
        name: user?.fullName ?? user?.name ?? null,
        role: row.role,
        isMe: row.userId === ctx.user._id,
      });
    }
    const order = { owner: 0, member: 1, viewer: 2 } as const;
    members.sort((a, b) => order[a.role] - order[b.role] || a.email.localeCompare(b.email));
    return { teamId, name: team.name, createdAt: team._creationTime, myRole: membership.role, members };
  },
});

/** Pending (and lapsed, not yet renewed) invitations, for owners: they can copy a link again or revoke it. */
export const invitations = userQuery({
  args: { teamId: v.id("teams") },
  returns: v.array(
    v.object({
      invitationId: v.id("invitations"),
      email: v.string(),
      role: teamRole,
      token: v.string(),
      expiresAt: v.number(),
      createdAt: v.number(),
    }),
  ),
  handler: async (ctx, { teamId }) => {
    await requireTeamRole(ctx, teamId, "owner");
    return (await openInvitations(ctx, teamId)).map((row) => ({
      invitationId: row._id,
      email: row.email,
      role: row.role,
      token: row.token,
      expiresAt: row.expiresAt,
      createdAt: row._creationTime,
    }));
  },
});

export const create = userMutation({
  args: { name: v.string() },
  returns: v.object({ teamId: v.id("teams") }),
  handler: async (ctx, args) => {
    const name = validTeamName(args.name);
    await requireRoomForTeam(ctx, ctx.user._id);
    const teamId = await ctx.db.insert("teams", { name, createdBy: ctx.user._id, updatedAt: Date.now() });
    await addMember(ctx, teamId, ctx.user._id, "owner");
    return { teamId };
  },
});

export const rename = userMutation({
  args: { teamId: v.id("teams"), name: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await requireTeamRole(ctx, args.teamId, "owner");
    await ctx.db.patch("teams", args.teamId, { name: validTeamName(args.name), updatedAt: Date.now() });
    return null;
  },
});

/** Deletes the team: access ends at once for everyone; its rows go in bounded batches. */
export const remove = userMutation({
  args: { teamId: v.id("teams") },
  returns: v.null(),
  handler: async (ctx, { teamId }) => {
    await requireTeamRole(ctx, teamId, "owner");
    await ctx.db.delete("teams", teamId);
    if (await deleteTeamRows(ctx, teamId)) await ctx.scheduler.runAfter(0, internal.teams.deleteTeamData, { teamId });
    return null;
  },
});

export const deleteTeamData = internalMutation({
  args: { teamId: v.id("teams") },
  returns: v.null(),
  handler: async (ctx, { teamId }) => {
    if (await deleteTeamRows(ctx, teamId)) await ctx.scheduler.runAfter(0, internal.teams.deleteTeamData, { teamId });
    return null;
  },
});

/**
 * Invites an address with a role (owners only). The link is returned for the inviter to copy;
 * when the deployment can send email it is also emailed. A pending invitation to the same
 * address is replaced, so only the newest link works.
 */
export const invite = userMutation({
  args: { teamId: v.id("teams"), email: v.string(), role: teamRole },
  returns: v.object({ invitationId: v.id("invitations"), token: v.string(), emailed: v.boolean() }),
  handler: async (ctx, args) => {
    const { team } = await requireTeamRole(ctx, args.teamId, "owner");
    const problem = emailProblem(args.email);
    if (problem !== null) fail("INVALID_INPUT", problem);
    const email = normalizeEmail(args.email);
    const now = Date.now();
    await requireInvitationAllowance(ctx, ctx.user._id, now);

    const account = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .first();
    if (account && (await membershipOf(ctx, team._id, account._id))) fail("CONFLICT", TEAM_MESSAGES.alreadyMember);

    const earlier = await ctx.db
      .query("invitations")
      .withIndex("by_team_email", (q) => q.eq("teamId", team._id).eq("email", email))
      .order("desc")
      .take(5);
    for (const row of earlier) {
      if (row.closedAt === undefined) await ctx.db.patch("invitations", row._id, { revokedAt: now, closedAt: now });
    }
    await requireFreeSeat(ctx, team._id, now);

    const token = newShareId();
    const invitationId = await ctx.db.insert("invitations", {
      teamId: team._id,
      email,
      role: args.role,
      token,
      expiresAt: now + TEAM_LIMITS.invitationTtlMs,
      invitedBy: ctx.user._id,
    });
    const emailed = isEmailConfigured();
    if (emailed) await ctx.scheduler.runAfter(0, internal.teams.sendInvitation, { invitationId });
    return { invitationId, token, emailed };
  },
});

export const revokeInvitation = userMutation({
  args: { invitationId: v.id("invitations") },
  returns: v.null(),
  handler: async (ctx, { invitationId }) => {
    const invitation = await ctx.db.get("invitations", invitationId);
    if (invitation === null) fail("NOT_FOUND", TEAM_MESSAGES.invitationNotFound);
    await requireTeamRole(ctx, invitation.teamId, "owner");
    if (invitation.closedAt !== undefined) fail("CONFLICT", TEAM_MESSAGES.invitationNoLongerPending);
    const now = Date.now();
    await ctx.db.patch("invitations", invitationId, { revokedAt: now, closedAt: now });
    return null;
  },
});

export const invitationToSend = internalQuery({
  args: { invitationId: v.id("invitations") },
  returns: v.union(
    v.null(),
    v.object({
      email: v.string(),
      teamName: v.string(),
      inviter: v.string(),
      role: teamRole,
      token: v.string(),
      expiresAt: v.number(),
    }),
  ),
  handler: async (ctx, { invitationId }) => {
    const invitation = await ctx.db.get("invitations", invitationId);
    if (invitation === null || invitation.closedAt !== undefined) return null;
    const team = await ctx.db.get("teams", invitation.teamId);
    if (team === null) return null;
    const inviter = await ctx.db.get("users", invitation.invitedBy);
    return {
      email: invitation.email,
      teamName: team.name,
      inviter: inviter?.fullName ?? inviter?.email ?? "A ModelJury user",
      role: invitation.role,
      token: invitation.token,
      expiresAt: invitation.expiresAt,
    };
  },
});

/** Emails the invitation link through the app's sender; a failure leaves the copyable link working. */
export const sendInvitation = internalAction({
  args: { invitationId: v.id("invitations") },
  returns: v.null(),
  handler: async (ctx, { invitationId }) => {
    const row = await ctx.runQuery(internal.teams.invitationToSend, { invitationId });
    if (row === null) return null;
    const link = `${withoutTrailingSlashes(env.siteUrl())}${invitePath(row.token)}`;
    try {
      await sendEmail({
        to: row.email,
        subject: `${row.inviter} invited you to ${row.teamName} on ModelJury`,
        text:
          `${row.inviter} invited you to join the team "${row.teamName}" on ModelJury as ${ROLE_LABELS[row.role].toLowerCase()}.\n\n` +
          `Open this link and sign in or sign up with ${row.email} to accept:\n\n${link}\n\n` +
          `The invitation expires in 7 days. If you did not expect it, ignore this email.`,
      });
    } catch (error) {
      console.error("Team invitation could not be emailed", error);
    }
    return null;
  },
});

/**
 * What the acceptance page shows for a token, to anyone holding the link (it is the invitation's
 * only secret). `forCaller` says whether the signed-in caller's email is the invited one (null
 * when signed out). Expiry is compared on the client: queries do not read the clock.
 */
export const invitation = publicQuery({
  args: { token: v.string() },
  returns: v.union(
    v.null(),
    v.object({
      teamName: v.string(),
      email: v.string(),
      role: teamRole,
      inviter: v.string(),
      expiresAt: v.number(),
      state: v.union(v.literal("open"), v.literal("accepted"), v.literal("declined"), v.literal("revoked")),
      forCaller: v.union(v.null(), v.boolean()),
      alreadyMember: v.boolean(),
      teamId: v.id("teams"),
    }),
  ),
  handler: async (ctx, { token }) => {
    if (token.length === 0 || token.length > 64) return null;
    const invitation = await ctx.db
      .query("invitations")
      .withIndex("by_token", (q) => q.eq("token", token))
      .unique();
    if (invitation === null) return null;
    const team = await ctx.db.get("teams", invitation.teamId);
    if (team === null) return null;
    const inviter = await ctx.db.get("users", invitation.invitedBy);
    const user = await currentUser(ctx);
    const state =
      invitation.acceptedAt !== undefined
        ? ("accepted" as const)
        : invitation.revokedAt !== undefined
          ? ("revoked" as const)
          : invitation.declinedAt !== undefined
            ? ("declined" as const)
            : ("open" as const);
    return {
      teamName: team.name,
      email: invitation.email,
      role: invitation.role,
      inviter: inviter?.fullName ?? inviter?.email ?? "A ModelJury user",
      expiresAt: invitation.expiresAt,
      state,
      forCaller: user === null ? null : normalizeEmail(user.email ?? "") === invitation.email,
      alreadyMember: user === null ? false : (await membershipOf(ctx, team._id, user._id)) !== null,
      teamId: team._id,
    };
  },
});

async function invitationFor(ctx: Parameters<typeof currentUser>[0], token: string) {
  const invitation =
    token.length > 0 && token.length <= 64
      ? await ctx.db
          .query("invitations")
          .withIndex("by_token", (q) => q.eq("token", token))
          .unique()
      : null;
  if (invitation === null || (await ctx.db.get("teams", invitation.teamId)) === null) {
    fail("NOT_FOUND", TEAM_MESSAGES.invitationNotFound);
  }
  return invitation;
}

/** Joins the team with the invited role: only the account with the invited email, while the invitation is pending. */
export const accept = userMutation({
  args: { token: v.string() },
  returns: v.object({ teamId: v.id("teams") }),
  handler: async (ctx, { token }) => {
    const invitation = await invitationFor(ctx, token);
    const now = Date.now();
    const problem = invitationProblem(invitation, ctx.user.email ?? "", now);
    if (problem !== null) fail(invitationStatus(invitation, now) === "pending" ? "FORBIDDEN" : "CONFLICT", problem);
    if ((await membershipOf(ctx, invitation.teamId, ctx.user._id)) === null) {
      await requireRoomForTeam(ctx, ctx.user._id);
      await addMember(ctx, invitation.teamId, ctx.user._id, invitation.role);
    }
    await ctx.db.patch("invitations", invitation._id, { acceptedAt: now, acceptedBy: ctx.user._id, closedAt: now });
    return { teamId: invitation.teamId };
  },
});

export const decline = userMutation({
  args: { token: v.string() },
  returns: v.null(),
  handler: async (ctx, { token }) => {
    const invitation = await invitationFor(ctx, token);
    const now = Date.now();
    const problem = invitationProblem(invitation, ctx.user.email ?? "", now);
    if (problem !== null) fail(invitationStatus(invitation, now) === "pending" ? "FORBIDDEN" : "CONFLICT", problem);
    await ctx.db.patch("invitations", invitation._id, { declinedAt: now, closedAt: now });
    return null;
  },
});

async function targetMembership(ctx: Parameters<typeof membershipOf>[0], teamId: Id<"teams">, userId: Id<"users">) {
  const membership = await membershipOf(ctx, teamId, userId);
  if (membership === null) fail("NOT_FOUND", TEAM_MESSAGES.memberNotFound);
  return membership;
}

/** Changes a member's role (owners only); the last owner cannot be demoted. */
export const setRole = userMutation({
  args: { teamId: v.id("teams"), userId: v.id("users"), role: teamRole },
  returns: v.null(),
  handler: async (ctx, args) => {
    await requireTeamRole(ctx, args.teamId, "owner");
    const target = await targetMembership(ctx, args.teamId, args.userId);
    if (target.role === args.role) return null;
    const problem = lastOwnerProblem(await ownerCount(ctx, args.teamId), target.role, {
      kind: "setRole",
      role: args.role,
    });
    if (problem !== null) fail("CONFLICT", problem);
    await ctx.db.patch("memberships", target._id, { role: args.role });
    return null;
  },
});

/** Removes a member (owners only): their access ends at once. The last owner cannot be removed. */
export const removeMember = userMutation({
  args: { teamId: v.id("teams"), userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, args) => {
    await requireTeamRole(ctx, args.teamId, "owner");
    const target = await targetMembership(ctx, args.teamId, args.userId);
    const problem = lastOwnerProblem(await ownerCount(ctx, args.teamId), target.role, { kind: "remove" });
    if (problem !== null) fail("CONFLICT", problem);
    await ctx.db.delete("memberships", target._id);
    return null;
  },
});

/** Leaves the team; the last owner cannot (they can delete the team instead). */
export const leave = userMutation({
  args: { teamId: v.id("teams") },
  returns: v.null(),
  handler: async (ctx, { teamId }) => {
    const { membership } = await requireTeamRole(ctx, teamId, "viewer");
    const problem = lastOwnerProblem(await ownerCount(ctx, teamId), membership.role, { kind: "leave" });
    if (problem !== null) fail("CONFLICT", problem);
    await ctx.db.delete("memberships", membership._id);
    return null;
  },
});
