// @vitest-environment node
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseStripeForm } from "./form";
import { startStripe, type RunningStripe } from "./server";

const SECRET_KEY = "sk_test_dev";
const WEBHOOK_SECRET = "whsec_dev";

interface ReceivedWebhook {
  body: string;
  signature: string;
}

let webhookServer: Server;
let webhookUrl: string;
let received: ReceivedWebhook[] = [];
let webhookStatus = 200;
let stripeServer: RunningStripe;
let stripe: Stripe;

beforeAll(async () => {
  webhookServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: String(req.headers["stripe-signature"] ?? ""),
      });
      res.writeHead(webhookStatus, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => webhookServer.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/stripe/webhook`;

  stripeServer = await startStripe({ webhookUrl, webhookSecret: WEBHOOK_SECRET });
  stripe = new Stripe(SECRET_KEY, { host: "127.0.0.1", port: stripeServer.port, protocol: "http" });
});

afterAll(async () => {
  await stripeServer.close();
  await new Promise<void>((resolve) => webhookServer.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  webhookStatus = 200;
});

function createSession(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return stripe.checkout.sessions.create({
    mode: "payment",
    line_items: [
      {
        price_data: {
          currency: "usd",
          unit_amount: 1234,
          product_data: { name: "ModelJury test run", description: "Marketing copy comparison" },
        },
        quantity: 1,
      },
    ],
    success_url: "http://localhost:5173/dashboard/payment/success?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "http://localhost:5173/dashboard/setup?payment=cancelled",
    metadata: { testId: "test_123", userId: "user_456", testName: "Coffee <copy> & taglines" },
    client_reference_id: "user_456",
    customer_email: "ada@example.com",
    ...overrides,
  });
}

describe("parseStripeForm", () => {
  it("reads nested keys, indexed and appended arrays, and encoded values", () => {
    const parsed = parseStripeForm(
      "mode=payment&line_items[0][price_data][unit_amount]=200&line_items[0][price_data][product_data][name]=A%20%26%20B" +
        "&line_items[1][quantity]=2&metadata[testId]=t1&expand[]=line_items&expand[]=payment_intent&note=a+b&__proto__[x]=1",
    );
    expect(parsed).toEqual({
      mode: "payment",
      line_items: [{ price_data: { unit_amount: "200", product_data: { name: "A & B" } } }, { quantity: "2" }],
      metadata: { testId: "t1" },
      expand: ["line_items", "payment_intent"],
      note: "a b",
    });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("Checkout Sessions through the official client", () => {
  it("creates and retrieves a session", async () => {
    const session = await createSession();
    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]+$/);
    expect(session).toMatchObject({
      object: "checkout.session",
      amount_total: 1234,
      currency: "usd",
      mode: "payment",
      payment_status: "unpaid",
      status: "open",
      metadata: { testId: "test_123", userId: "user_456", testName: "Coffee <copy> & taglines" },
      client_reference_id: "user_456",
      customer_email: "ada@example.com",
      cancel_url: "http://localhost:5173/dashboard/setup?payment=cancelled",
      url: `${stripeServer.url}/checkout/${session.id}`,
    });

    const retrieved = await stripe.checkout.sessions.retrieve(session.id);
    expect(retrieved).toMatchObject({ id: session.id, amount_total: 1234, payment_status: "unpaid", status: "open" });

    const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ["line_items"] });
    expect(expanded.line_items?.data[0]).toMatchObject({
      description: "ModelJury test run",
      amount_total: 1234,
      quantity: 1,
    });
  });

  it("multiplies quantities and rejects incomplete parameters", async () => {
    const session = await createSession({
      line_items: [{ price_data: { currency: "usd", unit_amount: 250, product_data: { name: "Run" } }, quantity: 3 }],
    });
    expect(session.amount_total).toBe(750);

    await expect(
      stripe.checkout.sessions.create({ mode: "payment", success_url: "http://x/ok", line_items: [] }),
    ).rejects.toMatchObject({ type: "StripeInvalidRequestError", param: "line_items" });
    await expect(
      createSession({
        line_items: [{ price_data: { currency: "usd", unit_amount: 10, product_data: { name: "Tiny" } }, quantity: 1 }],
      }),
    ).rejects.toMatchObject({ type: "StripeInvalidRequestError", code: "amount_too_small" });
  });

  it("answers unknown ids with a Stripe-shaped 404", async () => {
    await expect(stripe.checkout.sessions.retrieve("cs_test_nope")).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 404,
      code: "resource_missing",
      message: "No such checkout.session: 'cs_test_nope'",
    });
  });

  it("makes the client throw an authentication error on a wrong key", async () => {
    const wrong = new Stripe("sk_test_wrong_key_123", { host: "127.0.0.1", port: stripeServer.port, protocol: "http" });
    const error: unknown = await wrong.checkout.sessions.retrieve("cs_test_x").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(401);
  });
});

describe("hosted checkout page", () => {
  it("shows the amount, the test name and Pay / Cancel buttons, escaped", async () => {
    const session = await createSession();
    const response = await fetch(`${stripeServer.url}/checkout/${session.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("$12.34");
    expect(html).toContain("ModelJury test run");
    expect(html).toContain("Coffee &#60;copy&#62; &#38; taglines");
    expect(html).not.toContain("<copy>");
    expect(html).toMatch(/<form method="post" action="\/checkout\/cs_test_\w+\/pay"><button[^>]*>Pay<\/button>/);
    expect(html).toMatch(/<form method="post" action="\/checkout\/cs_test_\w+\/cancel"><button[^>]*>Cancel<\/button>/);

    expect((await fetch(`${stripeServer.url}/checkout/cs_test_missing`)).status).toBe(404);
  });

  it("Pay marks the session paid, delivers a verifiable signed webhook, then redirects to the success URL", async () => {
    const session = await createSession();
    const response = await fetch(`${stripeServer.url}/checkout/${session.id}/pay`, {
      method: "POST",
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      `http://localhost:5173/dashboard/payment/success?session_id=${session.id}`,
    );

    // The webhook was awaited before the redirect.
    expect(received).toHaveLength(1);
    const [webhook] = received;
    const event = stripe.webhooks.constructEvent(webhook?.body ?? "", webhook?.signature ?? "", WEBHOOK_SECRET);
    expect(event.type).toBe("checkout.session.completed");
    expect(event.id).toMatch(/^evt_/);
    const object = event.data.object as Stripe.Checkout.Session;
    expect(object).toMatchObject({
      id: session.id,
      payment_status: "paid",
      status: "complete",
      amount_total: 1234,
      metadata: { testId: "test_123" },
    });
    expect(() =>
      stripe.webhooks.constructEvent(webhook?.body ?? "", webhook?.signature ?? "", "whsec_other"),
    ).toThrow();

    const retrieved = await stripe.checkout.sessions.retrieve(session.id);
    expect(retrieved).toMatchObject({ payment_status: "paid", status: "complete" });
    expect(retrieved.payment_intent).toMatch(/^pi_/);

    // Paying again changes nothing and sends no second event.
    const again = await fetch(`${stripeServer.url}/checkout/${session.id}/pay`, { method: "POST", redirect: "manual" });
    expect(again.status).toBe(303);
    expect(received).toHaveLength(1);
  });

  it("still marks the session paid and redirects when the webhook fails", async () => {
    webhookStatus = 500;
    const session = await createSession();
    const response = await fetch(`${stripeServer.url}/checkout/${session.id}/pay`, {
      method: "POST",
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(received).toHaveLength(1);
    expect(stripeServer.deliveries.at(-1)).toMatchObject({ status: 500 });
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe("paid");

    const unreachable = await startStripe({ webhookUrl: "http://127.0.0.1:1/nowhere", webhookSecret: WEBHOOK_SECRET });
    try {
      const client = new Stripe(SECRET_KEY, { host: "127.0.0.1", port: unreachable.port, protocol: "http" });
      const other = await client.checkout.sessions.create({
        mode: "payment",
        success_url: "http://localhost/ok?id={CHECKOUT_SESSION_ID}",
        line_items: [{ price_data: { currency: "usd", unit_amount: 200, product_data: { name: "Run" } }, quantity: 1 }],
      });
      const paid = await fetch(`${unreachable.url}/checkout/${other.id}/pay`, { method: "POST", redirect: "manual" });
      expect(paid.headers.get("location")).toBe(`http://localhost/ok?id=${other.id}`);
      expect(unreachable.deliveries[0]?.error).toBeTruthy();
      expect((await client.checkout.sessions.retrieve(other.id)).payment_status).toBe("paid");
    } finally {
      await unreachable.close();
    }
  });

  it("Cancel redirects to the cancel URL and leaves the session unpaid", async () => {
    const session = await createSession();
    const response = await fetch(`${stripeServer.url}/checkout/${session.id}/cancel`, {
      method: "POST",
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://localhost:5173/dashboard/setup?payment=cancelled");
    expect(received).toHaveLength(0);
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe("unpaid");
  });
});

describe("refunds and expiry", () => {
  it("refunds a paid session in full, once", async () => {
    const session = await createSession();
    await fetch(`${stripeServer.url}/checkout/${session.id}/pay`, { method: "POST", redirect: "manual" });
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    const paymentIntent = typeof paid.payment_intent === "string" ? paid.payment_intent : "";
    const refund = await stripe.refunds.create({
      payment_intent: paymentIntent,
      reason: "duplicate",
      metadata: { paymentId: "p1" },
    });
    expect(refund).toMatchObject({
      object: "refund",
      amount: 1234,
      currency: "usd",
      status: "succeeded",
      payment_intent: paymentIntent,
      reason: "duplicate",
      metadata: { paymentId: "p1" },
    });
    expect(refund.id).toMatch(/^re_/);
    expect(refund.charge).toMatch(/^ch_/);
    expect(stripeServer.refunds.get(refund.id)).toMatchObject({ amount: 1234 });
    await expect(stripe.refunds.create({ payment_intent: paymentIntent })).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "charge_already_refunded",
      message: `Charge ${String(refund.charge)} has already been refunded.`,
    });
    await expect(stripe.refunds.create({ payment_intent: "pi_unknown" })).rejects.toMatchObject({
      code: "resource_missing",
      param: "payment_intent",
    });
    await expect(
      stripe.refunds.create({ payment_intent: paymentIntent, reason: "changed_mind" as "duplicate" }),
    ).rejects.toMatchObject({
      param: "reason",
    });
  });

  it("refunds part of a payment by its charge, then no more than what is left", async () => {
    const session = await createSession();
    await fetch(`${stripeServer.url}/checkout/${session.id}/pay`, { method: "POST", redirect: "manual" });
    const paymentIntent = String((await stripe.checkout.sessions.retrieve(session.id)).payment_intent);
    const first = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 1000 });
    const rest = await stripe.refunds.create({ charge: String(first.charge) });
    expect(rest).toMatchObject({ amount: 234, payment_intent: paymentIntent, charge: first.charge });
    await expect(stripe.refunds.create({ charge: String(first.charge), amount: 1 })).rejects.toMatchObject({
      code: "charge_already_refunded",
    });
  });

  it("expires an open session, after which Pay is refused", async () => {
    const session = await createSession();
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({
      id: session.id,
      object: "checkout.session",
      status: "expired",
      url: null,
      payment_status: "unpaid",
    });
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 400,
    });
    const response = await fetch(`${stripeServer.url}/checkout/${session.id}/pay`, {
      method: "POST",
      redirect: "manual",
    });
    expect(response.status).toBe(409);
    expect(received).toHaveLength(0);
  });
});

