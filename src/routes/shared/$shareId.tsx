import { createFileRoute } from "@tanstack/react-router";

import { SharedResultsPage } from "@/features/shared/shared-page";

export const Route = createFileRoute("/shared/$shareId")({
  component: SharedRoute,
});

function SharedRoute() {
  const { shareId } = Route.useParams();
  return <SharedResultsPage shareId={shareId} />;
}
