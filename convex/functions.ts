// The only place public functions are built. Every domain module imports its builders
// from here so that each public function states who may call it.
import { customAction, customCtx, customMutation, customQuery } from "convex-helpers/server/customFunctions";
import { makeFunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import type { ErrorCode } from "./lib/errors";
import { hasRole, TEAM_MESSAGES, type TeamRole } from "./lib/teams";
import {
  action,
  internalAction as rawInternalAction,
  internalMutation as rawInternalMutation,
  internalQuery as rawInternalQuery,
  mutation,
  query,
  type ActionCtx,
  type QueryCtx,
} from "./_generated/server";

export type { ErrorCode };

/** A user-facing failure: the client shows `message`; `code` lets it react. */
export function fail(code: ErrorCode, message: string, extra?: Record<string, string>): never {
  throw new ConvexError({ code, message, ...extra });
}

/**
 * The caller's user and auth session ids as the token states them ("userId|sessionId"), or
 * null when signed out. Only parsed here: `currentUser` checks that the session still exists.
 */
async function tokenIds(ctx: { auth: QueryCtx["auth"] }): Promise<{ userId: string; sessionId: string } | null> {
  const identity = await ctx.auth.getUserIdentity();
  if (identity === null) return null;
  const [userId, sessionId] = identity.subject.split("|");
  return userId && sessionId ? { userId, sessionId } : null;
}

/**
 * The signed-in user, or null. A token outlives its session (it is valid for an hour), so the
 * session it names is read too: after sign-out or a password change elsewhere, the session
 * row is gone and the token no longer counts. One extra document read per call.
 */
export async function currentUser(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const ids = await tokenIds(ctx);
  if (ids === null) return null;
  const sessionId = ctx.db.normalizeId("authSessions", ids.sessionId);
  const userId = ctx.db.normalizeId("users", ids.userId);
  if (sessionId === null || userId === null) return null;
  const session = await ctx.db.get("authSessions", sessionId);
  if (session === null || session.userId !== userId) return null;
  return await ctx.db.get("users", userId);
}

async function requireUser(ctx: QueryCtx): Promise<Doc<"users">> {
  const user = await currentUser(ctx);
  if (!user) fail("UNAUTHENTICATED", "Please sign in to continue.");
  return user;
}

async function requireAdmin(ctx: QueryCtx): Promise<Doc<"users">> {
  const user = await requireUser(ctx);
  if (user.isAdmin !== true) fail("FORBIDDEN", "You don't have admin privileges to access this page.");
  return user;
}

/** Anyone, signed in or not: landing data, shared results by share id, contact form. */
export const publicQuery = query;
export const publicMutation = mutation;
export const publicAction = action;

/** Signed-in users; `ctx.user` is the caller. */
export const userQuery = customQuery(
  query,
  customCtx(async (ctx) => ({ user: await requireUser(ctx) })),
);
export const userMutation = customMutation(
  mutation,
  customCtx(async (ctx) => ({ user: await requireUser(ctx) })),
);

/**
 * `internal.users.caller`, named directly: importing `internal` here would make every module's
 * types depend on themselves through this file.
 */
const callerQuery = makeFunctionReference<"query", Record<string, never>, Id<"users"> | null>("users:caller");

/** Actions cannot read the database; they resolve the caller through a query. */
export const userAction = customAction(
  action,
  customCtx(async (ctx: ActionCtx) => {
    if ((await tokenIds(ctx)) === null) fail("UNAUTHENTICATED", "Please sign in to continue.");
    const userId: Id<"users"> | null = await ctx.runQuery(callerQuery, {});
    if (userId === null) fail("UNAUTHENTICATED", "Please sign in to continue.");
    return { userId };
  }),
);

/** Admins only (`isAdmin` read on the server, never trusted from the client). */
export const adminQuery = customQuery(
  query,
  customCtx(async (ctx) => ({ user: await requireAdmin(ctx) })),
);
export const adminMutation = customMutation(
  mutation,
  customCtx(async (ctx) => ({ user: await requireAdmin(ctx) })),
);

export const internalQuery = rawInternalQuery;
export const internalMutation = rawInternalMutation;
export const internalAction = rawInternalAction;

/**
 * The caller's membership of a team when their role is at least `minimumRole` (owner ⊃ member ⊃
 * viewer); refused otherwise. The membership is read on every call, so a removed member is
 * refused at once and every query they subscribe to fails on its next run. Not a member (or no
 * such team): NOT_FOUND, which tells nothing about other people's teams; too low a role: FORBIDDEN.
 */
export async function requireTeamRole(
  ctx: QueryCtx & { user: Doc<"users"> },
  teamId: Id<"teams">,
  minimumRole: TeamRole,
): Promise<{ team: Doc<"teams">; membership: Doc<"memberships"> }> {
  const membership = await ctx.db
    .query("memberships")
    .withIndex("by_team_user", (q) => q.eq("teamId", teamId).eq("userId", ctx.user._id))
    .unique();
  const team = membership === null ? null : await ctx.db.get("teams", teamId);
  if (membership === null || team === null) fail("NOT_FOUND", TEAM_MESSAGES.notFound);
  if (!hasRole(membership.role, minimumRole)) {
    fail("FORBIDDEN", minimumRole === "owner" ? TEAM_MESSAGES.ownersOnly : TEAM_MESSAGES.viewersRead);
  }
  return { team, membership };
}
