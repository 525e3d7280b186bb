import { useNavigate, useRouterState } from "@tanstack/react-router";
import { useConvexAuth } from "convex/react";
import { useEffect } from "react";

import { FullPageSpinner } from "@/components/spinner";
import { unknownPathDestination } from "@/lib/navigation";

/** Any path without a route: to /dashboard when signed in, otherwise to / (spec part 2 §2). */
export function NotFoundRedirect() {
  const { isAuthenticated, isLoading } = useConvexAuth();
  const location = useRouterState({ select: (state) => state.location });
  const navigate = useNavigate();
  const destination = isLoading ? null : unknownPathDestination(location, isAuthenticated);

  useEffect(() => {
    if (destination !== null) void navigate({ href: destination, replace: true });
  }, [destination, navigate]);

  return <FullPageSpinner />;
}
