// @vitest-environment node
// Partial refunds as Stripe makes them: several on one payment intent up to its amount, the
// charge's amount_refunded, the refund list, and Idempotency-Key (kept across a restart).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripe, type RunningStripe } from "./server";

const SECRET_KEY = "sk_test_dev";
// Nothing listens here: Pay's webhook fails, which Pay tolerates (the session is paid anyway).
const WEBHOOK_URL = "http://127.0.0.1:9/stripe/webhook";

let server: RunningStripe;
let stripe: Stripe;

beforeAll(async () => {
  server = await startStripe({ webhookUrl: WEBHOOK_URL });
  stripe = clientOf(server);
});
afterAll(async () => {
  await server.close();
});

function clientOf(running: RunningStripe): Stripe {
  return new Stripe(SECRET_KEY, { host: "127.0.0.1", port: running.port, protocol: "http", maxNetworkRetries: 0 });
}

/** A paid session of `cents`; returns its payment intent. */
async function paidPaymentIntent(running: RunningStripe, client: Stripe, cents: number): Promise<string> {
  const session = await client.checkout.sessions.create({
    mode: "payment",
    line_items: [{ price_data: { currency: "usd", unit_amount: cents, product_data: { name: "Run" } }, quantity: 1 }],
    success_url: "http://localhost:5173/dashboard?session_id={CHECKOUT_SESSION_ID}",
  });
  await fetch(`${running.url}/checkout/${session.id}/pay`, { method: "POST", redirect: "manual" });
  return String((await client.checkout.sessions.retrieve(session.id)).payment_intent);
}

describe("partial refunds", () => {
  it("makes several refunds on one payment intent up to its amount, shown on its charge and in the list", async () => {
    const paymentIntent = await paidPaymentIntent(server, stripe, 540);
    const first = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 340 });
    expect(first).toMatchObject({ amount: 340, payment_intent: paymentIntent, status: "succeeded" });
    const intent = await stripe.paymentIntents.retrieve(paymentIntent);
    expect(intent).toMatchObject({ amount: 540, amount_received: 540, latest_charge: first.charge });
    expect(await stripe.charges.retrieve(String(first.charge))).toMatchObject({
      amount: 540,
      amount_refunded: 340,
      refunded: false,
    });

    await expect(stripe.refunds.create({ payment_intent: paymentIntent, amount: 201 })).rejects.toMatchObject({
      code: "amount_too_large",
      message: "Refund amount ($2.01) is greater than unrefunded amount on charge ($2.00)",
    });
    const second = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 150 });
    expect(await stripe.charges.retrieve(String(first.charge))).toMatchObject({
      amount_refunded: 490,
      refunded: false,
    });
    const rest = await stripe.refunds.create({ payment_intent: paymentIntent });
    expect(rest.amount).toBe(50);
    expect(await stripe.charges.retrieve(String(first.charge))).toMatchObject({ amount_refunded: 540, refunded: true });

    const listed = await stripe.refunds.list({ payment_intent: paymentIntent });
    expect(listed.data.map((refund) => [refund.id, refund.amount])).toEqual([
      [rest.id, 50],
      [second.id, 150],
      [first.id, 340],
    ]);
    expect((await stripe.refunds.retrieve(second.id)).amount).toBe(150);
    await expect(stripe.charges.retrieve("ch_unknown")).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("answers a retry with the same Idempotency-Key with the first refund, and refuses the key for other parameters", async () => {
    const paymentIntent = await paidPaymentIntent(server, stripe, 700);
    const idempotencyKey = `refund-${paymentIntent}-stopped`;
    const first = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 300 }, { idempotencyKey });
    const retried = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 300 }, { idempotencyKey });
    expect(retried.id).toBe(first.id);
    await expect(
      stripe.refunds.create({ payment_intent: paymentIntent, amount: 299 }, { idempotencyKey }),
    ).rejects.toMatchObject({ type: "StripeIdempotencyError" });
    const listed = await stripe.refunds.list({ payment_intent: paymentIntent });
    expect(listed.data.map((refund) => refund.amount)).toEqual([300]);
  });

  it("still answers a retried refund with the first one after a restart on the same data folder", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mj-stripe-refunds-"));
    try {
      const first = await startStripe({ webhookUrl: WEBHOOK_URL, dataDir });
      const client = clientOf(first);
      const paymentIntent = await paidPaymentIntent(first, client, 880);
      const idempotencyKey = `refund-${paymentIntent}-settled`;
      const made = await client.refunds.create({ payment_intent: paymentIntent, amount: 586 }, { idempotencyKey });
      await first.close();

      const second = await startStripe({ webhookUrl: WEBHOOK_URL, dataDir });
      try {
        const again = clientOf(second);
        const retried = await again.refunds.create({ payment_intent: paymentIntent, amount: 586 }, { idempotencyKey });
        expect(retried.id).toBe(made.id);
        const listed = await again.refunds.list({ payment_intent: paymentIntent });
        expect(listed.data.map((refund) => [refund.id, refund.amount])).toEqual([[made.id, 586]]);
        expect((await again.charges.retrieve(String(made.charge))).amount_refunded).toBe(586);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
