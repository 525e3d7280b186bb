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

interface DeleteTemplateDialogProps {
  templateName: string | null;
  onClose: () => void;
  /** Rejects on failure: the dialog then stays open and returns to idle. */
  onDelete: () => Promise<void>;
}

/** Spec part 2 §4: idle, then deleting (close and cancel disabled); closes only on success. */
export function DeleteTemplateDialog({ templateName, onClose, onDelete }: DeleteTemplateDialogProps) {
  const [deleting, setDeleting] = useState(false);
  const [failed, setFailed] = useState(false);

  async function confirm() {
    setDeleting(true);
    setFailed(false);
    try {
      await onDelete();
      onClose();
    } catch (error) {
      console.error("Failed to delete template", error);
      setFailed(true);
    } finally {
      setDeleting(false);
    }
  }

  return (
    <AlertDialog
      open={templateName !== null}
      onOpenChange={(open) => {
        if (!open && !deleting) {
          setFailed(false);
          onClose();
        }
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Template</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete this template? This action cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {templateName && <p className="rounded-md bg-muted px-3 py-2 text-sm font-medium break-words">{templateName}</p>}
        {failed && (
          <p role="alert" className="text-sm text-destructive">
            Failed to delete template. Please try again.
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleting}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={deleting} onClick={() => void confirm()}>
            {deleting && <Spinner className="text-current" label="Deleting" />}
            {deleting ? "Deleting..." : "Delete"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
