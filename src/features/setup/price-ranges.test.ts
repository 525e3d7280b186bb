// Bundle and template cost ranges come from the catalog's prices, against the dev gateway's
// catalog (realistic list prices): each end is a price the run would be charged.
import { describe, expect, it } from "vitest";

import { catalog } from "../../../dev/gateway/catalog";
import { BUILTIN_TEMPLATES, BUNDLE_COST_RANGES, modelBundleById, MODEL_BUNDLES } from "../../../convex/lib/builtins";
import { formatPriceRange, MIN_PRICE_CENTS, quote, RANGE_RESPONSES_PER_TOPIC } from "../../../convex/lib/pricing";
import type { PriceCatalog } from "../../../convex/lib/types";
import { bundlePriceForSetup, bundlePriceRange, templateEstimateInput, templatePriceRange } from "./price-ranges";

const prices: PriceCatalog = Object.fromEntries(
  catalog.map((model) => [
    model.id,
    { prompt: model.promptPerMillion / 1e6, completion: model.completionPerMillion / 1e6 },
  ]),
);

describe("template cost ranges", () => {
  it("span the quotes of the template at 1 and 3 responses per topic", () => {
    for (const template of BUILTIN_TEMPLATES) {
      const range = templatePriceRange(template, prices)!;
      const at = (responsesPerTopic: number) =>
        quote({ ...templateEstimateInput(template), responsesPerTopic }, prices).priceCents;
      expect(range, template.id).toEqual({
        minCents: at(RANGE_RESPONSES_PER_TOPIC.min),
        maxCents: at(RANGE_RESPONSES_PER_TOPIC.max),
      });
      expect(range.minCents).toBeGreaterThanOrEqual(MIN_PRICE_CENTS);
    }
  });
});

describe("bundle cost ranges", () => {
  it("never go below the $2.00 minimum, unlike the spec's fixed 'budget $0.50-2.00'", () => {
    for (const bundle of MODEL_BUNDLES) {
      const range = bundlePriceRange(bundle, prices)!;
      expect(range.minCents, bundle.id).toBeGreaterThanOrEqual(MIN_PRICE_CENTS);
      expect(range.maxCents).toBeGreaterThanOrEqual(range.minCents);
    }
    expect(BUNDLE_COST_RANGES.budget).toBe("$0.50-2.00");
    expect(formatPriceRange(bundlePriceRange(modelBundleById("budget-creative")!, prices)!)).toMatch(/^\$2\.00/);
  });

  it("contain what a run with the bundle is charged: Enterprise Flagship on the marketing template is not '$25.00+'", () => {
    const flagship = modelBundleById("enterprise-flagship")!;
    const template = BUILTIN_TEMPLATES[0]!;
    const setup = { ...templateEstimateInput(template), responsesPerTopic: 2 };
    const charged = bundlePriceForSetup(flagship, setup, prices)!;
    const range = bundlePriceRange(flagship, prices)!;
    expect(charged).toBeLessThan(2500);
    expect(charged).toBeGreaterThanOrEqual(range.minCents);
    expect(charged).toBeLessThanOrEqual(range.maxCents);
    expect(bundlePriceForSetup(flagship, { ...setup, personas: [] }, prices)).toBeNull();
  });
});

describe("formatPriceRange", () => {
  it("shows one price when both ends agree", () => {
    expect(formatPriceRange({ minCents: 200, maxCents: 200 })).toBe("$2.00");
    expect(formatPriceRange({ minCents: 200, maxCents: 514 })).toBe("$2.00-5.14");
  });
});
