import { Link, Outlet, createRootRoute, useNavigate, useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";

import { BackendBoundary } from "@/components/backend-boundary";
import { LazyToaster } from "@/components/lazy-toaster";
import { NotFoundRedirect } from "@/components/not-found-redirect";
import { RouteErrorScreen } from "@/components/route-error-screen";
import { MarketingLinkProvider, type MarketingLinkProps } from "@/components/marketing-link";
import { paymentReturnRewrite } from "@/lib/payment-return";
import { useSession } from "@/lib/session";

export const Route = createRootRoute({
  component: RootLayout,
  errorComponent: RouteErrorScreen,
  notFoundComponent: NotFoundRedirect,
});

function RootLayout() {
  return (
    <>
      <BackendBoundary>
        <PaymentReturnRewrite />
        <MarketingLinkProvider value={RouterLink}>
          <Outlet />
        </MarketingLinkProvider>
      </BackendBoundary>
      <LazyToaster richColors closeButton />
    </>
  );
}

/** Inside the app the public pages navigate without reloading. */
function RouterLink({ to, ...props }: MarketingLinkProps) {
  return <Link to={to} {...props} />;
}

/**
 * A return from payment (?session_id=) for a signed-in user goes to the monitor (spec part 2 §2).
 * A visitor with a stored session gets the backend mounted first, so the real session decides.
 */
function PaymentReturnRewrite() {
  const { isAuthenticated, isLoading } = useSession();
  const location = useRouterState({ select: (state) => state.location });
  const navigate = useNavigate();
  const target = isLoading ? null : paymentReturnRewrite(location, isAuthenticated);

  useEffect(() => {
    if (target !== null) void navigate({ href: target, replace: true });
  }, [target, navigate]);
  return null;
}
