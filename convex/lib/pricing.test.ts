// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  countCalls,
  estimateCost,
  LIMITS,
  markedUpCents,
  MIN_PRICE_CENTS,
  modelPriceCents,
  priceCents,
  priceOf,
  quote,
  responsesPerTopicOf,
  textTokens,
  UNKNOWN_MODEL_COST_PER_TOKEN,
  validateTestConfig,
} from "./pricing";
import { DEFAULT_EVALUATION_CRITERIA, type PriceCatalog, type TestConfig } from "./types";

// 30 characters each: persona + topic + user prompt = 90 chars = 30 prompt tokens per generation
// call; topic + user prompt (the judge's question) = 60 chars = 20 tokens.
const persona = { name: "Teacher", description: "Explains patiently", systemPrompt: "x".repeat(30) };
const topic = { title: "Homework", description: "Everyday help", prompt: "y".repeat(30) };
const catalog: PriceCatalog = {
  "gen/a": { prompt: 1e-6, completion: 2e-6 },
  "gen/b": { prompt: 2e-6, completion: 4e-6 },
  "judge/j": { prompt: 1e-6, completion: 1e-6 },
};

function config(overrides: Partial<TestConfig> = {}): TestConfig {
  return {
    name: "Pricing test",
    userPrompt: "z".repeat(30),
    personas: [persona],
    topics: [topic],
    generatorModels: ["gen/a"],
    evaluatorModels: ["judge/j"],
    responsesPerTopic: 2,
    evaluationCriteria: DEFAULT_EVALUATION_CRITERIA,
    scoringParameters: { scale: "rating", includeExplanations: true },
    ...overrides,
  };
}

