import { v } from "convex/values";
import { currentUser, internalQuery, publicQuery } from "./functions";
import { isEmailConfigured } from "./model/email";

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
