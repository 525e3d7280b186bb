import { createFileRoute } from "@tanstack/react-router";

import { TeamPage } from "@/features/teams/team-page";
import type { Id } from "../../../../../convex/_generated/dataModel";

export const Route = createFileRoute("/_authenticated/dashboard/teams/$teamId")({
  component: TeamRoute,
});

function TeamRoute() {
  const { teamId } = Route.useParams();
  // The server checks the id and the caller's membership; a wrong one shows the page's error state.
  return <TeamPage teamId={teamId as Id<"teams">} />;
}