describe("estimateCost", () => {
  it("prices one model, persona and topic on the rating scale", () => {
    const estimate = estimateCost(config(), catalog);
    // generation: 30 × 1e-6 + (2 × 500) × 2e-6 = 0.00203
    expect(estimate.generationCost).toBeCloseTo(0.00203, 12);
    // rating: 2 answers × ((20 + 500) × 1e-6 + 250 × 1e-6) = 0.00154
    expect(estimate.evaluationCost).toBeCloseTo(0.00154, 12);
    expect(estimate.totalCost).toBeCloseTo(0.00357, 12);
    expect(estimate.totalQueries).toBe(1);
    expect(estimate.estimatedTokens).toBe(1030 + 2 * 770);
  });

  it("prices one ranking per persona-topic pair per evaluator", () => {
    const estimate = estimateCost(
      config({ scoringParameters: { scale: "ranking", includeExplanations: true } }),
      catalog,
    );
    // ranking: (20 + 500 × 2 answers) × 1e-6 + 400 × 1e-6 = 0.00142
    expect(estimate.evaluationCost).toBeCloseTo(0.00142, 12);
    expect(estimate.totalCost).toBeCloseTo(0.00345, 12);
    expect(estimate.estimatedTokens).toBe(1030 + 1420);
  });

  it("with 'Judge in both orders' prices every ranking call twice (the doubled evaluation count), and nothing extra for ratings", () => {
    const once = estimateCost(config({ scoringParameters: { scale: "ranking", includeExplanations: true } }), catalog);
    const both = estimateCost(
      config({ scoringParameters: { scale: "ranking", includeExplanations: true, bothOrders: true } }),
      catalog,
    );
    // ranking twice: 2 × ((20 + 500 × 2) × 1e-6 + 400 × 1e-6) = 0.00284
    expect(both.evaluationCost).toBeCloseTo(0.00284, 12);
    expect(both.generationCost).toBe(once.generationCost);
    expect(both.estimatedTokens).toBe(1030 + 2 * 1420);
    expect(
      quote(config({ scoringParameters: { scale: "ranking", includeExplanations: true, bothOrders: true } }), catalog)
        .priceCents,
    ).toBe(priceCents(0.00203 + 0.00284));
    const rating = estimateCost(
      config({ scoringParameters: { scale: "rating", includeExplanations: true, bothOrders: true } }),
      catalog,
    );
    expect(rating.evaluationCost).toBeCloseTo(0.00154, 12);
  });

  it("with 'Judges skip answers from their own family' prices no judging of a judge's own family's answers", () => {
    const judges = { generatorModels: ["gen/a", "judge/x"], evaluatorModels: ["judge/j"] };
    const rating = estimateCost(
      config({ ...judges, scoringParameters: { scale: "rating", includeExplanations: true, skipOwnFamily: true } }),
      catalog,
    );
    // only gen/a's 2 answers are rated: 2 × ((20 + 500) × 1e-6 + 250 × 1e-6)
    expect(rating.evaluationCost).toBeCloseTo(0.00154, 12);
    const ranking = estimateCost(
      config({ ...judges, scoringParameters: { scale: "ranking", includeExplanations: true, skipOwnFamily: true } }),
      catalog,
    );
    // one ranking of gen/a's 2 answers, not 4: (20 + 500 × 2) × 1e-6 + 400 × 1e-6
    expect(ranking.evaluationCost).toBeCloseTo(0.00142, 12);
  });

  it("multiplies over models, personas and topics and falls back to 1e-6 for unknown models", () => {
    const estimate = estimateCost(
      config({
        personas: [persona, { ...persona, name: "Critic" }],
        topics: [topic, topic, topic],
        generatorModels: [
          { id: "gen/a", name: "A" },
          { id: "gen/b", name: "B" },
        ],
        evaluatorModels: ["judge/j", "judge/unknown"],
        responsesPerTopic: 1,
      }),
      catalog,
    );
    expect(estimate.totalQueries).toBe(12);
    // per pair: gen/a 0.00103 + gen/b 0.00206; 6 pairs
    expect(estimate.generationCost).toBeCloseTo(0.01854, 12);
    // per pair: 2 answers × 0.00077 for each of the two judges (unknown judge priced 1e-6 too)
    expect(estimate.evaluationCost).toBeCloseTo(0.01848, 12);
    expect(estimate.totalCost).toBeCloseTo(0.03702, 12);
    expect(estimate.estimatedTokens).toBe(6 * (2 * 530 + 2 * 2 * 770));
  });

  it("is zero without generator models, personas or topics", () => {
    for (const empty of [{ generatorModels: [] }, { personas: [] }, { topics: [] }]) {
      expect(estimateCost(config(empty), catalog)).toEqual({
        generationCost: 0,
        evaluationCost: 0,
        totalCost: 0,
        totalQueries: 0,
        estimatedTokens: 0,
      });
    }
  });

  it("counts 3 characters per token, rounded up", () => {
    expect(textTokens("")).toBe(0);
    expect(textTokens("abc")).toBe(1);
    expect(textTokens("abcd")).toBe(2);
    expect(priceOf(catalog, "nobody/none")).toEqual({ prompt: UNKNOWN_MODEL_COST_PER_TOKEN, completion: 1e-6 });
    expect(priceOf(catalog, "constructor")).toEqual({ prompt: 1e-6, completion: 1e-6 });
  });

  it("treats a missing or invalid responses-per-topic as 1", () => {
    expect(responsesPerTopicOf(undefined)).toBe(1);
    expect(responsesPerTopicOf(0)).toBe(1);
    expect(responsesPerTopicOf(Number.NaN)).toBe(1);
    expect(responsesPerTopicOf(3.7)).toBe(3);
  });
});

describe("priceCents", () => {
  it("applies × 1.1 × 4 and rounds up to the cent", () => {
    expect(priceCents(0.5)).toBe(220);
    expect(priceCents(1)).toBe(440);
    expect(priceCents(2.5)).toBe(1100);
    expect(priceCents(1.2345)).toBe(544); // 5.4318 → $5.44
  });

  it("does not add a cent for floating point noise", () => {
    expect(0.5 * 1.1 * 4 * 100).toBeGreaterThan(220); // the trap
    expect(markedUpCents(0.5)).toBe(220);
    expect(markedUpCents(0.5 / 4.4)).toBe(50);
    expect(markedUpCents(0.45454545)).toBe(200);
  });

  it("charges at least $2.00, and nothing when there is nothing to run", () => {
    expect(MIN_PRICE_CENTS).toBe(200);
    expect(priceCents(0.0001)).toBe(200);
    expect(priceCents(0.4)).toBe(200); // $1.76 before the minimum
    expect(priceCents(0)).toBe(0);
    expect(Number.isInteger(priceCents(0.123456))).toBe(true);
  });

  it("rejects invalid costs", () => {
    expect(() => priceCents(-1)).toThrow(RangeError);
    expect(() => priceCents(Number.NaN)).toThrow(RangeError);
  });

  it("quotes a configuration", () => {
    const result = quote(config(), catalog);
    expect(result.estimate.totalCost).toBeCloseTo(0.00357, 12);
    expect(result.priceCents).toBe(200);
  });
});

