import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { seedFinishedTest } from "./finishedTests.fixture";
import { newShareId } from "./lib/shareId";
import { createUser, createBackend, withoutKeys } from "./test.helpers";

/** Keys that name a money figure: costs, prices, cents. */
const MONEY = /cost|price|cents/i;

/** Every key of a returned value, at any depth, that names a money figure. */
function moneyKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(moneyKeys);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [...(MONEY.test(key) ? [key] : []), ...moneyKeys(inner)]);
}

async function setup() {
  const t = createBackend();
  const owner = await createUser(t, "owner.person@example.com", { fullName: "Owner Person" });
  const testId = await seedFinishedTest(t, {
    userId: owner.userId,
    responses: 24,
    evaluationsPerResponse: 2,
    withPayment: true,
  });
  return { t, owner, testId };
}

describe("share ids", () => {
  test("are 128 random bits in 22 url-safe characters", () => {
    const ids = new Set(Array.from({ length: 500 }, () => newShareId()));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe("sharing", () => {
  test("an anonymous caller reads an active share: rankings, metrics, 10 samples, configuration, and no account data", async () => {
    const { t, owner, testId } = await setup();
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    // Turning it on again while on keeps the same link.
    expect((await owner.as.mutation(api.shares.enable, { testId })).shareId).toBe(shareId);
    expect((await owner.as.query(api.results.get, { testId })).share).toEqual({ shareId, isActive: true });

    const shared = await t.query(api.shares.view, { shareId });
    expect(shared).not.toBeNull();
    expect(shared!.testName).toBe("Coffee taglines");
    expect(shared!.status).toBe("completed");
    expect(shared!.metrics).toMatchObject({ totalResponses: 24, evaluations: 48, completionRate: 1 });
    expect(shared!.rankings).toHaveLength(2);
    expect(shared!.sampleResponses).toHaveLength(10);
    expect(shared!.configuration.generatorModels).toHaveLength(2);

    const text = JSON.stringify(shared);
    const user = await t.run(async (ctx) => (await ctx.db.get("users", owner.userId))!);
    for (const secret of [
      user.email!,
      "owner.person",
      "Owner Person",
      owner.userId,
      testId,
      "payment",
      "amountCents",
      "stripe",
      "userId",
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  test("the shared page gets no cost figures (spec part 2 shows none there); the owner's results keep them", async () => {
    const { t, owner, testId } = await setup();
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    const owners = await owner.as.query(api.results.get, { testId });
    expect(owners.metrics.totalCostUsd).toBeGreaterThan(0);
    const shared = (await t.query(api.shares.view, { shareId }))!;
    expect(moneyKeys(shared)).toEqual([]);
    // Everything else of the metrics is as the owner sees it.
    expect(shared.metrics).toEqual(withoutKeys(owners.metrics, MONEY));
  });

  test("turning sharing off ends the link for everyone, and turning it on again issues a new one", async () => {
    const { t, owner, testId } = await setup();
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    await owner.as.mutation(api.shares.disable, { testId });
    expect(await t.query(api.shares.view, { shareId })).toBeNull();
    expect((await owner.as.query(api.results.get, { testId })).share).toEqual({ shareId, isActive: false });

    const again = await owner.as.mutation(api.shares.enable, { testId });
    expect(again.shareId).not.toBe(shareId);
    expect(await t.query(api.shares.view, { shareId })).toBeNull();
    expect(await t.query(api.shares.view, { shareId: again.shareId })).not.toBeNull();
  });

  test("unknown, empty and oversized ids read nothing", async () => {
    const { t } = await setup();
    expect(await t.query(api.shares.view, { shareId: "nope" })).toBeNull();
    expect(await t.query(api.shares.view, { shareId: "" })).toBeNull();
    expect(await t.query(api.shares.view, { shareId: "x".repeat(500) })).toBeNull();
  });

  test("the shared page follows a running test live", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 4, status: "running" });
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    expect((await t.query(api.shares.view, { shareId }))!.metrics.totalResponses).toBe(4);
    await t.run(async (ctx) => {
      await ctx.db.patch("tests", testId, { responsesCount: 6 });
    });
    expect((await t.query(api.shares.view, { shareId }))!.metrics.totalResponses).toBe(6);
    expect((await t.query(api.shares.view, { shareId }))!.status).toBe("running");
  });

  test("a running test's progress and forecast end are shared; an ended test's are not", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 4, status: "running" });
    const endsAt = Date.now() + 150_000;
    const progress = {
      currentPhase: "Generating Responses",
      percentage: 38,
      estimatedTimeRemaining: "About 3 min",
      endsAt,
    };
    await t.run((ctx) => ctx.db.patch("tests", testId, { progress }));
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    expect((await t.query(api.shares.view, { shareId }))!.progress).toEqual(progress);
    await t.run((ctx) => ctx.db.patch("tests", testId, { status: "completed", completedAt: Date.now() }));
    expect((await t.query(api.shares.view, { shareId }))!.progress).toBeUndefined();
  });
});
