import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { ArrowLeftIcon, LogOutIcon, MailIcon, Trash2Icon, UserMinusIcon } from "lucide-react";
import { toast } from "sonner";

import { useConfirm } from "@/components/confirm-dialog";
import { EmptyState } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useNow } from "@/hooks/use-now";
import { appErrorData, errorMessage, INVALID_REQUEST_MESSAGE } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { ROLE_LABELS, type TeamRole } from "../../../convex/lib/teams";
import { useSpace } from "@/lib/space-context";
import { CopyLink, InviteForm, RoleSelect, TeamNameForm } from "./team-forms";

export const ACCESS_LOST_TITLE = "You no longer have access to this team";

/** /dashboard/teams/$teamId: the team's members, and for owners its invitations and settings. */
export function TeamPage({ teamId }: { teamId: Id<"teams"> }) {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link
        to="/dashboard/teams"
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" /> All teams
      </Link>
      <QueryErrorBoundary fallback={(error, reset) => <TeamLoadError error={error} onRetry={reset} />}>
        <TeamDetail teamId={teamId} />
      </QueryErrorBoundary>
    </div>
  );
}

/** Not a member (removed, left, team deleted) is its own screen: the page had been open when access ended. */
export function TeamLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (appErrorData(error)?.code === "NOT_FOUND") {
    return (
      <ErrorState
        title={ACCESS_LOST_TITLE}
        message="The team was deleted, or an owner removed you from it. Ask an owner to invite you again."
      />
    );
  }
  const message = errorMessage(error);
  // A malformed id in the address fails the argument validator: there is no such team.
  if (message === INVALID_REQUEST_MESSAGE)
    return <ErrorState title="Team not found" message="Check the address, or open the team from your list." />;
  return <ErrorState title="Failed to load the team" message={message} onRetry={onRetry} />;
}

type Team = FunctionReturnType<typeof api.teams.get>;

function TeamDetail({ teamId }: { teamId: Id<"teams"> }) {
  const team = useQuery(api.teams.get, { teamId });
  const rename = useMutation(api.teams.rename);
  const { teamId: spaceId, selectSpace } = useSpace();
  if (team === undefined) return <Skeleton className="h-96 rounded-xl" aria-label="Loading team" />;
  const isOwner = team.myRole === "owner";

  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold tracking-tight break-words">{team.name}</h1>
        <Badge variant="secondary">Your role: {ROLE_LABELS[team.myRole]}</Badge>
        <div className="ml-auto">
          {spaceId === teamId ? (
            <Badge>Current space</Badge>
          ) : (
            <Button variant="outline" size="sm" onClick={() => selectSpace(teamId)}>
              Switch to this team
            </Button>
          )}
        </div>
      </div>

      {isOwner && (
        <Card>
          <CardHeader>
            <CardTitle>Team name</CardTitle>
          </CardHeader>
          <CardContent>
            <TeamNameForm
              key={team.name}
              initialName={team.name}
              submitText="Rename"
              onSubmit={async (name) => {
                await rename({ teamId, name });
                toast.success("Team renamed.");
              }}
            />
          </CardContent>
        </Card>
      )}

      <Members team={team} />

      {isOwner && (
        <Card>
          <CardHeader>
            <CardTitle>Invite people</CardTitle>
            <CardDescription>They accept by signing in or signing up with the invited email.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <InviteForm teamId={teamId} />
            <PendingInvitations teamId={teamId} />
          </CardContent>
        </Card>
      )}

      <LeaveOrDelete team={team} />
    </>
  );
}

