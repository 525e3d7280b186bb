// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  blendedPricePerMillion,
  CATALOG_MAX_AGE_MS,
  compareModels,
  filterCatalog,
  isCatalogStale,
  normalizeGatewayModel,
  TIER_ORDER,
  tierOf,
} from "./tiers";
import type { ModelTier } from "./types";

const price = (promptPerMillion: number, completionPerMillion: number) => ({
  prompt: promptPerMillion / 1e6,
  completion: completionPerMillion / 1e6,
});

describe("tiers", () => {
  it("blends 0.7 × prompt + 0.3 × completion per million tokens", () => {
    expect(blendedPricePerMillion(price(2.5, 10))).toBe(4.75);
    expect(blendedPricePerMillion(price(3, 15))).toBe(6.6);
    expect(blendedPricePerMillion({ prompt: 0.0000007, completion: 0.0000003 })).toBe(0.58);
  });

  it("maps the blended price to the spec's tiers, boundaries included", () => {
    const cases: [number, number, ModelTier][] = [
      [0, 0, "FREE"],
      [0.15, 0.6, "BUDGET"], // 0.285
      [1, 1, "BUDGET"], // exactly 1
      [1, 1.1, "STANDARD"], // 1.03
      [2.5, 10, "STANDARD"], // 4.75
      [5, 5, "STANDARD"], // exactly 5
      [3, 15, "PREMIUM"], // 6.6
      [15, 15, "PREMIUM"], // exactly 15
      [15, 75, "ENTERPRISE"], // 33
      [50, 50, "ENTERPRISE"], // exactly 50
      [60, 120, "FLAGSHIP"], // 78
    ];
    for (const [prompt, completion, tier] of cases)
      expect(tierOf(price(prompt, completion)), `${prompt}/${completion}`).toBe(tier);
  });

  it("sorts BUDGET, STANDARD, PREMIUM, ENTERPRISE, FLAGSHIP, then by name", () => {
    expect(TIER_ORDER).toEqual(["BUDGET", "STANDARD", "PREMIUM", "ENTERPRISE", "FLAGSHIP"]);
    const models = [
      { id: "x/flag", name: "Zeta", tier: "FLAGSHIP" as const },
      { id: "x/b2", name: "beta", tier: "BUDGET" as const },
      { id: "x/p", name: "Alpha", tier: "PREMIUM" as const },
      { id: "x/b1", name: "Alpha", tier: "BUDGET" as const },
      { id: "x/s", name: "Omega", tier: "STANDARD" as const },
      { id: "x/e", name: "Mid", tier: "ENTERPRISE" as const },
    ];
    expect([...models].sort(compareModels).map((model) => model.id)).toEqual([
      "x/b1",
      "x/b2",
      "x/s",
      "x/p",
      "x/e",
      "x/flag",
    ]);
  });
});

describe("filterCatalog", () => {
  it("keeps only models with both prices above 0 and below 0.0001 per token", () => {
    const models = [
      { id: "ok", name: "ok", pricing: price(1, 2), tier: "STANDARD" as const },
      { id: "free", name: "free", pricing: price(0, 0), tier: "FREE" as const },
      { id: "free-prompt", name: "free prompt", pricing: price(0, 2), tier: "BUDGET" as const },
      { id: "dear", name: "dear", pricing: { prompt: 0.00002, completion: 0.0001 }, tier: "FLAGSHIP" as const },
      { id: "router", name: "router", pricing: { prompt: -1, completion: -1 }, tier: "FREE" as const },
      { id: "edge", name: "edge", pricing: { prompt: 0.0000999, completion: 0.0000999 }, tier: "FLAGSHIP" as const },
    ];
    expect(filterCatalog(models).map((model) => model.id)).toEqual(["ok", "edge"]);
  });
});

describe("normalizeGatewayModel", () => {
  it("reads OpenRouter's shape", () => {
    expect(
      normalizeGatewayModel({
        id: "openai/gpt-4o",
        name: "OpenAI: GPT-4o",
        created: 1715367049,
        description: "GPT-4o is OpenAI's flagship model.",
        context_length: 128000,
        pricing: { prompt: "0.0000025", completion: "0.00001", request: "0", image: "0.003613" },
        top_provider: { context_length: 128000, max_completion_tokens: 16384, is_moderated: true },
        per_request_limits: null,
      }),
    ).toEqual({
      id: "openai/gpt-4o",
      name: "OpenAI: GPT-4o",
      provider: "openai",
      contextLength: 128000,
      pricing: { prompt: 0.0000025, completion: 0.00001 },
      description: "GPT-4o is OpenAI's flagship model.",
      tier: "STANDARD",
      created: 1715367049000,
    });
  });

  it("fills defaults and reads the provider object and date strings", () => {
    const model = normalizeGatewayModel({
      id: "acme/tiny",
      provider: { id: "acme-cloud", name: "Acme Cloud" },
      pricing: { prompt: 1e-7, completion: "2e-7" },
      created: "2024-05-01T00:00:00Z",
    });
    expect(model).toEqual({
      id: "acme/tiny",
      name: "acme/tiny",
      provider: "acme-cloud",
      contextLength: 4096,
      pricing: { prompt: 1e-7, completion: 2e-7 },
      description: "",
      tier: "BUDGET",
      created: Date.UTC(2024, 4, 1),
    });
    expect(
      normalizeGatewayModel({ id: "m", provider: "Some Lab", top_provider: { context_length: 8192 } }),
    ).toMatchObject({
      provider: "Some Lab",
      contextLength: 8192,
      tier: "FREE",
      pricing: { prompt: 0, completion: 0 },
    });
  });

  it("treats unparseable prices as free and rejects entries without an id", () => {
    expect(normalizeGatewayModel({ id: "x/y", pricing: { prompt: "n/a", completion: "0.001" } })?.pricing.prompt).toBe(
      0,
    );
    expect(normalizeGatewayModel({ name: "no id" })).toBeNull();
    expect(normalizeGatewayModel("openai/gpt-4o")).toBeNull();
    expect(normalizeGatewayModel(null)).toBeNull();
  });
});

describe("isCatalogStale", () => {
  it("refreshes after 24 hours", () => {
    const now = Date.UTC(2025, 0, 2);
    expect(CATALOG_MAX_AGE_MS).toBe(86_400_000);
    expect(isCatalogStale(undefined, now)).toBe(true);
    expect(isCatalogStale(now - CATALOG_MAX_AGE_MS + 1, now)).toBe(false);
    expect(isCatalogStale(now - CATALOG_MAX_AGE_MS, now)).toBe(true);
  });
});
