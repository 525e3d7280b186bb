// A failed test (nothing usable came back) on its results page: why it failed, in the gateway's
// words, what happened to the money (a paid test is refunded automatically; free mode and own
// keys owe nothing), and Run Again, which opens setup prefilled for a normal, priced run.
// Other notices about the test (missing answers and judgements) live beside it in this folder.
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { RotateCcwIcon, XCircleIcon } from "lucide-react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { formatDate } from "@/lib/dates";

import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { formatCents } from "../../convex/lib/format";

export const FAILURE_TITLE = "This test failed";
const FALLBACK_REASON = "No usable answers came back from the models.";

type Refund = { state: "none" | "pending" | "refunded"; amountCents: number; refundedAt?: number };

/** What happened to the money of a failed test, or null while unknown or when nothing was paid. */
export function refundLine(refund: Refund | undefined): string | null {
  if (!refund || refund.state === "none") return null;
  const amount = formatCents(refund.amountCents);
  if (refund.state === "pending") return `Your payment of ${amount} is being returned to your card.`;
  const when = refund.refundedAt === undefined ? "" : ` on ${formatDate(refund.refundedAt)}`;
  return `Your payment of ${amount} was returned to your card${when}.`;
}

interface FailureNoticeProps {
  test: { _id: Id<"tests">; status: string; errorMessage?: string };
  className?: string;
}

/** Nothing unless the test failed. */
export function FailureNotice({ test, className }: FailureNoticeProps) {
  if (test.status !== "failed") return null;
  return <FailedTestNotice test={test} className={className} />;
}

function FailedTestNotice({ test, className }: FailureNoticeProps) {
  const refund = useQuery(api.payments.testRefund, { testId: test._id });
  const money = refundLine(refund);
  return (
    <Alert variant="destructive" className={className} data-testid="failure-notice">
      <XCircleIcon />
      <AlertTitle>{FAILURE_TITLE}</AlertTitle>
      <AlertDescription>
        <p data-testid="failure-reason">{test.errorMessage?.trim() || FALLBACK_REASON}</p>
        {money && <p data-testid="failure-refund">{money}</p>}
        <Button asChild size="sm" variant="outline" className="mt-2">
          <Link to="/dashboard/setup" search={{ rerun: test._id }}>
            <RotateCcwIcon /> Run Again
          </Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
