// Pay: the session becomes paid and `checkout.session.completed` is signed like Stripe's and POSTed.
import Stripe from "stripe";
import { nowSeconds, randomId } from "./params";
import type { StripeMemory } from "./state";
import type { CheckoutSession, StripeEvent, WebhookDelivery } from "./types";

const WEBHOOK_TIMEOUT_MS = 10_000;

/** Builds `checkout.session.completed`, signs it like Stripe and POSTs it; never throws. */
async function sendCompletedEvent(state: StripeMemory, session: CheckoutSession): Promise<void> {
  const event: StripeEvent = {
    id: randomId("evt", 24),
    object: "event",
    api_version: Stripe.API_VERSION,
    created: nowSeconds(),
    data: { object: structuredClone(session) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: "checkout.session.completed",
  };
  state.events.push(event);
  const payload = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: state.webhook.secret });
  const delivery: WebhookDelivery = { eventId: event.id, url: state.webhook.url };
  state.deliveries.push(delivery);
  try {
    const response = await fetch(state.webhook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        "stripe-signature": signature,
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      },
      body: payload,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    delivery.status = response.status;
    await response.arrayBuffer();
    if (!response.ok)
      console.warn(`[dev/stripe] webhook ${event.id} to ${state.webhook.url} answered ${response.status}`);
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    delivery.error = error instanceof Error ? `${error.message}${cause}` : String(error);
    console.warn(`[dev/stripe] webhook ${event.id} to ${state.webhook.url} failed: ${delivery.error}`);
  }
}

export async function pay(state: StripeMemory, session: CheckoutSession): Promise<void> {
  session.status = "complete";
  session.payment_status = "paid";
  session.payment_intent = randomId("pi", 24);
  state.charges.set(session.id, randomId("ch", 24));
  session.customer_details = { email: session.customer_email ?? "customer@example.com", name: null };
  session.url = null;
  state.persist();
  await sendCompletedEvent(state, session);
}
