// Test data for the setup page's tests.
import type { CatalogModel } from "../../../convex/lib/types";
import { defaultSetupState, type SetupState } from "./setup-state";

function model(id: string, name: string, prompt: number, completion: number, tier: CatalogModel["tier"]): CatalogModel {
  return {
    id,
    name,
    provider: id.split("/")[0],
    contextLength: 128_000,
    pricing: { prompt, completion },
    description: `${name} for tests.`,
    tier,
  };
}

/** Sorted as models.list sorts (tier, then name). */
export const CATALOG: CatalogModel[] = [
  model("google/gemini-2.0-flash-001", "Gemini 2.0 Flash", 0.1e-6, 0.4e-6, "BUDGET"),
  model("openai/gpt-4o-mini", "GPT-4o mini", 0.15e-6, 0.6e-6, "BUDGET"),
  model("meta-llama/llama-3.3-70b-instruct", "Llama 3.3 70B Instruct", 0.13e-6, 0.4e-6, "BUDGET"),
  model("anthropic/claude-3.5-haiku", "Claude 3.5 Haiku", 0.8e-6, 4e-6, "STANDARD"),
  model("openai/gpt-4o", "GPT-4o", 2.5e-6, 10e-6, "STANDARD"),
  model("openai/gpt-4.1", "GPT-4.1", 2e-6, 8e-6, "STANDARD"),
];

export function catalogResult(models: CatalogModel[] = CATALOG, lastUpdated: number | null = Date.now()) {
  return { models, lastUpdated };
}

/** A draft that can run: 2 generators, 1 evaluator, 2 personas, 1 topic. */
export function completeState(overrides: Partial<SetupState> = {}): SetupState {
  return {
    ...defaultSetupState(),
    name: "Support tone check",
    userPrompt: "Answer in under 100 words.",
    personas: [
      {
        id: "temp-1-a",
        name: "Calm Agent",
        description: "Patient support agent",
        systemPrompt: "You are a calm, patient support agent.",
      },
      {
        id: "temp-1-b",
        name: "Sarcastic Teenager",
        description: "Eye-rolling",
        systemPrompt: "You are a sarcastic teenager.",
      },
    ],
    topics: [
      {
        id: "temp-2-a",
        title: "Refund request",
        description: "A late parcel",
        prompt: "My parcel is two weeks late. I want a refund.",
      },
    ],
    generatorModelIds: ["openai/gpt-4o-mini", "google/gemini-2.0-flash-001"],
    evaluatorModelIds: ["openai/gpt-4o"],
    sectionsVisible: true,
    ...overrides,
  };
}
