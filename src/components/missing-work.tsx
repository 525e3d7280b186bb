// Failed calls are not hidden: how many answers and judgements a test is missing and why (the
// last gateway error), and, for a test that delivered less than it was quoted for, the shortfall.
// Shown by the monitor, results, history and the shared page.
import { AlertTriangleIcon } from "lucide-react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { cn } from "@/lib/utils";

import { formatCents } from "../../convex/lib/format";
import { deliveryShortfall, missingWorkSummary, type Delivery, type MissingWork } from "../../convex/lib/progress";

export const MISSING_WORK_TITLE = "Some answers or judgements are missing";

interface MissingWorkNoticeProps {
  work: MissingWork;
  /** Expected and delivered counts, for the shortfall line (finished tests). */
  delivery?: Delivery;
  /** What the user was charged; the shortfall names it when it is above zero. */
  chargedCents?: number;
  className?: string;
}

/**
 * The charge a shortfall is measured against: a failed test's payment is returned in full
 * (failure-notice.tsx says so), so only a test that ended otherwise names what it was paid.
 */
export function chargeBehindShortfall(test: { status: string; chargedCents: number }): number {
  return test.status === "failed" ? 0 : test.chargedCents;
}

/** Nothing when nothing is missing. */
export function MissingWorkNotice({ work, delivery, chargedCents = 0, className }: MissingWorkNoticeProps) {
  const summary = missingWorkSummary(work);
  if (!summary) return null;
  const shortfall = delivery ? deliveryShortfall(delivery) : null;
  return (
    <Alert
      className={cn("border-amber-600/40 bg-amber-500/10 text-amber-900 dark:text-amber-200", className)}
      data-testid="missing-work"
    >
      <AlertTriangleIcon />
      <AlertTitle>{MISSING_WORK_TITLE}</AlertTitle>
      <AlertDescription>
        <p>{summary}</p>
        {shortfall && (
          <p>
            {shortfall}
            {chargedCents > 0 ? ` This test was paid ${formatCents(chargedCents)} for the full set.` : ""}
          </p>
        )}
      </AlertDescription>
    </Alert>
  );
}

/** One line for a list row (history). */
export function MissingWorkLine({ work, className }: { work: MissingWork; className?: string }) {
  const summary = missingWorkSummary(work);
  if (!summary) return null;
  return (
    <p
      className={cn("flex items-start gap-1.5 text-sm text-amber-700 dark:text-amber-400", className)}
      data-testid="missing-work"
    >
      <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{summary}</span>
    </p>
  );
}
