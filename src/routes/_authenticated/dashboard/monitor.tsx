import { createFileRoute } from "@tanstack/react-router";

import { MonitorPage } from "@/features/monitor/monitor-page";
import { parseMonitorSearch } from "@/features/monitor/search";
import { paymentSessionIdOf } from "@/lib/payment-return";

export const Route = createFileRoute("/_authenticated/dashboard/monitor")({
  validateSearch: parseMonitorSearch,
  component: MonitorRoute,
});

function MonitorRoute() {
  const search = Route.useSearch();
  return <MonitorPage testId={search.testId} sessionId={paymentSessionIdOf(search) ?? undefined} />;
}
