// @vitest-environment node
// An abandoned checkout does not leave a test behind: an unpaid test is a draft.
// It is not a run (Total Tests, the monitor's current test), it is paid or discarded rather than
// stopped, and the hourly cleanup cancels it and schedules the expiry of its checkout.
import { afterEach, describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { settlePayment } from "./core/payments";
import { createUser, createBackend, sampleConfiguration, seedCatalog, type TestBackend } from "./test.helpers";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001"];
const HOUR = 60 * 60 * 1000;

afterEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
});

async function setup() {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
  // Nothing starts by itself: the queue holds paid tests, so the scheduler never calls out.
  await t.run((ctx) => ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 }));
  const ada = await createUser(t, "ada@example.com");
  return { t, ada };
}

/** A paid run: with a Stripe key the test waits for its checkout. */
async function createDraft(t: TestBackend, as: Awaited<ReturnType<typeof createUser>>["as"], name: string) {
  process.env.STRIPE_SECRET_KEY = "sk_test_drafts";
  try {
    const created = await as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS, { name }),
    });
    expect(created.paymentRequired).toBe(true);
    return created.testId;
  } finally {
    delete process.env.STRIPE_SECRET_KEY;
  }
}

/** Settles the test's checkout for its quoted price, as the Stripe webhook does. */
async function pay(t: TestBackend, userId: Id<"users">, testId: Id<"tests">) {
  await t.run(async (ctx) => {
    const { priceCents } = (await ctx.db.get("tests", testId))!;
    const paymentId = await ctx.db.insert("payments", {
      userId,
      testId,
      testName: "paid",
      amountCents: priceCents,
      currency: "usd",
      status: "pending",
    });
    await settlePayment(ctx, (await ctx.db.get("payments", paymentId))!, { amountCents: priceCents, currency: "usd" });
  });
}

describe("unpaid drafts", () => {
  test("a draft is listed with its price but is not a run, not the current test and cannot be stopped; paying makes it one", async () => {
    const { t, ada } = await setup();
    const draftId = await createDraft(t, ada.as, "Abandoned checkout");

    const home = await ada.as.query(api.dashboard.home, {});
    expect(home.stats.totalTests).toBe(0);
    expect(home.recentTests).toEqual([
      expect.objectContaining({ _id: draftId, status: "pending", awaitingPayment: true }),
    ]);
    expect(home.recentTests[0].priceCents).toBeGreaterThanOrEqual(200);
    const history = await ada.as.query(api.history.list, {});
    expect(history.tests).toEqual([expect.objectContaining({ _id: draftId, awaitingPayment: true })]);
    expect(await ada.as.query(api.tests.current, {})).toBeNull();
    await expect(ada.as.mutation(api.tests.cancel, { testId: draftId })).rejects.toThrow(
      "Only a running test can be stopped.",
    );

    // A later run that needs no payment (free mode) is the monitor's test, not the draft.
    const free = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS),
    });
    expect(await ada.as.query(api.tests.current, {})).toBe(free.testId);
    expect((await ada.as.query(api.dashboard.home, {})).stats.totalTests).toBe(1);

    // Complete Payment: once paid, the draft is a run like any other.
    await pay(t, ada.userId, draftId);
    const paid = await ada.as.query(api.dashboard.home, {});
    expect(paid.stats.totalTests).toBe(2);
    expect(paid.recentTests.find((row) => row._id === draftId)?.awaitingPayment).toBe(false);
    // A replayed settlement counts nothing twice.
    await t.run(async (ctx) => {
      const payment = (await ctx.db
        .query("payments")
        .withIndex("by_test", (q) => q.eq("testId", draftId))
        .first())!;
      await settlePayment(ctx, payment, { amountCents: payment.amountCents, currency: "usd" });
    });
    expect((await ada.as.query(api.dashboard.home, {})).stats.totalTests).toBe(2);
  });

  test("discarding a draft leaves the figures as they were", async () => {
    const { t, ada } = await setup();
    await ada.as.mutation(api.tests.create, { configuration: sampleConfiguration(GENERATORS, EVALUATORS) });
    const draftId = await createDraft(t, ada.as, "Changed my mind");
    expect((await ada.as.query(api.dashboard.home, {})).stats.totalTests).toBe(1);
    await ada.as.mutation(api.tests.remove, { testId: draftId });
    const home = await ada.as.query(api.dashboard.home, {});
    expect(home.stats.totalTests).toBe(1);
    expect(home.recentTests.map((row) => row._id)).not.toContain(draftId);
  });

  test("the hourly cleanup cancels an abandoned draft and expires its checkout", async () => {
    const { t, ada } = await setup();
    const draftId = await createDraft(t, ada.as, "Abandoned checkout");
    const freshId = await createDraft(t, ada.as, "Still deciding");
    await t.run((ctx) => ctx.db.patch("tests", draftId, { lastProgressAt: Date.now() - HOUR - 1000 }));

    await t.mutation(internal.runner.cancelStaleTests, {});

    const rows = await t.run(async (ctx) => ({
      draft: (await ctx.db.get("tests", draftId))!,
      fresh: (await ctx.db.get("tests", freshId))!,
      job: (await ctx.db
        .query("jobs")
        .withIndex("by_test", (q) => q.eq("testId", draftId))
        .unique())!,
      scheduled: await ctx.db.system.query("_scheduled_functions").collect(),
    }));
    expect(rows.draft).toMatchObject({
      status: "cancelled",
      progress: { currentPhase: "Cancelled - Timeout", percentage: 0 },
    });
    expect(rows.job.status).toBe("cancelled");
    expect(rows.fresh.status).toBe("pending");
    const expiries = rows.scheduled.filter((job) => job.name.includes("expireTestCheckouts"));
    expect(expiries.map((job) => job.args[0])).toEqual([{ testId: draftId }]);
    // Never paid, so never counted as a run.
    expect((await ada.as.query(api.dashboard.home, {})).stats.totalTests).toBe(0);
  });
});
