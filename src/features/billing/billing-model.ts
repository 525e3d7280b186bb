import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";

export type BillingData = FunctionReturnType<typeof api.billing.overview>;
export type CreditTransaction = BillingData["creditTransactions"][number];

/** Spec part 2 §9: the sum of paid payments among the 20 loaded. */
export function totalSpentCents(payments: BillingData["payments"]): number {
  return payments
    .filter((payment) => payment.status === "paid" || payment.status === "completed")
    .reduce((sum, payment) => sum + payment.amountCents, 0);
}

/** Spec part 2 §4: purchase +, green; test_cost −, red; refund blue; bonus purple. */
export const TRANSACTION_STYLES: Readonly<
  Record<CreditTransaction["type"], { label: string; sign: "+" | "-"; className: string }>
> = {
  purchase: { label: "Purchase", sign: "+", className: "text-green-600 dark:text-green-400" },
  test_cost: { label: "Test Cost", sign: "-", className: "text-red-600 dark:text-red-400" },
  refund: { label: "Refund", sign: "+", className: "text-blue-600 dark:text-blue-400" },
  bonus: { label: "Bonus", sign: "+", className: "text-purple-600 dark:text-purple-400" },
};

export function signedAmount(entry: Pick<CreditTransaction, "type" | "amountCents">): string {
  const { sign } = TRANSACTION_STYLES[entry.type];
  return `${sign}$${(Math.abs(entry.amountCents) / 100).toFixed(2)}`;
}
