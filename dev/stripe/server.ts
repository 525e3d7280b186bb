/**
 * dev/stripe — the few Stripe endpoints ModelJury uses, on loopback, for the
 * offline stack and tests (ARCHITECTURE §7). The app points the official
 * client at it: `new Stripe(key, { host: '127.0.0.1', port, protocol: 'http' })`.
 *
 *   POST /v1/checkout/sessions                 create (payment mode, price_data line items)
 *   GET  /v1/checkout/sessions/:id             retrieve (`expand[]=line_items` works)
 *   GET  /v1/checkout/sessions/:id/line_items  list line items
 *   POST /v1/checkout/sessions/:id/expire      expire an open session
 *   POST /v1/refunds                           refund a paid session's payment intent
 *   GET  /checkout/:id                         hosted checkout page (Pay / Cancel)
 *   POST /checkout/:id/pay                     mark paid, send the signed webhook, 303 → success_url
 *   POST /checkout/:id/cancel                  303 → cancel_url
 *   GET  /favicon.ico                          204 (the page names an empty icon inline)
 *
 * With `dataDir` (the stack's MJ_DATA_DIR) sessions, line items, refunds and charges are kept in
 * its stripe.json (./store.ts), so an open checkout still opens after a restart.
 *
 * Run alone: `npx tsx dev/stripe/server.ts` (PORT, STRIPE_WEBHOOK_URL,
 * STRIPE_WEBHOOK_SECRET, STRIPE_SECRET_KEY, MJ_DATA_DIR from the environment).
 */

import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { listenTracked, readBody } from "../http";
import Stripe from "stripe";
import { parseStripeForm, type FormObject, type FormValue } from "./form";
import { StripeStateFile } from "./store";

export interface StripeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  secretKey?: string;
  /** Where `checkout.session.completed` is POSTed after Pay. */
  webhookUrl: string;
  webhookSecret?: string;
  /** Keep sessions, line items, refunds and charges in this folder (the stack's data folder) across restarts. */
  dataDir?: string;
  /** With `dataDir`: forget what was kept there. */
  fresh?: boolean;
}

export interface CheckoutSession {
  id: string;
  object: "checkout.session";
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  customer_details: { email: string | null; name: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: "payment";
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: "unpaid" | "paid";
  status: "open" | "complete" | "expired";
  success_url: string;
  ui_mode: "hosted";
  url: string | null;
}

export interface LineItem {
  id: string;
  object: "item";
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  quantity: number;
  price: {
    id: string;
    object: "price";
    currency: string;
    unit_amount: number;
    product: string;
    type: "one_time";
  };
}

/** Stripe's Refund object (API reference: "The Refund object"). */
export interface Refund {
  id: string;
  object: "refund";
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  destination_details: { type: "card"; card: { type: "refund"; reference_status: "pending" } };
  metadata: Record<string, string>;
  payment_intent: string;
  reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: "succeeded";
  transfer_reversal: null;
}

const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: CheckoutSession };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: "checkout.session.completed";
}

export interface WebhookDelivery {
  eventId: string;
  url: string;
  /** HTTP status of the app's answer, or undefined when the POST failed. */
  status?: number;
  error?: string;
}

export interface RunningStripe {
  /** Origin of the server, e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  host: string;
  sessions: Map<string, CheckoutSession>;
  /** Every refund made, by id. */
  refunds: Map<string, Refund>;
  /** Every event built, in order; deliveries records each webhook attempt. */
  events: StripeEvent[];
  deliveries: WebhookDelivery[];
  /** Live webhook target, for stacks that learn the app's URL after starting Stripe. */
  webhook: { url: string; secret: string };
  close(): Promise<void>;
}

export const DEFAULT_STRIPE_SECRET_KEY = "sk_test_dev";
export const DEFAULT_WEBHOOK_SECRET = "whsec_dev";
const MAX_BODY_BYTES = 1024 * 1024;
const MINIMUM_CHARGE_CENTS = 50;
const SESSION_LIFETIME_SECONDS = 24 * 60 * 60;
const WEBHOOK_TIMEOUT_MS = 10_000;

class StripeApiError extends Error {
  readonly status: number;
  readonly type: "invalid_request_error" | "api_error";
  readonly code: string | undefined;
  readonly param: string | undefined;

