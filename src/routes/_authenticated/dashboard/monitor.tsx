import { createFileRoute } from "@tanstack/react-router";

import { MonitorPage } from "@/features/monitor/monitor-page";
import { parseMonitorSearch } from "@/features/monitor/search";

export const Route = createFileRoute("/_authenticated/dashboard/monitor")({
  validateSearch: parseMonitorSearch,
  component: MonitorRoute,
});

function MonitorRoute() {
  const { testId, session_id: sessionId } = Route.useSearch();
  return <MonitorPage testId={testId} sessionId={sessionId} />;
}
