import type { FunctionReturnType } from "convex/server";

import { formatDate } from "@/lib/dates";

import type { api } from "../../../convex/_generated/api";

export type BillingData = FunctionReturnType<typeof api.billing.overview>;
export type CreditTransaction = BillingData["creditTransactions"][number];

/** What stays charged of a payment: a paid one less its partial refunds (a test stopped early); else 0. */
export function netCentsOf(payment: Pick<BillingData["payments"][number], "status" | "amountCents" | "refundedCents">) {
  if (payment.status !== "paid" && payment.status !== "completed") return 0;
  return payment.amountCents - (payment.refundedCents ?? 0);
}

/** Spec part 2 §9: the sum of paid payments among the 20 loaded, less what partial refunds returned. */
export function totalSpentCents(payments: BillingData["payments"]): number {
  return payments.reduce((sum, payment) => sum + netCentsOf(payment), 0);
}

/** Spec part 2 §4: purchase +, green; test_cost −, red; refund blue; bonus purple. */
export const TRANSACTION_STYLES: Readonly<
  Record<CreditTransaction["type"], { label: string; sign: "+" | "-"; className: string }>
> = {
  purchase: { label: "Purchase", sign: "+", className: "text-green-700 dark:text-green-400" },
  test_cost: { label: "Test Cost", sign: "-", className: "text-red-700 dark:text-red-400" },
  refund: { label: "Refund", sign: "+", className: "text-blue-700 dark:text-blue-400" },
  bonus: { label: "Bonus", sign: "+", className: "text-purple-700 dark:text-purple-400" },
};

export function signedAmount(entry: Pick<CreditTransaction, "type" | "amountCents">): string {
  const { sign } = TRANSACTION_STYLES[entry.type];
  return `${sign}$${(Math.abs(entry.amountCents) / 100).toFixed(2)}`;
}

/** The line under a payment's status that says what happened to the money, if anything did. */
export function paymentNote(payment: BillingData["payments"][number]): string | null {
  if (payment.status === "refunded") {
    const when = payment.refundedAt === undefined ? "" : ` on ${formatDate(payment.refundedAt)}`;
    return `Returned to your card${when}${payment.refundReason ? `: ${payment.refundReason}` : ""}.`;
  }
  if (payment.status === "refund_pending") {
    return `Being returned to your card${payment.refundReason ? `: ${payment.refundReason}` : ""}.`;
  }
  if ((payment.status === "paid" || payment.status === "completed") && payment.refundReason) {
    return `Being returned to your card: ${payment.refundReason}`;
  }
  if (payment.status === "amount_mismatch") {
    return "The amount charged differs from the test's price, so the test was not started. We are looking into it.";
  }
  return null;
}