  constructor(
    status: number,
    message: string,
    type: "invalid_request_error" | "api_error" = "invalid_request_error",
    code?: string,
    param?: string,
  ) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
  }

  toJSON() {
    return {
      error: {
        message: this.message,
        type: this.type,
        ...(this.code !== undefined && {
          code: this.code,
          doc_url: `https://stripe.com/docs/error-codes/${this.code.replaceAll("_", "-")}`,
        }),
        ...(this.param !== undefined && { param: this.param }),
      },
    };
  }
}

const missing = (param: string) =>
  new StripeApiError(400, `Missing required param: ${param}.`, "invalid_request_error", "parameter_missing", param);
const invalid = (param: string, message: string) =>
  new StripeApiError(400, message, "invalid_request_error", "parameter_invalid_integer", param);
const noSuch = (kind: string, id: string, param = "id") =>
  new StripeApiError(404, `No such ${kind}: '${id}'`, "invalid_request_error", "resource_missing", param);

function randomId(prefix: string, length = 24): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const bytes = randomBytes(length);
  let id = "";
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}_${id}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function formatAmount(cents: number, currency: string): string {
  const major = (cents / 100).toFixed(2);
  return currency.toLowerCase() === "usd" ? `$${major}` : `${major} ${currency.toUpperCase()}`;
}

function readRequestBody(req: IncomingMessage): Promise<string> {
  return readBody(req, MAX_BODY_BYTES, () => new StripeApiError(413, "Request body too large."));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "request-id": randomId("req", 14),
    "stripe-version": Stripe.API_VERSION,
  });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "content-length": Buffer.byteLength(html) });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, "content-length": 0 });
  res.end();
}

// ── Reading parameters ─────────────────────────────────────────────────────

function asObject(value: FormValue | undefined): FormObject | undefined {
  return value !== undefined && typeof value === "object" && !Array.isArray(value) ? value : undefined;
}

