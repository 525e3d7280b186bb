import { createFileRoute } from "@tanstack/react-router";

import { preloadBackend } from "@/components/backend-boundary";
import { SharedResultsPage } from "@/features/shared/shared-page";

export const Route = createFileRoute("/shared/$shareId")({
  staticData: { backend: true },
  beforeLoad: preloadBackend,
  component: SharedRoute,
});

function SharedRoute() {
  const { shareId } = Route.useParams();
  return <SharedResultsPage shareId={shareId} />;
}
