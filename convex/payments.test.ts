// @vitest-environment node
// Payment through the dev Stripe: checkout, the signed webhook (replays, forgeries), the
// return-page verification, and the server's own price.
import Stripe from "stripe";
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { quote } from "./lib/pricing";
import { backendWithUser, createUser, errorOf, sampleConfiguration, useDevStripe } from "./test.helpers";
import type { TestBackend } from "./test.helpers";

const WEBHOOK_SECRET = "whsec_test_payments";
const stripeServer = useDevStripe(WEBHOOK_SECRET);
const stripe = new Stripe("sk_test_dev");

const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];

async function pricedTest() {
  const { t, user } = await backendWithUser(MODELS, { pricePerToken: 1e-5, holdQueue: true }); // paid jobs stay queued
  const created = await user.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
  return { t, user, ...created };
}

function webhook(t: TestBackend, payload: string, signature: string) {
  return t.fetch("/stripe/webhook", {
    method: "POST",
    body: payload,
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
  });
}

function completedEvent(sessionId: string, amount: number, currency = "usd") {
  return JSON.stringify({
    id: `evt_${sessionId}`,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: { id: sessionId, object: "checkout.session", payment_status: "paid", amount_total: amount, currency },
    },
  });
}

async function ledger(t: TestBackend, testId: Id<"tests">) {
  return await t.run(async (ctx) => ({
    payments: await ctx.db
      .query("payments")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect(),
    credits: await ctx.db
      .query("creditTransactions")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect(),
    jobs: await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect(),
    user: await ctx.db.query("users").first(),
  }));
}

