// Template and bundle cost ranges from the catalog's current prices (not the spec's fixed
// labels): each end is a price quote() would charge, so a range never says less than the
// $2.00 minimum or far more than a run costs.
import { BUILTIN_TEMPLATES, type BuiltinTemplate, type ModelBundle } from "../../../convex/lib/builtins";
import {
  formatPriceRange,
  priceRangeOf,
  quote,
  settingVariants,
  type EstimateInput,
  type PriceRange,
} from "../../../convex/lib/pricing";
import type { PriceCatalog } from "../../../convex/lib/types";

/** A built-in template as the estimate reads it, with its suggested models unless others are given. */
export function templateEstimateInput(
  template: BuiltinTemplate,
  models: { generators: readonly string[]; evaluators: readonly string[] } = template.suggestedModels,
): EstimateInput {
  return {
    generatorModels: models.generators,
    evaluatorModels: models.evaluators,
    personas: template.personas,
    topics: template.topics,
    userPrompt: template.userPrompt,
    responsesPerTopic: 1,
    scoringParameters: template.evaluationConfig.scoringParameters,
  };
}

/** A template with its suggested models, at 1 to 3 responses per topic, under every judging setting. */
export function templatePriceRange(template: BuiltinTemplate, prices: PriceCatalog): PriceRange | null {
  return priceRangeOf(settingVariants(templateEstimateInput(template)), prices);
}

/** A bundle's models on each built-in template's personas, topics and prompt, at 1 to 3 responses per topic, under every judging setting. */
export function bundlePriceRange(bundle: ModelBundle, prices: PriceCatalog): PriceRange | null {
  const models = { generators: bundle.generatorModelIds, evaluators: bundle.evaluatorModelIds };
  return priceRangeOf(
    BUILTIN_TEMPLATES.flatMap((template) => settingVariants(templateEstimateInput(template, models))),
    prices,
  );
}

/** What the current setup would cost with the bundle's models, or null when it has no persona or topic yet. */
export function bundlePriceForSetup(bundle: ModelBundle, setup: EstimateInput, prices: PriceCatalog): number | null {
  if (setup.personas.length === 0 || setup.topics.length === 0) return null;
  return quote(
    { ...setup, generatorModels: bundle.generatorModelIds, evaluatorModels: bundle.evaluatorModelIds },
    prices,
  ).priceCents;
}

/** The range as shown, or a placeholder while the catalog loads. */
export function priceRangeLabel(range: PriceRange | null, ready: boolean): string {
  return ready && range ? formatPriceRange(range) : "…";
}
