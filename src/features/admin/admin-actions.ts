import { toast } from "sonner";

import { appErrorData } from "@/lib/errors";

/** The spec's failure alerts (part 2 §8), and ours for the powers it does not word. */
export const ADMIN_FAILURES = {
  retry: "Failed to retry job. Please try again.",
  cancel: "Failed to cancel job. Please try again.",
  adminStatus: "Failed to update admin status. Please try again.",
  forceRestart: "Failed to restart job. Please try again.",
  priority: "Failed to update job priority. Please try again.",
  deleteJob: "Failed to delete job. Please try again.",
  deleteUser: "Failed to delete user. Please try again.",
  resolveAlert: "Failed to resolve alert. Please try again.",
} as const;

/**
 * Runs one admin mutation. On failure the spec's alert is shown, with the server's reason
 * under it when the server gave one (e.g. why the last admin keeps their rights).
 */
export async function runAdminAction(
  action: () => Promise<unknown>,
  failure: string,
  success?: string,
): Promise<boolean> {
  try {
    await action();
    if (success) toast.success(success);
    return true;
  } catch (error) {
    const reason = appErrorData(error)?.message;
    toast.error(failure, reason ? { description: reason } : undefined);
    return false;
  }
}
