// Payment state shared by the provider's webhook, the return page and free mode. The provider's
// calls live behind core/paymentProvider.ts; nothing here speaks to it.
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { env } from "../env";
import { formatCents } from "../lib/format";
import { incrementCounter } from "./counters";
import { jobOfTest, setJobStatus } from "./jobs";
import { countTeamPayment } from "./teamSpend";
import { recordTestPaid } from "./userStats";
import { dispatchSoon } from "./pipeline/dispatchSoon";

/** Without a Stripe key the deployment runs in free mode (and the UI says so). */
export function paymentsEnabled(): boolean {
  return env.stripeSecretKey() !== undefined;
}

/** The provider's checkout id of a payment (rows from before the provider-neutral names: stripeSessionId). */
export function checkoutIdOf(payment: Doc<"payments">): string | undefined {
  return payment.checkoutId ?? payment.stripeSessionId;
}

/** The provider's id of the charge, what a refund is made against (older rows: stripePaymentIntentId). */
export function providerPaymentIdOf(payment: Doc<"payments">): string | undefined {
  return payment.providerPaymentId ?? payment.stripePaymentIntentId;
}

/** The payment of one checkout, under its new or (not yet migrated) old field. */
export async function paymentByCheckout(ctx: QueryCtx, checkoutId: string): Promise<Doc<"payments"> | null> {
  return (
    (await ctx.db
      .query("payments")
      .withIndex("by_session", (q) => q.eq("checkoutId", checkoutId))
      .unique()) ??
    (await ctx.db
      .query("payments")
      .withIndex("by_stripe_session", (q) => q.eq("stripeSessionId", checkoutId))
      .unique())
  );
}

/** The currency every quote is made in. */
export const QUOTE_CURRENCY = "usd";

/** Open checkout sessions of one test looked at; a test has one, a few after races. */
const OPEN_CHECKOUTS_SCANNED = 20;

/** What the provider says arrived for a checkout session. */
export interface Received {
  amountCents: number;
  currency: string;
  paymentIntentId?: string;
}

export type SettleOutcome = "paid" | "refund" | "amount_mismatch" | "unchanged";

/** Words shown to the owner (billing, results) for why money went back. */
export const REFUND_REASONS = {
  duplicate: "A second payment for a test that was already paid",
  cancelled: "The test was stopped or deleted before it ran",
  /**
   * Partial refunds of the calls not made (core/unrunRefunds.ts): the owner's Stop, a settled
   * test, an admin's cancel, the stale-test cron.
   */
  stopped: "The calls not made: the test was stopped",
  settled: "The calls not made: the verdict settled early",
  cancelledByAdmin: "The calls not made: an admin cancelled the test",
  timedOut: "The calls not made: the test made no progress for an hour",
} as const;

/** A refund the provider could not make is tried again after these waits, then reported to admins. */
export const REFUND_RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000];

async function testAndJob(ctx: MutationCtx, testId: Id<"tests"> | undefined) {
  const test = testId ? await ctx.db.get("tests", testId) : null;
  const job = test ? await jobOfTest(ctx, test._id) : null;
  return { test, job };
}

/**
 * Settles what the provider says arrived for one session, once: replays and races find it settled and
 * change nothing. The test's first payment, of exactly its quote, queues the job and writes the
 * ledger (purchase and test cost). A payment for a test that no longer takes one (already paid,
 * stopped, deleted, or a checkout we ended) is refunded, never a second purchase. An amount or
 * currency that differs from the quote queues nothing and raises an admin alert.
 */
export async function settlePayment(
  ctx: MutationCtx,
  payment: Doc<"payments">,
  received: Received,
): Promise<SettleOutcome> {
  if (payment.status !== "pending" && payment.status !== "cancelled" && payment.status !== "failed") return "unchanged";
  const now = Date.now();
  const paymentIntent = received.paymentIntentId ? { providerPaymentId: received.paymentIntentId } : {};
  const { test, job } = await testAndJob(ctx, payment.testId);
  if (!test || !job || test.status !== "pending" || job.status !== "pending_payment") {
    const alreadyPaid =
      test !== null && job !== null && job.status !== "pending_payment" && test.status !== "cancelled";
    await ctx.db.patch("payments", payment._id, {
      status: "refund_pending",
      completedAt: now,
      amountCents: received.amountCents,
      ...paymentIntent,
      refundReason: alreadyPaid ? REFUND_REASONS.duplicate : REFUND_REASONS.cancelled,
    });
    await ctx.scheduler.runAfter(0, internal.payments.refundPayment, { paymentId: payment._id });
    return "refund";
  }
  if (received.amountCents !== test.priceCents || received.currency.toLowerCase() !== QUOTE_CURRENCY) {
    await ctx.db.patch("payments", payment._id, {
      status: "amount_mismatch",
      completedAt: now,
      receivedCents: received.amountCents,
      receivedCurrency: received.currency.toLowerCase(),
      ...paymentIntent,
    });
    await ctx.db.insert("alerts", {
      kind: "amount_mismatch",
      jobId: job._id,
      paymentId: payment._id,
      message:
        `Payment ${checkoutIdOf(payment) ?? payment._id} for "${payment.testName}" arrived as ` +
        `${received.currency.toLowerCase() === QUOTE_CURRENCY ? formatCents(received.amountCents) : `${(received.amountCents / 100).toFixed(2)} ${received.currency.toUpperCase()}`}, ` +
        `but the test was quoted at ${formatCents(test.priceCents)}. The test was not started.`,
      resolved: false,
    });
    return "amount_mismatch";
  }
  await recordPurchase(ctx, payment, received.amountCents, received.paymentIntentId);
  // Any other session still open for this test (another tab, an earlier try) is ended now.
  await endOpenCheckouts(ctx, test._id);
  return "paid";
}

