import {
  getAuthSessionId,
  invalidateSessions,
  modifyAccountCredentials,
  retrieveAccount,
} from "@convex-dev/auth/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { fail, internalQuery, userAction, userMutation, userQuery } from "./functions";
import { passwordChangeSchema, problemsOf, profileSchema } from "./lib/forms";
import { guessablePasswordProblem, type PasswordOwner } from "./lib/passwordStrength";
import { rejectProblems } from "./core/validation";

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
    // The profile form's schema: trimmed, empty stored as null (spec part 2 §5).
    const typed = { fullName: args.fullName ?? "", avatarUrl: args.avatarUrl ?? "" };
    rejectProblems(problemsOf(profileSchema, typed));
    const { fullName, avatarUrl } = profileSchema.parse(typed);
    await ctx.db.patch("users", ctx.user._id, { fullName, avatarUrl, updatedAt: Date.now() });
    return null;
  },
});

const PASSWORD_PROVIDER = "password";
/** Passwords set before today's rule could be longer; nothing near this is a real password. */
const MAX_SECRET_LENGTH = 1024;

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

/** The email and name a new password must not contain. */
export const passwordOwnerOf = internalQuery({
  args: { userId: v.id("users") },
  returns: v.object({ email: v.union(v.string(), v.null()), name: v.union(v.string(), v.null()) }),
  handler: async (ctx, { userId }) => {
    const user = await ctx.db.get("users", userId);
    return { email: user?.email ?? null, name: user?.fullName ?? null };
  },
});

/**
 * Changes the password after checking the current one (wrong guesses count towards the sign-in
 * back-off), then ends the user's other sessions: their tokens are refused at once (functions.ts).
 */
export const changePassword = userAction({
  args: { currentPassword: v.string(), newPassword: v.string() },
  returns: v.null(),
  handler: async (ctx, { currentPassword, newPassword }) => {
    // The same rule as sign-up and reset (lib/credentials.ts); the auth library does not check a change.
    // (The Change Password form's schema, convex/lib/forms, without the confirmation.)
    const newPasswordProblem = problemsOf(passwordChangeSchema, { currentPassword, newPassword }).find(
      (p) => p.field === "newPassword",
    );
    if (newPasswordProblem) fail("INVALID_INPUT", newPasswordProblem.message, { field: "newPassword" });
    // No common or guessable password either, nor one containing the email or name (lib/passwordStrength).
    const owner: PasswordOwner = await ctx.runQuery(internal.profile.passwordOwnerOf, { userId: ctx.userId });
    const guessable = guessablePasswordProblem(newPassword, owner);
    if (guessable !== null) fail("INVALID_INPUT", guessable, { field: "newPassword" });
    if (currentPassword.length > MAX_SECRET_LENGTH)
      fail("INVALID_INPUT", "Current password is incorrect.", { field: "currentPassword" });
    const accountId: string | null = await ctx.runQuery(internal.profile.passwordAccountOf, { userId: ctx.userId });
    if (accountId === null) fail("NOT_FOUND", "This account does not sign in with a password.");
    // Guesses of the current password meet the same back-off as sign-in guesses (core/authThrottle.ts).
    const refusal: string | null = await ctx.runMutation(internal.auth.admitAttempt, {
      email: accountId,
      kind: "signIn",
      deviceHash: null,
    });
    if (refusal !== null) fail("RATE_LIMITED", refusal, { field: "currentPassword" });
    try {
      await retrieveAccount(ctx, { provider: PASSWORD_PROVIDER, account: { id: accountId, secret: currentPassword } });
    } catch (error) {
      if (error instanceof Error && error.message.includes("TooManyFailedAttempts")) {
        fail("RATE_LIMITED", "Too many failed attempts. Please wait a few minutes and try again.", {
          field: "currentPassword",
        });
      }
      await ctx.runMutation(internal.auth.recordFailedAttempt, { email: accountId });
      fail("INVALID_INPUT", "Current password is incorrect.", { field: "currentPassword" });
    }
    await modifyAccountCredentials(ctx, {
      provider: PASSWORD_PROVIDER,
      account: { id: accountId, secret: newPassword },
    });
    const sessionId = await getAuthSessionId(ctx);
    await invalidateSessions(ctx, { userId: ctx.userId, except: sessionId ? [sessionId] : [] });
    return null;
  },
});
