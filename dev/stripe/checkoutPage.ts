// The hosted checkout page (GET /checkout/:id) and its Pay and Cancel buttons.
import type { IncomingMessage, ServerResponse } from "node:http";
import { escapeHtml, formatAmount, readRequestBody, redirect, sendHtml } from "./respond";
import type { StripeMemory } from "./state";
import type { CheckoutSession } from "./types";
import { pay } from "./webhook";

function checkoutPage(state: StripeMemory, session: CheckoutSession): string {
  const items = state.lineItems.get(session.id) ?? [];
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

export async function handleCheckout(
  state: StripeMemory,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  action: string | undefined,
): Promise<void> {
  const session = state.sessions.get(id);
  if (!session) return sendHtml(res, 404, "<!doctype html><title>Not found</title><p>No such checkout session.</p>");
  state.expireIfDue(session);
  const method = req.method ?? "GET";
  if (method === "GET" && action === undefined) return sendHtml(res, 200, checkoutPage(state, session));
  if (method === "POST" && action === "pay") {
    await readRequestBody(req);
    if (session.status === "expired") return sendHtml(res, 409, checkoutPage(state, session));
    // A second Pay (double click, back button) just returns: no second charge, no second event.
    if (session.status === "open") await pay(state, session);
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
