// A test's rows over its life, on a large test run by a hand-played pool worker: a force restart
// ends with exactly the figures of a fresh run of the same answers, and deleting the test
// leaves no row of it in any table with a test index (read from the schema itself, not from the
// registry that the restart and the deletion act on), each batch within Convex's limits, which
// convex-test enforces (16 MiB read and written, 16,000 documents written per transaction).
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { testRoom } from "./core/run/tables";
import { playPoolWorker, type Replies } from "./poolWorker.fixture";
import {
  createBackend,
  createUser,
  drainDispatch,
  rowsEverywhere,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
} from "./test.helpers";
import type { WorkItem } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const JUDGES = ["google/gemini-2.0-flash-001", "deepseek/deepseek-chat"];
/** 2 generators × 8 personas × 8 topics × 2 answers: 128 generation calls, 256 answers, 128 judge calls. */
const GRID = 8;

beforeEach(() => {
  vi.useFakeTimers();
  delete process.env.STRIPE_SECRET_KEY; // free mode: a new test's job is queued at once
});
afterEach(() => {
  vi.useRealTimers();
});

function usage(item: WorkItem) {
  const weight = GENERATORS.indexOf(item.modelId) + JUDGES.indexOf(item.modelId) + 3;
  return {
    promptTokens: 50 * weight,
    completionTokens: 20 * weight,
    latencyMs: 300 * weight,
    costUsd: 0.0001 * weight,
  };
}

/** The answers of the fresh run: every answer passes both checks; each judge ranks as shown. */
const sameAnswers: Replies = (item) =>
  item.kind === "generate"
    ? {
        kind: "generated",
        answers: Array.from(
          { length: item.answersWanted },
          (_, index) => `Cold brew by ${item.modelId}, take ${index}`,
        ),
        ...usage(item),
      }
    : item.scale === "ranking"
      ? {
          kind: "ranked",
          ranking: item.labels.map((entry) => entry.responseId),
          explanation: "As shown.",
          ...(item.answerModels ? { answerModels: item.answerModels } : {}),
          ...usage(item),
        }
      : (() => {
          throw new Error("the test ranks");
        })();

/** Other answers: the first persona's generation calls fail, the rest fail the checks; judges rank in reverse. */
const otherAnswers: Replies = (item) => {
  if (item.kind === "generate") {
    if (item.messages.some((message) => message.content.includes("persona 0 speaks")))
      return { kind: "failed", error: "Request timeout", ...usage(item) };
    return { kind: "generated", answers: Array.from({ length: item.answersWanted }, () => "Tea."), ...usage(item) };
  }
  const outcome = sameAnswers(item);
  return outcome.kind === "ranked" ? { ...outcome, ranking: [...outcome.ranking].reverse() } : outcome;
};

async function setup() {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...JUDGES]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 }));
  const admin = await createUser(t, "admin@example.com", { isAdmin: true });
  const owner = await createUser(t, "ada@example.com");
  const { testId } = await owner.as.mutation(api.tests.create, {
    configuration: sampleConfiguration(GENERATORS, JUDGES, {
      personas: Array.from({ length: GRID }, (_, index) => ({
        id: `p${index}`,
        name: `Persona ${index}`,
        description: `Persona ${index}`,
        systemPrompt: `You are persona ${index}; persona ${index} speaks plainly.`,
      })),
      topics: Array.from({ length: GRID }, (_, index) => ({
        id: `t${index}`,
        title: `Topic ${index}`,
        description: `Topic ${index}`,
        prompt: `We sell product ${index}.`,
      })),
      checks: [
        { id: "brew", kind: "contains", value: "brew" },
        { id: "short", kind: "length", unit: "words", max: 8 },
      ],
    }),
  });
  const jobId = await t.run(
    async (ctx) =>
      (await ctx.db
        .query("jobs")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique())!._id,
  );
  return { t, admin, owner, testId, jobId };
}

/** Starts the queued job (its calls created in batches), plays its worker, and lets the statistics end. */
async function runTest(t: TestBackend, testId: Id<"tests">, replies: Replies) {
  await drainDispatch(t);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  await playPoolWorker(t, testId, replies);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
}

