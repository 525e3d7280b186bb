import { createFileRoute } from "@tanstack/react-router";

import { SetupPage } from "@/features/setup/setup-page";
import { parseSetupSearch } from "@/features/setup/search";

export const Route = createFileRoute("/_authenticated/dashboard/setup")({
  validateSearch: parseSetupSearch,
  component: SetupRoute,
});

function SetupRoute() {
  const search = Route.useSearch();
  return <SetupPage search={search} />;
}
