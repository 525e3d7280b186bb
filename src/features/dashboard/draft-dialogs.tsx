// The dialogs of DraftActions ('Complete Payment' and 'Discard Draft'), loaded when one is first opened.
import { useAction, useMutation } from "convex/react";
import { CreditCardIcon } from "lucide-react";
import { useState } from "react";

import { DialogError } from "@/components/dialog-error";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { DialogHeading } from "@/components/dialog-heading";
import { Dialog, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/errors";
import { redirectToCheckout } from "@/lib/checkout-redirect";

import { api } from "../../../convex/_generated/api";
import { formatCents } from "../../../convex/lib/format";
import { DISCARD_FAILED, PAYMENT_FAILED, type Draft, type Open } from "./draft-actions";

export default function DraftDialogs({
  draft,
  open,
  onClose,
  onDiscarded,
}: {
  draft: Draft;
  open: Open;
  onClose: () => void;
  onDiscarded?: () => void;
}) {
  return (
    <>
      <CompletePaymentDialog draft={draft} open={open === "pay"} onClose={onClose} />
      <DiscardDraftDialog draft={draft} open={open === "discard"} onClose={onClose} onDiscarded={onDiscarded} />
    </>
  );
}

/** The checkout is opened again for the draft's quoted price; the browser leaves for it. */
function CompletePaymentDialog({ draft, open, onClose }: { draft: Draft; open: boolean; onClose: () => void }) {
  const createCheckout = useAction(api.payments.createCheckout);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function pay() {
    setProcessing(true);
    setError(null);
    try {
      const { url } = await createCheckout({ testId: draft._id });
      redirectToCheckout(url);
    } catch (caught) {
      setError(errorMessage(caught, PAYMENT_FAILED));
      setProcessing(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next || processing) return;
        setError(null);
        onClose();
      }}
    >
      <DialogContent>
        <DialogHeading
          title="Complete Payment"
          description={
            <>
              “{draft.name}” has not been paid for, so it has not run. Pay {formatCents(draft.priceCents)} to start it.
            </>
          }
        />
        <DialogError>{error}</DialogError>
        <DialogFooter>
          <Button type="button" variant="outline" disabled={processing} onClick={onClose}>
            Not Now
          </Button>
          <Button type="button" disabled={processing} onClick={() => void pay()}>
            {processing ? <Spinner className="text-current" label="Opening the checkout" /> : <CreditCardIcon />}
            Pay {formatCents(draft.priceCents)}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function DiscardDraftDialog({
  draft,
  open,
  onClose,
  onDiscarded,
}: {
  draft: Draft;
  open: boolean;
  onClose: () => void;
  onDiscarded?: () => void;
}) {
  const remove = useMutation(api.tests.remove);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Discard Draft"
      description={<>Discard “{draft.name}”? It was never paid for and never ran. Its open checkout is closed.</>}
      confirmText="Discard"
      cancelText="Keep It"
      destructive
      loadingText="Discard"
      loadingLabel="Discarding the draft"
      failureText={DISCARD_FAILED}
      onConfirm={() => remove({ testId: draft._id })}
      onConfirmed={onDiscarded}
    />
  );
}
