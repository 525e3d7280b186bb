// The only place public functions are built. Every domain module imports its builders
// from here so that each public function states who may call it.
import { getAuthUserId } from "@convex-dev/auth/server";
import {
  customAction,
  customCtx,
  customMutation,
  customQuery,
} from "convex-helpers/server/customFunctions";
import { ConvexError } from "convex/values";
import type { Doc } from "./_generated/dataModel";
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

export type ErrorCode =
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "INVALID_INPUT"
  | "CONFLICT"
  | "RATE_LIMITED"
  | "PAYMENT_REQUIRED"
  | "UNAVAILABLE";

/** A user-facing failure: the client shows `message`; `code` lets it react. */
export function fail(code: ErrorCode, message: string, extra?: Record<string, string>): never {
  throw new ConvexError({ code, message, ...extra });
}

export async function currentUser(ctx: QueryCtx): Promise<Doc<"users"> | null> {
  const userId = await getAuthUserId(ctx);
  return userId === null ? null : await ctx.db.get("users", userId);
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
export const userQuery = customQuery(query, customCtx(async (ctx) => ({ user: await requireUser(ctx) })));
export const userMutation = customMutation(
  mutation,
  customCtx(async (ctx) => ({ user: await requireUser(ctx) })),
);

/** Actions cannot read the database; they resolve the caller through a query. */
export const userAction = customAction(
  action,
  customCtx(async (ctx: ActionCtx) => {
    const userId = await getAuthUserId(ctx);
    if (userId === null) fail("UNAUTHENTICATED", "Please sign in to continue.");
    return { userId };
  }),
);

/** Admins only (`isAdmin` read on the server, never trusted from the client). */
export const adminQuery = customQuery(query, customCtx(async (ctx) => ({ user: await requireAdmin(ctx) })));
export const adminMutation = customMutation(
  mutation,
  customCtx(async (ctx) => ({ user: await requireAdmin(ctx) })),
);

export const internalQuery = rawInternalQuery;
export const internalMutation = rawInternalMutation;
export const internalAction = rawInternalAction;
