import { useMutation } from "convex/react";
import { useState } from "react";

import { Spinner } from "@/components/spinner";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";

export const DELETE_FAILED = "Failed to delete test. Please try again.";

interface DeleteTestDialogProps {
  test: { _id: Id<"tests">; name: string } | null;
  onOpenChange: (open: boolean) => void;
  /** After the test is gone (the dialog has closed). */
  onDeleted?: () => void;
  /** While the deletion runs; a page showing the test can hold off its 'not found' state. */
  onDeletingChange?: (deleting: boolean) => void;
}

/**
 * Delete confirmation (spec part 2 §4): idle or deleting; while deleting the dialog cannot be
 * closed or cancelled; a failure keeps it open, back to idle, with the reason.
 */
export function DeleteTestDialog({ test, onOpenChange, onDeleted, onDeletingChange }: DeleteTestDialogProps) {
  const remove = useMutation(api.tests.remove);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function close(next: boolean) {
    if (next || deleting) return;
    setError(null);
    onOpenChange(false);
  }

  async function confirm() {
    if (!test) return;
    setDeleting(true);
    setError(null);
    onDeletingChange?.(true);
    try {
      await remove({ testId: test._id });
      setDeleting(false);
      onOpenChange(false);
      onDeleted?.();
    } catch (caught) {
      console.error(DELETE_FAILED, caught);
      setError(DELETE_FAILED);
      setDeleting(false);
      onDeletingChange?.(false);
    }
  }

  return (
    <AlertDialog open={test !== null} onOpenChange={close}>
      <AlertDialogContent onEscapeKeyDown={(event) => deleting && event.preventDefault()}>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Test</AlertDialogTitle>
          <AlertDialogDescription>
            Delete “{test?.name}”? Its responses, evaluations and shared link are removed for good. Payments stay in your
            billing history.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {error && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <Button variant="outline" onClick={() => close(false)} disabled={deleting}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void confirm()} disabled={deleting}>
            {deleting && <Spinner className="text-current" label="Deleting" />}
            {deleting ? "Deleting..." : "Delete Test"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
