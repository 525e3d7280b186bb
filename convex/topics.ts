import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { fail, userMutation, userQuery } from "./functions";
import { validateTopic } from "./lib/templates";
import { savedAssetCount, setSavedAssetCount } from "./model/userStats";
import { rejectProblems } from "./model/validation";

const topicFields = { title: v.string(), description: v.string(), prompt: v.string() };

const topicDoc = v.object({
  _id: v.id("topics"),
  _creationTime: v.number(),
  title: v.string(),
  description: v.string(),
  prompt: v.string(),
  updatedAt: v.number(),
});

/** Saved topics are listed for their owner only, newest first. Unbounded lists are capped. */
export const MAX_SAVED_TOPICS = 500;

async function ownTopic(ctx: QueryCtx, userId: Id<"users">, topicId: Id<"topics">) {
  const topic = await ctx.db.get("topics", topicId);
  if (!topic || topic.userId !== userId) fail("NOT_FOUND", "Topic not found.");
  return topic;
}

export const list = userQuery({
  args: { limit: v.optional(v.number()) },
  returns: v.object({ items: v.array(topicDoc), total: v.number() }),
  handler: async (ctx, { limit }) => {
    const rows = await ctx.db
      .query("topics")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .order("desc")
      .take(MAX_SAVED_TOPICS);
    const items = rows.slice(0, limit ?? rows.length).map(({ userId: _userId, ...topic }) => topic);
    return { items, total: rows.length };
  },
});

export const create = userMutation({
  args: topicFields,
  returns: v.id("topics"),
  handler: async (ctx, args) => {
    rejectProblems(validateTopic(args));
    const count = (
      await ctx.db.query("topics").withIndex("by_user", (q) => q.eq("userId", ctx.user._id)).take(MAX_SAVED_TOPICS)
    ).length;
    if (count >= MAX_SAVED_TOPICS) fail("INVALID_INPUT", `You can save up to ${MAX_SAVED_TOPICS} topics.`);
    await setSavedAssetCount(ctx, ctx.user, "topics", count + 1);
    return await ctx.db.insert("topics", {
      userId: ctx.user._id,
      title: args.title.trim(),
      description: args.description.trim(),
      prompt: args.prompt.trim(),
      updatedAt: Date.now(),
    });
  },
});

export const update = userMutation({
  args: { topicId: v.id("topics"), ...topicFields },
  returns: v.null(),
  handler: async (ctx, { topicId, ...fields }) => {
    await ownTopic(ctx, ctx.user._id, topicId);
    rejectProblems(validateTopic(fields));
    await ctx.db.patch("topics", topicId, {
      title: fields.title.trim(),
      description: fields.description.trim(),
      prompt: fields.prompt.trim(),
      updatedAt: Date.now(),
    });
    return null;
  },
});

export const remove = userMutation({
  args: { topicId: v.id("topics") },
  returns: v.null(),
  handler: async (ctx, { topicId }) => {
    await ownTopic(ctx, ctx.user._id, topicId);
    const count = await savedAssetCount(ctx, ctx.user, "topics", MAX_SAVED_TOPICS);
    await ctx.db.delete("topics", topicId);
    await setSavedAssetCount(ctx, ctx.user, "topics", count - 1);
    return null;
  },
});
