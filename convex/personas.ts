import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { validatePersona } from "./lib/templates";
import { listOwnAssets, requireOwnAsset, removeOwnAsset, reserveAssetSlot } from "./core/savedAssets";
import { rejectProblems } from "./core/validation";

const personaFields = { name: v.string(), description: v.string(), systemPrompt: v.string() };

const personaDoc = v.object({
  _id: v.id("personas"),
  _creationTime: v.number(),
  ...personaFields,
  updatedAt: v.number(),
});

function cleaned(fields: { name: string; description: string; systemPrompt: string }) {
  return { name: fields.name.trim(), description: fields.description.trim(), systemPrompt: fields.systemPrompt.trim() };
}

/** Saved personas are listed for their owner only, newest first. */
export const list = userQuery({
  args: { limit: v.optional(v.number()) },
  returns: v.object({ items: v.array(personaDoc), total: v.number() }),
  handler: async (ctx, { limit }) => await listOwnAssets(ctx, "personas", ctx.user._id, limit),
});

export const create = userMutation({
  args: personaFields,
  returns: v.id("personas"),
  handler: async (ctx, args) => {
    rejectProblems(validatePersona(args));
    await reserveAssetSlot(ctx, ctx.user, "personas");
    return await ctx.db.insert("personas", { userId: ctx.user._id, ...cleaned(args), updatedAt: Date.now() });
  },
});

export const update = userMutation({
  args: { personaId: v.id("personas"), ...personaFields },
  returns: v.null(),
  handler: async (ctx, { personaId, ...fields }) => {
    await requireOwnAsset(ctx, "personas", ctx.user._id, personaId);
    rejectProblems(validatePersona(fields));
    await ctx.db.patch("personas", personaId, { ...cleaned(fields), updatedAt: Date.now() });
    return null;
  },
});

export const remove = userMutation({
  args: { personaId: v.id("personas") },
  returns: v.null(),
  handler: async (ctx, { personaId }) => {
    await removeOwnAsset(ctx, ctx.user, "personas", personaId);
    return null;
  },
});
