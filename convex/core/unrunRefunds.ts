// Pay for what ran: when a test stops early (the owner's Stop, or settled), the price of the calls
// it did not make goes back as a partial refund of its payment (lib/unrunRefund.ts says how much).
// Asked for once per payment and reason (a partialRefunds row written as the test ends), made at
// the provider under an idempotency key of the same payment and reason, and recorded once: retries,
// races and restarts find the row refunded and change nothing.
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { unrunRefund, workDoneOf, type UnrunRefund } from "../lib/unrunRefund";
import { incrementCounter } from "./counters";
import { countTeamPartialRefund } from "./teamSpend";
import { summaryRowOf } from "./testSummaries";

/** Payments of one test looked at; a test has one paid payment, a few rows after races. */
const TEST_PAYMENTS_SCANNED = 20;

function isPaid(payment: Doc<"payments">): boolean {
  return payment.status === "paid" || payment.status === "completed";
}

/** The test's paid payment (the one that started it), or null (free mode, own key, not paid). */
export async function paidPaymentOf(ctx: QueryCtx, testId: Id<"tests">): Promise<Doc<"payments"> | null> {
  const payments = await ctx.db
    .query("payments")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(TEST_PAYMENTS_SCANNED);
  return payments.find(isPaid) ?? null;
}

/** What stopping the test now would return of its payment, from its counters as they stand. */
export function unrunRefundOfTest(
  test: Pick<Doc<"tests">, "estimate" | "configuration" | "finishedCalls" | "judgeCallsFinished">,
  payment: Pick<Doc<"payments">, "amountCents" | "refundedCents">,
): UnrunRefund {
  return unrunRefund(
    payment.amountCents,
    workDoneOf(test.estimate, test.configuration, test),
    payment.refundedCents ?? 0,
  );
}

export async function partialRefundOf(ctx: QueryCtx, paymentId: Id<"payments">, reason: string) {
  return await ctx.db
    .query("partialRefunds")
    .withIndex("by_payment_reason", (q) => q.eq("paymentId", paymentId).eq("reason", reason))
    .unique();
}

/**
 * Asks for the refund of the calls `counted` (the ended test's folded counters) did not make,
 * once per payment and reason; nothing when nothing was paid or nothing is owed above the minimum.
 */
export async function requestUnrunRefund(
  ctx: MutationCtx,
  counted: Doc<"tests">,
  reason: string,
): Promise<Id<"partialRefunds"> | null> {
  const payment = await paidPaymentOf(ctx, counted._id);
  if (!payment) return null;
  const existing = await partialRefundOf(ctx, payment._id, reason);
  if (existing) return existing._id;
  const owed = unrunRefundOfTest(counted, payment);
  if (owed.refundCents <= 0) return null;
  const refundId = await ctx.db.insert("partialRefunds", {
    paymentId: payment._id,
    userId: payment.userId,
    reason,
    amountCents: owed.refundCents,
    keptCents: owed.keptCents,
    status: "pending",
  });
  await ctx.scheduler.runAfter(0, internal.refunds.makePartialRefund, { refundId });
  return refundId;
}

/** A short, stable key of a reason (FNV-1a, 32 bits, hex): the provider's key is payment + reason. */
export function reasonKey(reason: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < reason.length; index++) {
    hash ^= reason.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** The provider's idempotency key of a partial refund: one per payment and reason. */
export function partialRefundKey(paymentId: Id<"payments">, reason: string): string {
  return `modeljury-refund-${paymentId}-${reasonKey(reason)}`;
}

/**
 * Records a partial refund the provider made, once: the row becomes refunded, the payment's
 * refundedCents grows (and its test summary's, for History), the ledger gets its refund row, and
 * Total Spent, the team's spend and revenue drop by the amount returned. False when it was already recorded.
 */
export async function recordPartialRefund(
  ctx: MutationCtx,
  row: Doc<"partialRefunds">,
  made: { id: string; amountCents: number },
): Promise<boolean> {
  if (row.status === "refunded") return false;
  const payment = await ctx.db.get("payments", row.paymentId);
  const now = Date.now();
  await ctx.db.patch("partialRefunds", row._id, {
    status: "refunded",
    providerRefundId: made.id,
    refundedAt: now,
    amountCents: made.amountCents,
  });
  if (!payment) return true;
  await ctx.db.patch("payments", payment._id, { refundedCents: (payment.refundedCents ?? 0) + made.amountCents });
  await ctx.db.insert("creditTransactions", {
    userId: payment.userId,
    testId: payment.testId,
    paymentId: payment._id,
    type: "refund",
    amountCents: made.amountCents,
    description: `Refund for Test: ${payment.testName} (${row.reason})`,
  });
  const user = await ctx.db.get("users", payment.userId);
  if (user)
    await ctx.db.patch("users", user._id, {
      totalSpentCents: Math.max(0, (user.totalSpentCents ?? 0) - made.amountCents),
    });
  await countTeamPartialRefund(ctx, payment, made.amountCents);
  const summary = payment.testId ? await summaryRowOf(ctx, payment.testId) : null;
  if (summary)
    await ctx.db.patch("testSummaries", summary._id, {
      refundedCents: (summary.refundedCents ?? 0) + made.amountCents,
    });
  await incrementCounter(ctx, "revenueCents", -made.amountCents);
  return true;
}