function asString(value: FormValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function optionalString(params: FormObject, key: string): string | null {
  const value = asString(params[key]);
  return value === undefined || value === "" ? null : value;
}

function integer(value: FormValue | undefined, param: string, minimum: number): number {
  const text = asString(value);
  if (text === undefined || !/^-?\d+$/.test(text)) throw invalid(param, `Invalid integer: ${String(text ?? "")}`);
  const number = Number(text);
  if (number < minimum) throw invalid(param, `This value must be greater than or equal to ${minimum}.`);
  return number;
}

function stringRecord(value: FormValue | undefined, param: string): Record<string, string> {
  if (value === undefined || value === "") return {};
  const object = asObject(value);
  if (!object)
    throw new StripeApiError(400, `Invalid object`, "invalid_request_error", "parameter_invalid_empty", param);
  const record: Record<string, string> = {};
  for (const [key, entry] of Object.entries(object)) {
    if (typeof entry !== "string")
      throw new StripeApiError(
        400,
        `Invalid value for ${param}[${key}].`,
        "invalid_request_error",
        undefined,
        `${param}[${key}]`,
      );
    record[key] = entry;
  }
  return record;
}

function expandList(params: FormObject): string[] {
  const expand = params.expand;
  if (Array.isArray(expand)) return expand.filter((item): item is string => typeof item === "string");
  return typeof expand === "string" ? [expand] : [];
}

// ── The server ─────────────────────────────────────────────────────────────

export async function startStripe(options: StripeOptions): Promise<RunningStripe> {
  const host = options.host ?? "127.0.0.1";
  const secretKey = options.secretKey ?? DEFAULT_STRIPE_SECRET_KEY;
  const webhook = { url: options.webhookUrl, secret: options.webhookSecret ?? DEFAULT_WEBHOOK_SECRET };
  const sessions = new Map<string, CheckoutSession>();
  const lineItems = new Map<string, LineItem[]>();
  const refunds = new Map<string, Refund>();
  /** The charge behind each paid session (session id → ch_…). */
  const charges = new Map<string, string>();
  const events: StripeEvent[] = [];
  const deliveries: WebhookDelivery[] = [];
  const idempotentReplies = new Map<string, { status: number; body: unknown }>();
  let origin = "";

  const stateFile = options.dataDir
    ? new StripeStateFile<CheckoutSession, LineItem, Refund>(options.dataDir, { fresh: options.fresh })
    : null;
  const saved = stateFile?.load();
  if (saved) {
    for (const session of saved.sessions) sessions.set(session.id, session);
    for (const [id, items] of Object.entries(saved.lineItems)) lineItems.set(id, items);
    for (const refund of saved.refunds) refunds.set(refund.id, refund);
    for (const [id, charge] of Object.entries(saved.charges)) charges.set(id, charge);
  }

  /** Writes the state to the data folder (when there is one) after every change. */
  function persist(): void {
    stateFile?.save({
      sessions: [...sessions.values()],
      lineItems: Object.fromEntries(lineItems),
      refunds: [...refunds.values()],
      charges: Object.fromEntries(charges),
    });
  }

  function authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization ?? "";
    let key: string | undefined;
    const bearer = /^Bearer\s+(.+)$/i.exec(header);
    const basic = /^Basic\s+(.+)$/i.exec(header);
    if (bearer) key = bearer[1]?.trim();
    else if (basic)
      key = Buffer.from(basic[1] ?? "", "base64")
        .toString("utf8")
        .split(":")[0];
    if (!key) {
      throw new StripeApiError(
        401,
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.",
      );
    }
    if (key !== secretKey) {
      const masked =
        key.length > 8 ? `${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : key;
      throw new StripeApiError(401, `Invalid API Key provided: ${masked}`);
    }
  }

  function sessionOrThrow(id: string): CheckoutSession {
    const session = sessions.get(id);
    if (!session) throw noSuch("checkout.session", id);
    return session;
  }

  function expireIfDue(session: CheckoutSession): void {
    if (session.status === "open" && session.expires_at <= nowSeconds()) {
      session.status = "expired";
      session.url = null;
      persist();
    }
  }

  function withExpansions(session: CheckoutSession, expand: readonly string[]): unknown {
    if (!expand.includes("line_items")) return session;
    const data = lineItems.get(session.id) ?? [];
    return {
      ...session,
      line_items: { object: "list", data, has_more: false, url: `/v1/checkout/sessions/${session.id}/line_items` },
    };
  }

  function createSession(params: FormObject): CheckoutSession {
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
      url: `${origin}/checkout/${id}`,
    };
    sessions.set(id, session);
    lineItems.set(id, items);
    persist();
    return session;
  }

  /** POST /v1/refunds: a full or partial refund of a paid session's payment intent (or its charge). */
  function createRefund(params: FormObject): Refund {
    const paymentIntent = asString(params.payment_intent);
    const charge = asString(params.charge);
    if (!paymentIntent && !charge) throw missing("payment_intent");
    const param = paymentIntent ? "payment_intent" : "charge";
    const session = [...sessions.values()].find((candidate) =>
      paymentIntent ? candidate.payment_intent === paymentIntent : charges.get(candidate.id) === charge,
    );
    const chargeId = session ? charges.get(session.id) : undefined;
    if (!session || !session.payment_intent || !chargeId) {
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
    const alreadyRefunded = [...refunds.values()]
      .filter((refund) => refund.payment_intent === session.payment_intent)
      .reduce((sum, refund) => sum + refund.amount, 0);
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
      payment_intent: session.payment_intent,
      reason: reason as Refund["reason"],
      receipt_number: null,
      source_transfer_reversal: null,
      status: "succeeded",
      transfer_reversal: null,
    };
    refunds.set(refund.id, refund);
    persist();
    return refund;
  }

  /** Builds `checkout.session.completed`, signs it like Stripe and POSTs it; never throws. */
  async function sendCompletedEvent(session: CheckoutSession): Promise<void> {
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
    events.push(event);
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhook.secret });
    const delivery: WebhookDelivery = { eventId: event.id, url: webhook.url };
    deliveries.push(delivery);
    try {
      const response = await fetch(webhook.url, {
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
      if (!response.ok) console.warn(`[dev/stripe] webhook ${event.id} to ${webhook.url} answered ${response.status}`);
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      delivery.error = error instanceof Error ? `${error.message}${cause}` : String(error);
      console.warn(`[dev/stripe] webhook ${event.id} to ${webhook.url} failed: ${delivery.error}`);
    }
  }

  async function pay(session: CheckoutSession): Promise<void> {
    session.status = "complete";
    session.payment_status = "paid";
    session.payment_intent = randomId("pi", 24);
    charges.set(session.id, randomId("ch", 24));
    session.customer_details = { email: session.customer_email ?? "customer@example.com", name: null };
    session.url = null;
    persist();
    await sendCompletedEvent(session);
  }

  async function handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    authenticate(req);
    const method = req.method ?? "GET";
    const params = method === "GET" ? parseStripeForm(query.toString()) : parseStripeForm(await readRequestBody(req));

    // Retried POSTs with the same Idempotency-Key get the first answer back.
    const idempotencyKey = method === "POST" ? req.headers["idempotency-key"] : undefined;
    const cacheKey = typeof idempotencyKey === "string" ? `${path} ${idempotencyKey}` : undefined;
    const cached = cacheKey ? idempotentReplies.get(cacheKey) : undefined;
    if (cached) return sendJson(res, cached.status, cached.body);
    const reply = (status: number, body: unknown) => {
      if (cacheKey) idempotentReplies.set(cacheKey, { status, body });
      sendJson(res, status, body);
    };

    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/line_items|\/expire)?$/.exec(path);
    if (method === "POST" && path === "/v1/checkout/sessions") return reply(200, createSession(params));
    if (method === "POST" && path === "/v1/refunds") return reply(200, createRefund(params));
    if (sessionPath) {
      const session = sessionOrThrow(decodeURIComponent(sessionPath[1] ?? ""));
      expireIfDue(session);
      const action = sessionPath[2];
      if (method === "GET" && action === undefined) return reply(200, withExpansions(session, expandList(params)));
      if (method === "GET" && action === "/line_items") {
        const data = lineItems.get(session.id) ?? [];
        return reply(200, { object: "list", data, has_more: false, url: path });
      }
      if (method === "POST" && action === "/expire") {
        if (session.status !== "open") {
          throw new StripeApiError(
            400,
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          );
        }
        session.status = "expired";
        session.url = null;
        persist();
        return reply(200, session);
      }
    }
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  function checkoutPage(session: CheckoutSession): string {
    const items = lineItems.get(session.id) ?? [];
    const testName = session.metadata.testName;
    const amount = formatAmount(session.amount_total, session.currency);
    const rows = items
      .map(
        (item) =>
          `<li><span>${escapeHtml(item.description)}${item.quantity > 1 ? ` × ${item.quantity}` : ""}</span>` +
          `<span>${escapeHtml(formatAmount(item.amount_total, item.currency))}</span></li>`,
      )
      .join("");
    const open = session.status === "open";
    const notice =
      session.status === "complete"
        ? '<p class="notice">This payment is complete.</p>'
        : session.status === "expired"
          ? '<p class="notice">This checkout session has expired.</p>'
          : "";
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Pay ${escapeHtml(amount)} · Dev Stripe Checkout</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f6f9fc; color: #1a1f36; margin: 0; display: grid; place-items: center; min-height: 100vh; }
  main { background: #fff; border-radius: 12px; box-shadow: 0 4px 24px rgba(0,0,0,.08); padding: 32px; width: min(420px, 92vw); }
  .badge { display: inline-block; font-size: 12px; background: #ffde92; color: #5c3b00; border-radius: 4px; padding: 2px 6px; }
  h1 { font-size: 16px; font-weight: 500; color: #697386; margin: 16px 0 4px; }
  .amount { font-size: 36px; font-weight: 600; margin: 0 0 16px; }
  ul { list-style: none; padding: 0; margin: 0 0 16px; border-top: 1px solid #e3e8ee; }
  li { display: flex; justify-content: space-between; gap: 12px; padding: 10px 0; border-bottom: 1px solid #e3e8ee; }
  .meta { color: #697386; font-size: 14px; }
  .actions { display: flex; gap: 12px; margin-top: 24px; }
  form { flex: 1; }
  button { width: 100%; padding: 12px; border-radius: 6px; border: 0; font-size: 16px; cursor: pointer; }
  .pay { background: #635bff; color: #fff; }
  .cancel { background: #e3e8ee; color: #1a1f36; }
  .notice { background: #e3e8ee; padding: 8px 12px; border-radius: 6px; }
</style>
</head>
<body>
<main>
  <span class="badge">TEST MODE · dev Stripe, no real payment</span>
  <h1>${escapeHtml(testName ?? items[0]?.description ?? "Checkout")}</h1>
  <p class="amount" data-testid="amount">${escapeHtml(amount)}</p>
  <ul>${rows}</ul>
  ${testName ? `<p class="meta">Test: <strong data-testid="test-name">${escapeHtml(testName)}</strong></p>` : ""}
  ${session.customer_email ? `<p class="meta">Email: ${escapeHtml(session.customer_email)}</p>` : ""}
  ${notice}
  <div class="actions">
    <form method="post" action="/checkout/${encodeURIComponent(session.id)}/pay"><button class="pay" type="submit" data-testid="pay"${open ? "" : " disabled"}>Pay</button></form>
    <form method="post" action="/checkout/${encodeURIComponent(session.id)}/cancel"><button class="cancel" type="submit" data-testid="cancel">Cancel</button></form>
  </div>
</main>
</body>
</html>`;
  }

  async function handleCheckout(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    action: string | undefined,
  ): Promise<void> {
    const session = sessions.get(id);
    if (!session) return sendHtml(res, 404, "<!doctype html><title>Not found</title><p>No such checkout session.</p>");
    expireIfDue(session);
    const method = req.method ?? "GET";
    if (method === "GET" && action === undefined) return sendHtml(res, 200, checkoutPage(session));
    if (method === "POST" && action === "pay") {
      await readRequestBody(req);
      if (session.status === "expired") return sendHtml(res, 409, checkoutPage(session));
      // A second Pay (double click, back button) just returns: no second charge, no second event.
      if (session.status === "open") await pay(session);
      return redirect(res, session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id));
    }
    if (method === "POST" && action === "cancel") {
      await readRequestBody(req);
      if (session.cancel_url) return redirect(res, session.cancel_url);
      return sendHtml(
        res,
        200,
        "<!doctype html><title>Cancelled</title><p>Payment cancelled. You can close this page.</p>",
      );
    }
    return sendHtml(res, 405, "<!doctype html><title>Method not allowed</title><p>Method not allowed.</p>");
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://stripe");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (path.startsWith("/v1/")) return handleApi(req, res, path, url.searchParams);
    // Browsers ask for it on their own; there is none (the page names an empty one inline).
    if (path === "/favicon.ico") {
      res.writeHead(204, { "cache-control": "max-age=86400" });
      res.end();
      return;
    }
    const checkout = /^\/checkout\/([^/]+)(?:\/(pay|cancel))?$/.exec(path);
    if (checkout) return handleCheckout(req, res, decodeURIComponent(checkout[1] ?? ""), checkout[2]);
    return sendHtml(res, 404, "<!doctype html><title>Not found</title><p>Not found.</p>");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof StripeApiError) return sendJson(res, error.status, error.toJSON());
      console.error("[dev/stripe]", error);
      sendJson(res, 500, new StripeApiError(500, "An unknown error occurred.", "api_error").toJSON());
    });
  });
  const listening = await listenTracked(server, host, options.port ?? 0);
  origin = listening.origin;
  // A restart on another port: the kept open sessions' pages are served from here now.
  for (const session of sessions.values()) {
    if (session.url !== null) session.url = `${origin}/checkout/${session.id}`;
  }

  return {
    url: origin,
    port: listening.port,
    host,
    sessions,
    refunds,
    events,
    deliveries,
    webhook,
    close: listening.close,
  };
}

async function main(): Promise<void> {
  const webhookUrl = process.env.STRIPE_WEBHOOK_URL;
  if (!webhookUrl) throw new Error("Set STRIPE_WEBHOOK_URL (the app's POST /stripe/webhook URL).");
  const stripe = await startStripe({
    port: Number(process.env.PORT ?? 12111),
    webhookUrl,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? DEFAULT_WEBHOOK_SECRET,
    secretKey: process.env.STRIPE_SECRET_KEY ?? DEFAULT_STRIPE_SECRET_KEY,
    dataDir: process.env.MJ_DATA_DIR?.trim() || undefined,
  });
  console.log(`dev stripe: ${stripe.url}  (webhooks → ${webhookUrl})`);
  const stop = () => void stripe.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
