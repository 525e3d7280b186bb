import { v } from "convex/values";
import { fail, userMutation, userQuery } from "./functions";

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
