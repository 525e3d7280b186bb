import type { ExternalToast } from "sonner";

// Toasts only follow an action, so sonner (~9 KB gzipped) is fetched when the first one is
// shown, as the Toaster itself is (components/lazy-toaster.tsx): pages that load before any
// action (the dashboard home, the app shell) call these instead of importing sonner.
const loadSonner = () => import("sonner");

type Message = Parameters<typeof import("sonner").toast.success>[0];

/** sonner's toast.success and toast.error, loaded on first use. */
export const toast = {
  success(message: Message, options?: ExternalToast): void {
    void loadSonner().then(({ toast: sonner }) => sonner.success(message, options));
  },
  error(message: Message, options?: ExternalToast): void {
    void loadSonner().then(({ toast: sonner }) => sonner.error(message, options));
  },
};
