// @vitest-environment node
// Lists read small summary rows, never configurations (issue 20 item 1): a history of 500 tests
// with ~230 KB configurations each loads (reading all 500 tests is ~115 MB, past Convex's 16 MiB
// read limit per transaction), and so do the dashboard and the admin's jobs list; the migration
// builds summaries for tests written before them; a run's summary ends equal to its test row.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { EMPTY_RUN_COUNTERS } from "./core/pipeline/runCounters";
import { bytesReadBy, seedBigTests } from "./bigTests.fixture";
import { seedFinishedTest, type Runner } from "./finishedTests.fixture";
import { addCounters, foldCounters } from "./core/pipeline/runCounters";
import type { MutationCtx } from "./_generated/server";
import { summaryOf, summaryRowOf, verdictOfTest } from "./core/testSummaries";
import { HISTORY_LIMIT } from "./history";
import { LIST_READ_BYTES, MAX_STORED_BYTES } from "./lib/limits";
import {
  createBackend,
  createUser,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
  useDevGateway,
  waitFor,
} from "./test.helpers";
import { countedTest } from "./core/pipeline/counterRow";

useDevGateway();

const BIG_TESTS = HISTORY_LIMIT;

async function summaryCount(t: TestBackend): Promise<number> {
  return await t.run(async (ctx) => (await ctx.db.query("testSummaries").take(BIG_TESTS + 1)).length);
}

describe("lists read summaries, bounded in bytes", () => {
  test(
    "a history of 500 tests with ~230 KB configurations loads, and so do the dashboard and the admin's jobs list",
    { timeout: 120_000 },
    async () => {
      const t = createBackend();
      const { userId, as } = await createUser(t, "ada@example.com");
      const admin = await createUser(t, "admin@example.com", { isAdmin: true });
      const configurationBytes = await seedBigTests(t, userId, BIG_TESTS);
      expect(configurationBytes).toBeGreaterThan(200 * 1024);
      expect(configurationBytes).toBeLessThanOrEqual(MAX_STORED_BYTES);
      // Reading every test whole would pass Convex's 16 MiB read limit several times over.
      expect(configurationBytes * BIG_TESTS).toBeGreaterThan(16 * 1024 * 1024 * 6);

      // Tests from before summaries: the migration builds theirs, a bounded batch per run.
      expect(await summaryCount(t)).toBe(0);
      await t.mutation(internal.history.migrateTestSummaries, {});
      await waitFor(
        () => summaryCount(t),
        (count) => count === BIG_TESTS,
        60_000,
      );
      await t.finishInProgressScheduledFunctions();

      const history = await bytesReadBy(() => as.query(api.history.list, {}));
      expect(history.value.tests).toHaveLength(BIG_TESTS);
      expect(history.value.tests[0]).toMatchObject({
        name: `Big test ${BIG_TESTS - 1}`,
        status: "failed",
        priceCents: 200,
        totalCostUsd: 0.001 * (BIG_TESTS - 1),
        completedAt: 2_000 + BIG_TESTS - 1,
        awaitingPayment: false,
        missingWork: { missingResponses: 2, missingEvaluations: 0, lastCallError: "HTTP 503: Service Unavailable" },
      });
      expect(history.value.tests.at(-1)!.name).toBe("Big test 0");
      // 500 summaries of a few hundred bytes each: well inside the list budget, never a configuration.
      expect(history.bytes).toBeLessThan(LIST_READ_BYTES / 8);
      expect(history.bytes).toBeLessThan(configurationBytes * 2);
      console.log(
        `history.list, ${BIG_TESTS} tests of ${configurationBytes} B configurations: ${history.bytes} B read`,
      );

      const home = await bytesReadBy(() => as.query(api.dashboard.home, {}));
      expect(home.value.recentTests).toHaveLength(10);
      expect(home.value.recentTests[0]).toMatchObject({ name: `Big test ${BIG_TESTS - 1}`, modelCount: 2 });
      // Ten whole tests would be ten configurations.
      expect(home.bytes).toBeLessThan(configurationBytes);

      // The newest 100 jobs are failed and paid: each row's Retry refusal reads its test's summary.
      const jobs = await bytesReadBy(() => admin.as.query(api.admin.listJobs, {}));
      expect(jobs.value.jobs).toHaveLength(100);
      expect(jobs.value.jobs.every((job) => job.retryRefusal === null)).toBe(true);
      expect(jobs.bytes).toBeLessThan(configurationBytes);
    },
  );

  test("the migration is idempotent, and a summary keeps a long gateway error short", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "bob@example.com");
    await t.run(async (ctx) => {
      for (let index = 0; index < 3; index++) {
        await ctx.db.insert("tests", {
          userId,
          name: `T${index}`,
          taskType: "general",
          configuration: sampleConfiguration(),
          status: "completed",
          progress: { currentPhase: "Completed", percentage: 100 },
          estimate: { generationCost: 0, evaluationCost: 0, totalCost: 0, totalQueries: 0, estimatedTokens: 0 },
          priceCents: 0,
          usesOwnKey: false,
          expectedResponses: 1,
          expectedEvaluations: 1,
          ...EMPTY_RUN_COUNTERS,
          lastCallError: "x".repeat(2_000),
          lastProgressAt: 0,
        });
      }
    });
    await t.mutation(internal.history.migrateTestSummaries, {});
    await t.mutation(internal.history.migrateTestSummaries, {});
    await t.finishInProgressScheduledFunctions();
    expect(await summaryCount(t)).toBe(3);
    const { tests } = await as.query(api.history.list, {});
    expect(tests.map((row) => row.name)).toEqual(["T2", "T1", "T0"]);
    expect(tests[0]!.missingWork.lastCallError).toHaveLength(500);
  });
});

