import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { fail, internalMutation, internalQuery, userAction } from "./functions";
import { env } from "./env";
import { settlePayment, stripeClient } from "./model/payments";

/** Opens a Stripe Checkout Session for the test's quoted price and records the payment. */
export const createCheckout = userAction({
  args: { testId: v.id("tests") },
  returns: v.object({ url: v.string(), sessionId: v.string() }),
  handler: async (ctx, { testId }): Promise<{ url: string; sessionId: string }> => {
    const test: { name: string; priceCents: number; email?: string; awaitingPayment: boolean } | null = await ctx.runQuery(
      internal.payments.payableTest,
      { testId, userId: ctx.userId },
    );
    if (!test) fail("NOT_FOUND", "Test not found.");
    if (!test.awaitingPayment) fail("CONFLICT", "This test does not need a payment.");
    const site = env.siteUrl().replace(/\/+$/, "");
    let session;
    try {
      session = await stripeClient().checkout.sessions.create({
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "usd",
              unit_amount: test.priceCents,
              product_data: { name: `ModelJury test: ${test.name}` },
            },
          },
        ],
        customer_email: test.email,
        client_reference_id: testId,
        metadata: { testId, userId: ctx.userId, testName: test.name },
        success_url: `${site}/dashboard/monitor?session_id={CHECKOUT_SESSION_ID}&testId=${testId}`,
        cancel_url: `${site}/dashboard/setup?payment=cancelled`,
      });
    } catch (error) {
      console.error("Stripe checkout failed", error);
      fail("UNAVAILABLE", "Failed to create payment session. Please try again later.");
    }
    if (!session.url) fail("UNAVAILABLE", "Failed to create payment session. Please try again later.");
    await ctx.runMutation(internal.payments.recordCheckout, {
      testId,
      userId: ctx.userId,
      sessionId: session.id,
      amountCents: test.priceCents,
    });
    return { url: session.url, sessionId: session.id };
  },
});

export const payableTest = internalQuery({
  args: { testId: v.id("tests"), userId: v.id("users") },
  returns: v.union(
    v.null(),
    v.object({ name: v.string(), priceCents: v.number(), email: v.optional(v.string()), awaitingPayment: v.boolean() }),
  ),
  handler: async (ctx, { testId, userId }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test || test.userId !== userId) return null;
    const job = await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    const user = await ctx.db.get("users", userId);
    return {
      name: test.name,
      priceCents: test.priceCents,
      email: user?.email,
      awaitingPayment: job?.status === "pending_payment" && test.status === "pending",
    };
  },
});

export const recordCheckout = internalMutation({
  args: { testId: v.id("tests"), userId: v.id("users"), sessionId: v.string(), amountCents: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const test = await ctx.db.get("tests", args.testId);
    await ctx.db.insert("payments", {
      userId: args.userId,
      testId: args.testId,
      testName: test?.name ?? "Deleted test",
      stripeSessionId: args.sessionId,
      amountCents: args.amountCents,
      currency: "usd",
      status: "pending",
    });
    return null;
  },
});

/** The one place a payment becomes paid: from the webhook and from the return page. */
export const markPaid = internalMutation({
  args: { sessionId: v.string(), amountCents: v.number() },
  returns: v.union(v.null(), v.id("tests")),
  handler: async (ctx, { sessionId, amountCents }) => {
    const payment = await ctx.db
      .query("payments")
      .withIndex("by_session", (q) => q.eq("stripeSessionId", sessionId))
      .unique();
    if (!payment) return null;
    await settlePayment(ctx, payment, amountCents);
    return payment.testId ?? null;
  },
});

/** The return page asks Stripe itself whether the session was paid (spec: verify-payment). */
export const verify = userAction({
  args: { sessionId: v.string() },
  returns: v.object({ verified: v.boolean(), testId: v.union(v.null(), v.id("tests")) }),
  handler: async (ctx, { sessionId }): Promise<{ verified: boolean; testId: Id<"tests"> | null }> => {
    const owner: { userId: Id<"users">; testId: Id<"tests"> | null; amountCents: number } | null = await ctx.runQuery(
      internal.payments.sessionOwner,
      { sessionId },
    );
    if (!owner || owner.userId !== ctx.userId) return { verified: false, testId: null };
    try {
      const session = await stripeClient().checkout.sessions.retrieve(sessionId);
      if (session.payment_status !== "paid") return { verified: false, testId: owner.testId };
      await ctx.runMutation(internal.payments.markPaid, { sessionId, amountCents: session.amount_total ?? owner.amountCents });
      return { verified: true, testId: owner.testId };
    } catch (error) {
      console.error("verify-payment failed", error);
      return { verified: false, testId: owner.testId };
    }
  },
});

export const sessionOwner = internalQuery({
  args: { sessionId: v.string() },
  returns: v.union(v.null(), v.object({ userId: v.id("users"), testId: v.union(v.null(), v.id("tests")), amountCents: v.number() })),
  handler: async (ctx, { sessionId }) => {
    const payment = await ctx.db
      .query("payments")
      .withIndex("by_session", (q) => q.eq("stripeSessionId", sessionId))
      .unique();
    return payment ? { userId: payment.userId, testId: payment.testId ?? null, amountCents: payment.amountCents } : null;
  },
});
