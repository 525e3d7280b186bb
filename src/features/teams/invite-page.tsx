import { useAuthActions } from "@convex-dev/auth/react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { MailIcon, UsersIcon } from "lucide-react";
import { useState, type ReactNode } from "react";

import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { FullPageSpinner, Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { CenteredFrame } from "@/features/auth/auth-layout";
import { FormError } from "@/components/form-error";
import { useNow } from "@/hooks/use-now";
import { useViewer } from "@/hooks/use-viewer";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { invitePath, ROLE_DESCRIPTIONS, ROLE_LABELS, TEAM_MESSAGES } from "../../../convex/lib/teams";
import { SPACE_STORAGE_KEY } from "@/lib/space-context";

/** /invite/$token: who invited whom to which team, and the way to accept it with the invited email. */
export function InvitePage({ token }: { token: string }) {
  return (
    <CenteredFrame>
      <div className="w-full max-w-md">
        <QueryErrorBoundary
          fallback={(error, reset) => (
            <Notice title="Could not load the invitation" action={<Button onClick={reset}>Try Again</Button>}>
              {errorMessage(error)}
            </Notice>
          )}
        >
          <Invitation token={token} />
        </QueryErrorBoundary>
      </div>
    </CenteredFrame>
  );
}

function Notice({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card>
      <CardHeader className="text-center">
        <CardTitle>
          <h1 className="text-2xl">{title}</h1>
        </CardTitle>
      </CardHeader>
      <CardContent className="text-center text-sm text-muted-foreground" role="status">
        {children}
      </CardContent>
      {action && <CardFooter className="flex-col gap-3">{action}</CardFooter>}
    </Card>
  );
}

function Invitation({ token }: { token: string }) {
  const { isAuthenticated, isLoading } = useConvexAuth();
  const viewer = useViewer();
  const invitation = useQuery(api.teams.invitation, { token });
  const now = useNow(60_000);
  if (isLoading || invitation === undefined || (isAuthenticated && viewer === undefined)) {
    return <FullPageSpinner label="Loading the invitation" />;
  }
  const toDashboard = (
    <Button asChild variant="outline" className="w-full">
      <Link to={isAuthenticated ? "/dashboard" : "/"}>{isAuthenticated ? "Go to Dashboard" : "Go to ModelJury"}</Link>
    </Button>
  );
  if (invitation === null)
    return (
      <Notice title="Invitation not found" action={toDashboard}>
        {TEAM_MESSAGES.invitationNotFound}
      </Notice>
    );

  const openTeam = invitation.alreadyMember && (
    <Button asChild className="w-full">
      <Link to="/dashboard/teams/$teamId" params={{ teamId: invitation.teamId }}>
        Open {invitation.teamName}
      </Link>
    </Button>
  );
  if (invitation.state !== "open" || invitation.expiresAt <= now) {
    const message =
      invitation.state === "accepted"
        ? TEAM_MESSAGES.invitationUsed
        : invitation.state === "revoked"
          ? TEAM_MESSAGES.invitationRevoked
          : invitation.state === "declined"
            ? TEAM_MESSAGES.invitationDeclined
            : TEAM_MESSAGES.invitationExpired;
    return (
      <Notice title="Invitation not available" action={openTeam || toDashboard}>
        {message}
      </Notice>
    );
  }

  const role = ROLE_LABELS[invitation.role].toLowerCase();
  return (
    <Card>
      <CardHeader className="text-center">
        <UsersIcon className="mx-auto size-8 text-muted-foreground" aria-hidden="true" />
        <CardTitle>
          <h1 className="text-2xl">Join {invitation.teamName}</h1>
        </CardTitle>
        <CardDescription>
          {invitation.inviter} invited <strong className="text-foreground">{invitation.email}</strong> to join as {role}
          . {ROLE_DESCRIPTIONS[invitation.role]}
        </CardDescription>
      </CardHeader>
      {invitation.forCaller === null ? (
        <SignedOut token={token} email={invitation.email} />
      ) : invitation.forCaller ? (
        <Respond token={token} teamName={invitation.teamName} />
      ) : (
        <OtherAccount invited={invitation.email} signedIn={viewer?.email ?? ""} />
      )}
    </Card>
  );
}

function SignedOut({ token, email }: { token: string; email: string }) {
  const search = { redirect: invitePath(token) };
  return (
    <>
      <CardContent className="text-center text-sm text-muted-foreground">
        <MailIcon className="mr-1 inline size-4" aria-hidden="true" />
        Sign in or create an account with <strong className="text-foreground">{email}</strong>; you come back here to
        accept.
      </CardContent>
      <CardFooter className="flex-col gap-3">
        <Button asChild className="w-full">
          <Link to="/login" search={search}>
            Sign In to Accept
          </Link>
        </Button>
        <Button asChild variant="outline" className="w-full">
          <Link to="/signup" search={search}>
            Create Account
          </Link>
        </Button>
      </CardFooter>
    </>
  );
}

function OtherAccount({ invited, signedIn }: { invited: string; signedIn: string }) {
  const { signOut } = useAuthActions();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <>
      <CardContent>
        <FormError message={TEAM_MESSAGES.invitationOtherEmail(invited, signedIn)} />
      </CardContent>
      <CardFooter className="flex-col gap-3">
        <Button
          className="w-full"
          disabled={signingOut}
          onClick={() => {
            setSigningOut(true);
            // This page stays: signed out, it offers to sign in with the invited email.
            void signOut().finally(() => setSigningOut(false));
          }}
        >
          {signingOut && <Spinner className="text-current" label="Signing out" />}
          Sign Out
        </Button>
      </CardFooter>
    </>
  );
}

function Respond({ token, teamName }: { token: string; teamName: string }) {
  const accept = useMutation(api.teams.accept);
  const decline = useMutation(api.teams.decline);
  const navigate = useNavigate();
  const [pending, setPending] = useState<"accept" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function respond(kind: "accept" | "decline") {
    setPending(kind);
    setError(null);
    try {
      if (kind === "accept") {
        const { teamId } = await accept({ token });
        // The new team becomes the chosen space (the switcher reads this key).
        try {
          window.localStorage.setItem(SPACE_STORAGE_KEY, teamId);
        } catch {
          // Storage blocked: the switcher starts on Personal.
        }
        await navigate({ to: "/dashboard/teams/$teamId", params: { teamId } });
      } else {
        await decline({ token });
      }
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(null);
    }
  }

  return (
    <>
      <CardContent>
        <FormError message={error} />
      </CardContent>
      <CardFooter className="flex-col gap-3">
        <Button className="w-full" disabled={pending !== null} onClick={() => void respond("accept")}>
          {pending === "accept" && <Spinner className="text-current" label="Joining" />}
          Join {teamName}
        </Button>
        <Button variant="ghost" className="w-full" disabled={pending !== null} onClick={() => void respond("decline")}>
          {pending === "decline" && <Spinner className="text-current" label="Declining" />}
          Decline
        </Button>
      </CardFooter>
    </>
  );
}
