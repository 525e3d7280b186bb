import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { CheckCircle2Icon, DollarSignIcon, DownloadIcon, ReceiptIcon, type LucideIcon } from "lucide-react";
import { useEffect } from "react";

import { EmptyState } from "@/components/empty-state";
import { Money } from "@/components/money";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { TeamSpendSection } from "@/features/teams/team-spend";
import { StatusBadge } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import { formatDate, formatDateTime } from "@/lib/dates";
import { CSV_TYPE, downloadFile } from "@/lib/download";
import { api } from "../../../convex/_generated/api";
import {
  CREDIT_TRANSACTIONS_FILE,
  PAYMENT_HISTORY_FILE,
  creditTransactionRows,
  paymentRows,
  toCsv,
} from "./billing-csv";
import { MONEY_LABELS } from "../../../convex/lib/moneyWords";
import {
  netCentsOf,
  paymentNote,
  signedAmount,
  totalSpentCents,
  TRANSACTION_STYLES,
  type BillingData,
} from "./billing-model";
import { formatCents } from "../../../convex/lib/format";

const EMPTY: BillingData = { payments: [], creditTransactions: [], testsCompleted: 0 };

export function BillingPage() {
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Billing &amp; Credits</h1>
        <p className="text-muted-foreground">
          Your payments and credit activity. You pay per test; there are no subscriptions.
        </p>
      </div>
      {/* Spec part 2 §8: a billing load error is logged and the sections stay empty. */}
      <QueryErrorBoundary fallback={(error) => <BillingLoadFailed error={error} />}>
        <BillingLoader />
      </QueryErrorBoundary>
      <TeamSpendSection />
    </div>
  );
}

function BillingLoadFailed({ error }: { error: unknown }) {
  useEffect(() => console.error("Failed to load billing", error), [error]);
  return <BillingView data={EMPTY} />;
}

function BillingLoader() {
  const data = useQuery(api.billing.overview);
  return <BillingView data={data} />;
}

function Tile({ label, value, icon: Icon }: { label: string; value: React.ReactNode; icon: LucideIcon }) {
  return (
    <Card className="py-5" data-testid="billing-tile">
      <CardContent className="flex items-center justify-between gap-3 px-5">
        <div>
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          <p className="text-2xl font-bold tracking-tight tabular-nums">{value}</p>
        </div>
        <div className="flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon aria-hidden="true" className="size-4" />
        </div>
      </CardContent>
    </Card>
  );
}

function ExportButton({ label, disabled, onClick }: { label: string; disabled: boolean; onClick: () => void }) {
  return (
    // The visible words start the name (axe: label-content-name-mismatch), then what is exported.
    <Button variant="outline" size="sm" disabled={disabled} onClick={onClick} aria-label={`Export CSV: ${label}`}>
      <DownloadIcon /> Export CSV
    </Button>
  );
}

function BillingView({ data }: { data: BillingData | undefined }) {
  const loading = data === undefined;
  return (
    <>
      <section aria-label="Billing summary" className="grid gap-4 sm:grid-cols-3">
        {loading ? (
          Array.from({ length: 3 }, (_, index) => <Skeleton key={index} className="h-[90px] rounded-xl" />)
        ) : (
          <>
            <Tile label="Total Spent" value={<Money cents={totalSpentCents(data.payments)} />} icon={DollarSignIcon} />
            <Tile label="Tests Completed" value={data.testsCompleted.toLocaleString("en-US")} icon={CheckCircle2Icon} />
            <Tile
              label="Transactions"
              value={data.creditTransactions.length.toLocaleString("en-US")}
              icon={ReceiptIcon}
            />
          </>
        )}
      </section>
      <PaymentHistory payments={data?.payments} />
      <CreditTransactions transactions={data?.creditTransactions} />
    </>
  );
}

