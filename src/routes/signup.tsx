import { createFileRoute } from "@tanstack/react-router";

import { authSearchSchema } from "@/features/auth/search";
import { SignupPage } from "@/features/auth/signup-page";

export const Route = createFileRoute("/signup")({
  validateSearch: authSearchSchema,
  component: SignupRoute,
});

function SignupRoute() {
  const { redirect } = Route.useSearch();
  return <SignupPage redirect={redirect} />;
}
