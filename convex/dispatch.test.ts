// @vitest-environment node
// Dispatch under Convex's per-transaction limits (the harness enforces them): ten of the
// largest allowed tests queued at once all start, each in its own transactions, and a test
// whose calls are still being created cannot be closed by its first calls finishing.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { claimBatch } from "./core/pipeline/claim";
import { recordOutcome } from "./core/pipeline/record";
import { countCalls, LIMITS, validateTestConfig } from "./lib/pricing";
import {
  createBackend,
  createUser,
  drainDispatch,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
} from "./test.helpers";
import type { Outcome, TestConfiguration } from "./validators";
import { countedTest } from "./core/pipeline/counterRow";

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

async function setSetting(t: TestBackend, key: string, value: number) {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", key))
      .unique();
    if (row) await ctx.db.patch("settings", row._id, { value });
    else await ctx.db.insert("settings", { key, value });
  });
}

async function failedScheduledFunctions(t: TestBackend) {
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
    const t = createBackend();
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
          const row = (await countedTest(ctx, testId))!;
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
      expect(entry).toEqual({
        status: "running",
        job: "processing",
        totalCalls: 1000,
        generationCalls: 1000,
        keys: 1000,
      });
    }
  }, 120_000);

  test("a test whose calls are still being created is not closed by its first calls finishing", async () => {
    const t = createBackend();
    const [generatorA, generatorB] = GENERATORS;
    const [judge] = EVALUATORS;
    await seedCatalog(t, [generatorA, generatorB, judge]);
    const user = await createUser(t, "ada@example.com");
    await setSetting(t, "perTestConcurrency", 0); // this test plays the worker
    await setSetting(t, "callsPerBatch", 2); // one persona × topic pair (2 generators) per batch
    const { testId } = await user.as.mutation(api.tests.create, {
      configuration: sampleConfiguration([generatorA, generatorB], [judge], {
        personas: [
          { id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." },
          { id: "p2", name: "Poet", description: "Rhymes", systemPrompt: "Answer in verse." },
        ],
        responsesPerTopic: 1,
      }),
    });
    await t.mutation(internal.runner.dispatch, {}); // starts it with its first pair's calls only

    /** Leases the next call and records an answer (or, for the judge, a ranking) for it. */
    const answerNext = async () =>
      await t.run(async (ctx) => {
        const [item] = await claimBatch(ctx, testId, 1);
        if (!item) return false;
        const usage = { promptTokens: 10, completionTokens: 10, latencyMs: 5, costUsd: 0.001 };
        const outcome: Outcome =
          item.kind === "generate"
            ? { kind: "generated", answers: ["An answer."], ...usage }
            : { kind: "ranked", ranking: item.labels.map((entry) => entry.responseId), explanation: "", ...usage };
        await recordOutcome(ctx, item.callId, item.leaseId, outcome);
        return true;
      });
    const testRow = async () => await t.run(async (ctx) => (await countedTest(ctx, testId))!);

    // The first pair's two answers and its judge call all end before the second batch runs.
    while (await answerNext());
    expect(await testRow()).toMatchObject({ status: "running", finishedCalls: 3, totalCalls: 3, responsesCount: 2 });

    await t.finishAllScheduledFunctions(vi.runAllTimers); // the second pair's calls
    expect((await testRow()).totalCalls).toBe(5);
    while (await answerNext());
    const done = await testRow();
    expect(done).toMatchObject({
      status: "completed",
      finishedCalls: 6,
      totalCalls: 6,
      responsesCount: 4,
      evaluationsCount: 4,
    });
    expect(await failedScheduledFunctions(t)).toEqual([]);
  });

  test("expired leases are handed back out in bounded batches, including those of a deleted test", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const user = await createUser(t, "ada@example.com");
    await setSetting(t, "perTestConcurrency", 0);
    const personas = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `p${i}`,
        name: `Persona ${i}`,
        description: "A voice",
        systemPrompt: "Hi.",
      }));
    const create = async (name: string, personaCount: number) =>
      (
        await user.as.mutation(api.tests.create, {
          configuration: sampleConfiguration(GENERATORS, [EVALUATORS[0]], {
            name,
            personas: personas(personaCount),
            responsesPerTopic: 1,
          }),
        })
      ).testId;
    const kept = await create("Kept", 3); // 30 generation calls
    const deleted = await create("Deleted", 1); // 10 generation calls
    await drainDispatch(t);
    // Every call was leased by a worker that died; then one test's row goes (its cascade not yet run).
    await t.run(async (ctx) => {
      for (const testId of [kept, deleted]) {
        const calls = await ctx.db
          .query("calls")
          .withIndex("by_test_status", (q) => q.eq("testId", testId))
          .collect();
        for (const call of calls) {
          await ctx.db.patch("calls", call._id, {
            status: "leased",
            attempts: 1,
            leaseId: `${call._id}:1`,
            leaseExpiresAt: Date.now() - 1,
          });
        }
      }
      await ctx.db.delete("tests", deleted);
    });

    await t.mutation(internal.runner.reclaimLeases, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    const statuses = await t.run(async (ctx) => {
      const of = async (testId: Id<"tests">) =>
        (
          await ctx.db
            .query("calls")
            .withIndex("by_test_status", (q) => q.eq("testId", testId))
            .collect()
        ).map((call) => call.status);
      return { kept: await of(kept), deleted: await of(deleted) };
    });
    expect(statuses.kept).toEqual(Array.from({ length: 30 }, () => "pending"));
    expect(statuses.deleted).toEqual(Array.from({ length: 10 }, () => "cancelled"));
    expect(await failedScheduledFunctions(t)).toEqual([]);
  });

  test("queued tests start one batch chain at a time: a dispatch and one test's next batch take the scheduled-job slots, not every test's", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const user = await createUser(t, "ada@example.com");
    await setSetting(t, "maxProcessingJobs", 0);
    await setSetting(t, "perTestConcurrency", 0);
    const testIds: Id<"tests">[] = [];
    for (let i = 0; i < 3; i++)
      testIds.push(
        (await user.as.mutation(api.tests.create, { configuration: largestConfiguration(`Largest ${i}`) })).testId,
      );
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    await setSetting(t, "maxProcessingJobs", 10);

    const due = async () =>
      await t.run(async (ctx) =>
        (await ctx.db.system.query("_scheduled_functions").collect())
          .filter((row) => row.state.kind === "pending" || row.state.kind === "inProgress")
          .map((row) => row.name.replace(/^.*:/, "")),
      );
    await t.mutation(internal.runner.dispatch, {});
    // Each step runs what is due; at no step do two tests' batches, or a batch and the next dispatch, wait together.
    const seen: string[][] = [];
    for (let step = 0; step < 100; step++) {
      const waiting = await due();
      if (waiting.length === 0) break;
      seen.push(waiting.filter((name) => name === "createCalls" || name === "dispatch").sort());
      vi.runOnlyPendingTimers();
      await t.finishInProgressScheduledFunctions();
    }
    expect(Math.max(...seen.map((waiting) => waiting.length))).toBe(1);
    const started = await t.run(async (ctx) =>
      Promise.all(testIds.map(async (testId) => (await countedTest(ctx, testId))!.totalCalls)),
    );
    expect(started).toEqual([1000, 1000, 1000]);
  });
});
