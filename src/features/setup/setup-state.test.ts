import { describe, expect, it } from "vitest";

import { builtinTemplateById } from "../../../convex/lib/builtins";
import { quote } from "../../../convex/lib/pricing";
import type { PriceCatalog } from "../../../convex/lib/types";
import type { TestConfiguration } from "../../../convex/validators";
import { CATALOG, completeState } from "@/test/fixtures/setup";
import {
  SETUP_STORAGE_KEY,
  applyTemplateToState,
  buildTestConfiguration,
  defaultSetupState,
  loadStoredSetup,
  rerunState,
  saveStoredSetup,
} from "./setup-state";
import { builtinSource } from "./template-sources";
import { setupPriceOf } from "./use-setup-price";

const byId = new Map(CATALOG.map((model) => [model.id, model]));
const prices: PriceCatalog = Object.fromEntries(CATALOG.map((model) => [model.id, model.pricing]));
const ids = new Set(byId.keys());

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    items,
  };
}

describe("local storage", () => {
  it("round-trips the whole draft under one versioned key", () => {
    const storage = memoryStorage();
    const state = completeState({
      responsesPerTopic: 4,
      scoringParameters: { scale: "rating", includeExplanations: false },
    });
    saveStoredSetup(storage, { ownerId: "user-1", state });
    expect([...storage.items.keys()]).toEqual([SETUP_STORAGE_KEY]);
    expect(loadStoredSetup(storage)).toEqual({ ownerId: "user-1", state });
  });

  it("starts afresh on nothing, bad JSON or another version", () => {
    const storage = memoryStorage();
    expect(loadStoredSetup(storage).state).toEqual(defaultSetupState());
    storage.setItem(SETUP_STORAGE_KEY, "{not json");
    expect(loadStoredSetup(storage).state).toEqual(defaultSetupState());
    storage.setItem(SETUP_STORAGE_KEY, JSON.stringify({ version: 2, state: completeState() }));
    expect(loadStoredSetup(storage).state).toEqual(defaultSetupState());
  });

  it("keeps the good fields of a damaged draft and clamps responses per topic", () => {
    const storage = memoryStorage();
    const state = completeState();
    storage.setItem(
      SETUP_STORAGE_KEY,
      JSON.stringify({ version: 1, state: { ...state, category: "nonsense", topics: "oops", responsesPerTopic: 40 } }),
    );
    const loaded = loadStoredSetup(storage).state;
    expect(loaded.personas).toEqual(state.personas);
    expect(loaded.topics).toEqual([]);
    expect(loaded.category).toBe("general");
    expect(loaded.responsesPerTopic).toBe(10);
  });
});

