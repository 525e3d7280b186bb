import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { validateTopic } from "./lib/templates";
import { listOwnAssets, requireOwnAsset, removeOwnAsset, reserveAssetSlot } from "./core/savedAssets";
import { rejectProblems } from "./core/validation";

const topicFields = { title: v.string(), description: v.string(), prompt: v.string() };

const topicDoc = v.object({
  _id: v.id("topics"),
  _creationTime: v.number(),
  ...topicFields,
  updatedAt: v.number(),
});

function cleaned(fields: { title: string; description: string; prompt: string }) {
  return { title: fields.title.trim(), description: fields.description.trim(), prompt: fields.prompt.trim() };
}

/** Saved topics are listed for their owner only, newest first. */
export const list = userQuery({
  args: { limit: v.optional(v.number()) },
  returns: v.object({ items: v.array(topicDoc), total: v.number() }),
  handler: async (ctx, { limit }) => await listOwnAssets(ctx, "topics", ctx.user._id, limit),
});

export const create = userMutation({
  args: topicFields,
  returns: v.id("topics"),
  handler: async (ctx, args) => {
    rejectProblems(validateTopic(args));
    await reserveAssetSlot(ctx, ctx.user, "topics");
    return await ctx.db.insert("topics", { userId: ctx.user._id, ...cleaned(args), updatedAt: Date.now() });
  },
});

export const update = userMutation({
  args: { topicId: v.id("topics"), ...topicFields },
  returns: v.null(),
  handler: async (ctx, { topicId, ...fields }) => {
    await requireOwnAsset(ctx, "topics", ctx.user._id, topicId);
    rejectProblems(validateTopic(fields));
    await ctx.db.patch("topics", topicId, { ...cleaned(fields), updatedAt: Date.now() });
    return null;
  },
});

export const remove = userMutation({
  args: { topicId: v.id("topics") },
  returns: v.null(),
  handler: async (ctx, { topicId }) => {
    await removeOwnAsset(ctx, ctx.user, "topics", topicId);
    return null;
  },
});
