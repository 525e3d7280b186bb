// @vitest-environment node
// Payment through the dev Stripe: checkout, the signed webhook (replays, forgeries), the
// return-page verification, and the server's own price.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStripe } from "../dev/stripe/server";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { quote } from "./lib/pricing";
import { createUser, newTest, sampleConfiguration, seedCatalog, type TestConvex } from "./test.helpers";

const WEBHOOK_SECRET = "whsec_test_payments";
let stripeServer: Awaited<ReturnType<typeof startStripe>>;
const stripe = new Stripe("sk_test_dev");

beforeAll(async () => {
  stripeServer = await startStripe({ port: 0, webhookUrl: "http://127.0.0.1:9/unused", webhookSecret: WEBHOOK_SECRET });
  process.env.STRIPE_SECRET_KEY = "sk_test_dev";
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.STRIPE_API_HOST = "127.0.0.1";
  process.env.STRIPE_API_PORT = String(stripeServer.port);
  process.env.STRIPE_API_PROTOCOL = "http";
  process.env.SITE_URL = "http://127.0.0.1:5173";
  // Workers would call the real gateway; these tests stop at the queue.
  process.env.GATEWAY_BASE_URL = "http://127.0.0.1:9/api/v1";
});
afterAll(async () => {
  delete process.env.STRIPE_SECRET_KEY;
  await stripeServer.close();
});

const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];

async function pricedTest() {
  const t = newTest();
  await seedCatalog(t, MODELS, 1e-5);
  await t.run(async (ctx) => {
    await ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 }); // keep paid jobs queued
  });
  const user = await createUser(t, "ada@example.com");
  const created = await user.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
  return { t, user, ...created };
}

function webhook(t: TestConvex, payload: string, signature: string) {
  return t.fetch("/stripe/webhook", { method: "POST", body: payload, headers: { "Stripe-Signature": signature, "Content-Type": "application/json" } });
}

function completedEvent(sessionId: string, amount: number, currency = "usd") {
  return JSON.stringify({
    id: `evt_${sessionId}`,
    object: "event",
    type: "checkout.session.completed",
    data: { object: { id: sessionId, object: "checkout.session", payment_status: "paid", amount_total: amount, currency } },
  });
}

async function ledger(t: TestConvex, testId: Id<"tests">) {
  return await t.run(async (ctx) => ({
    payments: await ctx.db.query("payments").withIndex("by_test", (q) => q.eq("testId", testId)).collect(),
    credits: await ctx.db.query("creditTransactions").withIndex("by_test", (q) => q.eq("testId", testId)).collect(),
    jobs: await ctx.db.query("jobs").withIndex("by_test", (q) => q.eq("testId", testId)).collect(),
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
    const t = newTest();
    await seedCatalog(t, MODELS, 1e-5);
    const user = await createUser(t, "ada@example.com");
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
    expect(payments).toMatchObject([{ status: "paid", amountCents: priceCents, stripeSessionId: sessionId }]);
    expect(credits.map((c) => [c.type, c.amountCents]).sort()).toEqual([["purchase", priceCents], ["test_cost", priceCents]]);
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
    stripeServer.webhook.url = "http://127.0.0.1:9/unreachable"; // the webhook is lost
    const pay = await fetch(`${stripeServer.url}/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" });
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
});
