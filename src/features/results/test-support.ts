// Fixtures for the results, history and shared screens' component tests (the Convex stand-in
// is src/test/convex-mock.ts).
import type { Id } from "../../../convex/_generated/dataModel";
import type { EvaluationRow, ResponseRow, ResultsData } from "./results-model";

export const TEST_ID = "k57testid0000000000000000000001" as Id<"tests">;

export function makeResults(overrides: Partial<ResultsData> = {}): ResultsData {
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);
  const configuration = {
    name: "Coffee taglines",
    taskType: "marketing",
    userPrompt: "Write a tagline.",
    personas: [
      { id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." },
      { id: "p2", name: "Poet", description: "Rhymes", systemPrompt: "Verse." },
    ],
    topics: [{ id: "t1", title: "Coffee", description: "A coffee shop", prompt: "Sell coffee." }],
    generatorModels: [
      { id: "openai/gpt-4o-mini", name: "GPT-4o Mini" },
      { id: "anthropic/claude-3.5-haiku", name: "Claude 3.5 Haiku" },
    ],
    evaluatorModels: [{ id: "google/gemini-2.0-flash-001", name: "Gemini 2.0 Flash" }],
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: true, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "rating" as const, includeExplanations: true },
  };
  const rankings = [
    {
      modelId: "anthropic/claude-3.5-haiku",
      modelName: "Claude 3.5 Haiku",
      totalResponses: 4,
      averageScore: 7.5,
      evaluationCount: 4,
    },
    {
      modelId: "openai/gpt-4o-mini",
      modelName: "GPT-4o Mini",
      totalResponses: 4,
      averageScore: 6.25,
      evaluationCount: 4,
    },
  ];
  return {
    test: {
      _id: TEST_ID,
      _creationTime: now - 200_000,
      name: "Coffee taglines",
      taskType: "marketing",
      status: "completed",
      progress: { currentPhase: "Completed", percentage: 100 },
      configuration,
      estimate: { generationCost: 0.01, evaluationCost: 0.01, totalCost: 0.02, totalQueries: 8, estimatedTokens: 800 },
      priceCents: 200,
      expectedResponses: 8,
      expectedEvaluations: 8,
      responsesCount: 8,
      evaluationsCount: 8,
      missingResponses: 0,
      missingEvaluations: 0,
      failedCalls: 0,
      totalCostUsd: 0.0123,
      totalLatencyMs: 8000,
      totalTokens: 800,
      startedAt: now - 125_000,
      completedAt: now,
      jobStatus: "completed",
      awaitingPayment: false,
      chargedCents: 0,
      resultsSummary: undefined,
      errorMessage: undefined,
    },
    valid: true,
    metrics: {
      totalResponses: 8,
      evaluations: 8,
      averageResponseTimeMs: 1234,
      completionRate: 0.875,
      expectedResponses: 8,
      expectedEvaluations: 8,
      totalCostUsd: 0.0123,
      generationCostUsd: 0.0012,
      judgingCostUsd: 0.0111,
    },
    rankings,
    personaBreakdown: [
      { personaId: "p1", personaName: "Pirate", rankings },
      { personaId: "p2", personaName: "Poet", rankings: [...rankings].reverse() },
    ],
    models: [
      {
        modelId: "anthropic/claude-3.5-haiku",
        modelName: "Claude 3.5 Haiku",
        responses: 4,
        evaluationCount: 4,
        averageScore: 7.5,
        costUsd: 0.0008,
        costPerResponseUsd: 0.0002,
        averageLatencyMs: 1200,
        medianLatencyMs: 1100,
        p95LatencyMs: 1450,
        maxLatencyMs: 1500,
        latencyExact: true,
        onFrontier: true,
      },
      {
        modelId: "openai/gpt-4o-mini",
        modelName: "GPT-4o Mini",
        responses: 4,
        evaluationCount: 4,
        averageScore: 6.25,
        costUsd: 0.0004,
        costPerResponseUsd: 0.0001,
        averageLatencyMs: 800,
        medianLatencyMs: 700,
        p95LatencyMs: 990,
        maxLatencyMs: 1000,
        latencyExact: true,
        onFrontier: true,
      },
    ],
    heatmap: {
      personas: configuration.personas.map((persona) => ({ id: persona.id, name: persona.name })),
      models: rankings.map((ranking) => ({ id: ranking.modelId, name: ranking.modelName })),
      cells: [
        { personaId: "p1", modelId: "anthropic/claude-3.5-haiku", averageScore: 7.5, evaluationCount: 2 },
        { personaId: "p1", modelId: "openai/gpt-4o-mini", averageScore: 6, evaluationCount: 2 },
        { personaId: "p2", modelId: "anthropic/claude-3.5-haiku", averageScore: null, evaluationCount: 0 },
        { personaId: "p2", modelId: "openai/gpt-4o-mini", averageScore: 6.5, evaluationCount: 2 },
      ],
    },
    share: null,
    ...overrides,
  };
}

export function makeResponse(index: number): ResponseRow {
  return {
    _id: `k57response${String(index).padStart(20, "0")}` as ResponseRow["_id"],
    _creationTime: Date.UTC(2026, 0, 15, 12, 0, index),
    modelId: "openai/gpt-4o-mini",
    modelName: "GPT-4o Mini",
    personaName: "Pirate",
    topicTitle: "Coffee",
    content: `**Answer ${index}**: cold brew, bold as the sea. <script>alert(1)</script>`,
    tokens: 120,
    latencyMs: 1530,
    costUsd: 0.000245,
    averageScore: 7,
    evaluationCount: 1,
  };
}

export function makeEvaluation(index: number): EvaluationRow {
  return {
    _id: `k57evaluation${String(index).padStart(18, "0")}` as EvaluationRow["_id"],
    _creationTime: Date.UTC(2026, 0, 15, 12, 1, index),
    evaluatorModelId: "google/gemini-2.0-flash-001",
    evaluatorName: "Gemini 2.0 Flash",
    scores: { accuracy: 8, creativity: 6.5 },
    explanation: `Verdict ${index}: vivid and on brand.`,
    response: makeResponse(index),
    costUsd: 0.000125,
  };
}
