// CSV exports of the billing page (spec part 2 §7): payment-history.csv and
// credit-transactions.csv, in the spec's snake_case columns, never with estimated_cost or
// markup_multiplier (internal pricing figures).
import Papa from "papaparse";

import { netCentsOf, type BillingData } from "./billing-model";

export const PAYMENT_HISTORY_FILE = "payment-history.csv";
export const CREDIT_TRANSACTIONS_FILE = "credit-transactions.csv";

/** Columns that never leave the app. */
export const EXCLUDED_COLUMNS = ["estimated_cost", "markup_multiplier"] as const;

type Row = Record<string, string | number | null>;

function withoutExcluded(row: Row): Row {
  const copy = { ...row };
  for (const column of EXCLUDED_COLUMNS) delete copy[column];
  return copy;
}

const iso = (timestamp: number | undefined) => (timestamp === undefined ? null : new Date(timestamp).toISOString());
const dollars = (cents: number) => (cents / 100).toFixed(2);

export function paymentRows(payments: BillingData["payments"]): Row[] {
  return payments.map((payment) =>
    withoutExcluded({
      id: payment._id,
      created_at: iso(payment.createdAt),
      completed_at: iso(payment.completedAt),
      test_id: payment.testId ?? null,
      test_name: payment.testName,
      amount_cents: payment.amountCents,
      amount: dollars(payment.amountCents),
      currency: payment.currency,
      status: payment.status,
      refunded_at: iso(payment.refundedAt),
      refund_reason: payment.refundReason ?? null,
      partly_refunded_cents: payment.refundedCents ?? 0,
      net_cents: netCentsOf(payment),
    }),
  );
}

export function creditTransactionRows(transactions: BillingData["creditTransactions"]): Row[] {
  return transactions.map((entry) =>
    withoutExcluded({
      id: entry._id,
      created_at: iso(entry.createdAt),
      transaction_type: entry.type,
      amount_cents: entry.amountCents,
      amount: dollars(entry.amountCents),
      description: entry.description,
      test_id: entry.testId ?? null,
    }),
  );
}

export function toCsv(rows: Row[]): string {
  return Papa.unparse(rows);
}
