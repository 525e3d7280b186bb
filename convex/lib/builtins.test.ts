// @vitest-environment node
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { validate } from "convex-helpers/validators";
import * as lucide from "lucide-react";
import { describe, expect, it } from "vitest";
import { templateData, type TemplateData } from "../validators";
import {
  BUILTIN_TEMPLATES,
  BUNDLE_CATEGORIES,
  BUNDLE_CATEGORY_LABELS,
  BUNDLE_COST_RANGES,
  builtinTemplateById,
  isKnownModelId,
  KNOWN_MODEL_IDS,
  MODEL_BUNDLES,
  modelBundleById,
  templateDataOf,
  type BuiltinTemplate,
} from "./builtins";
import { LIMITS, quote } from "./pricing";
import { DEFAULT_RANKING_PROMPT } from "./prompts";
import {
  COMPLEXITY_LABELS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  validatePersona,
  validateTemplateInput,
  validateTopic,
} from "./templates";
import { EVALUATION_CRITERIA, EVALUATION_SCALES, selectedCriteria, type PriceCatalog } from "./types";

const SPEC_TEMPLATES = {
  "marketing-copy": { category: "marketing", icon: "TrendingUp" },
  "technical-documentation": { category: "technical", icon: "FileText" },
  "customer-service": { category: "customer-service", icon: "MessageCircle" },
  "code-generation": { category: "technical", icon: "Code" },
  "content-seo": { category: "content", icon: "PenTool" },
  "custom-evaluation": { category: "general", icon: "Settings" },
} as const;

const SPEC_BUNDLE_IDS = [
  "budget-creative",
  "budget-technical",
  "standard-balanced",
  "standard-creative",
  "standard-analytical",
  "premium-creative",
  "premium-technical",
  "premium-analytical",
  "enterprise-flagship",
  "enterprise-comprehensive",
];

const CHEAP_MODELS = new Set<string>([
  "openai/gpt-4o-mini",
  "google/gemini-2.0-flash-001",
  "meta-llama/llama-3.3-70b-instruct",
  "mistralai/mistral-small-3.1-24b-instruct",
  "deepseek/deepseek-chat",
  "qwen/qwen-2.5-72b-instruct",
  "anthropic/claude-3.5-haiku",
]);

const EXPENSIVE_MODELS = new Set<string>([
  "anthropic/claude-opus-4",
  "openai/gpt-4.1",
  "google/gemini-2.5-pro",
  "x-ai/grok-3",
  "anthropic/claude-sonnet-4",
]);

