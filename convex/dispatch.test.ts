// @vitest-environment node
// Dispatch under Convex's per-transaction limits (the harness enforces them): ten of the
// largest allowed tests queued at once all start, each in its own transactions, and a test
// whose calls are still being created cannot be closed by its first calls finishing.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { countCalls, LIMITS, validateTestConfig } from "./lib/pricing";
import { createUser, newTest, sampleConfiguration, seedCatalog, type TestConvex } from "./test.helpers";
import type { TestConfiguration } from "./validators";

const GENERATORS = Array.from({ length: LIMITS.maxGeneratorModels }, (_, i) => `vendor/generator-${i}`);
const EVALUATORS = Array.from({ length: LIMITS.maxEvaluatorModels }, (_, i) => `vendor/judge-${i}`);

/** The largest grid the limits allow: 10 generators × 10 personas × 10 topics, ranked by 5 judges. */
function largestConfiguration(name: string): TestConfiguration {
  return sampleConfiguration(GENERATORS, EVALUATORS, {
    name,
    personas: Array.from({ length: LIMITS.maxPersonas }, (_, i) => ({
      id: `p${i}`,
      name: `Persona ${i}`,
      description: "A voice",
      systemPrompt: `You are writer ${i}.`,
    })),
    topics: Array.from({ length: LIMITS.maxTopics }, (_, i) => ({
      id: `t${i}`,
      title: `Topic ${i}`,
      description: "A scenario",
      prompt: `Scenario ${i}.`,
    })),
    // Ranking compares every answer of a pair at once: 10 models × 4 answers is the most allowed.
    responsesPerTopic: LIMITS.maxAnswersPerRanking / LIMITS.maxGeneratorModels,
    scoringParameters: { scale: "ranking", includeExplanations: true },
  });
}

async function setSetting(t: TestConvex, key: string, value: number) {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", key))
      .unique();
    if (row) await ctx.db.patch("settings", row._id, { value });
    else await ctx.db.insert("settings", { key, value });
  });
}

async function failedScheduledFunctions(t: TestConvex) {
  return await t.run(async (ctx) => {
    const rows = await ctx.db.system.query("_scheduled_functions").collect();
    return rows.filter((row) => row.state.kind === "failed").map((row) => `${row.name}: ${JSON.stringify(row.state)}`);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  // Workers are never started here (concurrency 0); nothing may reach a real gateway anyway.
  process.env.GATEWAY_BASE_URL = "http://127.0.0.1:9/api/v1";
  process.env.OPENROUTER_API_KEY = "dev-gateway-key";
  delete process.env.STRIPE_SECRET_KEY;
});
afterEach(() => {
  vi.useRealTimers();
});

describe("dispatch within Convex's transaction limits", () => {
  test("ten of the largest allowed tests queued at once all start with all their calls", async () => {
    const t = newTest();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const user = await createUser(t, "ada@example.com");
    await setSetting(t, "maxProcessingJobs", 0); // keep them queued while they are created
    await setSetting(t, "perTestConcurrency", 0); // no workers: this test is about dispatch

    const config = largestConfiguration("Largest");
    expect(validateTestConfig(config)).toEqual([]);
    const calls = countCalls(config);
    expect(calls.generationCalls).toBe(1000);
    expect(calls.total).toBeLessThanOrEqual(LIMITS.maxCallsPerTest);
    const testIds: Id<"tests">[] = [];
    for (let i = 0; i < 10; i++) {
      const { testId, paymentRequired } = await user.as.mutation(api.tests.create, {
        configuration: { ...config, name: `Largest ${i}` },
      });
      expect(paymentRequired).toBe(false);
      testIds.push(testId);
    }
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    await setSetting(t, "maxProcessingJobs", 10);
    await t.mutation(internal.runner.dispatch, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    expect(await failedScheduledFunctions(t)).toEqual([]);
    const state = await t.run(async (ctx) =>
      Promise.all(
        testIds.map(async (testId) => {
          const row = (await ctx.db.get("tests", testId))!;
          const job = await ctx.db
            .query("jobs")
            .withIndex("by_test", (q) => q.eq("testId", testId))
            .unique();
          const pending = await ctx.db
            .query("calls")
            .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
            .collect();
          return {
            status: row.status,
            job: job?.status,
            totalCalls: row.totalCalls,
            generationCalls: pending.filter((call) => call.kind === "generate").length,
            keys: new Set(pending.map((call) => call.key)).size,
          };
        }),
      ),
    );
    for (const entry of state) {
      expect(entry).toEqual({ status: "running", job: "processing", totalCalls: 1000, generationCalls: 1000, keys: 1000 });
    }
  }, 120_000);
});
