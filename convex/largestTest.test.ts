// Deleting and force-restarting the largest test a user may run (4,000 answers of ~1,500
// characters, 40,000 judgements with their explanations): each cleanup batch stays within its
// budget of bytes (core/run/lifecycle.ts, half the 16 MiB a transaction may read, its rows read
// twice), which convex-test enforces too (16 MiB read and written, 16,000 documents written); a
// deletion whose batches stopped is resumed by the cron until no row of the test is left; a
// restarted test has the figures of a fresh one and nothing of its previous run.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { CLEAR_BYTES_PER_BATCH, clearTestRowsBatch } from "./core/run/lifecycle";
import { PER_TEST_TABLES } from "./core/run/tables";
import { DELETION_STALLED_MS } from "./core/testDeletion";
import { SEED_EVALUATORS, SEED_MODELS, seedConfiguration, seedFinishedTest } from "./finishedTests.fixture";
import { createBackend, createUser, rowsEverywhere, seedCatalog, type TestBackend } from "./test.helpers";

/**
 * The largest allowed test's rows. convex-test writes and deletes them one by one in memory, far
 * slower than a deployment: `npm test` runs a tenth of them (each batch reads as many rows, capped
 * per table, so its bytes are the same); MJ_LARGEST_TEST=full runs the whole test.
 */
const ANSWERS = process.env.MJ_LARGEST_TEST === "full" ? 4_000 : 400;
const JUDGEMENTS_PER_ANSWER = 10;
/** 500 tokens of 3 characters (spec part 1 §9), and a judge's explanation of a rating. */
const ANSWER_CHARS = 1_500;
const EXPLANATION_CHARS = 400;

beforeEach(() => {
  vi.useFakeTimers();
  delete process.env.STRIPE_SECRET_KEY; // free mode
});
afterEach(() => {
  vi.useRealTimers();
});

async function seedLargest(t: TestBackend, userId: Id<"users">) {
  const testId = await seedFinishedTest(t, {
    userId,
    responses: ANSWERS,
    evaluationsPerResponse: JUDGEMENTS_PER_ANSWER,
    answerChars: ANSWER_CHARS,
    explanationChars: EXPLANATION_CHARS,
    withPayment: true,
    chunk: 250,
  });
  const rows = await rowsEverywhere(t, testId);
  expect(rows).toMatchObject({ responses: ANSWERS, evaluations: ANSWERS * JUDGEMENTS_PER_ANSWER });
  return testId;
}

/** Batches run by hand, each measured: the largest one's bytes (storedBytes) and rows. */
async function batchesByHand(t: TestBackend, testId: Id<"tests">, step: "delete" | "restart", count: number) {
  let largest = { rows: 0, bytes: 0 };
  for (let batch = 0; batch < count; batch++) {
    const result = await t.run((ctx) => clearTestRowsBatch(ctx, testId, step));
    if (result.bytes > largest.bytes) largest = { rows: result.rows, bytes: result.bytes };
    if (result.done) break;
  }
  return largest;
}

