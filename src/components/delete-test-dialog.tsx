import { useMutation } from "convex/react";

import { ConfirmDialog } from "@/components/confirm-dialog";

import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";

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
 * Delete confirmation (spec part 2 §4), for the results and the history: idle or deleting; while
 * deleting the dialog cannot be closed or cancelled; a failure keeps it open, back to idle, with
 * the reason.
 */
export function DeleteTestDialog({ test, onOpenChange, onDeleted, onDeletingChange }: DeleteTestDialogProps) {
  const remove = useMutation(api.tests.remove);

  async function deleteTest() {
    if (!test) return;
    onDeletingChange?.(true);
    try {
      await remove({ testId: test._id });
    } catch (error) {
      onDeletingChange?.(false);
      throw error;
    }
  }

  return (
    <ConfirmDialog
      open={test !== null}
      onOpenChange={onOpenChange}
      title="Delete Test"
      description={
        <>
          Delete “{test?.name}”? Its responses, evaluations and shared link are removed for good. Payments stay in your
          billing history.
        </>
      }
      confirmText="Delete Test"
      destructive
      loadingText="Deleting..."
      loadingLabel="Deleting"
      failureText={DELETE_FAILED}
      onConfirm={deleteTest}
      onConfirmed={onDeleted}
    />
  );
}
