import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { currentUser, fail, publicQuery, userMutation, userQuery } from "./functions";
import { COLLECTION_LIMITS, formatBytes, storedBytes, templateDataLimitProblems } from "./lib/limits";
import { templateCheckProblems } from "./lib/checkProblems";
import { problemsOf, templateSchema } from "./lib/forms";
import { templateRunProblems, validatePersona, validateTopic, withoutSettleSeed } from "./lib/templates";
import { rejectProblems } from "./core/validation";
import schema from "./schema";
import { templateCategory, templateData } from "./validators";

/** Lists are bounded: a user's own templates and one page of the public library (lib/limits). */
export const MAX_OWN_TEMPLATES = COLLECTION_LIMITS.maxOwnTemplates;
export const PUBLIC_LIBRARY_SIZE = COLLECTION_LIMITS.publicLibrarySize;

/** A template as stored, less its owner, with whether the viewer owns it. */
const templateView = schema.tables.templates.validator
  .omit("userId")
  .extend({ _id: v.id("templates"), _creationTime: v.number(), isOwn: v.boolean() });

function view(template: Doc<"templates">, viewerId: Id<"users"> | null) {
  const { userId, ...rest } = template;
  return { ...rest, isOwn: userId === viewerId };
}

async function ownTemplate(ctx: QueryCtx, userId: Id<"users">, templateId: Id<"templates">) {
  const template = await ctx.db.get("templates", templateId);
  if (!template || template.userId !== userId) fail("NOT_FOUND", "Template not found.");
  return template;
}

/** The caller's templates, newest first, read lazily within the per-user count and size. */
async function ownTemplates(ctx: QueryCtx, userId: Id<"users">): Promise<{ rows: Doc<"templates">[]; bytes: number }> {
  const rows: Doc<"templates">[] = [];
  let bytes = 0;
  for await (const row of ctx.db
    .query("templates")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .order("desc")) {
    const size = storedBytes(row);
    if (rows.length >= MAX_OWN_TEMPLATES || bytes + size > COLLECTION_LIMITS.ownTemplatesBytes) break;
    rows.push(row);
    bytes += size;
  }
  return { rows, bytes };
}

/** Room for one more template of this size: at most 200, together at most 8 MB (lib/limits). */
async function requireTemplateSlot(ctx: QueryCtx, userId: Id<"users">, template: unknown): Promise<void> {
  const { rows, bytes } = await ownTemplates(ctx, userId);
  if (rows.length >= MAX_OWN_TEMPLATES) fail("INVALID_INPUT", `You can save up to ${MAX_OWN_TEMPLATES} templates.`);
  if (bytes + storedBytes(template) > COLLECTION_LIMITS.ownTemplatesBytes) {
    fail(
      "INVALID_INPUT",
      `Your templates can take up at most ${formatBytes(COLLECTION_LIMITS.ownTemplatesBytes)} together. Delete some to save more.`,
      { field: "templateData" },
    );
  }
}

export const listOwn = userQuery({
  args: {},
  returns: v.array(templateView),
  handler: async (ctx) => {
    const { rows } = await ownTemplates(ctx, ctx.user._id);
    return rows.map((row) => view(row, ctx.user._id));
  },
});

/**
 * Public templates for everyone, most used first (spec part 1 §6). A template is at most 256 KiB
 * (lib/limits), and the page stops before its answer passes 4 MiB, so an anonymous caller can
 * never be sent more than that.
 */
export const listPublic = publicQuery({
  args: {},
  returns: v.array(templateView),
  handler: async (ctx) => {
    const viewer = await currentUser(ctx);
    const page = [];
    let bytes = 0;
    // Read lazily, so the function also reads no more than the budget (Convex limits bytes read).
    for await (const row of ctx.db
      .query("templates")
      .withIndex("by_public_usage", (q) => q.eq("isPublic", true))
      .order("desc")) {
      bytes += storedBytes(row);
      if (bytes > COLLECTION_LIMITS.publicLibraryBytes) break;
      page.push(view(row, viewer?._id ?? null));
      if (page.length >= PUBLIC_LIBRARY_SIZE) break;
    }
    return page;
  },
});

