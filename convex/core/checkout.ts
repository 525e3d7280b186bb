// Opening a test's checkout: the one open session of its quote, or a new one (payments.createCheckout
// and the HTTP API's start share it).
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx } from "../_generated/server";
import { env } from "../env";
import { fail } from "../functions";
import { withoutTrailingSlashes } from "../lib/text";
import { QUOTE_CURRENCY } from "./payments";
import { CHECKOUT_ID_PLACEHOLDER, paymentProvider, type PaymentProvider } from "./paymentProvider";

type PayableTest = {
  name: string;
  priceCents: number;
  email?: string;
  awaitingPayment: boolean;
  open: { sessionId: string; amountCents: number; currency: string; url?: string }[];
};

const CHECKOUT_FAILED = "Failed to create payment session. Please try again later.";

/**
 * The test's checkout session for the user who created it (createCheckout, and the HTTP API's
 * start, publicApi.ts): the one open session of its quote, or a new one.
 */
export async function checkoutOf(
  ctx: ActionCtx,
  userId: Id<"users">,
  testId: Id<"tests">,
): Promise<{ url: string; sessionId: string }> {
  const test: PayableTest | null = await ctx.runQuery(internal.payments.payableTest, { testId, userId });
  if (!test) fail("NOT_FOUND", "Test not found.");
  if (!test.awaitingPayment) fail("CONFLICT", "This test does not need a payment.");
  const provider = paymentProvider();
  for (const open of test.open) {
    const reusable = await reuseOrEnd(ctx, provider, open, test.priceCents);
    if (reusable) return reusable;
  }
  const site = withoutTrailingSlashes(env.siteUrl());
  let session;
  try {
    session = await provider.createCheckout({
      amountCents: test.priceCents,
      currency: QUOTE_CURRENCY,
      productName: `ModelJury test: ${test.name}`,
      ...(test.email ? { email: test.email } : {}),
      reference: testId,
      metadata: { testId, userId, testName: test.name },
      successUrl: `${site}/dashboard/monitor?session_id=${CHECKOUT_ID_PLACEHOLDER}&testId=${testId}`,
      cancelUrl: `${site}/dashboard/setup?payment=cancelled`,
    });
  } catch (error) {
    console.error("Checkout failed", error);
    fail("UNAVAILABLE", CHECKOUT_FAILED);
  }
  if (!session.url) fail("UNAVAILABLE", CHECKOUT_FAILED);
  const kept: { sessionId: string; url: string } | null = await ctx.runMutation(internal.payments.recordCheckout, {
    testId,
    userId,
    sessionId: session.id,
    amountCents: test.priceCents,
    url: session.url,
  });
  // Another tab opened one at the same moment: everyone pays that one, ours is ended.
  if (kept && kept.sessionId !== session.id) {
    await ctx.runMutation(internal.payments.markCheckoutEnded, { sessionId: session.id });
    await expireSession(ctx, provider, session.id);
    return { url: kept.url, sessionId: kept.sessionId };
  }
  return { url: session.url, sessionId: session.id };
}

/** An open session of the right amount is handed back; anything else is ended (or settled if paid). */
async function reuseOrEnd(
  ctx: ActionCtx,
  provider: PaymentProvider,
  open: { sessionId: string; amountCents: number; currency: string; url?: string },
  priceCents: number,
): Promise<{ url: string; sessionId: string } | null> {
  let session;
  try {
    session = await provider.getCheckout(open.sessionId);
  } catch (error) {
    console.error("Checkout lookup failed", error);
    fail("UNAVAILABLE", CHECKOUT_FAILED);
  }
  if (!session) {
    // The provider does not know it (a test-mode reset, the offline Stripe restarted): nothing to pay there.
    await ctx.runMutation(internal.payments.markCheckoutEnded, { sessionId: open.sessionId });
    return null;
  }
  if (session.paid) {
    // Paid while its webhook is still on the way: settle it now instead of charging again.
    await ctx.runMutation(internal.payments.markPaid, session.paid);
    fail("CONFLICT", "This test does not need a payment.");
  }
  const sameAmount =
    open.amountCents === priceCents && session.amountCents === priceCents && session.currency === QUOTE_CURRENCY;
  if (session.open && sameAmount && session.url) return { url: session.url, sessionId: session.id };
  await ctx.runMutation(internal.payments.markCheckoutEnded, { sessionId: open.sessionId });
  if (session.open) await expireSession(ctx, provider, session.id);
  return null;
}

/** Expires one session; one that was paid meanwhile is settled (and so refunded if unwanted). */
export async function expireSession(ctx: ActionCtx, provider: PaymentProvider, sessionId: string): Promise<void> {
  try {
    await provider.expireCheckout(sessionId);
    return;
  } catch (error) {
    // The provider refuses to expire a session that is no longer open; see whether it was paid.
    try {
      const session = await provider.getCheckout(sessionId);
      if (session?.paid) await ctx.runMutation(internal.payments.markPaid, session.paid);
      else if (session?.open) throw error;
    } catch (lookup) {
      console.error(`Could not expire checkout session ${sessionId}`, lookup);
    }
  }
}
