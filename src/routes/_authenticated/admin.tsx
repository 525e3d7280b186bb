import { createFileRoute } from "@tanstack/react-router";

import { AdminPage } from "@/features/admin/admin-page";
import { parseAdminSearch } from "@/features/admin/search";

export const Route = createFileRoute("/_authenticated/admin")({
  validateSearch: parseAdminSearch,
  component: AdminRoute,
});

function AdminRoute() {
  const { tab = "overview" } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AdminPage
      tab={tab}
      onTabChange={(next) => void navigate({ search: { tab: next === "overview" ? undefined : next }, replace: true })}
    />
  );
}
