// The gateway's model catalog, cached in llmModels (spec part 1 §3, §9): fresh for 24 hours,
// filtered by price, FREE dropped, tiered and sorted by convex/lib/tiers.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Doc } from "./_generated/dataModel";
import { fail, internalAction, internalMutation, internalQuery, publicQuery, userMutation } from "./functions";
import { compareModels, filterCatalog, isCatalogStale, normalizeGatewayModel } from "./lib/tiers";
import { MODEL_TIERS, type CatalogModel, type ModelTier } from "./lib/types";
import { MAX_CATALOG_SIZE } from "./core/catalog";
import { gatewayConfig, listModels } from "./core/gateway";
import { catalogLatencies } from "./core/modelLatencies";
import { readSetting } from "./core/settings";

const REFRESH_KEY = "catalogRefreshRequestedAt";
/** A refresh asked for within this window is not asked for again. */
const REFRESH_DEBOUNCE_MS = 60_000;

const catalogModel = v.object({
  id: v.string(),
  name: v.string(),
  provider: v.string(),
  contextLength: v.number(),
  pricing: v.object({ prompt: v.number(), completion: v.number() }),
  description: v.string(),
  tier: v.union(...MODEL_TIERS.map((tier) => v.literal(tier))),
  created: v.optional(v.number()),
});

export function toCatalogModel(row: Doc<"llmModels">): CatalogModel {
  return {
    id: row.modelId,
    name: row.name,
    provider: row.provider,
    contextLength: row.contextLength,
    pricing: { prompt: row.pricingPrompt, completion: row.pricingCompletion },
    description: row.description,
    tier: row.tier as ModelTier,
    ...(row.created === undefined ? {} : { created: row.created }),
  };
}

/** The pickers' list, in the spec's order, with the time of the last refresh. */
export const list = publicQuery({
  args: {},
  returns: v.object({ models: v.array(catalogModel), lastUpdated: v.union(v.number(), v.null()) }),
  handler: async (ctx) => {
    const rows = await ctx.db.query("llmModels").take(MAX_CATALOG_SIZE);
    const models = rows.map(toCatalogModel).sort(compareModels);
    const lastUpdated = rows.reduce<number | null>((latest, row) => Math.max(latest ?? 0, row.lastUpdated), null);
    return { models, lastUpdated };
  },
});

/** More models than a test may pick; bounds the latencies read. */
const MAX_TIMED_MODELS = 50;

/**
 * The setup page's time estimate (lib/timeEstimates setupTimeRange): each chosen model's catalog
 * latency for its kind of call (core/modelLatencies) and the calls a test has in flight at once
 * on this deployment (perTestConcurrency within maxGatewayConcurrency).
 */
export const timing = publicQuery({
  args: { generators: v.array(v.string()), judges: v.array(v.string()) },
  returns: v.object({
    concurrency: v.number(),
    latencies: v.array(v.object({ key: v.string(), latencyMs: v.number() })),
  }),
  handler: async (ctx, { generators, judges }) => {
    if (generators.length > MAX_TIMED_MODELS || judges.length > MAX_TIMED_MODELS) {
      fail("INVALID_INPUT", `At most ${MAX_TIMED_MODELS} models of each kind can be timed.`);
    }
    const latencies = await catalogLatencies(ctx, { generators, judges });
    const concurrency = Math.min(
      await readSetting(ctx, "perTestConcurrency"),
      await readSetting(ctx, "maxGatewayConcurrency"),
    );
    return {
      concurrency: Math.max(1, concurrency),
      latencies: Object.entries(latencies).map(([key, latencyMs]) => ({ key, latencyMs })),
    };
  },
});

/** Asked by the setup page: schedules a refresh when the cache is empty or stale. */
export const requestRefresh = userMutation({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) => {
    const now = Date.now();
    const newest = await ctx.db.query("llmModels").withIndex("by_last_updated").order("desc").first();
    if (!isCatalogStale(newest?.lastUpdated, now)) return false;
    const marker = await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", REFRESH_KEY))
      .unique();
    if (marker && now - marker.value < REFRESH_DEBOUNCE_MS) return true;
    if (marker) await ctx.db.patch("settings", marker._id, { value: now });
    else await ctx.db.insert("settings", { key: REFRESH_KEY, value: now });
    await ctx.scheduler.runAfter(0, internal.models.refresh, {});
    return true;
  },
});

/** Fetches the gateway's models and replaces the cache with the filtered catalog. */
export const refresh = internalAction({
  args: {},
  returns: v.object({ listed: v.number(), fetched: v.number() }),
  handler: async (ctx) => {
    const raw = await listModels(gatewayConfig());
    const models = filterCatalog(raw.map(normalizeGatewayModel).filter((model) => model !== null));
    await ctx.runMutation(internal.models.replaceCatalog, {
      models: models.slice(0, MAX_CATALOG_SIZE),
      now: Date.now(),
    });
    return { listed: models.length, fetched: raw.length };
  },
});

export const replaceCatalog = internalMutation({
  args: { models: v.array(catalogModel), now: v.number() },
  returns: v.null(),
  handler: async (ctx, { models, now }) => {
    const existing = new Map((await ctx.db.query("llmModels").take(MAX_CATALOG_SIZE)).map((row) => [row.modelId, row]));
    for (const model of models) {
      const fields = {
        modelId: model.id,
        name: model.name,
        provider: model.provider,
        contextLength: model.contextLength,
        pricingPrompt: model.pricing.prompt,
        pricingCompletion: model.pricing.completion,
        description: model.description,
        tier: model.tier,
        created: model.created,
        lastUpdated: now,
      };
      const row = existing.get(model.id);
      if (row) await ctx.db.replace("llmModels", row._id, fields);
      else await ctx.db.insert("llmModels", fields);
      existing.delete(model.id);
    }
    // Models the gateway no longer lists (or that left the price filter) leave the pickers.
    for (const gone of existing.values()) await ctx.db.delete("llmModels", gone._id);
    return null;
  },
});

/** Cron: refresh when the cache is older than 24 hours. */
export const refreshIfStale = internalAction({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const lastUpdated = await ctx.runQuery(internal.models.lastUpdated, {});
    if (isCatalogStale(lastUpdated ?? undefined, Date.now())) await ctx.runAction(internal.models.refresh, {});
    return null;
  },
});

export const lastUpdated = internalQuery({
  args: {},
  returns: v.union(v.number(), v.null()),
  handler: async (ctx) => {
    const newest = await ctx.db.query("llmModels").withIndex("by_last_updated").order("desc").first();
    return newest?.lastUpdated ?? null;
  },
});