const PLACEHOLDER_TEXT = /lorem|ipsum|\bTODO\b|\bTBD\b|\bFIXME\b|\[insert|placeholder|xxx/i;

function isLucideIcon(name: string): boolean {
  return Object.hasOwn(lucide, name);
}

function expectDistinctModels(generators: readonly string[], evaluators: readonly string[]): void {
  for (const id of [...generators, ...evaluators]) expect(isKnownModelId(id), id).toBe(true);
  expect(new Set(generators).size).toBe(generators.length);
  expect(new Set(evaluators).size).toBe(evaluators.length);
  // No model judges its own answers.
  expect(generators.filter((id) => evaluators.includes(id))).toEqual([]);
}

/** Every string of a template, to look for leftover placeholders. */
function allTexts(template: BuiltinTemplate): string[] {
  return [
    template.name,
    template.description,
    template.userPrompt,
    template.evaluationConfig.rankingPrompt,
    ...template.personas.flatMap((persona) => [persona.name, persona.description, persona.systemPrompt]),
    ...template.topics.flatMap((topic) => [topic.title, topic.description, topic.prompt]),
  ];
}

describe("KNOWN_MODEL_IDS", () => {
  it("lists fifteen distinct provider/model ids", () => {
    expect(KNOWN_MODEL_IDS).toHaveLength(15);
    expect(new Set(KNOWN_MODEL_IDS).size).toBe(KNOWN_MODEL_IDS.length);
    for (const id of KNOWN_MODEL_IDS) expect(id).toMatch(/^[a-z0-9-]+\/[a-z0-9.-]+$/);
    expect(isKnownModelId("openai/gpt-4o")).toBe(true);
    expect(isKnownModelId("openai/gpt-5")).toBe(false);
  });
});

describe("BUILTIN_TEMPLATES", () => {
  it("are the six built-ins of the spec, with their categories and icons", () => {
    expect(BUILTIN_TEMPLATES.map((template) => template.id)).toEqual(Object.keys(SPEC_TEMPLATES));
    for (const template of BUILTIN_TEMPLATES) {
      const spec = SPEC_TEMPLATES[template.id as keyof typeof SPEC_TEMPLATES];
      expect(template.category).toBe(spec.category);
      expect(TEMPLATE_CATEGORIES).toContain(template.category);
      expect(template.icon).toBe(spec.icon);
      expect(isLucideIcon(template.icon), template.icon).toBe(true);
    }
    expect(new Set(BUILTIN_TEMPLATES.map((template) => template.name)).size).toBe(BUILTIN_TEMPLATES.length);
  });

  it.each(BUILTIN_TEMPLATES.map((template) => [template.id, template] as const))(
    "%s could be saved as a template and its personas and topics are valid",
    (id, template) => {
      expect(validateTemplateInput(template)).toBeNull();
      expect(template.description.length).toBeLessThanOrEqual(TEMPLATE_LIMITS.maxDescriptionLength);
      const [minimum, maximum] = id === "custom-evaluation" ? [1, 1] : [2, 4];
      for (const list of [template.personas, template.topics]) {
        expect(list.length).toBeGreaterThanOrEqual(minimum);
        expect(list.length).toBeLessThanOrEqual(maximum);
      }
      for (const persona of template.personas) expect(validatePersona(persona), persona.name).toEqual([]);
      for (const topic of template.topics) expect(validateTopic(topic), topic.title).toEqual([]);
      expect(new Set(template.personas.map((persona) => persona.name)).size).toBe(template.personas.length);
      expect(new Set(template.topics.map((topic) => topic.title)).size).toBe(template.topics.length);
      expect(template.userPrompt.trim()).not.toBe("");
      expect(template.userPrompt.length).toBeLessThanOrEqual(LIMITS.maxUserPromptLength);
      for (const text of allTexts(template)) {
        expect(text).not.toMatch(PLACEHOLDER_TEXT);
        expect(text).toBe(text.trim());
      }
    },
  );

  it("configure evaluation with a ranking prompt, at least one criterion and explanations", () => {
    for (const template of BUILTIN_TEMPLATES) {
      const { rankingPrompt, evaluationCriteria, scoringParameters } = template.evaluationConfig;
      expect(rankingPrompt.trim()).not.toBe("");
      expect(rankingPrompt.length).toBeLessThanOrEqual(LIMITS.maxRankingPromptLength);
      expect(Object.keys(evaluationCriteria).sort()).toEqual([...EVALUATION_CRITERIA].sort());
      expect(selectedCriteria(evaluationCriteria).length).toBeGreaterThan(0);
      expect(EVALUATION_SCALES).toContain(scoringParameters.scale);
      expect(scoringParameters.includeExplanations).toBe(true);
    }
    // The custom starting point keeps the defaults; the others judge their use case specifically.
    expect(builtinTemplateById("custom-evaluation")?.evaluationConfig.rankingPrompt).toBe(DEFAULT_RANKING_PROMPT);
    const specific = BUILTIN_TEMPLATES.filter((template) => template.id !== "custom-evaluation").map(
      (template) => template.evaluationConfig.rankingPrompt,
    );
    expect(specific).not.toContain(DEFAULT_RANKING_PROMPT);
    expect(new Set(specific).size).toBe(specific.length);
  });

  it("suggest 3-4 generators and 2-3 evaluators, all known and distinct", () => {
    for (const template of BUILTIN_TEMPLATES) {
      const { generators, evaluators } = template.suggestedModels;
      expect(generators.length).toBeGreaterThanOrEqual(3);
      expect(generators.length).toBeLessThanOrEqual(4);
      expect(evaluators.length).toBeGreaterThanOrEqual(2);
      expect(evaluators.length).toBeLessThanOrEqual(3);
      expectDistinctModels(generators, evaluators);
    }
  });

  it("state a cost range and a complexity", () => {
    for (const template of BUILTIN_TEMPLATES) {
      expect(template.pricing.estimatedCostRange).toMatch(/^\$\d+\.\d{2}-\d+\.\d{2}$/);
      expect(Object.keys(COMPLEXITY_LABELS)).toContain(template.pricing.complexity);
    }
    expect(builtinTemplateById("custom-evaluation")?.pricing.complexity).toBe("low");
  });
});

describe("builtinTemplateById", () => {
  it("finds each built-in and nothing else", () => {
    for (const template of BUILTIN_TEMPLATES) expect(builtinTemplateById(template.id)).toBe(template);
    expect(builtinTemplateById("unknown")).toBeUndefined();
    expect(builtinTemplateById("")).toBeUndefined();
  });
});

describe("templateDataOf", () => {
  it("fits the templateData validator exactly (no extra fields)", () => {
    for (const template of BUILTIN_TEMPLATES) {
      const data: TemplateData = templateDataOf(template);
      expect(validate(templateData, data, { throw: true })).toBe(true);
      expect(data.personas).toEqual(template.personas);
      expect(data.topics).toEqual(template.topics);
      expect(data.suggestedModels).toEqual(template.suggestedModels);
      expect(data.evaluationConfig).toEqual(template.evaluationConfig);
      expect(data.userPrompt).toBe(template.userPrompt);
    }
  });

  it("returns a copy, so changing it leaves the built-in untouched", () => {
    const template = BUILTIN_TEMPLATES[0];
    const data = templateDataOf(template);
    data.personas[0].name = "Changed";
    data.suggestedModels.generators.push("openai/gpt-4o-mini");
    data.evaluationConfig.evaluationCriteria.accuracy = !template.evaluationConfig.evaluationCriteria.accuracy;
    expect(template.personas[0].name).not.toBe("Changed");
    expect(templateDataOf(template)).not.toEqual(data);
    expect(templateDataOf(template).suggestedModels).toEqual(template.suggestedModels);
  });
});

describe("MODEL_BUNDLES", () => {
  it("are the ten bundles of the spec", () => {
    expect(MODEL_BUNDLES.map((bundle) => bundle.id)).toEqual(SPEC_BUNDLE_IDS);
    expect(new Set(MODEL_BUNDLES.map((bundle) => bundle.name)).size).toBe(MODEL_BUNDLES.length);
  });

  it("cost what spec §9 says for their category", () => {
    expect(BUNDLE_COST_RANGES).toEqual({
      budget: "$0.50-2.00",
      standard: "$2.00-8.00",
      premium: "$8.00-25.00",
      enterprise: "$25.00+",
    });
    for (const bundle of MODEL_BUNDLES) {
      expect(BUNDLE_CATEGORIES).toContain(bundle.category);
      expect(bundle.id.startsWith(`${bundle.category}-`)).toBe(true);
      expect(bundle.estimatedCostRange).toBe(BUNDLE_COST_RANGES[bundle.category]);
      expect(bundle.priceRange).toBe(BUNDLE_CATEGORY_LABELS[bundle.category]);
    }
  });

  it("select 2-4 generators and 1-3 evaluators, all known and distinct", () => {
    for (const bundle of MODEL_BUNDLES) {
      expect(bundle.generatorModelIds.length).toBeGreaterThanOrEqual(2);
      expect(bundle.generatorModelIds.length).toBeLessThanOrEqual(4);
      expect(bundle.evaluatorModelIds.length).toBeGreaterThanOrEqual(1);
      expect(bundle.evaluatorModelIds.length).toBeLessThanOrEqual(3);
      expectDistinctModels(bundle.generatorModelIds, bundle.evaluatorModelIds);
      expect(bundle.description.trim()).not.toBe("");
      expect(isLucideIcon(bundle.icon), bundle.icon).toBe(true);
    }
  });

  it("use cheap models in budget bundles and expensive generators in premium and enterprise ones", () => {
    for (const bundle of MODEL_BUNDLES) {
      if (bundle.category === "budget") {
        for (const id of [...bundle.generatorModelIds, ...bundle.evaluatorModelIds]) {
          expect(CHEAP_MODELS.has(id), `${bundle.id}: ${id}`).toBe(true);
        }
      }
      if (bundle.category === "premium" || bundle.category === "enterprise") {
        for (const id of bundle.generatorModelIds) expect(EXPENSIVE_MODELS.has(id), `${bundle.id}: ${id}`).toBe(true);
      }
    }
  });

  it("can be found by id", () => {
    for (const bundle of MODEL_BUNDLES) expect(modelBundleById(bundle.id)).toBe(bundle);
    expect(modelBundleById("budget")).toBeUndefined();
  });
});

describe("the dev gateway catalog", () => {
  const catalogPath = fileURLToPath(new URL("../../dev/gateway/catalog.ts", import.meta.url));
  const catalogExists = existsSync(catalogPath);
  const absent = "dev/gateway/catalog.ts is absent, so the model ids cannot be checked against it";

  async function loadCatalog(): Promise<readonly Record<string, unknown>[]> {
    // A variable specifier keeps tsc from requiring the file, which may not exist.
    const module = (await import(/* @vite-ignore */ catalogPath)) as { catalog?: unknown };
    if (!Array.isArray(module.catalog)) throw new Error("dev/gateway/catalog.ts does not export a catalog array");
    return module.catalog as Record<string, unknown>[];
  }

  it("offers every known model", async (context) => {
    if (!catalogExists) context.skip(absent);
    const ids = new Set((await loadCatalog()).map((model) => model.id));
    expect(KNOWN_MODEL_IDS.filter((id) => !ids.has(id))).toEqual([]);
  });

  it("prices each template within its stated range at 1 to 3 responses per topic", async (context) => {
    if (!catalogExists) context.skip(absent);
    const catalog = await loadCatalog();
    const priced = catalog.filter(
      (model) => typeof model.promptPerMillion === "number" && typeof model.completionPerMillion === "number",
    );
    if (priced.length === 0) context.skip("the dev catalog has no promptPerMillion/completionPerMillion prices");
    const prices: PriceCatalog = Object.fromEntries(
      priced.map((model) => [
        model.id,
        { prompt: (model.promptPerMillion as number) / 1e6, completion: (model.completionPerMillion as number) / 1e6 },
      ]),
    );
    for (const template of BUILTIN_TEMPLATES) {
      const [low, high] = template.pricing.estimatedCostRange.slice(1).split("-").map(Number);
      const centsAt = (responsesPerTopic: number) =>
        quote(
          {
            generatorModels: template.suggestedModels.generators,
            evaluatorModels: template.suggestedModels.evaluators,
            personas: template.personas,
            topics: template.topics,
            userPrompt: template.userPrompt,
            responsesPerTopic,
            scoringParameters: template.evaluationConfig.scoringParameters,
          },
          prices,
        ).priceCents;
      expect(centsAt(1), template.id).toBeGreaterThanOrEqual(Math.round(low * 100));
      expect(centsAt(3), template.id).toBeLessThanOrEqual(Math.round(high * 100));
    }
  });
});
