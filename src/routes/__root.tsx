import { Outlet, createRootRoute, useNavigate, useRouterState } from "@tanstack/react-router";
import { useConvexAuth } from "convex/react";
import { useEffect } from "react";

import { NotFoundRedirect } from "@/components/not-found-redirect";
import { RouteErrorScreen } from "@/components/route-error-screen";
import { Toaster } from "@/components/ui/sonner";
import { paymentReturnRewrite } from "@/lib/navigation";

export const Route = createRootRoute({
  component: RootLayout,
  errorComponent: RouteErrorScreen,
  notFoundComponent: NotFoundRedirect,
});

function RootLayout() {
  usePaymentReturnRewrite();
  return (
    <>
      <Outlet />
      <Toaster richColors closeButton />
    </>
  );
}

/** A return from payment (?session_id=) for a signed-in user goes to the monitor (spec part 2 §2). */
function usePaymentReturnRewrite() {
  const { isAuthenticated, isLoading } = useConvexAuth();
  const location = useRouterState({ select: (state) => state.location });
  const navigate = useNavigate();
  const target = isLoading ? null : paymentReturnRewrite(location, isAuthenticated);

  useEffect(() => {
    if (target !== null) void navigate({ href: target, replace: true });
  }, [target, navigate]);
}