/** One template for `?template={id}`: the caller's own, or any public one. */
export const get = userQuery({
  args: { templateId: v.string() },
  returns: v.union(v.null(), templateView),
  handler: async (ctx, { templateId }) => {
    const id = ctx.db.normalizeId("templates", templateId);
    const template = id ? await ctx.db.get("templates", id) : null;
    if (!template || (!template.isPublic && template.userId !== ctx.user._id)) return null;
    return view(template, ctx.user._id);
  },
});

export const create = userMutation({
  args: {
    name: v.string(),
    description: v.string(),
    category: templateCategory,
    isPublic: v.boolean(),
    tags: v.array(v.string()),
    templateData,
  },
  returns: v.id("templates"),
  handler: async (ctx, args) => {
    // The Save-as-Template form's schema (lib/forms): trimmed name and description, normalized tags.
    rejectProblems(problemsOf(templateSchema, args));
    const { name, description, tags } = templateSchema.parse(args);
    rejectProblems(templateDataLimitProblems(args.templateData));
    rejectProblems(templateCheckProblems(args.templateData.checks, args.templateData.topics.length));
    rejectProblems(templateRunProblems(args.templateData));
    args.templateData.personas.forEach((persona, index) =>
      rejectProblems(
        validatePersona(persona).map((p) => ({
          field: `templateData.personas.${index}.${p.field}`,
          message: `Persona ${index + 1}: ${p.message}`,
        })),
      ),
    );
    args.templateData.topics.forEach((topic, index) =>
      rejectProblems(
        validateTopic(topic).map((p) => ({
          field: `templateData.topics.${index}.${p.field}`,
          message: `Topic ${index + 1}: ${p.message}`,
        })),
      ),
    );
    await requireTemplateSlot(ctx, ctx.user._id, args);
    return await ctx.db.insert("templates", {
      userId: ctx.user._id,
      name,
      description,
      category: args.category,
      isPublic: args.isPublic,
      tags,
      usageCount: 0,
      templateData: withoutSettleSeed(args.templateData),
      updatedAt: Date.now(),
    });
  },
});

export const remove = userMutation({
  args: { templateId: v.id("templates") },
  returns: v.null(),
  handler: async (ctx, { templateId }) => {
    await ownTemplate(ctx, ctx.user._id, templateId);
    await ctx.db.delete("templates", templateId);
    return null;
  },
});

export const setVisibility = userMutation({
  args: { templateId: v.id("templates"), isPublic: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { templateId, isPublic }) => {
    await ownTemplate(ctx, ctx.user._id, templateId);
    await ctx.db.patch("templates", templateId, { isPublic, updatedAt: Date.now() });
    return null;
  },
});

/** Counts an apply. The client applies the template whether or not this succeeds. */
export const recordUse = userMutation({
  args: { templateId: v.id("templates") },
  returns: v.null(),
  handler: async (ctx, { templateId }) => {
    const template = await ctx.db.get("templates", templateId);
    if (!template || (!template.isPublic && template.userId !== ctx.user._id)) fail("NOT_FOUND", "Template not found.");
    await ctx.db.patch("templates", templateId, { usageCount: template.usageCount + 1 });
    return null;
  },
});

/** "Save Copy": a public template copied into the caller's own templates, private. */
export const saveCopy = userMutation({
  args: { templateId: v.id("templates") },
  returns: v.id("templates"),
  handler: async (ctx, { templateId }) => {
    const template = await ctx.db.get("templates", templateId);
    if (!template || (!template.isPublic && template.userId !== ctx.user._id)) fail("NOT_FOUND", "Template not found.");
    await requireTemplateSlot(ctx, ctx.user._id, template);
    return await ctx.db.insert("templates", {
      userId: ctx.user._id,
      name: template.name,
      description: template.description,
      category: template.category,
      isPublic: false,
      tags: template.tags,
      usageCount: 0,
      templateData: template.templateData,
      updatedAt: Date.now(),
    });
  },
});
