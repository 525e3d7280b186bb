import { createFileRoute } from "@tanstack/react-router";

import { LoginPage } from "@/features/auth/login-page";
import { authSearchSchema } from "@/features/auth/search";

export const Route = createFileRoute("/login")({
  validateSearch: authSearchSchema,
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect } = Route.useSearch();
  return <LoginPage redirect={redirect} />;
}
