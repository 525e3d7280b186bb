import { SquareIcon } from "lucide-react";
import { useState } from "react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";

import { stopMoneyText } from "../../../convex/lib/moneyWords";

/**
 * Stop Test with a confirmation. `onStop` rejects to keep the dialog open (the caller shows
 * the error); while it runs the dialog cannot be dismissed.
 */
export function StopTestButton({
  testName,
  chargedCents,
  onStop,
}: {
  testName: string;
  /** What the owner was charged for the test (0 in free mode or on their own key). */
  chargedCents: number;
  onStop: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
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
            {stopMoneyText(chargedCents)}
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
