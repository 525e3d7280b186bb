import { httpRouter } from "convex/server";
import { internal } from "./_generated/api";
import { httpAction } from "./_generated/server";
import { auth } from "./auth";
import { env } from "./env";
import { addApiRoutes } from "./core/httpApi";
import { paymentProvider, WEBHOOK_SIGNATURE_HEADER } from "./core/paymentProvider";

const http = httpRouter();
auth.addHttpRoutes(http);
/** The HTTP API for tokens (core/httpApi.ts): /api/v1/*, described at /api/v1/openapi.json. */
addApiRoutes(http);

/** The payment provider's signed events (core/paymentProvider.ts). A bad signature gets 400 and nothing is written. */
http.route({
  path: "/stripe/webhook",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const secret = env.stripeWebhookSecret();
    const signature = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
    if (!secret || !signature) return new Response("Webhook not configured or unsigned", { status: 400 });
    const payload = await request.text();
    let event;
    try {
      event = await paymentProvider().readEvent(payload, signature, secret);
    } catch {
      return new Response("Invalid signature", { status: 400 });
    }
    if (event.kind === "paid") await ctx.runMutation(internal.payments.markPaid, event.checkout);
    // A session that timed out on the provider's side is no longer offered to a second tab.
    if (event.kind === "expired")
      await ctx.runMutation(internal.payments.markCheckoutEnded, { sessionId: event.sessionId });
    return new Response(null, { status: 200 });
  }),
});

export default http;
