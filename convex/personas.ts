import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { fail, userMutation, userQuery } from "./functions";
import { validatePersona } from "./lib/templates";
import { savedAssetCount, setSavedAssetCount } from "./model/userStats";
import { rejectProblems } from "./model/validation";

const personaFields = { name: v.string(), description: v.string(), systemPrompt: v.string() };

const personaDoc = v.object({
  _id: v.id("personas"),
  _creationTime: v.number(),
  name: v.string(),
  description: v.string(),
  systemPrompt: v.string(),
  updatedAt: v.number(),
});

/** Saved personas are listed for their owner only, newest first. Unbounded lists are capped. */
export const MAX_SAVED_PERSONAS = 500;

async function ownPersona(ctx: QueryCtx, userId: Id<"users">, personaId: Id<"personas">) {
  const persona = await ctx.db.get("personas", personaId);
  if (!persona || persona.userId !== userId) fail("NOT_FOUND", "Persona not found.");
  return persona;
}

export const list = userQuery({
  args: { limit: v.optional(v.number()) },
  returns: v.object({ items: v.array(personaDoc), total: v.number() }),
  handler: async (ctx, { limit }) => {
    const rows = await ctx.db
      .query("personas")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .order("desc")
      .take(MAX_SAVED_PERSONAS);
    const items = rows.slice(0, limit ?? rows.length).map(({ userId: _userId, ...persona }) => persona);
    return { items, total: rows.length };
  },
});

export const create = userMutation({
  args: personaFields,
  returns: v.id("personas"),
  handler: async (ctx, args) => {
    rejectProblems(validatePersona(args));
    const count = (
      await ctx.db.query("personas").withIndex("by_user", (q) => q.eq("userId", ctx.user._id)).take(MAX_SAVED_PERSONAS)
    ).length;
    if (count >= MAX_SAVED_PERSONAS) fail("INVALID_INPUT", `You can save up to ${MAX_SAVED_PERSONAS} personas.`);
    await setSavedAssetCount(ctx, ctx.user, "personas", count + 1);
    return await ctx.db.insert("personas", {
      userId: ctx.user._id,
      name: args.name.trim(),
      description: args.description.trim(),
      systemPrompt: args.systemPrompt.trim(),
      updatedAt: Date.now(),
    });
  },
});

export const update = userMutation({
  args: { personaId: v.id("personas"), ...personaFields },
  returns: v.null(),
  handler: async (ctx, { personaId, ...fields }) => {
    await ownPersona(ctx, ctx.user._id, personaId);
    rejectProblems(validatePersona(fields));
    await ctx.db.patch("personas", personaId, {
      name: fields.name.trim(),
      description: fields.description.trim(),
      systemPrompt: fields.systemPrompt.trim(),
      updatedAt: Date.now(),
    });
    return null;
  },
});

export const remove = userMutation({
  args: { personaId: v.id("personas") },
  returns: v.null(),
  handler: async (ctx, { personaId }) => {
    await ownPersona(ctx, ctx.user._id, personaId);
    const count = await savedAssetCount(ctx, ctx.user, "personas", MAX_SAVED_PERSONAS);
    await ctx.db.delete("personas", personaId);
    await setSavedAssetCount(ctx, ctx.user, "personas", count - 1);
    return null;
  },
});
