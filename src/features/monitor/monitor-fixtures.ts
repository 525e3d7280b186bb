// Answers of api.tests.monitor for component tests.
import type { Id } from "../../../convex/_generated/dataModel";
import type { MonitorData, MonitorRanking, MonitorResponse, MonitorTest } from "./monitor-model";

export const TEST_ID = "k57monitortest000000000000000001" as Id<"tests">;

/** A fixed clock for tests: 2026-03-01 12:00:00 UTC. */
export const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

export function makeTest(overrides: Partial<MonitorTest> = {}): MonitorTest {
  const model = (id: string, name: string) => ({ id, name });
  return {
    _id: TEST_ID,
    _creationTime: NOW - 120_000,
    name: "Support replies",
    taskType: "customer-service",
    status: "running",
    progress: {
      currentPhase: "Generating Responses",
      percentage: 37,
      details: "3 of 8 responses generated",
      estimatedTimeRemaining: "About 2 min",
    },
    configuration: {
      name: "Support replies",
      taskType: "customer-service",
      userPrompt: "Answer the customer.",
      personas: [
        { id: "p1", name: "Angry customer", description: "", systemPrompt: "" },
        { id: "p2", name: "New user", description: "", systemPrompt: "" },
      ],
      topics: [
        { id: "t1", title: "Refunds", description: "", prompt: "" },
        { id: "t2", title: "Shipping", description: "", prompt: "" },
      ],
      generatorModels: [model("openai/gpt-4o", "GPT-4o"), model("anthropic/claude", "Claude")],
      evaluatorModels: [model("google/gemini", "Gemini")],
      responsesPerTopic: 1,
      rankingPrompt: "Rank them.",
      evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
      scoringParameters: { scale: "ranking", includeExplanations: true },
    },
    estimate: { generationCost: 0.01, evaluationCost: 0.01, totalCost: 0.02, totalQueries: 8, estimatedTokens: 4000 },
    priceCents: 200,
    expectedResponses: 8,
    expectedEvaluations: 16,
    responsesCount: 3,
    evaluationsCount: 2,
    missingResponses: 0,
    missingEvaluations: 0,
    failedCalls: 0,
    totalCostUsd: 0.012345,
    totalLatencyMs: 4500,
    totalTokens: 1500,
    startedAt: NOW - 65_000,
    jobStatus: "processing",
    awaitingPayment: false,
    chargedCents: 0,
    resultsSummary: undefined,
    errorMessage: undefined,
    completedAt: undefined,
    ...overrides,
  };
}

export function makeRanking(index: number, overrides: Partial<MonitorRanking> = {}): MonitorRanking {
  return {
    modelId: `vendor/model-${index}`,
    modelName: `Model ${index}`,
    averageScore: 9 - index * 0.5,
    totalResponses: 4,
    ...overrides,
  };
}

export function makeResponse(index: number, overrides: Partial<MonitorResponse> = {}): MonitorResponse {
  return {
    _id: `k97response${index}` as Id<"responses">,
    _creationTime: NOW - index * 1000,
    modelId: "openai/gpt-4o",
    modelName: "GPT-4o",
    personaName: "Angry customer",
    topicTitle: "Refunds",
    content: `Answer number ${index}`,
    tokens: 321,
    latencyMs: 1234,
    costUsd: 0.000123,
    averageScore: null,
    evaluationCount: 0,
    ...overrides,
  };
}

export function makeMonitorData(
  overrides: Partial<Omit<MonitorData, "test">> & { test?: Partial<MonitorTest> } = {},
): MonitorData {
  const { test, ...rest } = overrides;
  return {
    rankings: [],
    rankedModels: 0,
    latestResponses: [],
    ...rest,
    test: makeTest(test),
  };
}
