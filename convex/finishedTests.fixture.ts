// Seeds finished tests of any size straight into the database (two dots in the name: Convex
// does not deploy this file), for the results, sharing and deletion tests and bench/.
import type { GenericMutationCtx } from "convex/server";
import type { DataModel, Id } from "./_generated/dataModel";
import { addModelStats, EMPTY_MODEL_STATS, runSummary, type ModelStatsSums } from "./core/pipeline/statistics";
import { EMPTY_RUN_COUNTERS } from "./core/pipeline/runCounters";
import { syncTestSummaryOf } from "./core/testSummaries";
import type { TestConfiguration } from "./validators";

type Ctx = GenericMutationCtx<DataModel>;
/** Anything with convex-test's `run` (a test instance or the dev backend's). */
export type Runner = { run: <T>(fn: (ctx: Ctx) => Promise<T>) => Promise<T> };

export const SEED_MODELS = [
  { id: "openai/gpt-4o-mini", name: "GPT-4o Mini" },
  { id: "anthropic/claude-3.5-haiku", name: "Claude 3.5 Haiku" },
];
export const SEED_EVALUATORS = [
  { id: "google/gemini-2.0-flash-001", name: "Gemini 2.0 Flash" },
  { id: "deepseek/deepseek-chat", name: "DeepSeek V3" },
  { id: "meta-llama/llama-3.3-70b-instruct", name: "Llama 3.3 70B" },
];

/** Two personas and two topics: the seeded tests' grid, and the pipeline tests' (runner, checks). */
export const SEED_PERSONAS: TestConfiguration["personas"] = [
  { id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." },
  { id: "p2", name: "Poet", description: "Rhymes", systemPrompt: "Answer in verse." },
];
export const SEED_TOPICS: TestConfiguration["topics"] = [
  { id: "t1", title: "Coffee", description: "A coffee shop", prompt: "We sell cold brew coffee." },
  { id: "t2", title: "Bikes", description: "Bike repair", prompt: "We repair city bikes." },
];

export function seedConfiguration(): TestConfiguration {
  return {
    name: "Coffee taglines",
    taskType: "marketing",
    userPrompt: "Write a tagline for our new product.",
    personas: SEED_PERSONAS,
    topics: SEED_TOPICS,
    generatorModels: SEED_MODELS,
    evaluatorModels: SEED_EVALUATORS,
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: true, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "rating", includeExplanations: true },
  };
}

export interface SeedOptions {
  userId: Id<"users">;
  responses: number;
  /** Evaluations per response (≤ the 3 evaluators). */
  evaluationsPerResponse?: number;
  name?: string;
  status?: "completed" | "running";
  /** A paid payment with its two ledger rows. */
  withPayment?: boolean;
  /** Rows inserted per transaction. */
  chunk?: number;
  /** Each answer padded to this many characters, and each judge's explanation (real ones are long). */
  answerChars?: number;
  explanationChars?: number;
  /** The test's configuration, in place of seedConfiguration()'s (the rows still use its two models, personas and topics). */
  configuration?: TestConfiguration;
}

/** `text` padded with words to `length` characters (unchanged when it is as long already). */
function padded(text: string, length: number | undefined): string {
  if (length === undefined || text.length >= length) return text;
  return (text + " bold as the sea,".repeat(Math.ceil((length - text.length) / 17))).slice(0, length);
}