// ------------------------------------------------------------------ a run's summary

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001"];

describe("a run's summary", () => {
  test(
    "follows the run and ends equal to the test row's figures, with the jury's verdict",
    { timeout: 60_000 },
    async () => {
      const t = createBackend();
      await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
      const { as } = await createUser(t, "cy@example.com");
      const { testId } = await as.mutation(api.tests.create, {
        configuration: sampleConfiguration(GENERATORS, EVALUATORS),
      });
      const ended = await waitFor(
        () => t.run(async (ctx) => (await countedTest(ctx, testId))!),
        (test: Doc<"tests">) => test.status === "completed" || test.status === "failed",
        30_000,
      );
      // The jury's statistics are stored after the end (one full recomputation): the verdict follows.
      await waitFor(
        () => t.run(async (ctx) => (await summaryRowOf(ctx, testId))?.juryVerdict ?? null),
        (verdict) => verdict !== null,
        30_000,
      );
      await t.finishInProgressScheduledFunctions();
      const { test, summary, verdict } = await t.run(async (ctx) => ({
        test: (await countedTest(ctx, testId))!,
        summary: (await summaryRowOf(ctx, testId))!,
        verdict: await verdictOfTest(ctx, testId),
      }));
      expect(ended.status).toBe("completed");
      expect(test.totalCostUsd).toBeGreaterThan(0);
      expect(test.resultsSummary?.analysisSummary.topPerformers.length).toBeGreaterThan(0);
      const { _id, _creationTime, juryVerdict, ...fields } = summary;
      expect(fields).toEqual(JSON.parse(JSON.stringify(summaryOf(test))));
      expect(verdict).toBeDefined();
      expect(juryVerdict).toEqual(verdict);

      const { tests } = await as.query(api.history.list, {});
      expect(tests).toHaveLength(1);
      expect(tests[0]).toMatchObject({
        _id: testId,
        status: "completed",
        totalCostUsd: test.totalCostUsd,
        completedAt: test.completedAt,
        startedAt: test.startedAt,
        topPerformers: test.resultsSummary!.analysisSummary.topPerformers.slice(0, 3),
        juryVerdict: verdict,
      });
      const home = await as.query(api.dashboard.home, {});
      expect(home.recentTests[0]).toMatchObject({ _id: testId, status: "completed", modelCount: GENERATORS.length });

      // Deleted: it leaves the lists at once, its summary with it.
      await as.mutation(api.tests.remove, { testId });
      expect((await as.query(api.history.list, {})).tests).toHaveLength(0);
      expect(await t.run(async (ctx) => await summaryRowOf(ctx, testId))).toBeNull();
    },
  );
});

// ------------------------------------------------------------------ the fold writes the summary only on a visible change

/** Runs the fold of a test's counters, and says which tables it patched. */
async function foldPatching(t: TestBackend, testId: Id<"tests">): Promise<string[]> {
  return await t.run(async (ctx) => {
    const patched: string[] = [];
    const db = new Proxy(ctx.db, {
      get(target, property, receiver) {
        if (property !== "patch") return Reflect.get(target, property, receiver) as unknown;
        return (table: string, ...rest: unknown[]) => {
          patched.push(table);
          return (target.patch as (...args: unknown[]) => Promise<void>)(table, ...rest);
        };
      },
    });
    await foldCounters({ ...ctx, db } as MutationCtx, testId);
    return patched;
  });
}

describe("the counter fold and the summary", () => {
  test("a fold writes the summary only when a figure a list shows changed", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "dee@example.com");
    const testId = await seedFinishedTest(t as unknown as Runner, { userId, responses: 4, status: "running" });
    const costBefore = (await as.query(api.history.list, {})).tests[0]!.totalCostUsd;

    // Tokens and latency: the test's row moves, no list shows them.
    await t.run((ctx) => addCounters(ctx, testId, { totalTokens: 120, totalLatencyMs: 900 }));
    expect(await foldPatching(t, testId)).not.toContain("testSummaries");
    // Nothing new: the summary is not written either.
    expect(await foldPatching(t, testId)).not.toContain("testSummaries");
    // Spend, and a gateway error with an answer given up: History's cost and missing work move.
    await t.run((ctx) => addCounters(ctx, testId, { totalCostUsd: 0.25, missingResponses: 1 }, "HTTP 429"));
    expect(await foldPatching(t, testId)).toContain("testSummaries");

    const [row] = (await as.query(api.history.list, {})).tests;
    expect(row!.totalCostUsd).toBeCloseTo(costBefore + 0.25, 10);
    expect(row!.missingWork).toEqual({ missingResponses: 1, missingEvaluations: 0, lastCallError: "HTTP 429" });
    const { test, summary } = await t.run(async (ctx) => ({
      test: (await countedTest(ctx, testId))!,
      summary: (await summaryRowOf(ctx, testId))!,
    }));
    expect(summary.totalCostUsd).toBe(test.totalCostUsd);
  });
});
