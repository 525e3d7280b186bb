import { getAuthSessionId, invalidateSessions, modifyAccountCredentials, retrieveAccount } from "@convex-dev/auth/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { fail, internalQuery, userAction, userMutation, userQuery } from "./functions";

const MAX_FULL_NAME = 100;
const MAX_AVATAR_URL = 2048;

/** Trimmed; empty is stored as null (spec part 2 §5). */
function cleanOptional(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

export const get = userQuery({
  args: {},
  returns: v.object({
    id: v.id("users"),
    email: v.string(),
    fullName: v.union(v.string(), v.null()),
    avatarUrl: v.union(v.string(), v.null()),
    createdAt: v.number(),
    updatedAt: v.number(),
  }),
  handler: async (ctx) => ({
    id: ctx.user._id,
    email: ctx.user.email ?? "",
    fullName: ctx.user.fullName ?? null,
    avatarUrl: ctx.user.avatarUrl ?? null,
    createdAt: ctx.user._creationTime,
    updatedAt: ctx.user.updatedAt ?? ctx.user._creationTime,
  }),
});

export const update = userMutation({
  args: { fullName: v.union(v.string(), v.null()), avatarUrl: v.union(v.string(), v.null()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const fullName = cleanOptional(args.fullName);
    const avatarUrl = cleanOptional(args.avatarUrl);
    if (fullName !== null && fullName.length > MAX_FULL_NAME) {
      fail("INVALID_INPUT", `Full name must be at most ${MAX_FULL_NAME} characters.`, { field: "fullName" });
    }
    if (avatarUrl !== null) {
      if (avatarUrl.length > MAX_AVATAR_URL || !/^https?:\/\/\S+$/i.test(avatarUrl)) {
        fail("INVALID_INPUT", "Avatar URL must be a valid http(s) URL.", { field: "avatarUrl" });
      }
    }
    await ctx.db.patch("users", ctx.user._id, { fullName, avatarUrl, updatedAt: Date.now() });
    return null;
  },
});

/** Same rule as sign-up (auth.ts); the auth library does not re-check it on a change. */
const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 200;
const PASSWORD_PROVIDER = "password";

export const passwordAccountOf = internalQuery({
  args: { userId: v.id("users") },
  returns: v.union(v.null(), v.string()),
  handler: async (ctx, { userId }) => {
    const account = await ctx.db
      .query("authAccounts")
      .withIndex("userIdAndProvider", (q) => q.eq("userId", userId).eq("provider", PASSWORD_PROVIDER))
      .first();
    return account?.providerAccountId ?? null;
  },
});

/**
 * Changes the password after checking the current one (wrong guesses count towards the auth
 * library's sign-in rate limit), then signs out the user's other sessions.
 */
export const changePassword = userAction({
  args: { currentPassword: v.string(), newPassword: v.string() },
  returns: v.null(),
  handler: async (ctx, { currentPassword, newPassword }) => {
    if (newPassword.length < MIN_PASSWORD_LENGTH) {
      fail("INVALID_INPUT", `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`, { field: "newPassword" });
    }
    if (newPassword.length > MAX_PASSWORD_LENGTH) {
      fail("INVALID_INPUT", `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`, { field: "newPassword" });
    }
    if (newPassword === currentPassword) {
      fail("INVALID_INPUT", "The new password must differ from the current one.", { field: "newPassword" });
    }
    const accountId: string | null = await ctx.runQuery(internal.profile.passwordAccountOf, { userId: ctx.userId });
    if (accountId === null) fail("NOT_FOUND", "This account does not sign in with a password.");
    try {
      await retrieveAccount(ctx, { provider: PASSWORD_PROVIDER, account: { id: accountId, secret: currentPassword } });
    } catch (error) {
      if (error instanceof Error && error.message.includes("TooManyFailedAttempts")) {
        fail("RATE_LIMITED", "Too many failed attempts. Please wait a few minutes and try again.", { field: "currentPassword" });
      }
      fail("INVALID_INPUT", "Current password is incorrect.", { field: "currentPassword" });
    }
    await modifyAccountCredentials(ctx, { provider: PASSWORD_PROVIDER, account: { id: accountId, secret: newPassword } });
    const sessionId = await getAuthSessionId(ctx);
    await invalidateSessions(ctx, { userId: ctx.userId, except: sessionId ? [sessionId] : [] });
    return null;
  },
});
