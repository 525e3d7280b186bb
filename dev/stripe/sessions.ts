// POST /v1/checkout/sessions and the `expand[]=line_items` of a retrieve.
import { missing, StripeApiError } from "./errors";
import type { FormObject } from "./form";
import { asObject, asString, integer, nowSeconds, optionalString, randomId, stringRecord } from "./params";
import { formatAmount } from "./respond";
import type { StripeMemory } from "./state";
import type { CheckoutSession, LineItem } from "./types";

const MINIMUM_CHARGE_CENTS = 50;
const SESSION_LIFETIME_SECONDS = 24 * 60 * 60;

export function withExpansions(state: StripeMemory, session: CheckoutSession, expand: readonly string[]): unknown {
  if (!expand.includes("line_items")) return session;
  const data = state.lineItems.get(session.id) ?? [];
  return {
    ...session,
    line_items: { object: "list", data, has_more: false, url: `/v1/checkout/sessions/${session.id}/line_items` },
  };
}

export function createSession(state: StripeMemory, params: FormObject): CheckoutSession {
  const mode = asString(params.mode);
  if (!mode) throw missing("mode");
  if (mode !== "payment") {
    throw new StripeApiError(
      400,
      `The dev Stripe server only supports mode 'payment', not '${mode}'.`,
      "invalid_request_error",
      "parameter_invalid",
      "mode",
    );
  }
  const successUrl = asString(params.success_url);
  if (!successUrl) throw missing("success_url");
  const rawItems = params.line_items;
  if (!Array.isArray(rawItems) || rawItems.length === 0) throw missing("line_items");

  const id = randomId("cs_test", 58);
  const items: LineItem[] = rawItems.map((raw, index) => {
    const param = `line_items[${index}]`;
    const item = asObject(raw);
    if (!item) throw missing(param);
    const priceId = asString(item.price);
    if (priceId)
      throw new StripeApiError(
        400,
        `No such price: '${priceId}'`,
        "invalid_request_error",
        "resource_missing",
        `${param}[price]`,
      );
    const priceData = asObject(item.price_data);
    if (!priceData) throw missing(`${param}[price_data]`);
    const currency = asString(priceData.currency)?.toLowerCase();
    if (!currency) throw missing(`${param}[price_data][currency]`);
    const unitAmount = integer(priceData.unit_amount, `${param}[price_data][unit_amount]`, 0);
    const productData = asObject(priceData.product_data);
    const name = productData ? asString(productData.name) : undefined;
    if (!name) throw missing(`${param}[price_data][product_data][name]`);
    const quantity = item.quantity === undefined ? 1 : integer(item.quantity, `${param}[quantity]`, 1);
    const amount = unitAmount * quantity;
    return {
      id: randomId("li", 24),
      object: "item",
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency,
      description: name,
      quantity,
      price: {
        id: randomId("price", 24),
        object: "price",
        currency,
        unit_amount: unitAmount,
        product: randomId("prod", 14),
        type: "one_time",
      },
    };
  });
  const currency = items[0]?.currency ?? "usd";
  if (items.some((item) => item.currency !== currency)) {
    throw new StripeApiError(
      400,
      "All line items must use the same currency.",
      "invalid_request_error",
      "parameter_invalid",
      "line_items",
    );
  }
  const total = items.reduce((sum, item) => sum + item.amount_total, 0);
  if (total < MINIMUM_CHARGE_CENTS) {
    throw new StripeApiError(
      400,
      `The Checkout Session's total amount due must add up to at least ${formatAmount(MINIMUM_CHARGE_CENTS, currency)}.`,
      "invalid_request_error",
      "amount_too_small",
    );
  }

  const created = nowSeconds();
  const expiresAt =
    params.expires_at === undefined
      ? created + SESSION_LIFETIME_SECONDS
      : integer(params.expires_at, "expires_at", created + 1);
  const session: CheckoutSession = {
    id,
    object: "checkout.session",
    amount_subtotal: total,
    amount_total: total,
    cancel_url: optionalString(params, "cancel_url"),
    client_reference_id: optionalString(params, "client_reference_id"),
    created,
    currency,
    customer: null,
    customer_details: null,
    customer_email: optionalString(params, "customer_email"),
    expires_at: expiresAt,
    livemode: false,
    metadata: stringRecord(params.metadata, "metadata"),
    mode: "payment",
    payment_intent: null,
    payment_method_types: ["card"],
    payment_status: "unpaid",
    status: "open",
    success_url: successUrl,
    ui_mode: "hosted",
    url: `${state.origin}/checkout/${id}`,
  };
  state.sessions.set(id, session);
  state.lineItems.set(id, items);
  state.persist();
  return session;
}
