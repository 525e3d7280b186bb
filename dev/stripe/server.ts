/**
 * dev/stripe — the few Stripe endpoints ModelJury uses, on loopback, for the
 * offline stack and tests (ARCHITECTURE §7). The app points the official
 * client at it: `new Stripe(key, { host: '127.0.0.1', port, protocol: 'http' })`.
 *
 *   POST /v1/checkout/sessions                 create (payment mode, price_data line items)
 *   GET  /v1/checkout/sessions/:id             retrieve (`expand[]=line_items` works)
 *   GET  /v1/checkout/sessions/:id/line_items  list line items
 *   POST /v1/checkout/sessions/:id/expire      expire an open session
 *   POST /v1/refunds                           refund a paid session's payment intent, in full or
 *                                              in part (`amount`), several times up to its amount
 *   GET  /v1/refunds[?payment_intent=|charge=] list refunds, newest first; GET /v1/refunds/:id
 *   GET  /v1/charges/:id                       the charge, with amount_refunded and refunded
 *   GET  /v1/payment_intents/:id               the payment intent, with latest_charge
 *   GET  /checkout/:id                         hosted checkout page (Pay / Cancel)
 *   POST /checkout/:id/pay                     mark paid, send the signed webhook, 303 → success_url
 *   POST /checkout/:id/cancel                  303 → cancel_url
 *   GET  /favicon.ico                          204 (the page names an empty icon inline)
 *
 * POSTs honour Idempotency-Key as Stripe does (./idempotency.ts).
 *
 * With `dataDir` (the stack's MJ_DATA_DIR) sessions, line items, refunds, charges and idempotent
 * replies are kept in its stripe.json (./store.ts), so an open checkout still opens after a
 * restart and a retried refund is still answered with the first one.
 *
 * Run alone: `npx tsx dev/stripe/server.ts` (PORT, STRIPE_WEBHOOK_URL,
 * STRIPE_WEBHOOK_SECRET, STRIPE_SECRET_KEY, MJ_DATA_DIR from the environment).
 *
 * Files: ./types.ts (the objects), ./state.ts (what it knows, kept by ./store.ts), ./sessions.ts,
 * ./refunds.ts, ./webhook.ts (Pay and its event), ./checkoutPage.ts, ./respond.ts, ./params.ts,
 * ./errors.ts, ./form.ts.
 *
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { listenTracked } from "../http";
import { handleCheckout } from "./checkoutPage";
import { StripeApiError } from "./errors";
import { parseStripeForm } from "./form";
import { keptReply, requestFingerprint } from "./idempotency";
import { listRefunds, retrieveCharge, retrievePaymentIntent, retrieveRefund } from "./payments";
import { expandList } from "./params";
import { createRefund } from "./refunds";
import { readRequestBody, sendHtml, sendJson } from "./respond";
import { createSession, withExpansions } from "./sessions";
import { StripeMemory } from "./state";
import type { RunningStripe, StripeOptions } from "./types";

export type { RunningStripe, StripeOptions } from "./types";

export const DEFAULT_STRIPE_SECRET_KEY = "sk_test_dev";
export const DEFAULT_WEBHOOK_SECRET = "whsec_dev";

export async function startStripe(options: StripeOptions): Promise<RunningStripe> {
  const host = options.host ?? "127.0.0.1";
  const secretKey = options.secretKey ?? DEFAULT_STRIPE_SECRET_KEY;
  const webhook = { url: options.webhookUrl, secret: options.webhookSecret ?? DEFAULT_WEBHOOK_SECRET };
  const state = new StripeMemory(options, webhook);
  const { sessions, lineItems, refunds, events, deliveries, idempotentReplies } = state;

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

  async function handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    authenticate(req);
    const method = req.method ?? "GET";
    const params = method === "GET" ? parseStripeForm(query.toString()) : parseStripeForm(await readRequestBody(req));

    // Retried POSTs with the same Idempotency-Key get the first answer back, also after a restart.
    const idempotencyKey = method === "POST" ? req.headers["idempotency-key"] : undefined;
    const key = typeof idempotencyKey === "string" ? idempotencyKey : undefined;
    const request = requestFingerprint(method, path, params);
    const cached = key === undefined ? undefined : keptReply(idempotentReplies.get(key), key, request);
    if (cached) return sendJson(res, cached.status, cached.body);
    const reply = (status: number, body: unknown) => {
      if (key !== undefined) {
        idempotentReplies.set(key, { status, body, request });
        state.persist();
      }
      sendJson(res, status, body);
    };

    if (method === "GET" && path === "/v1/refunds") return reply(200, listRefunds(state, params, path));
    const object = /^\/v1\/(refunds|charges|payment_intents)\/([^/]+)$/.exec(path);
    if (method === "GET" && object) {
      const id = decodeURIComponent(object[2] ?? "");
      if (object[1] === "refunds") return reply(200, retrieveRefund(state, id));
      if (object[1] === "charges") return reply(200, retrieveCharge(state, id));
      return reply(200, retrievePaymentIntent(state, id));
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/line_items|\/expire)?$/.exec(path);
    if (method === "POST" && path === "/v1/checkout/sessions") return reply(200, createSession(state, params));
    if (method === "POST" && path === "/v1/refunds") return reply(200, createRefund(state, params));
    if (sessionPath) {
      const session = state.sessionOrThrow(decodeURIComponent(sessionPath[1] ?? ""));
      state.expireIfDue(session);
      const action = sessionPath[2];
      if (method === "GET" && action === undefined)
        return reply(200, withExpansions(state, session, expandList(params)));
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
        state.persist();
        return reply(200, session);
      }
    }
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
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
    if (checkout) return handleCheckout(state, req, res, decodeURIComponent(checkout[1] ?? ""), checkout[2]);
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
  state.origin = listening.origin;
  // A restart on another port: the kept open sessions' pages are served from here now.
  for (const session of sessions.values()) {
    if (session.url !== null) session.url = `${state.origin}/checkout/${session.id}`;
  }

  return {
    url: state.origin,
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
