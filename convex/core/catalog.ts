// The cached model catalog (llmModels), read by the catalog functions (models.ts) and the
// server-side quote of a new test (tests.create).
import type { QueryCtx } from "../_generated/server";
import type { PriceCatalog } from "../lib/types";

/** Far above any real catalog; keeps every read bounded. */
export const MAX_CATALOG_SIZE = 2000;

/** Prices of the cached catalog for the server-side quote. */
export async function priceCatalog(ctx: QueryCtx): Promise<PriceCatalog> {
  const rows = await ctx.db.query("llmModels").take(MAX_CATALOG_SIZE);
  return Object.fromEntries(
    rows.map((row) => [row.modelId, { prompt: row.pricingPrompt, completion: row.pricingCompletion }]),
  );
}
