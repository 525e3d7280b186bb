import { toast, type ExternalToast } from "sonner";

// The page's sticky bar fills the bottom of the screen, where toasts appear by default; the
// setup page's toasts show at the top so they never cover Run Test.
export const NOTIFY_OPTIONS: ExternalToast = { position: "top-center" };
const options = NOTIFY_OPTIONS;

export const notify = {
  success: (message: string) => toast.success(message, options),
  error: (message: string) => toast.error(message, options),
  info: (message: string) => toast.info(message, options),
};