/** Model i scores 6 + i (accuracy) and 7 + i (creativity); latency 800 ms + 400 ms × i. */
export async function seedFinishedTest(t: Runner, options: SeedOptions): Promise<Id<"tests">> {
  const configuration = { ...(options.configuration ?? seedConfiguration()), name: options.name ?? "Coffee taglines" };
  const perResponse = options.evaluationsPerResponse ?? 0;
  const chunk = options.chunk ?? 500;
  const models = configuration.generatorModels;
  const personas = configuration.personas;
  const topics = configuration.topics;
  const slot = (index: number) => ({
    model: index % models.length,
    persona: Math.floor(index / models.length) % personas.length,
    topic: Math.floor(index / (models.length * personas.length)) % topics.length,
  });
  const latencyOf = (model: number) => 800 + 400 * model;
  const costOf = (model: number) => 0.0001 * (model + 1);
  const averageOf = (model: number) => 6.5 + model;

  const testId = await t.run(async (ctx) => {
    const now = Date.now();
    const testId = await ctx.db.insert("tests", {
      userId: options.userId,
      name: configuration.name,
      taskType: configuration.taskType,
      configuration,
      status: options.status ?? "completed",
      progress: { currentPhase: "Completed", percentage: 100 },
      estimate: {
        generationCost: 0.01,
        evaluationCost: 0.02,
        totalCost: 0.03,
        totalQueries: 10,
        estimatedTokens: 1000,
      },
      priceCents: 200,
      usesOwnKey: false,
      expectedResponses: options.responses,
      expectedEvaluations: options.responses * perResponse,
      ...EMPTY_RUN_COUNTERS,
      responsesCount: options.responses,
      evaluationsCount: options.responses * perResponse,
      startedAt: now - 125_000,
      ...(options.status === "running" ? {} : { completedAt: now }),
      lastProgressAt: now,
    });
    await ctx.db.insert("jobs", {
      testId,
      userId: options.userId,
      testName: configuration.name,
      status: options.status === "running" ? "processing" : "completed",
      priority: 0,
      retryCount: 0,
      maxRetries: 3,
      amountCents: 200,
    });
    if (options.withPayment) {
      const paymentId = await ctx.db.insert("payments", {
        userId: options.userId,
        testId,
        testName: configuration.name,
        amountCents: 200,
        currency: "usd",
        status: "paid",
        completedAt: now,
      });
      for (const type of ["purchase", "test_cost"] as const) {
        await ctx.db.insert("creditTransactions", {
          userId: options.userId,
          testId,
          paymentId,
          type,
          amountCents: 200,
          description: `${type === "purchase" ? "Payment for " : ""}Test: ${configuration.name}`,
        });
      }
    }
    await ctx.db.insert("calls", {
      testId,
      kind: "generate",
      key: `${testId}:generate:seed`,
      status: "succeeded",
      attempts: 1,
      modelId: models[0].id,
      personaId: personas[0].id,
      topicId: topics[0].id,
    });
    return testId;
  });

  // Stats rows as the pipeline keeps them: per model for all personas ('') and per persona.
  const MAX_KEPT_LATENCIES = 1000;
  const sums = new Map<string, ModelStatsSums & { modelId: string; personaId: string }>();
  const bump = (modelId: string, personaId: string, model: number) => {
    for (const scope of ["", personaId]) {
      const key = `${modelId}|${scope}`;
      const row = sums.get(key) ?? EMPTY_MODEL_STATS;
      const answer = {
        responses: 1,
        tokens: 100,
        costUsd: costOf(model),
        latencyMs: latencyOf(model),
        scoreSum: averageOf(model) * perResponse,
        scoreCount: perResponse,
      };
      // Every answer's latency on the all-personas row, as the pipeline keeps it (≤ 1,000 per model).
      const next = addModelStats(row, answer, scope === "" && row.responses < MAX_KEPT_LATENCIES);
      sums.set(key, { modelId, personaId: scope, ...next });
    }
  };

  let totalCost = 0;
  let totalLatency = 0;
  for (let start = 0; start < options.responses; start += chunk) {
    const end = Math.min(options.responses, start + chunk);
    await t.run(async (ctx) => {
      for (let index = start; index < end; index++) {
        const { model, persona, topic } = slot(index);
        const responseId = await ctx.db.insert("responses", {
          testId,
          modelId: models[model].id,
          personaId: personas[persona].id,
          topicId: topics[topic].id,
          content: padded(
            `**Answer ${index + 1}** from ${models[model].name}: fresh cold brew, bold as the sea.`,
            options.answerChars,
          ),
          promptTokens: 60,
          completionTokens: 40,
          tokens: 100,
          latencyMs: latencyOf(model),
          costUsd: costOf(model),
          scoreSum: averageOf(model) * perResponse,
          scoreCount: perResponse,
        });
        for (let judge = 0; judge < perResponse; judge++) {
          await ctx.db.insert("evaluations", {
            testId,
            responseId,
            evaluatorModelId: SEED_EVALUATORS[judge % SEED_EVALUATORS.length].id,
            scores: { accuracy: 6 + model, creativity: 7 + model },
            explanation: padded(`Judge ${judge + 1}: clear and on topic.`, options.explanationChars),
            costUsd: 0.00001,
          });
        }
      }
    });
    for (let index = start; index < end; index++) {
      const { model, persona } = slot(index);
      bump(models[model].id, personas[persona].id, model);
      totalCost += costOf(model);
      totalLatency += latencyOf(model);
    }
  }

  await t.run(async (ctx) => {
    for (const row of sums.values()) {
      // Larger seeds than a test can have are stored as older tests were: histogram only.
      const { latenciesMs, ...rest } = row;
      await ctx.db.insert("modelStats", {
        testId,
        ...rest,
        ...(latenciesMs && row.responses <= MAX_KEPT_LATENCIES ? { latenciesMs } : {}),
      });
    }
    const resultsSummary = runSummary([...sums.values()], models, {
      expectedResponses: options.responses,
      actualResponses: options.responses,
      totalCost,
      totalLatencyMs: totalLatency,
    });
    await ctx.db.patch("tests", testId, {
      totalCostUsd: totalCost,
      totalLatencyMs: totalLatency,
      totalTokens: options.responses * 100,
      ...(options.status === "running" ? {} : { resultsSummary }),
    });
    await syncTestSummaryOf(ctx, testId);
  });
  return testId;
}
