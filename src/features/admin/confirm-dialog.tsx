import { useState } from "react";

import { Spinner } from "@/components/spinner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

export interface ConfirmRequest {
  title: string;
  /** The question, as the spec words it ('Are you sure you want to cancel this job?'). */
  message: string;
  /** The user or job acted on. */
  subject?: string;
  confirmLabel: string;
  dismissLabel?: string;
  destructive?: boolean;
  /** Adds 'This action cannot be undone.' */
  irreversible?: boolean;
  /** Runs on confirm; the dialog shows 'Processing...' until it settles, then closes. */
  onConfirm: () => Promise<void>;
}

/** The admin page's confirmations; `request` null means closed. */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  const [processing, setProcessing] = useState(false);

  async function confirm() {
    if (!request) return;
    setProcessing(true);
    try {
      await request.onConfirm();
    } finally {
      setProcessing(false);
      onClose();
    }
  }

  return (
    <AlertDialog open={request !== null} onOpenChange={(open) => !open && !processing && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{request?.title}</AlertDialogTitle>
          <AlertDialogDescription>{request?.message}</AlertDialogDescription>
        </AlertDialogHeader>
        {request?.subject && (
          <p className="rounded-md bg-muted px-3 py-2 text-sm font-medium break-words">{request.subject}</p>
        )}
        {request?.irreversible && <p className="text-sm text-destructive">This action cannot be undone.</p>}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={processing}>{request?.dismissLabel ?? "Cancel"}</AlertDialogCancel>
          <Button variant={request?.destructive ? "destructive" : "default"} disabled={processing} onClick={() => void confirm()}>
            {processing && <Spinner className="text-current" label="Processing" />}
            {processing ? "Processing..." : request?.confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Holds one pending confirmation for a screen. */
export function useConfirm() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  return {
    ask: setRequest,
    dialog: <ConfirmDialog request={request} onClose={() => setRequest(null)} />,
  };
}