describe("modelPriceCents", () => {
  it("prices an added generator with the judging of its answers", () => {
    // gen/b: 30 × 2e-6 + 1000 × 4e-6 = 0.00406, plus 2 × 0.00077 judging = 0.0056 → × 4.4 = $0.02464 → 3¢
    expect(modelPriceCents(config(), catalog, "gen/b")).toBe(3);
  });

  it("gives a selected model's share of the price", () => {
    // all of 0.00357 × 4.4 = 0.015708 → 2¢
    expect(modelPriceCents(config(), catalog, "gen/a")).toBe(2);
  });

  it("prices an added evaluator", () => {
    // 2 ratings × 0.00077 at the unknown-model price → 0.00154 × 4.4 = 0.006776 → 1¢
    expect(modelPriceCents(config(), catalog, "judge/other", "evaluator")).toBe(1);
  });

  it("includes the longer rankings an added generator causes", () => {
    const ranking = config({ scoringParameters: { scale: "ranking", includeExplanations: false } });
    const before = estimateCost(ranking, catalog).totalCost;
    const after = estimateCost({ ...ranking, generatorModels: ["gen/a", "gen/b"] }, catalog).totalCost;
    // 0.00406 generating + 1000 more prompt tokens for the judge (0.001)
    expect(after - before).toBeCloseTo(0.00506, 12);
    expect(modelPriceCents(ranking, catalog, "gen/b")).toBe(markedUpCents(after - before));
    expect(modelPriceCents(ranking, catalog, "gen/b")).toBe(3);
  });
});

describe("countCalls", () => {
  const shape = {
    generatorModels: ["a", "b", "c"],
    evaluatorModels: ["j", "k"],
    personas: [persona, persona],
    topics: [topic, topic, topic, topic],
    responsesPerTopic: 2,
  };

  it("counts one rating call per answer per evaluator", () => {
    expect(countCalls({ ...shape, scoringParameters: { scale: "rating" } })).toEqual({
      generationCalls: 24,
      evaluationCalls: 96,
      expectedResponses: 48,
      expectedEvaluations: 96,
      total: 120,
    });
  });

  it("counts one ranking call per persona-topic pair per evaluator", () => {
    expect(countCalls({ ...shape, scoringParameters: { scale: "ranking" } })).toEqual({
      generationCalls: 24,
      evaluationCalls: 16,
      expectedResponses: 48,
      expectedEvaluations: 96,
      total: 40,
    });
  });

  it("counts two ranking calls per pair and evaluator with 'Judge in both orders', each answer judged twice", () => {
    expect(countCalls({ ...shape, scoringParameters: { scale: "ranking", bothOrders: true } })).toMatchObject({
      evaluationCalls: 32,
      expectedEvaluations: 192,
      total: 56,
    });
  });

  it("counts no judging of a judge's own family with 'Judges skip answers from their own family'", () => {
    const families = { ...shape, generatorModels: ["x/a", "y/b", "y/c"], evaluatorModels: ["x/j", "z/k"] };
    // x/j sees 4 of 6 answers per pair, z/k all 6
    expect(countCalls({ ...families, scoringParameters: { scale: "rating", skipOwnFamily: true } })).toMatchObject({
      evaluationCalls: 8 * (4 + 6),
      expectedEvaluations: 8 * (4 + 6),
    });
    expect(countCalls({ ...families, scoringParameters: { scale: "ranking", skipOwnFamily: true } })).toMatchObject({
      evaluationCalls: 16,
      expectedEvaluations: 8 * (4 + 6),
    });
  });

  it("makes no evaluation calls without generators", () => {
    expect(countCalls({ ...shape, generatorModels: [], scoringParameters: { scale: "ranking" } }).total).toBe(0);
  });
});