/** What the owner sees of a test once it ended: its counters, summary, pass rates and statistics. */
async function figuresOf(owner: Awaited<ReturnType<typeof createUser>>, t: TestBackend, testId: Id<"tests">) {
  const test = await t.run(async (ctx) => (await ctx.db.get("tests", testId))!);
  const jury = await owner.as.query(api.results.juryStats, { testId });
  const stats = await t.run(async (ctx) =>
    (
      await ctx.db
        .query("modelStats")
        .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
        .collect()
    ).map(({ _id, _creationTime, ...row }) => row),
  );
  return {
    status: test.status,
    progress: test.progress,
    counters: {
      responsesCount: test.responsesCount,
      evaluationsCount: test.evaluationsCount,
      missingResponses: test.missingResponses,
      missingEvaluations: test.missingEvaluations,
      failedCalls: test.failedCalls,
      totalCalls: test.totalCalls,
      finishedCalls: test.finishedCalls,
      totalCostUsd: test.totalCostUsd,
      judgingCostUsd: test.judgingCostUsd,
      totalLatencyMs: test.totalLatencyMs,
      totalTokens: test.totalTokens,
      judgeCallsFinished: test.judgeCallsFinished,
      generationCallMs: test.generationCallMs,
      judgeCallMs: test.judgeCallMs,
      lastCallError: test.lastCallError,
    },
    resultsSummary: test.resultsSummary,
    passRates: await owner.as.query(api.checks.summary, { testId }),
    jury: withoutComputedAt(jury),
    modelStats: stats,
  };
}

function withoutComputedAt(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, field: unknown) => (key === "computedAt" ? undefined : field)));
}

describe("a force restart", () => {
  test("ends with exactly the figures of a fresh run of the same answers", { timeout: 240_000 }, async () => {
    const { t, admin, owner, testId, jobId } = await setup();
    await runTest(t, testId, sameAnswers);
    const fresh = await figuresOf(owner, t, testId);
    const freshRows = await rowsEverywhere(t, testId);
    expect(fresh.status).toBe("completed");
    expect(fresh.counters).toMatchObject({ responsesCount: 256, failedCalls: 0 });
    expect(fresh.passRates?.models[0]?.overall).toMatchObject({ answers: 128, passed: 128 });

    // A run of other answers: failures, failed checks, the judges' reverse rankings.
    await admin.as.mutation(api.admin.forceRestartJob, { jobId });
    await runTest(t, testId, otherAnswers);
    const other = await figuresOf(owner, t, testId);
    expect(other.counters.failedCalls).toBeGreaterThan(0);
    expect(other.passRates?.models[0]?.overall).toMatchObject({ passed: 0 });

    // Restarted, the same answers as the fresh run give the fresh run's figures, nothing of the other run.
    await admin.as.mutation(api.admin.forceRestartJob, { jobId });
    await runTest(t, testId, sameAnswers);
    expect(await figuresOf(owner, t, testId)).toEqual(fresh);
    // Row for row what the fresh run left: nothing of the two earlier runs is kept beside it.
    expect(await rowsEverywhere(t, testId)).toEqual(freshRows);
  });
});

describe("deleting a finished test", () => {
  test(
    "leaves no row of it in any table, each cleanup batch within the transaction limits",
    { timeout: 240_000 },
    async () => {
      const { t, owner, testId } = await setup();
      await runTest(t, testId, sameAnswers);
      // What people add to a test, and 20 MB of kept jury rows: more than one transaction may read.
      await owner.as.mutation(api.shares.enable, { testId });
      await owner.as.mutation(api.presence.heartbeat, {
        room: testRoom(testId),
        clientId: "owner-tab-0001",
        page: "results",
      });
      await t.run(async (ctx) => {
        // A generation id its worker's report kept (here the test played its worker).
        const call = (await ctx.db
          .query("calls")
          .withIndex("by_test_status", (q) => q.eq("testId", testId))
          .first())!;
        await ctx.db.insert("callGenerations", {
          testId,
          callId: call._id,
          leaseId: `${call._id}:1`,
          generationId: "gen-1",
        });
        const response = (await ctx.db
          .query("responses")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .first())!;
        await ctx.db.insert("notes", {
          testId,
          responseId: response._id,
          userId: owner.userId,
          body: "Nice",
          createdAt: 1,
        });
        await ctx.db.insert("humanJudgements", {
          testId,
          userId: owner.userId,
          personaId: response.personaId,
          topicId: response.topicId,
          ranking: [response._id],
          updatedAt: 1,
        });
      });
      const chunk = "x".repeat(190_000);
      for (let batch = 0; batch < 5; batch++)
        await t.run(async (ctx) => {
          for (let index = 0; index < 22; index++)
            await ctx.db.insert("juryStateChunks", { testId, index: 1000 + batch * 22 + index, data: chunk });
        });
      const before = await rowsEverywhere(t, testId);
      // Every per-test table that a finished test keeps rows in has some (the deltas and check
      // tallies were folded, the counter row added into the test's, the monitor row dropped).
      expect(
        Object.entries(before)
          .filter(([, rows]) => rows === 0)
          .map(([table]) => table)
          .sort(),
      ).toEqual(["checkTallies", "creditTransactions", "payments", "runDeltas", "testCounters", "testProgress"]);

      await owner.as.mutation(api.tests.remove, { testId });
      await t.finishAllScheduledFunctions(vi.runAllTimers);
      const after = await rowsEverywhere(t, testId);
      expect(Object.entries(after).filter(([, rows]) => rows > 0)).toEqual([]);
    },
  );
});
