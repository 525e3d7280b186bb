import { Suspense, lazy } from "react";
import type { ToasterProps } from "sonner";

// Toasts only follow an action, so sonner (~9 KB gzipped) loads after the first render.
const Toaster = lazy(() => import("@/components/ui/sonner").then((module) => ({ default: module.Toaster })));

/** The app's one toast container. */
export function LazyToaster(props: ToasterProps) {
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}
