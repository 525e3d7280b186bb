import { Navigate, Outlet, createFileRoute, useRouterState } from "@tanstack/react-router";
import { useConvexAuth } from "convex/react";

import { AppShell } from "@/components/layout/app-shell";
import { FullPageSpinner } from "@/components/spinner";
import { loginSearchFor } from "@/lib/navigation";

// Every signed-in screen sits under this pathless layout: the auth guard and the app shell.
export const Route = createFileRoute("/_authenticated")({
  component: AuthenticatedLayout,
});

function AuthenticatedLayout() {
  const { isAuthenticated, isLoading } = useConvexAuth();
  const attemptedHref = useRouterState({ select: (state) => state.location.href });

  if (isLoading) return <FullPageSpinner label="Loading your session" />;
  if (!isAuthenticated) return <Navigate to="/login" search={loginSearchFor(attemptedHref)} replace />;
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
