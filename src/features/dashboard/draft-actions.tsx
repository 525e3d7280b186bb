// An unpaid draft (a test whose checkout was abandoned) is paid or discarded, never stopped:
// 'Complete Payment' (spec part 1 §2 names the modal) opens the checkout again, 'Discard'
// deletes the draft. Used by the dashboard's Recent Tests, the history and the monitor.
import { CreditCardIcon, Trash2Icon } from "lucide-react";
import { lazy, Suspense, useState } from "react";

import { Button } from "@/components/ui/button";

import type { Id } from "../../../convex/_generated/dataModel";

// The two dialogs (Radix dialog code, the checkout call) load when one is first opened, so the
// dashboard's Recent Tests does not carry them at first paint.
const DraftDialogs = lazy(() => import("./draft-dialogs"));

export const PAYMENT_FAILED = "Payment failed";
export const DISCARD_FAILED = "The draft could not be discarded. Please try again.";

export interface Draft {
  _id: Id<"tests">;
  name: string;
  priceCents: number;
}

export type Open = "pay" | "discard" | null;

/** 'Complete Payment' and 'Discard' for one unpaid draft, with their dialogs. */
export function DraftActions({
  draft,
  size = "sm",
  onDiscarded,
}: {
  draft: Draft;
  size?: "sm" | "default";
  /** After the draft is gone (its dialog has closed). */
  onDiscarded?: () => void;
}) {
  const [open, setOpen] = useState<Open>(null);
  // Mounted from the first opening on, so a dialog closes with its animation.
  const [opened, setOpened] = useState(false);
  if (open !== null && !opened) setOpened(true);
  const name = draft.name.trim() || "Unnamed Test";
  return (
    <>
      <Button type="button" size={size} onClick={() => setOpen("pay")} aria-label={`Complete Payment for ${name}`}>
        <CreditCardIcon /> Complete Payment
      </Button>
      <Button
        type="button"
        size={size}
        variant="ghost"
        onClick={() => setOpen("discard")}
        aria-label={`Discard ${name}`}
      >
        <Trash2Icon /> Discard
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <DraftDialogs
            draft={{ ...draft, name }}
            open={open}
            onClose={() => setOpen(null)}
            onDiscarded={onDiscarded}
          />
        </Suspense>
      )}
    </>
  );
}
