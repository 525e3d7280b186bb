// Bundle and template cost ranges come from the catalog's prices, against the dev gateway's
// catalog (realistic list prices): each end is a price the run would be charged.
import { describe, expect, it } from "vitest";

import { catalog } from "../../../dev/gateway/catalog";
import {
  BUILTIN_TEMPLATES,
  BUNDLE_COST_RANGES,
  modelBundleById,
  MODEL_BUNDLES,
  type BuiltinTemplate,
} from "../../../convex/lib/builtins";
import { formatPriceRange, MIN_PRICE_CENTS, quote } from "../../../convex/lib/pricing";
import { EVALUATION_SCALES, type PriceCatalog } from "../../../convex/lib/types";
import { bundlePriceForSetup, bundlePriceRange, templateEstimateInput, templatePriceRange } from "./price-ranges";

const prices: PriceCatalog = Object.fromEntries(
  catalog.map((model) => [
    model.id,
    { prompt: model.promptPerMillion / 1e6, completion: model.completionPerMillion / 1e6 },
  ]),
);

describe("template cost ranges", () => {
  const SETTINGS = EVALUATION_SCALES.flatMap((scale) =>
    [false, true].flatMap((bothOrders) => [false, true].map((skipOwnFamily) => ({ scale, bothOrders, skipOwnFamily }))),
  );
  const at = (template: BuiltinTemplate, responsesPerTopic: number, scoringParameters = SETTINGS[0]!) =>
    quote({ ...templateEstimateInput(template), responsesPerTopic, scoringParameters }, prices).priceCents;

  it("hold the price of every judging setting the template allows, at 1 to 3 responses per topic", () => {
    for (const template of BUILTIN_TEMPLATES) {
      const range = templatePriceRange(template, prices)!;
      const charged = SETTINGS.flatMap((setting) => [1, 2, 3].map((responses) => at(template, responses, setting)));
      expect(range, template.id).toEqual({ minCents: Math.min(...charged), maxCents: Math.max(...charged) });
      expect(range.minCents).toBeGreaterThanOrEqual(MIN_PRICE_CENTS);
    }
  });

  it("Marketing: Rating with 3 responses costs more than ranking, and the card's range includes it", () => {
    const marketing = BUILTIN_TEMPLATES.find((template) => template.category === "marketing")!;
    const rated = at(marketing, 3, { scale: "rating", bothOrders: false, skipOwnFamily: false });
    expect(rated).toBeGreaterThan(at(marketing, 3, { scale: "ranking", bothOrders: false, skipOwnFamily: false }));
    expect(templatePriceRange(marketing, prices)!.maxCents).toBeGreaterThanOrEqual(rated);
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
