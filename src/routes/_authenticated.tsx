import { Navigate, Outlet, createFileRoute, useRouterState } from "@tanstack/react-router";
import { useConvexAuth } from "convex/react";
import { useState } from "react";

import { preloadBackend } from "@/components/backend-boundary";
import { AppShell } from "@/components/layout/app-shell";
import { FullPageSpinner } from "@/components/spinner";
import { loginSearchFor } from "@/lib/navigation";

// Every signed-in screen sits under this pathless layout: the backend, the auth guard and the app shell.
export const Route = createFileRoute("/_authenticated")({
  staticData: { backend: true },
  beforeLoad: preloadBackend,
  component: AuthenticatedLayout,
});

function AuthenticatedLayout() {
  const { isAuthenticated, isLoading } = useConvexAuth();

  if (isLoading) return <FullPageSpinner label="Loading your session" />;
  if (!isAuthenticated) return <RedirectToLogin />;
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

function RedirectToLogin() {
  const href = useRouterState({ select: (state) => state.location.href });
  // Frozen at the moment the visitor is found signed out: while the navigation is pending the
  // location already reads /login, and following it would nest redirect inside redirect.
  const [search] = useState(() => loginSearchFor(href));
  return <Navigate to="/login" search={search} replace />;
}
