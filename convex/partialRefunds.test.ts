// @vitest-environment node
// Pay for what ran: a paid test stopped early gets the price of the calls it did not make back,
// above the $2.00 minimum, as one partial refund at the dev Stripe, in the ledger and on Billing,
// however often the refund is retried, replayed or restarted.
import Stripe from "stripe";
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { UNPAID_RUN_MESSAGES } from "./core/admin";
import { REFUND_REASONS } from "./core/payments";
import { requestUnrunRefund } from "./core/unrunRefunds";
import { countCalls } from "./lib/pricing";
import { unrunRefund, workDoneOf } from "./lib/unrunRefund";
import {
  backendWithUser,
  createUser,
  errorOf,
  sampleConfiguration,
  useDevStripe,
  type TestBackend,
} from "./test.helpers";
import { countedTest } from "./core/pipeline/counterRow";

const WEBHOOK_SECRET = "whsec_test_partial_refunds";
const stripeServer = useDevStripe(WEBHOOK_SECRET);
const stripe = new Stripe("sk_test_dev");

const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];

/** 2 personas × 5 topics: 20 generation calls and 10 judge calls, priced well above the minimum. */
function configuration() {
  return sampleConfiguration(undefined, undefined, {
    personas: ["p1", "p2"].map((id) => ({ id, name: id, description: id, systemPrompt: `Answer as ${id}.` })),
    topics: ["t1", "t2", "t3", "t4", "t5"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` })),
  });
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

/** A paid test, running, with `share` of each kind of its calls made. */
async function paidRunningTest(share: number) {
  const { t, user } = await backendWithUser(MODELS, { pricePerToken: 5e-5, holdQueue: true });
  const { testId, priceCents } = await user.as.mutation(api.tests.create, { configuration: configuration() });
  const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
  stripeServer().webhook.url = "http://127.0.0.1:9/held-back";
  const from = stripeServer().events.length;
  await fetch(`${stripeServer().url}/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" });
  for (const event of stripeServer().events.slice(from)) {
    const payload = JSON.stringify(event);
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    await t.fetch("/stripe/webhook", { method: "POST", body: payload, headers: { "Stripe-Signature": signature } });
  }
  const paymentIntent = stripeServer().sessions.get(sessionId)!.payment_intent!;
  await setCallsMade(t, testId, share);
  return { t, user, testId, priceCents, paymentIntent };
}

/** The run's counters as if `share` of each kind of calls had ended. */
async function setCallsMade(t: TestBackend, testId: Id<"tests">, share: number) {
  await t.run(async (ctx) => {
    const test = (await ctx.db.get("tests", testId))!;
    const calls = countCalls(test.configuration);
    const judged = Math.round(calls.evaluationCalls * share);
    await ctx.db.patch("tests", testId, {
      status: "running",
      finishedCalls: Math.round(calls.generationCalls * share) + judged,
      judgeCallsFinished: judged,
    });
  });
}

/** What the pure arithmetic says the test's calls not made are worth (lib/unrunRefund.test.ts works it by hand). */
async function owed(t: TestBackend, testId: Id<"tests">, paidCents: number) {
  const test = (await t.run((ctx) => countedTest(ctx, testId)))!;
  return unrunRefund(paidCents, workDoneOf(test.estimate, test.configuration, test));
}

async function moneyOf(t: TestBackend, testId: Id<"tests">) {
  return await t.run(async (ctx) => {
    const payments = await ctx.db
      .query("payments")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect();
    return {
      payments,
      refunds: await ctx.db.query("partialRefunds").collect(),
      credits: (
        await ctx.db
          .query("creditTransactions")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .collect()
      ).map((row) => [row.type, row.amountCents, row.description] as const),
      user: await ctx.db.query("users").first(),
    };
  });
}

function stripeRefundsOf(paymentIntent: string) {
  return [...stripeServer().refunds.values()].filter((refund) => refund.payment_intent === paymentIntent);
}

describe("Stop Test refunds the calls not made", () => {
  test("the Stop dialog's figure moves with the run; Stop makes one partial refund of it, in the ledger and on Billing", async () => {
    const { t, user, testId, priceCents, paymentIntent } = await paidRunningTest(0);
    expect(priceCents).toBeGreaterThan(600);
    // Before any call: everything above the minimum would go back.
    expect(await user.as.query(api.refunds.stopPreview, { testId })).toEqual({
      paidCents: priceCents,
      refundCents: priceCents - 200,
      keptCents: 200,
    });
    await setCallsMade(t, testId, 0.6);
    const expected = await owed(t, testId, priceCents);
    expect(expected.keptCents).toBeGreaterThan(200); // above the minimum: what ran is what stays
    expect(expected.keptCents + expected.refundCents).toBe(priceCents);
    expect(await user.as.query(api.refunds.stopPreview, { testId })).toEqual({
      paidCents: priceCents,
      refundCents: expected.refundCents,
      keptCents: expected.keptCents,
    });

    await user.as.mutation(api.tests.cancel, { testId });
    await waitFor(
      () => user.as.query(api.refunds.ofTest, { testId }),
      (refund) => refund?.state === "refunded",
    );
    // The dev Stripe: one refund of exactly the calls not made, the charge partly refunded.
    const made = stripeRefundsOf(paymentIntent);
    expect(made).toMatchObject([{ amount: expected.refundCents, reason: "requested_by_customer" }]);
    const charge = await new Stripe("sk_test_dev", {
      host: "127.0.0.1",
      port: stripeServer().port,
      protocol: "http",
    }).charges.retrieve(made[0]!.charge);
    expect(charge).toMatchObject({ amount: priceCents, amount_refunded: expected.refundCents, refunded: false });

    // The ledger: the charge, its test cost and the refund; the payment stays paid, its net is the rest.
    const money = await moneyOf(t, testId);
    expect(money.payments).toMatchObject([
      { status: "paid", amountCents: priceCents, refundedCents: expected.refundCents },
    ]);
    expect(money.credits).toEqual([
      ["purchase", priceCents, "Payment for Test: Coffee taglines"],
      ["test_cost", priceCents, "Test: Coffee taglines"],
      ["refund", expected.refundCents, `Refund for Test: Coffee taglines (${REFUND_REASONS.stopped})`],
    ]);
    expect(money.user?.totalSpentCents).toBe(expected.keptCents);
    expect(await user.as.query(api.refunds.ofTest, { testId })).toMatchObject({
      paidCents: priceCents,
      refundCents: expected.refundCents,
      keptCents: expected.keptCents,
      reason: REFUND_REASONS.stopped,
    });
    // An admin cannot run it again in full on what is left of the payment.
    const admin = await createUser(t, "root@example.com", { isAdmin: true });
    const jobId = (await t.run((ctx) =>
      ctx.db
        .query("jobs")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique(),
    ))!._id;
    expect(await errorOf(admin.as.mutation(api.admin.retryJob, { jobId }))).toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: UNPAID_RUN_MESSAGES.refunded,
    });
    // Billing: the payment's charge and refund (the page shows the net); History: the net.
    const history = await user.as.query(api.history.list, {});
    expect(history.tests).toMatchObject([{ priceCents, refundedCents: expected.refundCents }]);
    const billing = await user.as.query(api.billing.overview, {});
    expect(billing.payments).toMatchObject([
      { status: "paid", amountCents: priceCents, refundedCents: expected.refundCents },
    ]);
  });

  test("retries, replays and a restart of the refund make no second refund: the dev Stripe lists exactly one", async () => {
    const { t, user, testId, priceCents, paymentIntent } = await paidRunningTest(0.3);
    const expected = await owed(t, testId, priceCents);
    await user.as.mutation(api.tests.cancel, { testId });
    const refundId = (await waitFor(
      () => moneyOf(t, testId),
      (money) => money.refunds[0]?.status === "refunded",
    ))!.refunds[0]!._id;

    // The ending asked again (a replayed stop), the action retried at once and side by side.
    const again = await t.run(async (ctx) =>
      requestUnrunRefund(ctx, (await ctx.db.get("tests", testId))!, REFUND_REASONS.stopped),
    );
    expect(again).toBe(refundId);
    await Promise.all([1, 2, 3].map(() => t.action(internal.refunds.makePartialRefund, { refundId })));
    await t.mutation(internal.refunds.recordPartialRefund, {
      refundId,
      providerRefundId: "re_replayed",
      amountCents: 1,
    });
    // A restart after Stripe made the refund but before it was recorded: the row is still pending.
    await t.run((ctx) => ctx.db.patch("partialRefunds", refundId, { status: "pending", providerRefundId: undefined }));
    const beforeRestart = await moneyOf(t, testId);
    await t.run((ctx) => ctx.db.patch("payments", beforeRestart.payments[0]!._id, { refundedCents: 0 }));
    await t.run(async (ctx) => {
      const user = (await ctx.db.query("users").first())!;
      await ctx.db.patch("users", user._id, { totalSpentCents: priceCents });
    });
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("creditTransactions").collect())
        if (row.type === "refund") await ctx.db.delete("creditTransactions", row._id);
    });
    await t.action(internal.refunds.makePartialRefund, { refundId });

    const listed = await new Stripe("sk_test_dev", {
      host: "127.0.0.1",
      port: stripeServer().port,
      protocol: "http",
    }).refunds.list({ payment_intent: paymentIntent });
    expect(listed.data.map((refund) => refund.amount)).toEqual([expected.refundCents]);
    expect(stripeRefundsOf(paymentIntent)).toHaveLength(1);
    const money = await moneyOf(t, testId);
    expect(money.refunds).toMatchObject([
      { status: "refunded", amountCents: expected.refundCents, providerRefundId: listed.data[0]!.id },
    ]);
    expect(money.credits.filter(([type]) => type === "refund")).toHaveLength(1);
    expect(money.payments[0]!.refundedCents).toBe(expected.refundCents);
    expect(money.user?.totalSpentCents).toBe(expected.keptCents);
  });

  test("a test whose calls made already cost its price, or one not paid for, is refunded nothing", async () => {
    const { t, user, testId, paymentIntent } = await paidRunningTest(1);
    await user.as.mutation(api.tests.cancel, { testId });
    const money = await moneyOf(t, testId);
    expect(money.refunds).toHaveLength(0);
    expect(money.credits.map(([type]) => type)).toEqual(["purchase", "test_cost"]);
    expect(stripeRefundsOf(paymentIntent)).toHaveLength(0);
    expect(await user.as.query(api.refunds.ofTest, { testId })).toBeNull();
  });
});

