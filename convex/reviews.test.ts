// Blind human review through the real functions: what a reviewer is shown (and never shown), what
// they may send, who may send it, and how the team's verdicts become the team's ranking and each
// judge's agreement with the team.
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { rankingScore } from "./lib/scoring";
import { createBackend, createUser, sampleConfiguration, type TestBackend } from "./test.helpers";
import type { TestConfiguration } from "./validators";

type Caller = Awaited<ReturnType<typeof createUser>>["as"];

const MODELS = [
  { id: "openai/gpt-4o-mini", name: "GPT-4o Mini" },
  { id: "anthropic/claude-3.5-haiku", name: "Claude 3.5 Haiku" },
  { id: "mistralai/mistral-small", name: "Mistral Small" },
];
const JUDGES = [
  { id: "google/gemini-2.0-flash-001", name: "Gemini 2.0 Flash" },
  { id: "deepseek/deepseek-chat", name: "DeepSeek V3" },
];

function reviewConfiguration(overrides: Partial<TestConfiguration> = {}): TestConfiguration {
  return {
    ...sampleConfiguration(
      MODELS.map((model) => model.id),
      JUDGES.map((judge) => judge.id),
    ),
    generatorModels: MODELS,
    evaluatorModels: JUDGES,
    personas: [{ id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." }],
    topics: [
      { id: "t1", title: "Coffee", description: "A coffee shop", prompt: "We sell cold brew coffee." },
      { id: "t2", title: "Bikes", description: "Bike repair", prompt: "We repair city bikes." },
      { id: "t3", title: "Books", description: "A bookshop", prompt: "We sell used books." },
    ],
    responsesPerTopic: 1,
    ...overrides,
  };
}

/**
 * A test as the pipeline leaves it: for the pairs in `answered`, one answer per model and each
 * judge's ranking call over them with its evaluations (judge j's order given by `judgeOrders`,
 * model indexes best first). Pairs not listed are still generating: no answers, no judge calls.
 */
async function seedTest(
  t: TestBackend,
  userId: Id<"users">,
  options: {
    teamId?: Id<"teams">;
    configuration?: TestConfiguration;
    answered: { personaId: string; topicId: string; judgeOrders?: number[][] }[];
  },
): Promise<{ testId: Id<"tests">; responses: Record<string, Id<"responses">[]> }> {
  const configuration = options.configuration ?? reviewConfiguration();
  return await t.run(async (ctx: MutationCtx) => {
    const testId = await ctx.db.insert("tests", {
      userId,
      ...(options.teamId ? { teamId: options.teamId } : {}),
      name: configuration.name,
      taskType: configuration.taskType,
      configuration,
      status: "running",
      progress: { currentPhase: "Evaluating", percentage: 80 },
      estimate: { generationCost: 0.01, evaluationCost: 0.02, totalCost: 0.03, totalQueries: 10, estimatedTokens: 1 },
      priceCents: 200,
      usesOwnKey: false,
      expectedResponses: 9,
      expectedEvaluations: 18,
      responsesCount: 0,
      evaluationsCount: 0,
      missingResponses: 0,
      missingEvaluations: 0,
      failedCalls: 0,
      activeWorkers: 0,
      totalCalls: 0,
      finishedCalls: 0,
      totalCostUsd: 0,
      totalLatencyMs: 0,
      totalTokens: 0,
      lastProgressAt: Date.now(),
    });
    const responses: Record<string, Id<"responses">[]> = {};
    for (const pair of options.answered) {
      const ids: Id<"responses">[] = [];
      for (const model of configuration.generatorModels) {
        ids.push(
          await ctx.db.insert("responses", {
            testId,
            modelId: model.id,
            personaId: pair.personaId,
            topicId: pair.topicId,
            content: `${model.name} on ${pair.topicId}: a tagline.`,
            promptTokens: 10,
            completionTokens: 10,
            tokens: 20,
            latencyMs: 500,
            costUsd: 0.0001,
            scoreSum: 0,
            scoreCount: 0,
          }),
        );
      }
      responses[`${pair.personaId}|${pair.topicId}`] = ids;
      for (const [j, judge] of configuration.evaluatorModels.entries()) {
        const callId = await ctx.db.insert("calls", {
          testId,
          kind: "evaluate",
          key: `${testId}:rank:${judge.id}:${pair.personaId}:${pair.topicId}`,
          status: pair.judgeOrders?.[j] ? "succeeded" : "pending",
          attempts: 1,
          modelId: judge.id,
          personaId: pair.personaId,
          topicId: pair.topicId,
          responseIds: ids,
        });
        const order = pair.judgeOrders?.[j];
        if (!order) continue;
        for (const [rank, m] of order.entries()) {
          await ctx.db.insert("evaluations", {
            testId,
            responseId: ids[m]!,
            evaluatorModelId: judge.id,
            scores: { overall: rankingScore(rank, order.length) },
            explanation: "",
            rank: rank + 1,
            costUsd: 0.0001,
            callId,
          });
        }
      }
    }
    return { testId, responses };
  });
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message?: string } | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof ConvexError) return error.data as { code?: string; message?: string };
    throw error;
  }
}

const judgementsOf = (t: TestBackend, testId: Id<"tests">) =>
  t.run((ctx) =>
    ctx.db
      .query("humanJudgements")
      .withIndex("by_test_user", (q) => q.eq("testId", testId))
      .collect(),
  );

describe("reviews.pair: blind", () => {
  test("shows the first ready pair under labels, with no model name, model id or response id anywhere", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const { testId, responses } = await seedTest(t, owner.userId, {
      answered: [
        { personaId: "p1", topicId: "t1" },
        { personaId: "p1", topicId: "t2" },
      ],
    });
    const view = await owner.as.query(api.reviews.pair, { testId });
    expect(view).not.toBeNull();
    expect(view!.pairs.map((pair) => [pair.topicName, pair.answers, pair.reviewed])).toEqual([
      ["Coffee", 3, false],
      ["Bikes", 3, false],
      ["Books", 0, false],
    ]);
    expect(view!.canReview).toBe(true);
    expect(view!.current?.topicName).toBe("Coffee");
    expect(view!.current?.answers.map((answer) => answer.label)).toEqual(["A", "B", "C"]);
    const text = JSON.stringify(view);
    const secrets = [
      ...MODELS.flatMap((model) => [model.id, model.name]),
      ...Object.values(responses).flat(),
      ...JUDGES.flatMap((judge) => [judge.id, judge.name]),
    ];
    // Contents carry no model name here; the ids and names must not appear anywhere else.
    const leaked = secrets.filter((secret) => text.replaceAll(/"content":"[^"]*"/g, "").includes(secret));
    expect(leaked).toEqual([]);
  });
});

describe("reviews.submit", () => {
  test("stores a ranking by label and shows it back; the next pair comes up", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const { testId } = await seedTest(t, owner.userId, {
      answered: [
        { personaId: "p1", topicId: "t1" },
        { personaId: "p1", topicId: "t2" },
      ],
    });
    await owner.as.mutation(api.reviews.submit, { testId, personaId: "p1", topicId: "t1", ranking: ["C", "A", "B"] });
    const again = await owner.as.query(api.reviews.pair, { testId, personaId: "p1", topicId: "t1" });
    expect(again!.current!.verdict).toEqual({ ranking: ["C", "A", "B"] });
    const next = await owner.as.query(api.reviews.pair, { testId });
    expect(next!.current!.topicName).toBe("Bikes");
    expect(next!.pairs.map((pair) => pair.reviewed)).toEqual([true, false, false]);
  });
});

export type { Caller, Doc };
export { errorOf, judgementsOf };
