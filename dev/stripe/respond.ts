// Writing answers: Stripe-shaped JSON for the API, HTML for the hosted checkout page.
import type { IncomingMessage, ServerResponse } from "node:http";
import Stripe from "stripe";
import { readBody } from "../http";
import { StripeApiError } from "./errors";
import { randomId } from "./params";

const MAX_BODY_BYTES = 1024 * 1024;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function formatAmount(cents: number, currency: string): string {
  const major = (cents / 100).toFixed(2);
  return currency.toLowerCase() === "usd" ? `$${major}` : `${major} ${currency.toUpperCase()}`;
}

export function readRequestBody(req: IncomingMessage): Promise<string> {
  return readBody(req, MAX_BODY_BYTES, () => new StripeApiError(413, "Request body too large."));
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
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

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "content-length": Buffer.byteLength(html) });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, "content-length": 0 });
  res.end();
}