function Members({ team }: { team: Team }) {
  const setRole = useMutation(api.teams.setRole);
  const removeMember = useMutation(api.teams.removeMember);
  const { ask, dialog } = useConfirm();
  const isOwner = team.myRole === "owner";

  async function changeRole(userId: Id<"users">, role: TeamRole) {
    try {
      await setRole({ teamId: team.teamId, userId, role });
      toast.success("Role updated.");
    } catch (error) {
      toast.error(errorMessage(error, "Could not change the role."));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          {team.members.length} {team.members.length === 1 ? "member" : "members"}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" aria-label="Members">
          {team.members.map((member) => (
            <li key={member.userId} className="flex flex-wrap items-center gap-3 py-3" data-testid="team-member">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">
                  {member.name ?? member.email}
                  {member.isMe && <span className="text-muted-foreground"> (you)</span>}
                </p>
                {member.name && <p className="truncate text-sm text-muted-foreground">{member.email}</p>}
              </div>
              {isOwner ? (
                <RoleSelect
                  label={`Role of ${member.email}`}
                  value={member.role}
                  onChange={(role) => void changeRole(member.userId, role)}
                />
              ) : (
                <Badge variant="outline">{ROLE_LABELS[member.role]}</Badge>
              )}
              {isOwner && !member.isMe && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${member.email}`}
                  onClick={() =>
                    ask({
                      title: "Remove member?",
                      description: "They lose access to the team and its tests at once.",
                      subject: member.email,
                      confirmText: "Remove",
                      destructive: true,
                      loadingText: "Removing...",
                      onConfirm: async () => {
                        try {
                          await removeMember({ teamId: team.teamId, userId: member.userId });
                        } catch (error) {
                          toast.error(errorMessage(error, "Could not remove the member."));
                          throw error;
                        }
                      },
                    })
                  }
                >
                  <UserMinusIcon />
                </Button>
              )}
            </li>
          ))}
        </ul>
        {dialog}
      </CardContent>
    </Card>
  );
}

function PendingInvitations({ teamId }: { teamId: Id<"teams"> }) {
  const invitations = useQuery(api.teams.invitations, { teamId });
  const revoke = useMutation(api.teams.revokeInvitation);
  const now = useNow(60_000);

  async function withdraw(invitationId: Id<"invitations">) {
    try {
      await revoke({ invitationId });
      toast.success("Invitation revoked.");
    } catch (error) {
      toast.error(errorMessage(error, "Could not revoke the invitation."));
    }
  }

  return (
    <section aria-labelledby="pending-invitations" className="space-y-2">
      <h3 id="pending-invitations" className="font-semibold">
        Pending invitations
      </h3>
      {invitations === undefined ? (
        <Skeleton className="h-16" aria-label="Loading invitations" />
      ) : invitations.length === 0 ? (
        <EmptyState icon={MailIcon} title="No pending invitations" className="py-6" />
      ) : (
        <ul className="divide-y rounded-md border">
          {invitations.map((row) => {
            const expired = row.expiresAt <= now;
            return (
              <li
                key={row.invitationId}
                className="flex flex-wrap items-center gap-3 px-3 py-2"
                data-testid="pending-invitation"
              >
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{row.email}</p>
                  <p className="text-xs text-muted-foreground">
                    {ROLE_LABELS[row.role]} ·{" "}
                    {expired
                      ? "Expired: invite them again for a new link"
                      : `Expires ${new Date(row.expiresAt).toLocaleDateString()}`}
                  </p>
                </div>
                {!expired && <CopyLink token={row.token} id={`invite-${row.invitationId}`} compact />}
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => void withdraw(row.invitationId)}
                  aria-label={`Revoke invitation for ${row.email}`}
                >
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function LeaveOrDelete({ team }: { team: Team }) {
  const leave = useMutation(api.teams.leave);
  const remove = useMutation(api.teams.remove);
  const navigate = useNavigate();
  const { teamId: spaceId, selectSpace } = useSpace();
  const { ask, dialog } = useConfirm();

  function gone() {
    if (spaceId === team.teamId) selectSpace(null);
    void navigate({ to: "/dashboard/teams" });
  }

  async function run(call: () => Promise<unknown>, failure: string) {
    try {
      await call();
    } catch (error) {
      toast.error(errorMessage(error, failure));
      throw error;
    }
  }

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Leave or delete</CardTitle>
        <CardDescription>
          A team always keeps an owner: the last owner can delete the team, not leave it.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Button
          variant="outline"
          onClick={() =>
            ask({
              title: "Leave team?",
              description: "You lose access to the team's tests. An owner can invite you again.",
              subject: team.name,
              confirmText: "Leave Team",
              destructive: true,
              loadingText: "Leaving...",
              onConfirm: () => run(() => leave({ teamId: team.teamId }), "Could not leave the team."),
              onConfirmed: gone,
            })
          }
        >
          <LogOutIcon /> Leave Team
        </Button>
        {team.myRole === "owner" && (
          <Button
            variant="destructive"
            onClick={() =>
              ask({
                title: "Delete team?",
                description: "Everyone loses access to the team at once, and its members and invitations are removed.",
                subject: team.name,
                irreversible: true,
                confirmText: "Delete Team",
                destructive: true,
                loadingText: "Deleting...",
                onConfirm: () => run(() => remove({ teamId: team.teamId }), "Could not delete the team."),
                onConfirmed: gone,
              })
            }
          >
            <Trash2Icon /> Delete Team
          </Button>
        )}
        {dialog}
      </CardContent>
    </Card>
  );
}
