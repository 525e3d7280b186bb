import { Trash2Icon } from "lucide-react";
import { useState, type ReactNode } from "react";

import { DialogError } from "@/components/dialog-error";
import { Spinner } from "@/components/spinner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** The question, as the spec words it. */
  description: ReactNode;
  confirmText: string;
  /** The dismiss button; 'Cancel' unless the spec names it otherwise ('Keep Job'). */
  cancelText?: string;
  destructive?: boolean;
  /** A decorative icon before the title. */
  icon?: ReactNode;
  /** The thing acted on (a user's email, a template's name), shown under the question. */
  subject?: string;
  /** Adds 'This action cannot be undone.' */
  irreversible?: boolean;
  /** The confirm button's text while `onConfirm` runs. */
  loadingText?: string;
  /** The spinner's accessible name while `onConfirm` runs. */
  loadingLabel?: string;
  /** Shown (as an alert) when `onConfirm` rejects; without it the caller tells the user. */
  failureText?: string;
  /** The element that opens the dialog, if any (focus returns to it on close). */
  trigger?: ReactNode;
  /**
   * Runs on confirm. While it runs the dialog is loading: it cannot be dismissed and both buttons
   * are disabled. When it settles the dialog closes; when it rejects it stays open, back to idle.
   */
  onConfirm: () => void | Promise<unknown>;
  /** After the dialog has closed on a confirmation that succeeded. */
  onConfirmed?: () => void;
}

/** The one confirmation dialog (spec part 1 §2): idle, then loading, then closed or failed. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmText,
  cancelText = "Cancel",
  destructive = false,
  icon,
  subject,
  irreversible = false,
  loadingText = "Processing...",
  loadingLabel = "Processing",
  failureText,
  trigger,
  onConfirm,
  onConfirmed,
}: ConfirmDialogProps) {
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  function close(next: boolean) {
    if (next) {
      onOpenChange(true);
      return;
    }
    if (loading) return;
    setFailed(false);
    onOpenChange(false);
  }

  async function confirm() {
    setLoading(true);
    setFailed(false);
    try {
      await onConfirm();
    } catch (error) {
      if (failureText) {
        console.error(failureText, error);
        setFailed(true);
      }
      setLoading(false);
      return;
    }
    setLoading(false);
    onOpenChange(false);
    onConfirmed?.();
  }

  return (
    <AlertDialog open={open} onOpenChange={close}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent onEscapeKeyDown={(event) => loading && event.preventDefault()}>
        <AlertDialogHeader>
          <AlertDialogTitle className={icon ? "flex items-center gap-2" : undefined}>
            {icon}
            {title}
          </AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {subject && <p className="rounded-md bg-muted px-3 py-2 text-sm font-medium break-words">{subject}</p>}
        {irreversible && <p className="text-sm text-destructive">This action cannot be undone.</p>}
        <DialogError>{failed && failureText}</DialogError>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={loading}>{cancelText}</AlertDialogCancel>
          <Button variant={destructive ? "destructive" : "default"} disabled={loading} onClick={() => void confirm()}>
            {loading && <Spinner className="text-current" label={loadingLabel} />}
            {loading ? loadingText : confirmText}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** What a screen asks to confirm; the dialog's own state (open, loading) is the hook's. */
export type ConfirmRequest = Omit<ConfirmDialogProps, "open" | "onOpenChange" | "trigger">;

/** Holds one pending confirmation for a screen: `ask(request)` opens the dialog. */
export function useConfirm() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const [open, setOpen] = useState(false);
  return {
    ask: (next: ConfirmRequest) => {
      setRequest(next);
      setOpen(true);
    },
    dialog: request && <ConfirmDialog {...request} open={open} onOpenChange={setOpen} />,
  };
}

/**
 * The confirmation of an act that deletes or clears for good: destructive, a trash icon, 'This
 * action cannot be undone.', and 'Delete' unless `confirmText` says otherwise.
 */
export function DestructiveConfirmDialog({
  confirmText = "Delete",
  ...props
}: Omit<ConfirmDialogProps, "confirmText" | "destructive" | "icon" | "irreversible"> & { confirmText?: string }) {
  return (
    <ConfirmDialog
      {...props}
      confirmText={confirmText}
      destructive
      icon={<Trash2Icon aria-hidden="true" className="size-5 text-destructive" />}
      irreversible
    />
  );
}