describe("price", () => {
  it("equals quote() of the configuration tests.create receives, for several configurations", () => {
    const configurations = [
      completeState(),
      completeState({ responsesPerTopic: 5, scoringParameters: { scale: "rating", includeExplanations: true } }),
      completeState({
        generatorModelIds: ["openai/gpt-4o", "openai/gpt-4.1"],
        evaluatorModelIds: ["anthropic/claude-3.5-haiku"],
      }),
      defaultSetupState(),
    ];
    for (const state of configurations) {
      // Built by hand in the server's shape, names as tests.create fills them in.
      const serverConfig: TestConfiguration = {
        name: state.name.trim() || "Unnamed Test",
        taskType: state.category,
        userPrompt: state.userPrompt,
        personas: state.personas,
        topics: state.topics,
        generatorModels: state.generatorModelIds.map((id) => ({ id, name: byId.get(id)!.name })),
        evaluatorModels: state.evaluatorModelIds.map((id) => ({ id, name: byId.get(id)!.name })),
        responsesPerTopic: state.responsesPerTopic,
        rankingPrompt: state.rankingPrompt,
        evaluationCriteria: state.evaluationCriteria,
        scoringParameters: state.scoringParameters,
      };
      const page = setupPriceOf(state, { byId, prices });
      expect(page.quote.priceCents).toBe(quote(serverConfig, prices).priceCents);
      expect(page.configuration).toEqual({ ...serverConfig, name: state.name });
    }
  });

  it("is $0.00 with nothing to run, at least $2.00 otherwise", () => {
    expect(setupPriceOf(defaultSetupState(), { byId, prices }).quote.priceCents).toBe(0);
    const page = setupPriceOf(completeState(), { byId, prices });
    expect(page.quote.priceCents).toBeGreaterThanOrEqual(200);
    expect(page.queries).toBe(2 * 2 * 1);
  });

  it("gives a test set to stop when settled its price range, from the fewest pairs that could settle to all of them", () => {
    expect(setupPriceOf(completeState(), { byId, prices }).settledRange).toBeNull();
    // A costly catalog, so the price is above the $2.00 minimum: 2 personas × 1 topic = 2 pairs.
    const costly: PriceCatalog = Object.fromEntries(
      CATALOG.map((model) => [model.id, { prompt: 1e-3, completion: 1e-3 }]),
    );
    const page = setupPriceOf(completeState(), { byId, prices: costly }, undefined, 1);
    const { priceCents, estimate } = page.quote;
    expect(priceCents).toBeGreaterThan(400);
    // One pair of two: half of each kind of call, marked up and rounded up (lib/unrunRefund.test.ts works it by hand).
    expect(page.settledRange).toEqual({
      minCents: Math.max(200, Math.ceil(Math.round((estimate.totalCost / 2) * 4.4 * 1e6) / 1e4)),
      maxCents: priceCents,
    });
    expect(setupPriceOf(completeState(), { byId, prices: costly }, undefined, 2).settledRange).toEqual({
      minCents: priceCents,
      maxCents: priceCents,
    });
  });

  it("estimates the time from the models' catalog latencies and the concurrency, as a range", () => {
    // 4 answers (2 generators × 2 personas × 1 topic) then 2 ranking calls (2 pairs × 1 judge), 2 at a time.
    const timing = {
      concurrency: 2,
      latencies: [
        { key: "generate:openai/gpt-4o-mini", latencyMs: 4_000 },
        { key: "generate:google/gemini-2.0-flash-001", latencyMs: 6_000 },
        { key: "evaluate:openai/gpt-4o", latencyMs: 3_000 },
      ],
    };
    // By hand: answers end at 4, 6, 8 and 12 s on the two slots; the last pair's judgement starts
    // after its last answer, at 12 s, and ends at 15 s. From ×0.8 (12 s) to ×1.6 (24 s).
    expect(setupPriceOf(completeState(), { byId, prices }, timing).timeLabel).toBe("12-24 seconds");
    // Twice the calls at once: the answers all end by 6 s, the judgements by 9 s: 7.2-14.4 s.
    expect(setupPriceOf(completeState(), { byId, prices }, { ...timing, concurrency: 4 }).timeLabel).toBe(
      "7-15 seconds",
    );
    // Slow real models (the defaults for models never run here): 15 s answers, 6 s judgements, at 64.
    expect(setupPriceOf(completeState(), { byId, prices }).timeLabel).toBe("16-34 seconds");
  });

  it("names what is missing before the test can run", () => {
    const messages = setupPriceOf(defaultSetupState(), { byId, prices }).problems.map((problem) => problem.message);
    expect(messages).toEqual([
      "Select at least one generator model.",
      "Select at least one evaluator model.",
      "Add at least one persona.",
      "Add at least one topic.",
    ]);
    expect(setupPriceOf(completeState(), { byId, prices }).canRun).toBe(true);
  });
});

describe("applying a template", () => {
  it("fills everything, copies items under temporary ids and keeps only catalog models", () => {
    const marketing = builtinTemplateById("marketing-copy")!;
    const state = applyTemplateToState(builtinSource(marketing), ids, 1_700_000_000_000);
    expect(state.name).toBe(marketing.name);
    expect(state.category).toBe("marketing");
    expect(state.userPrompt).toBe(marketing.userPrompt);
    expect(state.rankingPrompt).toBe(marketing.evaluationConfig.rankingPrompt);
    expect(state.personas.map((persona) => persona.name)).toEqual(marketing.personas.map((persona) => persona.name));
    expect(state.topics).toHaveLength(marketing.topics.length);
    for (const item of [...state.personas, ...state.topics]) expect(item.id).toMatch(/^temp-1700000000000-[a-z0-9]+$/);
    expect(new Set(state.personas.map((persona) => persona.id)).size).toBe(state.personas.length);
    // claude-sonnet-4 and gemini-2.5-pro are not in the test catalog.
    expect(state.generatorModelIds).toEqual([
      "openai/gpt-4o",
      "google/gemini-2.0-flash-001",
      "meta-llama/llama-3.3-70b-instruct",
    ]);
    expect(state.evaluatorModelIds).toEqual(["openai/gpt-4.1"]);
    expect(state.evaluationCriteria).toEqual(marketing.evaluationConfig.evaluationCriteria);
    expect(state.appliedTemplate).toEqual({ kind: "builtin", id: "marketing-copy", name: marketing.name });
    expect(state.sectionsVisible).toBe(true);
  });
});

describe("rerun", () => {
  it("suffixes the name and matches models against the catalog", () => {
    const config = buildTestConfiguration(
      completeState({ generatorModelIds: ["openai/gpt-4o-mini", "retired/model"], responsesPerTopic: 3 }),
      byId,
    );
    const state = rerunState({ ...config, taskType: "technical" }, ids);
    expect(state.name).toBe("Support tone check (Rerun)");
    expect(state.category).toBe("technical");
    expect(state.responsesPerTopic).toBe(3);
    expect(state.generatorModelIds).toEqual(["openai/gpt-4o-mini"]);
    expect(state.evaluatorModelIds).toEqual(["openai/gpt-4o"]);
    expect(state.personas.map((persona) => persona.systemPrompt)).toEqual(
      config.personas.map((persona) => persona.systemPrompt),
    );
    expect(state.userPrompt).toBe(config.userPrompt);
  });
});
