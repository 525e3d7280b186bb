// What a paid session's money looks like afterwards, as Stripe shows it: its charge (with
// amount_refunded), its payment intent, and its refunds (GET /v1/refunds lists them, newest first).
import { noSuch } from "./errors";
import type { FormObject } from "./form";
import { asString } from "./params";
import type { StripeMemory } from "./state";
import type { CheckoutSession, Refund } from "./types";

/** Stripe's Charge object, the fields a refund changes. */
export interface Charge {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  paid: true;
  payment_intent: string;
  refunded: boolean;
  status: "succeeded";
}

/** Stripe's PaymentIntent object, the fields the app could read. */
export interface PaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  latest_charge: string;
  status: "succeeded";
}

/** The paid session behind a payment intent or a charge, with its charge id; undefined when none. */
export function paidSessionOf(
  state: StripeMemory,
  by: { paymentIntent?: string; charge?: string },
): { session: CheckoutSession; chargeId: string } | undefined {
  for (const session of state.sessions.values()) {
    const chargeId = state.charges.get(session.id);
    if (!session.payment_intent || !chargeId) continue;
    if (by.paymentIntent !== undefined ? session.payment_intent === by.paymentIntent : chargeId === by.charge)
      return { session, chargeId };
  }
  return undefined;
}

/** Refunds made on a payment intent, oldest first. */
export function refundsOf(state: StripeMemory, paymentIntent: string): Refund[] {
  return [...state.refunds.values()]
    .filter((refund) => refund.payment_intent === paymentIntent)
    .sort((a, b) => a.created - b.created);
}

function chargeOf(state: StripeMemory, session: CheckoutSession, chargeId: string): Charge {
  const refunded = refundsOf(state, session.payment_intent!).reduce((sum, refund) => sum + refund.amount, 0);
  return {
    id: chargeId,
    object: "charge",
    amount: session.amount_total,
    amount_captured: session.amount_total,
    amount_refunded: refunded,
    currency: session.currency,
    paid: true,
    payment_intent: session.payment_intent!,
    refunded: refunded >= session.amount_total,
    status: "succeeded",
  };
}

/** GET /v1/charges/:id */
export function retrieveCharge(state: StripeMemory, id: string): Charge {
  const paid = paidSessionOf(state, { charge: id });
  if (!paid) throw noSuch("charge", id);
  return chargeOf(state, paid.session, paid.chargeId);
}

/** GET /v1/payment_intents/:id */
export function retrievePaymentIntent(state: StripeMemory, id: string): PaymentIntent {
  const paid = paidSessionOf(state, { paymentIntent: id });
  if (!paid) throw noSuch("payment_intent", id);
  return {
    id,
    object: "payment_intent",
    amount: paid.session.amount_total,
    amount_received: paid.session.amount_total,
    currency: paid.session.currency,
    latest_charge: paid.chargeId,
    status: "succeeded",
  };
}

/** GET /v1/refunds/:id */
export function retrieveRefund(state: StripeMemory, id: string): Refund {
  const refund = state.refunds.get(id);
  if (!refund) throw noSuch("refund", id);
  return refund;
}

/** GET /v1/refunds[?payment_intent=…|?charge=…]: newest first, as Stripe lists them. */
export function listRefunds(state: StripeMemory, params: FormObject, url: string) {
  const paymentIntent = asString(params.payment_intent);
  const charge = asString(params.charge);
  // Newest first; refunds made within one second keep their order of making, reversed.
  const data = [...state.refunds.values()]
    .reverse()
    .filter(
      (refund) =>
        (paymentIntent === undefined || refund.payment_intent === paymentIntent) &&
        (charge === undefined || refund.charge === charge),
    )
    .sort((a, b) => b.created - a.created);
  return { object: "list" as const, data, has_more: false, url };
}
