import { v } from "convex/values";
import { currentUser, internalMutation, internalQuery, publicQuery } from "./functions";
import { normalizeEmail } from "./lib/credentials";
import { isEmailConfigured } from "./core/email";

/** The signed-in user as the shell needs it, or null when signed out. */
export const viewer = publicQuery({
  args: {},
  returns: v.union(
    v.null(),
    v.object({
      _id: v.id("users"),
      email: v.string(),
      fullName: v.union(v.string(), v.null()),
      avatarUrl: v.union(v.string(), v.null()),
      isAdmin: v.boolean(),
      /** In their first session: greeted "Welcome", not "Welcome back". */
      isNew: v.boolean(),
    }),
  ),
  handler: async (ctx) => {
    const user = await currentUser(ctx);
    if (!user) return null;
    return {
      _id: user._id,
      email: user.email ?? "",
      fullName: user.fullName ?? null,
      avatarUrl: user.avatarUrl ?? null,
      isAdmin: user.isAdmin === true,
      isNew: user.signInCount === 1,
    };
  },
});

/** What the sign-in screens may offer on this deployment. */
export const authOptions = publicQuery({
  args: {},
  returns: v.object({ emailEnabled: v.boolean() }),
  handler: async () => ({ emailEnabled: isEmailConfigured() }),
});

/** The caller's user id when their token's session still exists; `userAction` asks this. */
export const caller = internalQuery({
  args: {},
  returns: v.union(v.null(), v.id("users")),
  handler: async (ctx) => (await currentUser(ctx))?._id ?? null,
});

/**
 * Grants admin rights to the account with this email. Not callable from the app: it is the
 * seeded and command-line path (`npx convex run users:grantAdmin '{"email":"you@example.com"}'`)
 * for deployments where ADMIN_EMAILS cannot apply because no email sender proves addresses.
 */
export const grantAdmin = internalMutation({
  args: { email: v.string() },
  returns: v.id("users"),
  handler: async (ctx, { email }) => {
    const user = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", normalizeEmail(email)))
      .first();
    if (user === null)
      throw new Error(`No account with the email ${normalizeEmail(email).slice(0, 254)}: sign up first.`);
    await ctx.db.patch("users", user._id, { isAdmin: true, updatedAt: Date.now() });
    return user._id;
  },
});
