import { createFileRoute } from "@tanstack/react-router";

import { SetupPage } from "@/features/setup/setup-page";
import { setupSearchSchema } from "@/features/setup/search";

export const Route = createFileRoute("/_authenticated/dashboard/setup")({
  validateSearch: setupSearchSchema,
  component: SetupRoute,
});

function SetupRoute() {
  const search = Route.useSearch();
  return <SetupPage search={search} />;
}
