// Personal access tokens (Account Settings → API tokens) for the HTTP API under /api/v1
// (publicApi.ts). A token is shown once when it is made; only its SHA-256 is kept (core/apiTokens.ts).
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { fail, internalMutation, requireTeamRole, userAction, userMutation, userQuery } from "./functions";
import { API_TOKEN_LIMITS } from "./lib/limits";
import { API_TOKEN_MESSAGES, countRequest, newToken, principalOf, tokenNameProblem } from "./core/apiTokens";

const tokenView = v.object({
  _id: v.id("apiTokens"),
  name: v.string(),
  shown: v.string(),
  /** The team the token acts in, or null for the personal space. */
  team: v.union(v.null(), v.object({ teamId: v.id("teams"), name: v.string() })),
  createdAt: v.number(),
  /** When it was last used, right to the minute; null if never used. */
  lastUsedAt: v.union(v.null(), v.number()),
});

/** The caller's live tokens, newest first (at most API_TOKEN_LIMITS.maxTokensPerUser exist). */
export const list = userQuery({
  args: {},
  returns: v.array(tokenView),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("apiTokens")
      .withIndex("by_user_revoked", (q) => q.eq("userId", ctx.user._id).eq("revokedAt", undefined))
      .order("desc")
      .take(API_TOKEN_LIMITS.maxTokensPerUser);
    const views = [];
    for (const row of rows) {
      const team = row.teamId === undefined ? null : await ctx.db.get("teams", row.teamId);
      views.push({
        _id: row._id,
        name: row.name,
        shown: row.shown,
        team: team === null ? null : { teamId: team._id, name: team.name },
        createdAt: row._creationTime,
        lastUsedAt: row.lastUsedAt ?? null,
      });
    }
    return views;
  },
});

/**
 * Makes a token for the personal space or one team the caller is in (any role: the token can do
 * what the role allows, checked on every request). Returns the token itself: the only time it is
 * ever shown. An action, so the token's 32 bytes come from a real random source.
 */
export const create = userAction({
  args: { name: v.string(), teamId: v.optional(v.id("teams")) },
  returns: v.object({ tokenId: v.id("apiTokens"), token: v.string() }),
  handler: async (ctx, { name, teamId }): Promise<{ tokenId: Id<"apiTokens">; token: string }> => {
    const problem = tokenNameProblem(name);
    if (problem !== null) fail("INVALID_INPUT", problem, { field: "name" });
    const { token, tokenHash, shown } = await newToken();
    const tokenId: Id<"apiTokens"> = await ctx.runMutation(internal.apiTokens.insert, {
      userId: ctx.userId,
      name: name.trim(),
      teamId,
      tokenHash,
      shown,
    });
    return { tokenId, token };
  },
});

export const insert = internalMutation({
  args: {
    userId: v.id("users"),
    name: v.string(),
    teamId: v.optional(v.id("teams")),
    tokenHash: v.string(),
    shown: v.string(),
  },
  returns: v.id("apiTokens"),
  handler: async (ctx, args) => {
    const user = await ctx.db.get("users", args.userId);
    if (user === null) fail("UNAUTHENTICATED", "Please sign in to continue.");
    if (args.teamId !== undefined) await requireTeamRole({ ...ctx, user }, args.teamId, "viewer");
    const live = await ctx.db
      .query("apiTokens")
      .withIndex("by_user_revoked", (q) => q.eq("userId", args.userId).eq("revokedAt", undefined))
      .take(API_TOKEN_LIMITS.maxTokensPerUser);
    if (live.length >= API_TOKEN_LIMITS.maxTokensPerUser) fail("CONFLICT", API_TOKEN_MESSAGES.tooMany);
    return await ctx.db.insert("apiTokens", {
      userId: args.userId,
      name: args.name,
      ...(args.teamId === undefined ? {} : { teamId: args.teamId }),
      tokenHash: args.tokenHash,
      shown: args.shown,
    });
  },
});

/** Revokes one of the caller's tokens: the next request with it gets 401. */
export const revoke = userMutation({
  args: { tokenId: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const tokenId = ctx.db.normalizeId("apiTokens", args.tokenId);
    const token = tokenId === null ? null : await ctx.db.get("apiTokens", tokenId);
    if (token === null || token.userId !== ctx.user._id || token.revokedAt !== undefined) {
      fail("NOT_FOUND", API_TOKEN_MESSAGES.notFound);
    }
    await ctx.db.patch("apiTokens", token._id, { revokedAt: Date.now() });
    return null;
  },
});

/**
 * An API request's first step: the token by its hash, refused when unknown, revoked, or its
 * user out of its team (401), or over its requests in the last minute (429, nothing counted).
 */
export const authenticate = internalMutation({
  args: { tokenHash: v.string() },
  returns: v.union(
    v.object({ ok: v.literal(true), tokenId: v.id("apiTokens") }),
    v.object({ ok: v.literal(false), status: v.union(v.literal(401), v.literal(429)), retryAfter: v.number() }),
  ),
  handler: async (ctx, { tokenHash }) => {
    const token = await ctx.db
      .query("apiTokens")
      .withIndex("by_hash", (q) => q.eq("tokenHash", tokenHash))
      .unique();
    if (token === null || (await principalOf(ctx, token._id)) === null) {
      return { ok: false as const, status: 401 as const, retryAfter: 0 };
    }
    const wait = await countRequest(ctx, token, Date.now());
    if (wait !== null) return { ok: false as const, status: 429 as const, retryAfter: wait };
    return { ok: true as const, tokenId: token._id };
  },
});
