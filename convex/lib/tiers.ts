// Model tiers and the gateway catalog (spec part 1 §5, §9).
import type { CatalogModel, CatalogPrice, ModelTier } from "./types";

/** Spec sort order of the model pickers; FREE models never reach them (see filterCatalog). */
export const TIER_ORDER: readonly ModelTier[] = ["BUDGET", "STANDARD", "PREMIUM", "ENTERPRISE", "FLAGSHIP"];

/** Upper bounds (inclusive) of the blended price per million tokens, in dollars. */
export const TIER_CEILINGS = { BUDGET: 1, STANDARD: 5, PREMIUM: 15, ENTERPRISE: 50 } as const;

/** Catalog filter: both prices must be strictly between 0 and this, per token. */
export const MAX_PRICE_PER_TOKEN = 0.0001;

/** Spec: the model cache is fresh for 24 hours. */
export const CATALOG_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Spec: a model without a context length is taken to have 4096 tokens. */
export const DEFAULT_CONTEXT_LENGTH = 4096;

/**
 * (0.7 × prompt + 0.3 × completion) × 1e6, in dollars per million tokens. Rounded to a
 * billionth so that float noise cannot move a model across a tier boundary
 * (0.7e-6 + 0.3e-6 must count as exactly 1).
 */
export function blendedPricePerMillion(pricing: CatalogPrice): number {
  const blended = (0.7 * pricing.prompt + 0.3 * pricing.completion) * 1e6;
  return Math.round(blended * 1e9) / 1e9;
}

/** Tier by blended price per million: 0 (or less) FREE, ≤1 BUDGET, ≤5 STANDARD, ≤15 PREMIUM, ≤50 ENTERPRISE, else FLAGSHIP. */
export function tierOf(pricing: CatalogPrice): ModelTier {
  const blended = blendedPricePerMillion(pricing);
  if (!(blended > 0)) return "FREE";
  if (blended <= TIER_CEILINGS.BUDGET) return "BUDGET";
  if (blended <= TIER_CEILINGS.STANDARD) return "STANDARD";
  if (blended <= TIER_CEILINGS.PREMIUM) return "PREMIUM";
  if (blended <= TIER_CEILINGS.ENTERPRISE) return "ENTERPRISE";
  return "FLAGSHIP";
}

function tierRank(tier: ModelTier): number {
  // FREE (or anything unknown) sorts before BUDGET.
  return TIER_ORDER.indexOf(tier);
}

/** Sort by tier (BUDGET … FLAGSHIP), then by name, then by id so the order is total. */
export function compareModels(
  a: { readonly tier: ModelTier; readonly name: string; readonly id?: string },
  b: { readonly tier: ModelTier; readonly name: string; readonly id?: string },
): number {
  return (
    tierRank(a.tier) - tierRank(b.tier) ||
    a.name.localeCompare(b.name, "en", { sensitivity: "base" }) ||
    (a.id ?? "").localeCompare(b.id ?? "", "en")
  );
}

/** Spec filter: both prices above 0 and below 0.0001 per token, and not FREE. */
export function isListedModel(model: { readonly pricing: CatalogPrice; readonly tier?: ModelTier }): boolean {
  const { prompt, completion } = model.pricing;
  const priced = prompt > 0 && completion > 0 && prompt < MAX_PRICE_PER_TOKEN && completion < MAX_PRICE_PER_TOKEN;
  return priced && (model.tier ?? tierOf(model.pricing)) !== "FREE";
}

/** The models users may pick (sort them with compareModels for the pickers). */
export function filterCatalog<M extends { readonly pricing: CatalogPrice; readonly tier?: ModelTier }>(
  models: readonly M[],
): M[] {
  return models.filter(isListedModel);
}

export function isCatalogStale(lastUpdated: number | undefined, now: number): boolean {
  return lastUpdated === undefined || now - lastUpdated >= CATALOG_MAX_AGE_MS;
}

function toPrice(value: unknown): number {
  const parsed = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : Number.NaN;
  // Unparseable prices become 0, which makes the model FREE and keeps it out of the pickers.
  return Number.isFinite(parsed) ? parsed : 0;
}

function toText(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function toContextLength(...candidates: unknown[]): number {
  for (const value of candidates) {
    if (typeof value === "number" && Number.isFinite(value) && value > 0) return Math.floor(value);
  }
  return DEFAULT_CONTEXT_LENGTH;
}

/** Unix seconds (or milliseconds, if that large) or a date string → Unix milliseconds. */
function toCreated(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    return value < 1e12 ? Math.round(value * 1000) : Math.round(value);
  }
  if (typeof value === "string" && value.trim()) {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

function toProvider(value: unknown, modelId: string): string {
  if (typeof value === "object" && value !== null) {
    const provider = value as { id?: unknown; name?: unknown };
    const fromObject = toText(provider.id) ?? toText(provider.name);
    if (fromObject) return fromObject;
  }
  const fromString = toText(value);
  if (fromString) return fromString;
  const slash = modelId.indexOf("/");
  return slash > 0 ? modelId.slice(0, slash) : "unknown";
}

/**
 * One entry of the gateway's GET /models (OpenRouter shape) → CatalogModel, or null when it has
 * no id. Prices arrive as strings per token; provider is a string, an object {id, name}, or
 * implied by the id prefix ("openai/gpt-4o" → "openai"); context length falls back to
 * top_provider.context_length, then 4096; created is Unix seconds or a date string.
 */
export function normalizeGatewayModel(raw: unknown): CatalogModel | null {
  if (typeof raw !== "object" || raw === null) return null;
  const entry = raw as Record<string, unknown>;
  const id = toText(entry.id);
  if (!id) return null;
  const rawPricing = (typeof entry.pricing === "object" && entry.pricing !== null ? entry.pricing : {}) as Record<
    string,
    unknown
  >;
  const pricing = { prompt: toPrice(rawPricing.prompt), completion: toPrice(rawPricing.completion) };
  const topProvider = (
    typeof entry.top_provider === "object" && entry.top_provider !== null ? entry.top_provider : {}
  ) as Record<string, unknown>;
  const created = toCreated(entry.created);
  return {
    id,
    name: toText(entry.name) ?? id,
    provider: toProvider(entry.provider, id),
    contextLength: toContextLength(entry.context_length, topProvider.context_length),
    pricing,
    description: typeof entry.description === "string" ? entry.description : "",
    tier: tierOf(pricing),
    ...(created === undefined ? {} : { created }),
  };
}
