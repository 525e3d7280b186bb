// POST /v1/refunds: full and partial refunds of a paid session's payment intent.
import { missing, StripeApiError } from "./errors";
import type { FormObject } from "./form";
import { asString, integer, nowSeconds, optionalString, randomId, stringRecord } from "./params";
import { paidSessionOf, refundsOf } from "./payments";
import { formatAmount } from "./respond";
import type { StripeMemory } from "./state";
import type { Refund } from "./types";

const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;

/** POST /v1/refunds: a full or partial refund of a paid session's payment intent (or its charge). */
export function createRefund(state: StripeMemory, params: FormObject): Refund {
  const paymentIntent = asString(params.payment_intent);
  const charge = asString(params.charge);
  if (!paymentIntent && !charge) throw missing("payment_intent");
  const param = paymentIntent ? "payment_intent" : "charge";
  const paid = paidSessionOf(state, paymentIntent ? { paymentIntent } : { charge: charge! });
  if (!paid) {
    throw new StripeApiError(
      400,
      `No such ${param}: '${paymentIntent ?? charge ?? ""}'`,
      "invalid_request_error",
      "resource_missing",
      param,
    );
  }
  const reason = optionalString(params, "reason");
  if (reason !== null && !(REFUND_REASONS as readonly string[]).includes(reason)) {
    throw new StripeApiError(
      400,
      `Invalid reason: must be one of ${REFUND_REASONS.join(", ")}`,
      "invalid_request_error",
      "parameter_invalid",
      "reason",
    );
  }
  const { session, chargeId } = paid;
  // Several refunds may be made on one payment intent, up to its amount (Stripe's partial refunds).
  const alreadyRefunded = refundsOf(state, session.payment_intent!).reduce((sum, refund) => sum + refund.amount, 0);
  const remaining = session.amount_total - alreadyRefunded;
  if (remaining <= 0) {
    throw new StripeApiError(
      400,
      `Charge ${chargeId} has already been refunded.`,
      "invalid_request_error",
      "charge_already_refunded",
    );
  }
  const amount = params.amount === undefined ? remaining : integer(params.amount, "amount", 1);
  if (amount > remaining) {
    throw new StripeApiError(
      400,
      `Refund amount (${formatAmount(amount, session.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, session.currency)})`,
      "invalid_request_error",
      "amount_too_large",
      "amount",
    );
  }
  const refund: Refund = {
    id: randomId("re", 24),
    object: "refund",
    amount,
    balance_transaction: randomId("txn", 24),
    charge: chargeId,
    created: nowSeconds(),
    currency: session.currency,
    destination_details: { type: "card", card: { type: "refund", reference_status: "pending" } },
    metadata: stringRecord(params.metadata, "metadata"),
    payment_intent: session.payment_intent!,
    reason: reason as Refund["reason"],
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
  };
  state.refunds.set(refund.id, refund);
  state.persist();
  return refund;
}