describe("an admin's cancel and the stale-test cron refund the calls not made, as Stop does", () => {
  /** A few of the test's calls still pending (not made), as a run stopped midway leaves them. */
  async function withPendingCalls(t: TestBackend, testId: Id<"tests">) {
    await t.run(async (ctx) => {
      for (const topicId of ["t1", "t2", "t3"])
        await ctx.db.insert("calls", {
          testId,
          kind: "generate",
          key: `${testId}:generate:${MODELS[0]}:p1:${topicId}`,
          modelId: MODELS[0]!,
          personaId: "p1",
          topicId,
          status: "pending",
          attempts: 0,
        });
    });
  }

  async function callStatuses(t: TestBackend, testId: Id<"tests">) {
    return await t.run(async (ctx) =>
      (
        await ctx.db
          .query("calls")
          .withIndex("by_test_status", (q) => q.eq("testId", testId))
          .collect()
      ).map((call) => call.status),
    );
  }

  test.each([
    [
      "an admin's cancel",
      REFUND_REASONS.cancelledByAdmin,
      async (t: TestBackend, testId: Id<"tests">) => {
        const admin = await createUser(t, "root@example.com", { isAdmin: true });
        const job = await t.run((ctx) =>
          ctx.db
            .query("jobs")
            .withIndex("by_test", (q) => q.eq("testId", testId))
            .unique(),
        );
        const cancel = () => admin.as.mutation(api.admin.cancelJob, { jobId: job!._id });
        return { end: cancel, again: async () => expect((await errorOf(cancel()))?.code).toBe("CONFLICT") };
      },
    ],
    [
      "the stale-test cron",
      REFUND_REASONS.timedOut,
      async (t: TestBackend, testId: Id<"tests">) => {
        // It delivered answers, then nothing for over an hour.
        await t.run((ctx) =>
          ctx.db.patch("tests", testId, { responsesCount: 4, lastProgressAt: Date.now() - 2 * 60 * 60 * 1000 }),
        );
        const sweep = () => t.mutation(internal.runner.cancelStaleTests, {});
        return { end: sweep, again: async () => expect(await sweep()).toBe(0) };
      },
    ],
  ])("%s: one partial refund of the calls not made, its unmade calls cancelled", async (_, reason, ending) => {
    const { t, user, testId, priceCents, paymentIntent } = await paidRunningTest(0.4);
    await withPendingCalls(t, testId);
    const expected = await owed(t, testId, priceCents);
    expect(expected.refundCents).toBeGreaterThan(0);
    const { end, again } = await ending(t, testId);
    await end();
    const refund = await waitFor(
      () => user.as.query(api.refunds.ofTest, { testId }),
      (value) => value?.state === "refunded",
    );
    expect(refund).toMatchObject({ refundCents: expected.refundCents, keptCents: expected.keptCents, reason });
    // Ended again (a replay): the same refund, no second one at the dev Stripe or in the ledger.
    await again();
    const replayed = await t.run(async (ctx) => requestUnrunRefund(ctx, (await ctx.db.get("tests", testId))!, reason));
    const money = await moneyOf(t, testId);
    expect(money.refunds).toMatchObject([{ _id: replayed, status: "refunded", amountCents: expected.refundCents }]);
    expect(stripeRefundsOf(paymentIntent).map((made) => made.amount)).toEqual([expected.refundCents]);
    expect(money.credits.filter(([type]) => type === "refund")).toEqual([
      ["refund", expected.refundCents, `Refund for Test: Coffee taglines (${reason})`],
    ]);
    expect(money.payments[0]!.refundedCents).toBe(expected.refundCents);
    // The calls it did not make are cancelled, not left pending.
    expect(
      await waitFor(
        () => callStatuses(t, testId),
        (statuses) => !statuses.includes("pending"),
      ),
    ).toEqual(["cancelled", "cancelled", "cancelled"]);
  });
});
