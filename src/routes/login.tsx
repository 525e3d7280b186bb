import { createFileRoute } from "@tanstack/react-router";

import { preloadBackend } from "@/components/backend-boundary";
import { LoginPage } from "@/features/auth/login-page";
import { parseAuthSearch } from "@/features/auth/search";

export const Route = createFileRoute("/login")({
  staticData: { backend: true },
  beforeLoad: preloadBackend,
  validateSearch: parseAuthSearch,
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect } = Route.useSearch();
  return <LoginPage redirect={redirect} />;
}