describe("validateTestConfig", () => {
  it("accepts a complete configuration", () => {
    expect(validateTestConfig(config())).toEqual([]);
  });

  it("lists every missing part", () => {
    const problems = validateTestConfig(config({ generatorModels: [], evaluatorModels: [], personas: [], topics: [] }));
    expect(problems.map((problem) => problem.message)).toEqual([
      "Select at least one generator model.",
      "Select at least one evaluator model.",
      "Add at least one persona.",
      "Add at least one topic.",
    ]);
  });

  it("checks persona and topic fields with their index", () => {
    const problems = validateTestConfig(
      config({ personas: [persona, { ...persona, systemPrompt: "  " }], topics: [{ ...topic, title: "" }] }),
    );
    expect(problems).toEqual([
      { field: "personas.1.systemPrompt", message: "Persona 2: System prompt is required." },
      { field: "topics.0.title", message: "Topic 1: Topic title is required." },
    ]);
  });

  it("enforces responses per topic from 1 to 10 and the criteria", () => {
    for (const responsesPerTopic of [0, 11, 2.5]) {
      expect(validateTestConfig(config({ responsesPerTopic }))).toEqual([
        { field: "responsesPerTopic", message: "Responses per topic must be a whole number from 1 to 10." },
      ]);
    }
    expect(
      validateTestConfig(config({ evaluationCriteria: { ...DEFAULT_EVALUATION_CRITERIA, accuracy: false } })),
    ).toEqual([{ field: "evaluationCriteria", message: "Select at least one evaluation criterion." }]);
  });

  it("rejects duplicates and too many models", () => {
    const problems = validateTestConfig(
      config({
        generatorModels: ["gen/a", { id: "gen/a", name: "A" }],
        evaluatorModels: ["1", "2", "3", "4", "5", "6"],
      }),
    );
    expect(problems.map((problem) => problem.message)).toEqual([
      "Each generator model can only be selected once.",
      "Select at most 5 evaluator models.",
    ]);
  });

  it("caps the gateway calls of a test", () => {
    const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}/${index}`);
    const big = config({
      generatorModels: ids("gen", 4),
      evaluatorModels: ids("judge", 5),
      personas: Array.from({ length: 10 }, () => persona),
      topics: Array.from({ length: 10 }, () => topic),
      responsesPerTopic: 1,
    });
    // 400 generation calls + 400 answers × 5 evaluators = 2400 calls
    expect(countCalls(big).total).toBe(2400);
    expect(validateTestConfig(big)).toEqual([
      {
        field: "calls",
        message:
          "This test needs 2,400 model calls (400 to generate, 2,000 to evaluate); the limit is 2,000. " +
          "Use fewer models, personas, topics or responses per topic.",
      },
    ]);
    // the same on the ranking scale is 400 + 100 × 5 = 900 calls
    expect(validateTestConfig({ ...big, scoringParameters: { scale: "ranking", includeExplanations: true } })).toEqual(
      [],
    );
  });

  it("limits how many answers one ranking compares", () => {
    const ids = Array.from({ length: 5 }, (_, index) => `gen/${index}`);
    const ranking = config({
      generatorModels: ids,
      responsesPerTopic: 9,
      scoringParameters: { scale: "ranking", includeExplanations: true },
    });
    expect(5 * 9).toBeGreaterThan(LIMITS.maxAnswersPerRanking);
    expect(validateTestConfig(ranking).map((problem) => problem.field)).toEqual(["scoringParameters"]);
    expect(validateTestConfig({ ...ranking, responsesPerTopic: 8 })).toEqual([]);
  });

  it("limits text lengths", () => {
    const problems = validateTestConfig(config({ name: "n".repeat(201), userPrompt: "p".repeat(10_001) }));
    expect(problems.map((problem) => problem.message)).toEqual([
      "Test name must be 200 characters or fewer.",
      "The prompt must be 10,000 characters or fewer.",
    ]);
  });
});
