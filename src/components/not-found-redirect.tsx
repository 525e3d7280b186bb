import { useNavigate, useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";

import { FullPageSpinner } from "@/components/full-page-spinner";
import { unknownPathDestination } from "@/lib/payment-return";
import { useSession } from "@/lib/session";

/** Any path without a route: to /dashboard when signed in, otherwise to / (spec part 2 §2). */
export function NotFoundRedirect() {
  // The backend is mounted for an unknown address (backend-boundary.tsx): this is the real session.
  const { isAuthenticated, isLoading } = useSession();
  const location = useRouterState({ select: (state) => state.location });
  const navigate = useNavigate();
  const destination = isLoading ? null : unknownPathDestination(location, isAuthenticated);

  useEffect(() => {
    if (destination !== null) void navigate({ href: destination, replace: true });
  }, [destination, navigate]);

  return <FullPageSpinner />;
}