describe("the largest allowed test", () => {
  test(
    "deleted: every batch within its byte budget, the stopped cleanup resumed, no row left",
    { timeout: 1_500_000 },
    async () => {
      const t = createBackend();
      const owner = await createUser(t, "ada@example.com");
      const testId = await seedLargest(t, owner.userId);
      await owner.as.mutation(api.shares.enable, { testId });

      await owner.as.mutation(api.tests.remove, { testId });
      // The cleanup's chain breaks at once (its first batch failed for good, as a deploy between two
      // batches would leave it): nothing of it is scheduled any more.
      await t.run(async (ctx) => {
        for (const scheduled of await ctx.db.system.query("_scheduled_functions").collect())
          if (scheduled.state.kind === "pending") await ctx.scheduler.cancel(scheduled._id);
      });
      // Batches of the bulky rows first (answers, judgements, calls), measured by hand.
      const largest = await batchesByHand(t, testId, "delete", 10);
      console.log(
        `largest test deletion: largest batch ${largest.rows} rows, ${(largest.bytes / 1024 ** 2).toFixed(2)} MiB of rows ` +
          `(read twice: ${((2 * largest.bytes) / 1024 ** 2).toFixed(2)} of 16 MiB)`,
      );
      expect(largest.bytes).toBeLessThan(CLEAR_BYTES_PER_BATCH + 64 * 1024); // at most one row past the budget
      expect(2 * largest.bytes).toBeLessThan(16 * 1024 * 1024 * 0.6);

      // Not stalled yet: the cron leaves a cleanup whose latest batch is recent alone.
      expect(await t.mutation(internal.testDeletion.resumeStalled, {})).toBe(0);
      vi.setSystemTime(Date.now() + DELETION_STALLED_MS + 1_000);
      expect(await t.mutation(internal.testDeletion.resumeStalled, {})).toBe(1);
      await t.finishAllScheduledFunctions(vi.runAllTimers);

      const left = await rowsEverywhere(t, testId);
      expect(Object.entries(left).filter(([, rows]) => rows > 0)).toEqual([]);
      expect(await t.run((ctx) => ctx.db.query("testDeletions").collect())).toEqual([]);
      expect(await t.run((ctx) => ctx.db.get("tests", testId))).toBeNull();
      // The money records stay, unlinked.
      expect(await t.run(async (ctx) => (await ctx.db.query("payments").collect()).length)).toBe(1);
    },
  );

  test(
    "force-restarted: the previous run's rows are gone, its figures are a fresh test's",
    { timeout: 1_500_000 },
    async () => {
      const t = createBackend();
      const admin = await createUser(t, "admin@example.com", { isAdmin: true });
      const owner = await createUser(t, "ada@example.com");
      await seedCatalog(
        t,
        [...SEED_MODELS, ...SEED_EVALUATORS].map((model) => model.id),
      );
      await t.run((ctx) => ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 })); // queued, not run
      const testId = await seedLargest(t, owner.userId);
      const fresh = await owner.as.mutation(api.tests.create, { configuration: seedConfiguration() });
      const jobId = await t.run(
        async (ctx) =>
          (await ctx.db
            .query("jobs")
            .withIndex("by_test", (q) => q.eq("testId", testId))
            .unique())!._id,
      );

      await admin.as.mutation(api.admin.forceRestartJob, { jobId });
      const largest = await batchesByHand(t, testId, "restart", 3);
      expect(2 * largest.bytes).toBeLessThan(16 * 1024 * 1024 * 0.6);
      await t.finishAllScheduledFunctions(vi.runAllTimers);

      const rows = await rowsEverywhere(t, testId);
      const restartDeletes = Object.entries(PER_TEST_TABLES)
        .filter(([, entry]) => entry.restart === "delete")
        .map(([table]) => table);
      expect(Object.entries(rows).filter(([table, count]) => restartDeletes.includes(table) && count > 0)).toEqual([]);
      const figures = async (id: Id<"tests">) => {
        const test = (await t.run((ctx) => ctx.db.get("tests", id)))!;
        const results = await owner.as.query(api.results.get, { testId: id });
        // What the run made (the plan aside: the seed sets its own expected counts).
        const { expectedResponses: _responses, expectedEvaluations: _evaluations, ...made } = results.metrics;
        return {
          status: test.status,
          counters: [
            test.responsesCount,
            test.evaluationsCount,
            test.finishedCalls,
            test.failedCalls,
            test.totalCostUsd,
          ],
          rankings: results.rankings,
          metrics: made,
          checks: await owner.as.query(api.checks.summary, { testId: id }),
          jury: (await owner.as.query(api.results.juryStats, { testId: id }))?.stats ?? null,
        };
      };
      expect(await figures(testId)).toEqual(await figures(fresh.testId));
    },
  );
});
