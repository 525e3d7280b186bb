import { createFileRoute } from "@tanstack/react-router";

import { preloadBackend } from "@/components/backend-boundary";
import { InvitePage } from "@/features/teams/invite-page";

// Open to everyone: signed out, the page offers sign-in or sign-up with the invited email and comes back.
export const Route = createFileRoute("/invite/$token")({
  staticData: { backend: true },
  beforeLoad: preloadBackend,
  component: InviteRoute,
});

function InviteRoute() {
  const { token } = Route.useParams();
  return <InvitePage token={token} />;
}
