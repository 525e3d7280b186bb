// The payment provider behind one small interface: open a hosted checkout, look one up, expire
// it, refund a paid one, read a signed event. convex/payments.ts and the webhook in http.ts speak
// only this interface; Stripe (Checkout Sessions + signed webhooks) is its one implementation,
// and dev/stripe is Stripe's offline twin. A second provider is a second implementation here
// (plus its dev twin); the payments table's fields are already provider-neutral.
import Stripe from "stripe";
import { env } from "../env";

/** What a paid checkout says arrived, as payments.markPaid takes it. */
export interface PaidCheckout {
  sessionId: string;
  amountCents: number;
  currency: string;
  /** The provider's id of the charge, what a refund is made against. */
  paymentIntentId?: string;
  /** The checkout's metadata (set by createCheckout): lets a checkout we have no row for be recorded. */
  testId?: string;
  userId?: string;
  testName?: string;
}

export interface CheckoutState {
  id: string;
  /** Can still be paid. */
  open: boolean;
  /** Set once the money arrived. */
  paid: PaidCheckout | null;
  amountCents: number | null;
  currency: string | null;
  url: string | null;
}

export type PaymentEvent =
  { kind: "paid"; checkout: PaidCheckout } | { kind: "expired"; sessionId: string } | { kind: "other" };

export interface PaymentProvider {
  /** Opens a hosted checkout page for one amount. `successUrl` may hold CHECKOUT_ID_PLACEHOLDER. */
  createCheckout(input: {
    amountCents: number;
    currency: string;
    productName: string;
    email?: string;
    reference: string;
    metadata: Record<string, string>;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string | null }>;
  /** The checkout as the provider has it; null when the provider does not know it. */
  getCheckout(id: string): Promise<CheckoutState | null>;
  /** Ends an open checkout; throws when the provider refuses (e.g. it is no longer open). */
  expireCheckout(id: string): Promise<void>;
  /** Returns a paid checkout's money (all of what is left, or `amountCents` of it), once per idempotency key. */
  refund(input: {
    paymentIntentId?: string;
    sessionId?: string;
    /** A partial refund's amount; absent: everything not yet refunded. */
    amountCents?: number;
    duplicate: boolean;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<{ id: string; amountCents: number }>;
  /** A signed event from the provider's webhook; throws on a bad signature. */
  readEvent(payload: string, signature: string, secret: string): Promise<PaymentEvent>;
}

/** Written into the success URL; the provider replaces it with the checkout's id. */
export const CHECKOUT_ID_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";

/** The header a webhook's signature arrives in. */
export const WEBHOOK_SIGNATURE_HEADER = "stripe-signature";

function stripeClient(): Stripe {
  const key = env.stripeSecretKey();
  if (!key) throw new Error("Stripe is not configured.");
  const host = env.stripeApiHost();
  const port = env.stripeApiPort();
  const protocol = env.stripeApiProtocol();
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    ...(host ? { host } : {}),
    ...(port ? { port: Number(port) } : {}),
    ...(protocol === "http" || protocol === "https" ? { protocol } : {}),
  });
}

function paymentIntentOf(session: Stripe.Checkout.Session): string | undefined {
  return typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
}

/** What a Checkout Session (from an event or a lookup) says arrived. */
function paidOf(session: Stripe.Checkout.Session): PaidCheckout {
  const paymentIntent = paymentIntentOf(session);
  const metadata = session.metadata ?? {};
  return {
    sessionId: session.id,
    amountCents: session.amount_total ?? 0,
    currency: session.currency ?? "",
    ...(paymentIntent ? { paymentIntentId: paymentIntent } : {}),
    ...(metadata.testId ? { testId: metadata.testId } : {}),
    ...(metadata.userId ? { userId: metadata.userId } : {}),
    ...(metadata.testName ? { testName: metadata.testName } : {}),
  };
}

function stateOf(session: Stripe.Checkout.Session): CheckoutState {
  return {
    id: session.id,
    open: session.status === "open",
    paid: session.payment_status === "paid" ? paidOf(session) : null,
    amountCents: session.amount_total,
    currency: session.currency,
    url: session.url,
  };
}

/** Stripe Checkout Sessions and signed webhooks (dev/stripe offline). */
export function stripeProvider(): PaymentProvider {
  const stripe = stripeClient();
  return {
    async createCheckout(input) {
      const session = await stripe.checkout.sessions.create({
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: input.amountCents,
              product_data: { name: input.productName },
            },
          },
        ],
        customer_email: input.email,
        client_reference_id: input.reference,
        metadata: input.metadata,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      });
      return { id: session.id, url: session.url };
    },
    async getCheckout(id) {
      try {
        return stateOf(await stripe.checkout.sessions.retrieve(id));
      } catch (error) {
        // Stripe does not know it (a test-mode reset, the offline Stripe restarted).
        if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return null;
        throw error;
      }
    },
    async expireCheckout(id) {
      await stripe.checkout.sessions.expire(id);
    },
    async refund(input) {
      let paymentIntent = input.paymentIntentId;
      if (!paymentIntent && input.sessionId) {
        paymentIntent = paymentIntentOf(await stripe.checkout.sessions.retrieve(input.sessionId));
      }
      if (!paymentIntent) throw new Error("Stripe has no payment intent for this payment.");
      const made = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          ...(input.amountCents === undefined ? {} : { amount: input.amountCents }),
          reason: input.duplicate ? "duplicate" : "requested_by_customer",
          metadata: input.metadata,
        },
        { idempotencyKey: `${input.idempotencyKey}-${paymentIntent}` },
      );
      return { id: made.id, amountCents: made.amount };
    },
    async readEvent(payload, signature, secret) {
      const event = await stripe.webhooks.constructEventAsync(payload, signature, secret);
      if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
        const session = event.data.object;
        return session.payment_status === "paid" ? { kind: "paid", checkout: paidOf(session) } : { kind: "other" };
      }
      if (event.type === "checkout.session.expired") return { kind: "expired", sessionId: event.data.object.id };
      return { kind: "other" };
    },
  };
}

/** The deployment's payment provider. */
export function paymentProvider(): PaymentProvider {
  return stripeProvider();
}
