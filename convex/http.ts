import { httpRouter } from "convex/server";
import { internal } from "./_generated/api";
import { httpAction } from "./_generated/server";
import { auth } from "./auth";
import { env } from "./env";
import { addApiRoutes } from "./model/httpApi";
import { receivedOf, stripeClient } from "./model/payments";

const http = httpRouter();
auth.addHttpRoutes(http);
/** The HTTP API for tokens (model/httpApi.ts): /api/v1/*, described at /api/v1/openapi.json. */
addApiRoutes(http);

/** Stripe's signed events. A bad signature gets 400 and nothing is written. */
http.route({
  path: "/stripe/webhook",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const secret = env.stripeWebhookSecret();
    const signature = request.headers.get("stripe-signature");
    if (!secret || !signature) return new Response("Webhook not configured or unsigned", { status: 400 });
    const payload = await request.text();
    let event;
    try {
      event = await stripeClient().webhooks.constructEventAsync(payload, signature, secret);
    } catch {
      return new Response("Invalid signature", { status: 400 });
    }
    if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
      const session = event.data.object;
      if (session.payment_status === "paid") await ctx.runMutation(internal.payments.markPaid, receivedOf(session));
    }
    // A session that timed out on Stripe's side is no longer offered to a second tab.
    if (event.type === "checkout.session.expired") {
      await ctx.runMutation(internal.payments.markCheckoutEnded, { sessionId: event.data.object.id });
    }
    return new Response(null, { status: 200 });
  }),
});

export default http;
