import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { seedFinishedTest } from "./finishedTests.fixture";
import { createUser, createBackend, type TestBackend } from "./test.helpers";

afterEach(() => {
  vi.useRealTimers();
});

async function countRows(t: TestBackend, testId: Id<"tests">) {
  return await t.run(async (ctx) => {
    const byTest = async (table: "responses" | "evaluations" | "shares" | "payments" | "creditTransactions") =>
      (
        await ctx.db
          .query(table)
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .collect()
      ).length;
    return {
      test: (await ctx.db.get("tests", testId)) === null ? 0 : 1,
      responses: await byTest("responses"),
      evaluations: await byTest("evaluations"),
      shares: await byTest("shares"),
      calls: (
        await ctx.db
          .query("calls")
          .withIndex("by_test_status", (q) => q.eq("testId", testId))
          .collect()
      ).length,
      modelStats: (
        await ctx.db
          .query("modelStats")
          .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
          .collect()
      ).length,
      jobs: (
        await ctx.db
          .query("jobs")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .collect()
      ).length,
      presence: (
        await ctx.db
          .query("presence")
          .withIndex("by_room_viewer", (q) => q.eq("room", `test:${testId}`))
          .collect()
      ).length,
      linkedPayments: await byTest("payments"),
      linkedCredits: await byTest("creditTransactions"),
    };
  });
}

describe("deleting a test", () => {
  test(
    "removes 2,000 responses and 6,000 evaluations in batches and keeps the payments",
    { timeout: 120_000 },
    async () => {
      vi.useFakeTimers();
      const t = createBackend();
      const owner = await createUser(t, "owner@example.com");
      const testId = await seedFinishedTest(t, {
        userId: owner.userId,
        responses: 2000,
        evaluationsPerResponse: 3,
        withPayment: true,
        chunk: 1000,
      });
      const keep = await seedFinishedTest(t, {
        userId: owner.userId,
        responses: 10,
        evaluationsPerResponse: 1,
        name: "Keep me",
      });
      await t.run(async (ctx) => {
        await ctx.db.patch("users", owner.userId, { testCount: 2 });
      });
      await owner.as.mutation(api.shares.enable, { testId });
      await owner.as.mutation(api.presence.heartbeat, {
        room: `test:${testId}`,
        clientId: "owner-tab-0001",
        page: "results",
      });
      expect(await countRows(t, testId)).toMatchObject({
        responses: 2000,
        evaluations: 6000,
        shares: 1,
        presence: 1,
        linkedPayments: 1,
        linkedCredits: 2,
      });

      await owner.as.mutation(api.tests.remove, { testId });
      // Gone from the owner's views at once, before the cleanup has run.
      const history = await owner.as.query(api.history.list, {});
      expect(history.tests.map((row) => row.name)).toEqual(["Keep me"]);
      expect(history.total).toBe(1);

      // One run removes one batch per table, then schedules the next.
      vi.runOnlyPendingTimers();
      await t.finishInProgressScheduledFunctions();
      expect(await countRows(t, testId)).toMatchObject({ responses: 1500, evaluations: 5500, shares: 0, presence: 0 });
      // The results page still open beats once more: it is told the page is gone, without an error.
      expect(
        await owner.as.mutation(api.presence.heartbeat, {
          room: `test:${testId}`,
          clientId: "owner-tab-0001",
          page: "results",
          arrivedAt: Date.now(),
        }),
      ).toBe("gone");
      expect(await countRows(t, testId)).toMatchObject({ presence: 0 });

      await t.finishAllScheduledFunctions(vi.runAllTimers);
      expect(await countRows(t, testId)).toEqual({
        test: 0,
        responses: 0,
        evaluations: 0,
        shares: 0,
        calls: 0,
        modelStats: 0,
        jobs: 0,
        presence: 0,
        linkedPayments: 0,
        linkedCredits: 0,
      });
      const money = await t.run(async (ctx) => ({
        payments: await ctx.db
          .query("payments")
          .withIndex("by_user", (q) => q.eq("userId", owner.userId))
          .collect(),
        credits: await ctx.db
          .query("creditTransactions")
          .withIndex("by_user", (q) => q.eq("userId", owner.userId))
          .collect(),
      }));
      expect(money.payments).toHaveLength(1);
      expect(money.payments[0]).toMatchObject({ testName: "Coffee taglines", status: "paid", amountCents: 200 });
      expect(money.payments[0].testId).toBeUndefined();
      expect(money.credits.map((row) => row.description).sort()).toEqual([
        "Payment for Test: Coffee taglines",
        "Test: Coffee taglines",
      ]);

      // The other test is untouched.
      expect(await countRows(t, keep)).toMatchObject({ test: 1, responses: 10, evaluations: 10, jobs: 1 });
      const user = await t.run(async (ctx) => (await ctx.db.get("users", owner.userId))!);
      expect(user.testCount).toBe(1);
    },
  );

  test("a deleted test's shared link and results stop at once", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 3 });
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    await owner.as.mutation(api.tests.remove, { testId });
    expect(await t.query(api.shares.view, { shareId })).toBeNull();
    await expect(owner.as.query(api.results.get, { testId })).rejects.toThrow();
  });

  test("a running test can be deleted; its job is removed and the queue moves on", async () => {
    vi.useFakeTimers();
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 3, status: "running" });
    await owner.as.mutation(api.tests.remove, { testId });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await countRows(t, testId)).toMatchObject({ test: 0, jobs: 0, responses: 0 });
  });
});
