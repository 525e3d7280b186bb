import { useQuery } from "convex/react";
import { SquareIcon } from "lucide-react";
import { useState } from "react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { stopMoneyText } from "../../../convex/lib/moneyWords";

/**
 * Stop Test with a confirmation. `onStop` rejects to keep the dialog open (the caller shows
 * the error); while it runs the dialog cannot be dismissed. While open, the dialog says what
 * stopping now refunds for the calls not yet made, kept current as the run goes on.
 */
export function StopTestButton({
  testId,
  testName,
  chargedCents,
  onStop,
}: {
  testId: Id<"tests">;
  testName: string;
  /** What the owner was charged for the test (0 in free mode or on their own key). */
  chargedCents: number;
  onStop: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  // Read only while the dialog is open: the figure follows the run's counters (folded ~1/s).
  const refund = useQuery(api.refunds.stopPreview, open && chargedCents > 0 ? { testId } : "skip");
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="destructive">
          <SquareIcon /> Stop Test
        </Button>
      }
      title="Stop this test?"
      description={
        <>
          “{testName}” will be cancelled. Answers and scores already received are kept, no new model calls are made, and
          a stopped test cannot be resumed.
          <span className="mt-2 block font-medium text-foreground" data-testid="stop-money">
            {stopMoneyText(chargedCents, refund)}
          </span>
        </>
      }
      confirmText="Yes, Stop Test"
      cancelText="Keep Running"
      destructive
      loadingText="Yes, Stop Test"
      loadingLabel="Stopping the test"
      onConfirm={onStop}
    />
  );
}
