import { createFileRoute } from "@tanstack/react-router";

import { preloadBackend } from "@/components/backend-boundary";
import { parseAuthSearch } from "@/features/auth/search";
import { SignupPage } from "@/features/auth/signup-page";

export const Route = createFileRoute("/signup")({
  staticData: { backend: true },
  beforeLoad: preloadBackend,
  validateSearch: parseAuthSearch,
  component: SignupRoute,
});

function SignupRoute() {
  const { redirect } = Route.useSearch();
  return <SignupPage redirect={redirect} />;
}
