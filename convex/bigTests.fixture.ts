// Many tests with big configurations, as written before summaries existed, and the bytes a
// function reads (two dots in the name: Convex does not deploy this file). For
// convex/testSummaries.test.ts and bench/list-bytes.ts.
import { TransactionMetricsTracker } from "convex-test/dist/transactionMetrics.js";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { EMPTY_RUN_COUNTERS } from "./core/pipeline/runCounters";
import { storedBytes } from "./lib/limits";
import type { TestConfiguration } from "./validators";

/** Anything with convex-test's `run`. */
export type Runner = { run: <T>(fn: (ctx: MutationCtx) => Promise<T>) => Promise<T> };

let bytesRead = 0;
let installed = false;

/** The bytes a function reads, as convex-test's limit tracker counts them (installed once per process). */
export async function bytesReadBy<T>(run: () => Promise<T>): Promise<{ bytes: number; value: T }> {
  if (!installed) {
    installed = true;
    const trackRead = TransactionMetricsTracker.prototype.trackRead;
    TransactionMetricsTracker.prototype.trackRead = function (this: TransactionMetricsTracker, bytes: number) {
      bytesRead += bytes;
      trackRead.call(this, bytes);
    };
  }
  bytesRead = 0;
  const value = await run();
  return { bytes: bytesRead, value };
}

/** Tests inserted per transaction while seeding (each ~230 KB). */
const SEED_CHUNK = 25;

/** A valid configuration of ~230 KB: ten personas and ten topics with 10,000-character prompts. */
export function bigConfiguration(): TestConfiguration {
  const text = (seed: string) => `${seed} `.repeat(10_000).slice(0, 10_000);
  return {
    name: "Coffee taglines",
    taskType: "marketing",
    generatorModels: [
      { id: "openai/gpt-4o-mini", name: "openai/gpt-4o-mini" },
      { id: "anthropic/claude-3.5-haiku", name: "anthropic/claude-3.5-haiku" },
    ],
    evaluatorModels: [{ id: "google/gemini-2.0-flash-001", name: "google/gemini-2.0-flash-001" }],
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: true },
    userPrompt: text("Write"),
    personas: Array.from({ length: 10 }, (_, index) => ({
      id: `p${index}`,
      name: `Persona ${index}`,
      description: text(`d${index}`).slice(0, 500),
      systemPrompt: text(`s${index}`),
    })),
    topics: Array.from({ length: 10 }, (_, index) => ({
      id: `t${index}`,
      title: `Topic ${index}`,
      description: text(`e${index}`).slice(0, 500),
      prompt: text(`q${index}`),
    })),
  };
}

/**
 * `count` failed tests of the user with ~220 KB configurations, as written before summaries
 * existed (no summary rows), each with a failed paid job; test i is named "Big test i" and costs
 * $0.001 × i. Returns the configuration's size in bytes.
 */
export async function seedBigTests(t: Runner, userId: Id<"users">, count: number): Promise<number> {
  const configuration = bigConfiguration();
  for (let start = 0; start < count; start += SEED_CHUNK) {
    await t.run(async (ctx) => {
      for (let index = start; index < Math.min(count, start + SEED_CHUNK); index++) {
        const testId = await ctx.db.insert("tests", {
          userId,
          name: `Big test ${index}`,
          taskType: "marketing",
          configuration,
          status: "failed",
          progress: { currentPhase: "Failed", percentage: 100 },
          estimate: { generationCost: 0, evaluationCost: 0, totalCost: 0, totalQueries: 0, estimatedTokens: 0 },
          priceCents: 200,
          usesOwnKey: false,
          expectedResponses: 2,
          expectedEvaluations: 2,
          ...EMPTY_RUN_COUNTERS,
          totalCostUsd: 0.001 * index,
          missingResponses: 2,
          lastCallError: "HTTP 503: Service Unavailable",
          startedAt: 1_000 + index,
          completedAt: 2_000 + index,
          lastProgressAt: 2_000 + index,
        });
        await ctx.db.insert("jobs", {
          testId,
          userId,
          testName: `Big test ${index}`,
          status: "failed",
          priority: 0,
          retryCount: 0,
          maxRetries: 3,
          amountCents: 200,
        });
      }
    });
  }
  return storedBytes(configuration);
}
