import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery } from "convex/react";
import { ChevronRightIcon, UsersIcon } from "lucide-react";

import { Banner } from "@/components/banner";
import { EmptyState } from "@/components/empty-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { ROLE_LABELS } from "../../../convex/lib/teams";
import { useSpace } from "@/lib/space-context";
import { TeamNameForm } from "./team-forms";

/** /dashboard/teams: the caller's teams and a form to create one. */
export function TeamsPage() {
  const create = useMutation(api.teams.create);
  const navigate = useNavigate();
  const { selectSpace } = useSpace();

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Teams</h1>
        <p className="text-muted-foreground">
          Choose models together: teammates see the team's tests. Owners manage members, members run tests, viewers
          look.
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Create a team</CardTitle>
          <CardDescription>You will be its owner, and can invite people by email.</CardDescription>
        </CardHeader>
        <CardContent>
          <TeamNameForm
            submitText="Create Team"
            onSubmit={async (name) => {
              const { teamId } = await create({ name });
              selectSpace(teamId);
              await navigate({ to: "/dashboard/teams/$teamId", params: { teamId } });
            }}
          />
        </CardContent>
      </Card>
      <QueryErrorBoundary
        fallback={(error) => <Banner tone="error">Failed to load your teams. {errorMessage(error)}</Banner>}
      >
        <TeamList />
      </QueryErrorBoundary>
    </div>
  );
}

function TeamList() {
  const teams = useQuery(api.teams.mine);
  if (teams === undefined) return <Skeleton className="h-32 rounded-xl" aria-label="Loading teams" />;
  if (teams.length === 0) {
    return (
      <EmptyState
        icon={UsersIcon}
        title="No teams yet"
        description="Create a team above, or open an invitation link a teammate sent you."
      />
    );
  }
  return (
    <section aria-labelledby="your-teams" className="space-y-3">
      <h2 id="your-teams" className="text-lg font-semibold">
        Your teams
      </h2>
      <ul className="divide-y rounded-lg border">
        {teams.map((team) => (
          <li key={team.teamId}>
            <Link
              to="/dashboard/teams/$teamId"
              params={{ teamId: team.teamId }}
              className="flex items-center gap-3 px-4 py-3 hover:bg-accent"
            >
              <UsersIcon className="size-4 text-muted-foreground" aria-hidden="true" />
              <span className="flex-1 truncate font-medium">{team.name}</span>
              <Badge variant="secondary">{ROLE_LABELS[team.role]}</Badge>
              <ChevronRightIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