describe("kept in the data folder", () => {
  it("an open checkout still opens after a restart on the same data folder, and a paid one stays paid", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "mj-stripe-"));
    try {
      const first = await startStripe({ webhookUrl, webhookSecret: WEBHOOK_SECRET, dataDir });
      const client = new Stripe(SECRET_KEY, { host: "127.0.0.1", port: first.port, protocol: "http" });
      const open = await client.checkout.sessions.create({
        mode: "payment",
        line_items: [{ price_data: { currency: "usd", unit_amount: 500, product_data: { name: "Run" } }, quantity: 1 }],
        success_url: "http://localhost:5173/dashboard?session_id={CHECKOUT_SESSION_ID}",
        metadata: { testName: "Kept across restarts" },
      });
      const paid = await client.checkout.sessions.create({
        mode: "payment",
        line_items: [{ price_data: { currency: "usd", unit_amount: 700, product_data: { name: "Run" } }, quantity: 1 }],
        success_url: "http://localhost:5173/dashboard?session_id={CHECKOUT_SESSION_ID}",
      });
      expect((await fetch(`${first.url}/checkout/${paid.id}/pay`, { method: "POST", redirect: "manual" })).status).toBe(
        303,
      );
      await first.close();

      const second = await startStripe({ webhookUrl, webhookSecret: WEBHOOK_SECRET, dataDir });
      try {
        const page = await fetch(`${second.url}/checkout/${open.id}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("Kept across restarts");
        const again = new Stripe(SECRET_KEY, { host: "127.0.0.1", port: second.port, protocol: "http" });
        expect(await again.checkout.sessions.retrieve(open.id)).toMatchObject({
          status: "open",
          amount_total: 500,
          url: `${second.url}/checkout/${open.id}`,
        });
        const paidAfter = await again.checkout.sessions.retrieve(paid.id);
        expect(paidAfter).toMatchObject({ payment_status: "paid", status: "complete" });
        // Its payment can still be refunded: the charge was kept too.
        const refund = await again.refunds.create({ payment_intent: String(paidAfter.payment_intent) });
        expect(refund).toMatchObject({ amount: 700, status: "succeeded" });
      } finally {
        await second.close();
      }
      // `fresh` forgets them.
      const third = await startStripe({ webhookUrl, webhookSecret: WEBHOOK_SECRET, dataDir, fresh: true });
      try {
        expect((await fetch(`${third.url}/checkout/${open.id}`)).status).toBe(404);
      } finally {
        await third.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("the checkout page names no missing favicon: its icon is inline and /favicon.ico is not a 404", async () => {
    const session = await createSession();
    const html = await (await fetch(`${stripeServer.url}/checkout/${session.id}`)).text();
    expect(html).toContain('<link rel="icon" href="data:,">');
    const favicon = await fetch(`${stripeServer.url}/favicon.ico`);
    expect(favicon.status).toBe(204);
  });
});