/**
 * The bookkeeping of a payment that is the test's price: paid, the ledger's purchase and test
 * cost, the user's total and revenue, and the test's job queued when it waited for this payment.
 */
export async function recordPurchase(
  ctx: MutationCtx,
  payment: Doc<"payments">,
  amountCents: number,
  paymentIntentId?: string,
): Promise<void> {
  const now = Date.now();
  await ctx.db.patch("payments", payment._id, {
    status: "paid",
    completedAt: now,
    amountCents,
    ...(paymentIntentId ? { providerPaymentId: paymentIntentId } : {}),
  });
  const description = `Test: ${payment.testName}`;
  await ctx.db.insert("creditTransactions", {
    userId: payment.userId,
    testId: payment.testId,
    paymentId: payment._id,
    type: "purchase",
    amountCents,
    description: `Payment for ${description}`,
  });
  await ctx.db.insert("creditTransactions", {
    userId: payment.userId,
    testId: payment.testId,
    paymentId: payment._id,
    type: "test_cost",
    amountCents,
    description,
  });
  const user = await ctx.db.get("users", payment.userId);
  if (user) await ctx.db.patch("users", user._id, { totalSpentCents: (user.totalSpentCents ?? 0) + amountCents });
  await addTeamSpend(ctx, payment, amountCents);
  await incrementCounter(ctx, "revenueCents", amountCents);
  const { test, job } = await testAndJob(ctx, payment.testId);
  if (test && job && job.status === "pending_payment") {
    await setJobStatus(ctx, job, "queued", {
      paymentData: { paymentId: payment._id, checkoutId: checkoutIdOf(payment), amountCents },
    });
    await recordTestPaid(ctx, test._id);
    await dispatchSoon(ctx);
  }
}

/**
 * Ends every open checkout of a test (Stop Test, Delete, a settled payment, the unpaid-draft
 * cleanup): the rows become cancelled at once, so a payment that still lands for one is
 * refunded, and Stripe is asked to expire the sessions. No-op in free mode (no rows).
 */
export async function endOpenCheckouts(
  ctx: MutationCtx,
  testId: Id<"tests">,
  { expireLater = true }: { expireLater?: boolean } = {},
): Promise<string[]> {
  const open = await ctx.db
    .query("payments")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .order("desc")
    .take(OPEN_CHECKOUTS_SCANNED);
  const sessionIds: string[] = [];
  for (const payment of open) {
    if (payment.status !== "pending") continue;
    await ctx.db.patch("payments", payment._id, { status: "cancelled", checkoutUrl: undefined });
    const checkoutId = checkoutIdOf(payment);
    if (checkoutId) sessionIds.push(checkoutId);
  }
  if (expireLater && sessionIds.length > 0)
    await ctx.scheduler.runAfter(0, internal.payments.expireSessions, { sessionIds });
  return sessionIds;
}

/**
 * Asks for the refund of a test's paid payment, once: the payment keeps counting as paid until
 * Stripe has made the refund (recordRefund). Returns the payment to refund, or null.
 */
export async function requestTestRefund(
  ctx: MutationCtx,
  testId: Id<"tests">,
  reason: string,
): Promise<Id<"payments"> | null> {
  const payments = await ctx.db
    .query("payments")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(OPEN_CHECKOUTS_SCANNED);
  const paid = payments.find((payment) => payment.status === "paid" || payment.status === "completed");
  if (!paid) return null;
  if (paid.refundReason === undefined) await ctx.db.patch("payments", paid._id, { refundReason: reason });
  return paid._id;
}

/**
 * Records a refund Stripe has made, once: the payment becomes refunded, the ledger gets a
 * refund row (the amount returned), and a paid payment stops counting toward Total Spent.
 */
export async function recordRefund(
  ctx: MutationCtx,
  payment: Doc<"payments">,
  refund: { id: string; amountCents: number },
): Promise<boolean> {
  if (payment.status === "refunded") return false;
  const wasPaid = payment.status === "paid" || payment.status === "completed";
  await ctx.db.patch("payments", payment._id, {
    status: "refunded",
    providerRefundId: refund.id,
    refundedAt: Date.now(),
  });
  const reason = payment.refundReason ?? REFUND_REASONS.duplicate;
  await ctx.db.insert("creditTransactions", {
    userId: payment.userId,
    testId: payment.testId,
    paymentId: payment._id,
    type: "refund",
    amountCents: refund.amountCents,
    description: `Refund for Test: ${payment.testName} (${reason})`,
  });
  if (wasPaid) {
    // What still counted as spent: the payment less any partial refund already returned.
    const stillSpent = payment.amountCents - (payment.refundedCents ?? 0);
    const user = await ctx.db.get("users", payment.userId);
    if (user)
      await ctx.db.patch("users", user._id, {
        totalSpentCents: Math.max(0, (user.totalSpentCents ?? 0) - stillSpent),
      });
    await addTeamSpend(ctx, payment, -stillSpent);
    await incrementCounter(ctx, "revenueCents", -stillSpent);
  }
  return true;
}

/**
 * A team test's payment also counts in its team's spend: the team's total (its dashboard) and
 * the payer's row of the spend by member (core/teamSpend.ts), from the payment as just recorded.
 */
async function addTeamSpend(ctx: MutationCtx, payment: Doc<"payments">, cents: number): Promise<void> {
  const team = payment.teamId === undefined ? null : await ctx.db.get("teams", payment.teamId);
  if (team)
    await ctx.db.patch("teams", team._id, { totalSpentCents: Math.max(0, (team.totalSpentCents ?? 0) + cents) });
  const recorded = team ? await ctx.db.get("payments", payment._id) : null;
  if (recorded) await countTeamPayment(ctx, recorded);
}
