// Partial refunds: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const refundTables = {
  /**
   * A part of a paid payment returned: the price of the calls a stopped or settled test did not
   * make (lib/unrunRefund.ts). One row per payment and reason (by_payment_reason), written when
   * the test ends, so the refund is asked for once; the provider's refund is made under an
   * idempotency key of the same payment and reason, and recorded once (core/unrunRefunds.ts).
   * Kept like the payment itself: it is not one of a test's rows (it has no test index).
   */
  partialRefunds: defineTable({
    paymentId: v.id("payments"),
    userId: v.id("users"),
    reason: v.string(),
    /** What goes back, and what stays charged (at least the $2.00 minimum). */
    amountCents: v.number(),
    keptCents: v.number(),
    status: v.union(v.literal("pending"), v.literal("refunded"), v.literal("failed")),
    providerRefundId: v.optional(v.string()),
    refundedAt: v.optional(v.number()),
  }).index("by_payment_reason", ["paymentId", "reason"]),
};