function PaymentHistory({ payments }: { payments: BillingData["payments"] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Payment History</h2>
        </CardTitle>
        <CardDescription>
          Your 20 most recent payments. <span data-testid="billing-price-note">{MONEY_LABELS.billingNote}</span>
        </CardDescription>
        <CardAction>
          <ExportButton
            label="payment history"
            disabled={!payments || payments.length === 0}
            onClick={() => payments && downloadFile(PAYMENT_HISTORY_FILE, toCsv(paymentRows(payments)), CSV_TYPE)}
          />
        </CardAction>
      </CardHeader>
      <CardContent>
        {payments === undefined ? (
          <Skeleton className="h-32" />
        ) : payments.length === 0 ? (
          <EmptyState title="No payment history found" description="Payments for your tests will appear here." />
        ) : (
          <Table aria-label="Payment history">
            <TableHeader>
              <TableRow>
                <TableHead>Date</TableHead>
                <TableHead>Amount</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Test Details</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {payments.map((payment) => (
                <TableRow key={payment._id}>
                  <TableCell className="whitespace-nowrap">{formatDate(payment.createdAt)}</TableCell>
                  <TableCell>
                    <Money cents={payment.amountCents} />{" "}
                    <span className="text-xs text-muted-foreground uppercase">{payment.currency}</span>
                    {payment.refundedCents ? <PartlyRefunded payment={payment} /> : null}
                  </TableCell>
                  <TableCell className="max-w-72 whitespace-normal">
                    <StatusBadge status={payment.status} />
                    {paymentNote(payment) ? (
                      <p className="mt-1 text-xs text-muted-foreground" data-testid="payment-note">
                        {paymentNote(payment)}
                      </p>
                    ) : null}
                  </TableCell>
                  <TableCell className="max-w-64 truncate">
                    {payment.testId ? (
                      <Link
                        to="/dashboard/results/$testId"
                        params={{ testId: payment.testId }}
                        className="underline-offset-4 hover:underline"
                      >
                        {payment.testName}
                      </Link>
                    ) : (
                      payment.testName
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** A payment partly refunded (a test stopped early): the charge above, then the refund and the net. */
function PartlyRefunded({ payment }: { payment: BillingData["payments"][number] }) {
  return (
    <dl className="mt-1 space-y-0.5 text-xs text-muted-foreground">
      <div className="flex gap-1" data-testid="payment-refund">
        <dt>Refunded</dt>
        <dd className="text-blue-700 tabular-nums dark:text-blue-400">{formatCents(payment.refundedCents ?? 0)}</dd>
      </div>
      <div className="flex gap-1 font-medium text-foreground" data-testid="payment-net">
        <dt>Net</dt>
        <dd className="tabular-nums">{formatCents(netCentsOf(payment))}</dd>
      </div>
    </dl>
  );
}

function CreditTransactions({ transactions }: { transactions: BillingData["creditTransactions"] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Credit Transactions</h2>
        </CardTitle>
        <CardDescription>Your 50 most recent credit movements.</CardDescription>
        <CardAction>
          <ExportButton
            label="credit transactions"
            disabled={!transactions || transactions.length === 0}
            onClick={() =>
              transactions &&
              downloadFile(CREDIT_TRANSACTIONS_FILE, toCsv(creditTransactionRows(transactions)), CSV_TYPE)
            }
          />
        </CardAction>
      </CardHeader>
      <CardContent>
        {transactions === undefined ? (
          <Skeleton className="h-32" />
        ) : transactions.length === 0 ? (
          <EmptyState
            title="No credit transactions found"
            description="Purchases, test costs, refunds and bonuses will appear here."
          />
        ) : (
          <ul aria-label="Credit transactions" className="divide-y">
            {transactions.map((entry) => {
              const style = TRANSACTION_STYLES[entry.type];
              return (
                <li
                  key={entry._id}
                  className="flex items-center gap-3 py-3"
                  data-testid="credit-transaction"
                  data-type={entry.type}
                >
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium break-words sm:truncate">{entry.description}</p>
                    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
                      {formatDateTime(entry.createdAt)}
                      {/* On phones the type sits under the description, leaving it the width. */}
                      <Badge variant="outline" className={cn("sm:hidden", style.className)}>
                        {style.label}
                      </Badge>
                    </p>
                  </div>
                  <Badge variant="outline" className={cn("hidden sm:inline-flex", style.className)}>
                    {style.label}
                  </Badge>
                  <span
                    className={cn("w-24 text-right font-medium tabular-nums", style.className)}
                    data-testid="credit-amount"
                  >
                    {signedAmount(entry)}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
