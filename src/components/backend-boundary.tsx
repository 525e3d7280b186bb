import { useRouterState } from "@tanstack/react-router";
import { Suspense, lazy, useState, type ReactNode } from "react";

import { FullPageSpinner } from "@/components/full-page-spinner";
import { paymentReturnRewrite } from "@/lib/payment-return";
import { hasStoredSession } from "@/lib/session";

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The page talks to the backend: the Convex client and Convex Auth are mounted around it. */
    backend?: boolean;
  }
}

// The Convex client, Convex Auth and their providers (about 25 KB gzipped) would be a quarter of
// the landing page's JavaScript budget (60 KB gzipped), so they load only for pages that need them:
// routes marked `staticData: { backend: true }` (every page below them included), an address
// without a route (where to send it depends on the session), and a payment return of a visitor
// with a stored session (spec part 2 §2). Once mounted they stay for the rest of the visit: one
// client, one connection, one auth state.

const loadBackend = () => import("@/components/backend-provider");
const BackendProvider = lazy(loadBackend);

/** For a backend route's beforeLoad: fetch the backend's code with the route's own (also on preload). */
export async function preloadBackend(): Promise<void> {
  await loadBackend();
}

function useBackendWanted(): boolean {
  const needed = useRouterState({
    select: (state) =>
      state.matches.some(
        (match) => match.staticData.backend === true || match._notFound === true || match.status === "notFound",
      ) ||
      (paymentReturnRewrite(state.location, true) !== null && hasStoredSession()),
  });
  const [mounted, setMounted] = useState(false);
  // Sticky: leaving for a public page keeps the client and the session it knows.
  if (needed && !mounted) setMounted(true);
  return needed || mounted;
}

/** Mounts the backend around `children` once a page needs it (see above). */
export function BackendBoundary({ children }: { children: ReactNode }) {
  const wanted = useBackendWanted();
  if (!wanted) return children;
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <BackendProvider>{children}</BackendProvider>
    </Suspense>
  );
}
