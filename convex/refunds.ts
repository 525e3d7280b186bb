// Pay for what ran: the partial refund of a test stopped early (the owner's Stop, or settled), made
// through the payment provider (core/unrunRefunds.ts asks for it once as the test ends), and what
// the owner sees of it: the Stop dialog's figure before the click, the ended test's refund after.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { ActionCtx } from "./_generated/server";
import { internalAction, internalMutation, internalQuery, userQuery } from "./functions";
import { formatCents } from "./lib/format";
import { canStop } from "./lib/testStatus";
import { checkoutIdOf, providerPaymentIdOf, REFUND_RETRY_DELAYS_MS } from "./core/payments";
import { paymentProvider } from "./core/paymentProvider";
import { requireTest } from "./core/testAccess";
import {
  paidPaymentOf,
  partialRefundKey,
  recordPartialRefund as recordPartialRefundOf,
  unrunRefundOfTest,
} from "./core/unrunRefunds";
import { jobOfTest } from "./core/jobs";
import { countedTestOf } from "./core/pipeline/counterRow";

/** Makes one partial refund at the provider (retried, then reported to admins) and records it once. */
export const makePartialRefund = internalAction({
  args: { refundId: v.id("partialRefunds"), attempt: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, { refundId, attempt }) => {
    await makeRefund(ctx, refundId, attempt ?? 0);
    return null;
  },
});

async function makeRefund(ctx: ActionCtx, refundId: Id<"partialRefunds">, attempt: number): Promise<void> {
  const owed: {
    paymentId: Id<"payments">;
    reason: string;
    amountCents: number;
    paymentIntentId?: string;
    sessionId?: string;
  } | null = await ctx.runQuery(internal.refunds.partialRefundOwed, { refundId });
  if (!owed) return;
  try {
    // One key per payment and reason: a retry, a second run of this action or one after a restart
    // gets the provider's first refund back, never a second one.
    const made = await paymentProvider().refund({
      ...(owed.paymentIntentId ? { paymentIntentId: owed.paymentIntentId } : {}),
      ...(owed.sessionId ? { sessionId: owed.sessionId } : {}),
      amountCents: owed.amountCents,
      duplicate: false,
      idempotencyKey: partialRefundKey(owed.paymentId, owed.reason),
      metadata: { paymentId: owed.paymentId, reason: owed.reason },
    });
    await ctx.runMutation(internal.refunds.recordPartialRefund, {
      refundId,
      providerRefundId: made.id,
      amountCents: made.amountCents,
    });
  } catch (error) {
    console.error(`Partial refund ${refundId} failed`, error);
    const delay = REFUND_RETRY_DELAYS_MS[attempt];
    if (delay !== undefined) {
      await ctx.scheduler.runAfter(delay, internal.refunds.makePartialRefund, { refundId, attempt: attempt + 1 });
    } else {
      await ctx.runMutation(internal.refunds.reportPartialRefundFailure, {
        refundId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/** The partial refund still to be made, with what the provider needs; null once made (or gone). */
export const partialRefundOwed = internalQuery({
  args: { refundId: v.id("partialRefunds") },
  returns: v.union(
    v.null(),
    v.object({
      paymentId: v.id("payments"),
      reason: v.string(),
      amountCents: v.number(),
      paymentIntentId: v.optional(v.string()),
      sessionId: v.optional(v.string()),
    }),
  ),
  handler: async (ctx, { refundId }) => {
    const row = await ctx.db.get("partialRefunds", refundId);
    if (!row || row.status === "refunded") return null;
    const payment = await ctx.db.get("payments", row.paymentId);
    if (!payment) return null;
    const paymentIntentId = providerPaymentIdOf(payment);
    const sessionId = checkoutIdOf(payment);
    return {
      paymentId: row.paymentId,
      reason: row.reason,
      amountCents: row.amountCents,
      ...(paymentIntentId ? { paymentIntentId } : {}),
      ...(sessionId ? { sessionId } : {}),
    };
  },
});

export const recordPartialRefund = internalMutation({
  args: { refundId: v.id("partialRefunds"), providerRefundId: v.string(), amountCents: v.number() },
  returns: v.null(),
  handler: async (ctx, { refundId, providerRefundId, amountCents }) => {
    const row = await ctx.db.get("partialRefunds", refundId);
    if (row) await recordPartialRefundOf(ctx, row, { id: providerRefundId, amountCents });
    return null;
  },
});

export const reportPartialRefundFailure = internalMutation({
  args: { refundId: v.id("partialRefunds"), error: v.string() },
  returns: v.null(),
  handler: async (ctx, { refundId, error }) => {
    const row = await ctx.db.get("partialRefunds", refundId);
    if (!row || row.status === "refunded") return null;
    await ctx.db.patch("partialRefunds", row._id, { status: "failed" });
    const payment = await ctx.db.get("payments", row.paymentId);
    const job = payment?.testId ? await jobOfTest(ctx, payment.testId) : null;
    await ctx.db.insert("alerts", {
      kind: "refund_failed",
      ...(job ? { jobId: job._id } : {}),
      paymentId: row.paymentId,
      message: `The partial refund of ${formatCents(row.amountCents)} for "${payment?.testName ?? "Deleted test"}" (${row.reason}) failed: ${error}. Refund it in Stripe.`,
      resolved: false,
    });
    return null;
  },
});

const refundFigures = v.object({
  paidCents: v.number(),
  refundCents: v.number(),
  keptCents: v.number(),
});

/**
 * The Stop dialog's figures before the click: what stopping now would refund of the owner's
 * payment and what stays charged, from the test's counters as last folded (about once a second),
 * so it moves as the run goes on. Null when nothing was paid or the test no longer runs.
 */
export const stopPreview = userQuery({
  args: { testId: v.id("tests") },
  returns: v.union(v.null(), refundFigures),
  handler: async (ctx, { testId }) => {
    // The calls made so far: the test's row plus its counter row.
    const test = await countedTestOf(ctx, await requireTest(ctx, ctx.user._id, testId, "act"));
    if (!canStop(test.status)) return null;
    const payment = await paidPaymentOf(ctx, testId);
    if (!payment) return null;
    const { paidCents, refundCents, keptCents } = unrunRefundOfTest(test, payment);
    return { paidCents, refundCents, keptCents };
  },
});

/** An ended test's partial refund (the calls it did not make), for its monitor and results pages. */
export const ofTest = userQuery({
  args: { testId: v.id("tests") },
  returns: v.union(
    v.null(),
    v.object({
      ...refundFigures.fields,
      state: v.union(v.literal("pending"), v.literal("refunded"), v.literal("failed")),
      reason: v.string(),
      refundedAt: v.optional(v.number()),
    }),
  ),
  handler: async (ctx, { testId }) => {
    await requireTest(ctx, ctx.user._id, testId, "read");
    const payment = await paidPaymentOf(ctx, testId);
    if (!payment) return null;
    const row = await ctx.db
      .query("partialRefunds")
      .withIndex("by_payment_reason", (q) => q.eq("paymentId", payment._id))
      .first();
    if (!row) return null;
    return {
      paidCents: payment.amountCents,
      refundCents: row.amountCents,
      keptCents: payment.amountCents - row.amountCents,
      state: row.status,
      reason: row.reason,
      ...(row.refundedAt === undefined ? {} : { refundedAt: row.refundedAt }),
    };
  },
});