describe("payments", () => {
  test("the server prices the test from the catalog and the job waits for payment", async () => {
    const { t, testId, priceCents, paymentRequired } = await pricedTest();
    const catalog = Object.fromEntries(MODELS.map((id) => [id, { prompt: 1e-5, completion: 1e-5 }]));
    expect(priceCents).toBe(quote(sampleConfiguration(), catalog).priceCents);
    expect(priceCents).toBeGreaterThanOrEqual(200);
    expect(paymentRequired).toBe(true);
    const { jobs } = await ledger(t, testId);
    expect(jobs).toMatchObject([{ status: "pending_payment", amountCents: priceCents }]);
  });

  test("a client-side price is not accepted: the call is refused and nothing is stored", async () => {
    const { t, user } = await backendWithUser(MODELS, { pricePerToken: 1e-5 });
    await expect(
      user.as.mutation(api.tests.create, { configuration: sampleConfiguration(), priceCents: 1 } as never),
    ).rejects.toThrow(/priceCents/);
    expect(await t.run((ctx) => ctx.db.query("tests").collect())).toHaveLength(0);
  });

  test("checkout, then the webhook replayed three times: one payment, one ledger pair, one queued job", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const { url, sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    expect(url).toContain(`/checkout/${sessionId}`);
    const payload = completedEvent(sessionId, priceCents);
    for (let replay = 0; replay < 3; replay++) {
      const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      expect((await webhook(t, payload, signature)).status).toBe(200);
    }
    const { payments, credits, jobs, user: row } = await ledger(t, testId);
    expect(payments).toMatchObject([{ status: "paid", amountCents: priceCents, checkoutId: sessionId }]);
    expect(credits.map((c) => [c.type, c.amountCents]).sort()).toEqual([
      ["purchase", priceCents],
      ["test_cost", priceCents],
    ]);
    expect(jobs).toMatchObject([{ status: "queued" }]);
    expect(row?.totalSpentCents).toBe(priceCents);
  });

  test("a forged signature gets 400 and writes nothing", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    const payload = completedEvent(sessionId, priceCents);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" });
    expect((await webhook(t, payload, forged)).status).toBe(400);
    expect((await webhook(t, payload, "t=1,v1=deadbeef")).status).toBe(400);
    const { payments, credits, jobs } = await ledger(t, testId);
    expect(payments).toMatchObject([{ status: "pending" }]);
    expect(credits).toHaveLength(0);
    expect(jobs).toMatchObject([{ status: "pending_payment" }]);
  });

  test("the return page verifies with Stripe; unpaid is not verified, paid is, and only once", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    expect(await user.as.action(api.payments.verify, { sessionId })).toEqual({ verified: false, testId });
    stripeServer().webhook.url = "http://127.0.0.1:9/unreachable"; // the webhook is lost
    const pay = await fetch(`${stripeServer().url}/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" });
    expect(pay.status).toBe(303);
    expect(await user.as.action(api.payments.verify, { sessionId })).toEqual({ verified: true, testId });
    expect(await user.as.action(api.payments.verify, { sessionId })).toEqual({ verified: true, testId });
    const { credits, jobs, user: row } = await ledger(t, testId);
    expect(credits).toHaveLength(2);
    expect(jobs).toMatchObject([{ status: "queued" }]);
    expect(row?.totalSpentCents).toBe(priceCents);
    // Someone else's session id verifies nothing.
    const other = await createUser(t, "eve@example.com");
    expect(await other.as.action(api.payments.verify, { sessionId })).toEqual({ verified: false, testId: null });
  });

  test("a session id longer than any Stripe id is refused before anything reads it", async () => {
    const { user } = await pricedTest();
    expect(await errorOf(user.as.action(api.payments.verify, { sessionId: "cs_".padEnd(1024 * 1024, "x") }))).toEqual({
      code: "INVALID_INPUT",
      field: "sessionId",
      message: "This payment link is not valid.",
    });
  });
});

// ---------------------------------------------------------------- one charge per test

/** Sends the dev Stripe's own signed events (from index `from` on) to the app's webhook. */
async function forwardEvents(t: TestBackend, from: number) {
  for (const event of stripeServer().events.slice(from)) {
    const payload = JSON.stringify(event);
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await webhook(t, payload, signature)).status).toBe(200);
  }
}

/** The customer presses Pay on Stripe's page; its webhook is held back until forwarded. */
async function payOnStripe(sessionId: string) {
  stripeServer().webhook.url = "http://127.0.0.1:9/held-back";
  return (await fetch(`${stripeServer().url}/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" }))
    .status;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 45_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`Timed out; last value: ${JSON.stringify(value).slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function refundsOf(paymentIntent: string | undefined) {
  return [...stripeServer().refunds.values()].filter((refund) => refund.payment_intent === paymentIntent);
}

/** Open sessions of this test created after `since` (ids repeat across convex-test instances). */
function openSessionsOf(testId: Id<"tests">, since: Set<string>) {
  return [...stripeServer().sessions.values()].filter(
    (session) => !since.has(session.id) && session.metadata.testId === testId && session.status === "open",
  );
}

/** A client of the dev Stripe, as another tab or an older build would use it. */
function devStripe() {
  return new Stripe("sk_test_dev", { host: "127.0.0.1", port: stripeServer().port, protocol: "http" });
}

describe("one charge per test", () => {
  test("a second tab and a retry get the test's open session: one session to pay", async () => {
    const { user, testId } = await pricedTest();
    const since = new Set(stripeServer().sessions.keys());
    // Two tabs at the same moment, with no session yet: both get the same one.
    const [first, tabB] = await Promise.all([
      user.as.action(api.payments.createCheckout, { testId }),
      user.as.action(api.payments.createCheckout, { testId }),
    ]);
    expect(tabB).toEqual(first);
    // A retry, and two more tabs, later.
    const retry = await user.as.action(api.payments.createCheckout, { testId });
    const [tabC, tabD] = await Promise.all([
      user.as.action(api.payments.createCheckout, { testId }),
      user.as.action(api.payments.createCheckout, { testId }),
    ]);
    expect([retry.sessionId, tabC.sessionId, tabD.sessionId]).toEqual([
      first.sessionId,
      first.sessionId,
      first.sessionId,
    ]);
    expect(tabD.url).toBe(first.url);
    await waitFor(
      () => Promise.resolve(openSessionsOf(testId, since).map((session) => session.id)),
      (open) => open.length === 1,
    );
    expect(openSessionsOf(testId, since).map((session) => session.id)).toEqual([first.sessionId]);
  });

  for (const recorded of [true, false]) {
    test(`two checkouts, then two payments: one purchase and one refund (second session ${recorded ? "recorded" : "never recorded"})`, async () => {
      const { t, user, testId, priceCents } = await pricedTest();
      const tabA = await user.as.action(api.payments.createCheckout, { testId });
      // A second session for the same test, as an older tab or a checkout that died before answering left it.
      const tabB = await devStripe().checkout.sessions.create({
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: { currency: "usd", unit_amount: priceCents, product_data: { name: "ModelJury test" } },
          },
        ],
        metadata: { testId, userId: user.userId, testName: "Coffee taglines" },
        success_url: "http://127.0.0.1:5173/dashboard/monitor",
      });
      if (recorded) {
        await t.mutation(internal.payments.recordCheckout, {
          testId,
          userId: user.userId,
          sessionId: tabB.id,
          amountCents: priceCents,
        });
      }
      const before = stripeServer().events.length;
      expect(await payOnStripe(tabA.sessionId)).toBe(303);
      expect(await payOnStripe(tabB.id)).toBe(303);
      await forwardEvents(t, before);
      await forwardEvents(t, before); // Stripe retries deliveries: still one of each

      const paidB = stripeServer().sessions.get(tabB.id)!;
      await waitFor(
        () => Promise.resolve(refundsOf(paidB.payment_intent ?? undefined)),
        (refunds) => refunds.length > 0,
      );
      const {
        payments,
        credits,
        jobs,
        user: row,
      } = await waitFor(
        () => ledger(t, testId),
        (state) => state.payments.some((payment) => payment.status === "refunded"),
      );
      expect(payments.map((payment) => [payment.checkoutId, payment.status]).sort()).toEqual(
        [
          [tabA.sessionId, "paid"],
          [tabB.id, "refunded"],
        ].sort(),
      );
      expect(credits.map((c) => [c.type, c.amountCents]).sort()).toEqual(
        [
          ["purchase", priceCents],
          ["refund", priceCents],
          ["test_cost", priceCents],
        ].sort(),
      );
      expect(jobs).toMatchObject([{ status: "queued" }]);
      expect(row?.totalSpentCents).toBe(priceCents);
      expect(refundsOf(paidB.payment_intent ?? undefined)).toMatchObject([{ amount: priceCents, reason: "duplicate" }]);
      expect(refundsOf(stripeServer().sessions.get(tabA.sessionId)!.payment_intent ?? undefined)).toHaveLength(0);
    });
  }

  test("a session Stripe no longer knows, or that expired on Stripe's side, is replaced by a new one", async () => {
    const { t, user, testId } = await pricedTest();
    const first = await user.as.action(api.payments.createCheckout, { testId });
    stripeServer().sessions.delete(first.sessionId); // the offline Stripe restarted
    const second = await user.as.action(api.payments.createCheckout, { testId });
    expect(second.sessionId).not.toBe(first.sessionId);
    const payload = JSON.stringify({
      id: "evt_expired",
      object: "event",
      type: "checkout.session.expired",
      data: {
        object: { id: second.sessionId, object: "checkout.session", status: "expired", payment_status: "unpaid" },
      },
    });
    expect(
      (await webhook(t, payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))).status,
    ).toBe(200);
    const third = await user.as.action(api.payments.createCheckout, { testId });
    expect(third.sessionId).not.toBe(second.sessionId);
    const { payments } = await ledger(t, testId);
    expect(payments.map((payment) => [payment.checkoutId, payment.status])).toEqual([
      [first.sessionId, "cancelled"],
      [second.sessionId, "cancelled"],
      [third.sessionId, "pending"],
    ]);
  });

  test("paying ends the test's other open sessions", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const tabA = await user.as.action(api.payments.createCheckout, { testId });
    const other = await devStripe().checkout.sessions.create({
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: { currency: "usd", unit_amount: priceCents, product_data: { name: "ModelJury test" } },
        },
      ],
      metadata: { testId, userId: user.userId },
      success_url: "http://127.0.0.1:5173/dashboard/monitor",
    });
    await t.mutation(internal.payments.recordCheckout, {
      testId,
      userId: user.userId,
      sessionId: other.id,
      amountCents: priceCents,
    });
    const before = stripeServer().events.length;
    await payOnStripe(tabA.sessionId);
    await forwardEvents(t, before);
    await waitFor(
      () => Promise.resolve(stripeServer().sessions.get(other.id)!.status),
      (status) => status === "expired",
    );
    expect(await payOnStripe(other.id)).toBe(409);
  });
});

describe("Delete before paying", () => {
  test("deleting a test waiting for payment expires its checkout", async () => {
    const { t, user, testId } = await pricedTest();
    const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    await user.as.mutation(api.tests.remove, { testId });
    await waitFor(
      () => Promise.resolve(stripeServer().sessions.get(sessionId)!.status),
      (status) => status === "expired",
    );
    expect(await payOnStripe(sessionId)).toBe(409);
    const payments = await t.run((ctx) => ctx.db.query("payments").collect());
    expect(payments).toMatchObject([{ checkoutId: sessionId, status: "cancelled" }]);
  });

  test("a payment that lands after the test was deleted is refunded, and billing shows it refunded", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    const before = stripeServer().events.length;
    expect(await payOnStripe(sessionId)).toBe(303); // paid on Stripe's page while the test is deleted
    await user.as.mutation(api.tests.remove, { testId });
    await forwardEvents(t, before);
    const paymentIntent = stripeServer().sessions.get(sessionId)!.payment_intent ?? undefined;
    await waitFor(
      () => Promise.resolve(refundsOf(paymentIntent)),
      (refunds) => refunds.length === 1,
    );
    const billing = await waitFor(
      () => user.as.query(api.billing.overview, {}),
      (overview) => overview.payments[0]?.status === "refunded",
    );
    expect(billing.payments).toMatchObject([{ status: "refunded", amountCents: priceCents }]);
    expect(billing.creditTransactions.map((c) => [c.type, c.amountCents])).toEqual([["refund", priceCents]]);
    expect(billing.creditTransactions[0]!.description).toContain("stopped or deleted before it ran");
    const row = await t.run((ctx) => ctx.db.get("users", user.userId));
    expect(row?.totalSpentCents ?? 0).toBe(0);
    expect(refundsOf(paymentIntent)).toMatchObject([{ amount: priceCents, reason: "requested_by_customer" }]);
  });
});

describe("the amount paid is checked", () => {
  for (const [label, amount, currency] of [
    ["amount_total of 1 cent", 1, "usd"],
    ["the right number in another currency", 0, "eur"],
  ] as const) {
    test(`${label}: nothing is queued, the payment is amount_mismatch, and admins are alerted`, async () => {
      const { t, user, testId, priceCents } = await pricedTest();
      const admin = await createUser(t, "root@example.com", { isAdmin: true });
      const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
      const payload = completedEvent(sessionId, amount || priceCents, currency);
      expect(
        (await webhook(t, payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })))
          .status,
      ).toBe(200);
      const { payments, credits, jobs, user: row } = await ledger(t, testId);
      expect(payments).toMatchObject([
        {
          status: "amount_mismatch",
          amountCents: priceCents,
          receivedCents: amount || priceCents,
          receivedCurrency: currency,
        },
      ]);
      expect(credits).toHaveLength(0);
      expect(jobs).toMatchObject([{ status: "pending_payment" }]);
      expect(row?.totalSpentCents).toBe(0);
      const alerts = await admin.as.query(api.admin.listAlerts, {});
      expect(alerts).toMatchObject([{ kind: "amount_mismatch", jobStatus: "pending_payment" }]);
      expect(alerts[0]!.message).toContain("The test was not started");
    });
  }
});

describe("a paid test that fails is refunded", () => {
  test("every gateway call fails: the test fails with the reason, the payment is refunded, the ledger shows it", async () => {
    process.env.GATEWAY_BACKOFF_SCALE = "0";
    try {
      const { t, user, testId, priceCents } = await pricedTest();
      const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
      const before = stripeServer().events.length;
      await payOnStripe(sessionId);
      await forwardEvents(t, before);
      await t.run(async (ctx) => {
        const setting = await ctx.db
          .query("settings")
          .withIndex("by_key", (q) => q.eq("key", "maxProcessingJobs"))
          .unique();
        await ctx.db.patch("settings", setting!._id, { value: 5 });
      });
      await t.mutation(internal.runner.dispatch, {}); // the gateway at 127.0.0.1:9 refuses every call
      const paymentIntent = stripeServer().sessions.get(sessionId)!.payment_intent ?? undefined;
      await waitFor(
        () => Promise.resolve(refundsOf(paymentIntent)),
        (refunds) => refunds.length === 1,
        30_000,
      );
      const state = await waitFor(
        () => ledger(t, testId),
        (current) => current.payments[0]?.status === "refunded",
      );
      const test = await t.run((ctx) => ctx.db.get("tests", testId));
      expect(test).toMatchObject({ status: "failed" });
      expect(test?.errorMessage).toMatch(/^No responses were generated: .+/);
      expect(state.payments).toMatchObject([{ status: "refunded", refundReason: test?.errorMessage }]);
      expect(state.credits.map((c) => [c.type, c.amountCents]).sort()).toEqual(
        [
          ["purchase", priceCents],
          ["refund", priceCents],
          ["test_cost", priceCents],
        ].sort(),
      );
      expect(state.user?.totalSpentCents).toBe(0);
      expect(refundsOf(paymentIntent)).toMatchObject([{ amount: priceCents, reason: "requested_by_customer" }]);
      expect(await user.as.query(api.payments.testRefund, { testId })).toMatchObject({
        state: "refunded",
        amountCents: priceCents,
      });
      // Asking again (a replayed finish) refunds nothing more.
      await t.action(internal.payments.refundTest, { testId, reason: "again" });
      expect(refundsOf(paymentIntent)).toHaveLength(1);
      expect((await ledger(t, testId)).credits).toHaveLength(3);
    } finally {
      delete process.env.GATEWAY_BACKOFF_SCALE;
    }
  }, 40_000);

  test("a paid test stopped for making no progress in an hour, with nothing delivered, is refunded", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    const before = stripeServer().events.length;
    await payOnStripe(sessionId);
    await forwardEvents(t, before);
    await t.run((ctx) => ctx.db.patch("tests", testId, { lastProgressAt: Date.now() - 2 * 60 * 60 * 1000 }));
    expect(await t.mutation(internal.runner.cancelStaleTests, {})).toBe(1);
    const paymentIntent = stripeServer().sessions.get(sessionId)!.payment_intent ?? undefined;
    await waitFor(
      () => Promise.resolve(refundsOf(paymentIntent)),
      (refunds) => refunds.length === 1,
    );
    const state = await waitFor(
      () => ledger(t, testId),
      (current) => current.payments[0]?.status === "refunded",
    );
    expect(state.payments[0]!.refundReason).toContain("Cancelled - Timeout");
    expect(state.credits.map((c) => [c.type, c.amountCents]).sort()).toEqual(
      [
        ["purchase", priceCents],
        ["refund", priceCents],
        ["test_cost", priceCents],
      ].sort(),
    );
    expect(state.user?.totalSpentCents).toBe(0);
  });

  test("a refund Stripe refuses is tried again later, then raised to admins; nothing is recorded as returned", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const admin = await createUser(t, "root@example.com", { isAdmin: true });
    const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    const payload = completedEvent(sessionId, priceCents);
    await webhook(t, payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    const paymentId = (await ledger(t, testId)).payments[0]!._id;
    await t.run((ctx) => ctx.db.patch("payments", paymentId, { providerPaymentId: "pi_stripe_never_made" }));
    await t.mutation(internal.payments.requestRefund, { testId, reason: "No responses were generated." });

    await t.action(internal.payments.refundPayment, { paymentId });
    const retries = await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect());
    expect(retries.filter((job) => job.name.includes("refundPayment") && job.state.kind === "pending")).toMatchObject([
      { args: [{ paymentId, attempt: 1 }] },
    ]);
    await t.action(internal.payments.refundPayment, { paymentId, attempt: 4 }); // the last try
    const alerts = await admin.as.query(api.admin.listAlerts, {});
    expect(alerts).toMatchObject([{ kind: "refund_failed", jobStatus: "queued" }]);
    expect(alerts[0]!.message).toContain("Refund it in Stripe");
    const { payments, credits, user: row } = await ledger(t, testId);
    expect(payments).toMatchObject([{ status: "paid" }]);
    expect(credits.map((c) => c.type).sort()).toEqual(["purchase", "test_cost"]);
    expect(row?.totalSpentCents).toBe(priceCents);
  });

  test("in free mode a failed test owes nothing: refundTest changes nothing", async () => {
    const { t, user } = await backendWithUser(MODELS, { pricePerToken: 1e-5 });
    const key = process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_SECRET_KEY;
    try {
      const { testId, paymentRequired } = await user.as.mutation(api.tests.create, {
        configuration: sampleConfiguration(),
      });
      expect(paymentRequired).toBe(false);
      await t.action(internal.payments.refundTest, { testId, reason: "No responses were generated." });
      await t.action(internal.payments.expireTestCheckouts, { testId });
      const { payments, credits } = await ledger(t, testId);
      expect(payments).toHaveLength(0);
      expect(credits).toHaveLength(0);
      expect(await user.as.query(api.payments.testRefund, { testId })).toEqual({ state: "none", amountCents: 0 });
    } finally {
      process.env.STRIPE_SECRET_KEY = key;
    }
  });
});

describe("payments written under Stripe's field names", () => {
  test("are found and settled before the migration, which moves them to the neutral names once", async () => {
    const { t, user, testId, priceCents } = await pricedTest();
    const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
    const paymentId = (await ledger(t, testId)).payments[0]!._id;
    await t.run((ctx) =>
      ctx.db.patch("payments", paymentId, {
        checkoutId: undefined,
        stripeSessionId: sessionId,
        stripeRefundId: "re_old",
      }),
    );

    // The webhook of an old row's session still finds it: one payment, paid, its job queued.
    const payload = completedEvent(sessionId, priceCents);
    await webhook(t, payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    const before = await ledger(t, testId);
    expect(before.payments).toMatchObject([{ status: "paid", stripeSessionId: sessionId }]);
    expect(before.jobs).toMatchObject([{ status: "queued" }]);

    expect(await t.mutation(internal.payments.migratePaymentFields, {})).toEqual({ migrated: 1, done: true });
    const [migrated] = (await ledger(t, testId)).payments;
    expect(migrated).toMatchObject({ status: "paid", checkoutId: sessionId, providerRefundId: "re_old" });
    expect(migrated).not.toHaveProperty("stripeSessionId");
    expect(migrated).not.toHaveProperty("stripeRefundId");
    // Run again: nothing left to move.
    expect(await t.mutation(internal.payments.migratePaymentFields, {})).toEqual({ migrated: 0, done: true });
    // The return page finds the migrated row's owner (not paid at the dev Stripe: the event above was sent by hand).
    expect(await user.as.action(api.payments.verify, { sessionId })).toEqual({ verified: false, testId });
  });
});
