import { useAction, useMutation, useQuery } from "convex/react";
import { CopyIcon, KeyRoundIcon, Trash2Icon } from "lucide-react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";

import { Banner } from "@/components/banner";
import { DestructiveConfirmDialog } from "@/components/confirm-dialog";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDate, formatDateTime } from "@/lib/dates";
import { appErrorData, errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { API_TOKEN_LIMITS } from "../../../convex/lib/limits";
import { useSpace } from "@/lib/space-context";

const PERSONAL = "personal";

export const TOKEN_SHOWN_ONCE = "Copy this token now: it is not shown again.";

/**
 * Personal access tokens for the HTTP API and the command-line runner (README, "ModelJury from
 * code"): made for one space, shown once, listed with their last use, revoked at once.
 */
export function ApiTokensSection() {
  const tokens = useQuery(api.apiTokens.list);
  const create = useAction(api.apiTokens.create);
  const revoke = useMutation(api.apiTokens.revoke);
  const { teams } = useSpace();
  const [name, setName] = useState("");
  const [space, setSpace] = useState<string>(PERSONAL);
  const [nameError, setNameError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<{ id: Id<"apiTokens">; name: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNameError(null);
    setCreating(true);
    try {
      const teamId = space === PERSONAL ? undefined : (space as Id<"teams">);
      const result = await create({ name, ...(teamId ? { teamId } : {}) });
      setCreated({ name: name.trim(), token: result.token });
      setName("");
    } catch (error) {
      if (appErrorData(error)?.code === "INVALID_INPUT") setNameError(errorMessage(error));
      else toast.error(errorMessage(error));
    } finally {
      setCreating(false);
    }
  }

  async function copy(token: string) {
    try {
      await navigator.clipboard.writeText(token);
      toast.success("Token copied");
    } catch {
      toast.error("Could not copy: select the token and copy it yourself.");
    }
  }

  return (
    <Card role="region" aria-labelledby="api-tokens-heading">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon aria-hidden="true" className="size-4 text-primary" />
          <h2 id="api-tokens-heading">API tokens</h2>
        </CardTitle>
        <CardDescription>
          Tokens let scripts and CI use the ModelJury API (<code>/api/v1</code>) and the <code>modeljury</code>{" "}
          command-line runner. A token acts in one space with your role there.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {created && (
          <Banner tone="success">
            <div className="grid gap-2">
              <p>
                Token “{created.name}” created. {TOKEN_SHOWN_ONCE}
              </p>
              <div className="flex flex-wrap items-center gap-2">
                <code className="rounded bg-muted px-2 py-1 font-mono text-xs break-all" data-testid="new-api-token">
                  {created.token}
                </code>
                <Button type="button" variant="outline" size="sm" onClick={() => void copy(created.token)}>
                  <CopyIcon />
                  Copy
                </Button>
                <Button type="button" variant="ghost" size="sm" onClick={() => setCreated(null)}>
                  Done
                </Button>
              </div>
            </div>
          </Banner>
        )}
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-3 sm:grid-cols-[1fr_12rem_auto]">
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-name">Token name</Label>
            <Input
              id="api-token-name"
              value={name}
              maxLength={API_TOKEN_LIMITS.maxNameLength}
              placeholder="e.g., GitHub Actions"
              aria-invalid={nameError !== null}
              aria-describedby={nameError ? "api-token-name-error" : undefined}
              onChange={(event) => setName(event.target.value)}
            />
            {nameError && (
              <p id="api-token-name-error" className="text-sm text-destructive">
                {nameError}
              </p>
            )}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-space">Space</Label>
            <Select value={space} onValueChange={setSpace}>
              <SelectTrigger id="api-token-space" aria-label="Space">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={PERSONAL}>Personal</SelectItem>
                {(teams ?? []).map((team) => (
                  <SelectItem key={team.teamId} value={team.teamId}>
                    {team.name} ({team.role})
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex items-end">
            <Button type="submit" disabled={creating}>
              {creating && <Spinner className="text-current" label="Creating token" />}
              Create Token
            </Button>
          </div>
        </form>
        {tokens === undefined ? (
          <Skeleton className="h-16" aria-label="Loading tokens" />
        ) : tokens.length === 0 ? (
          <p className="text-sm text-muted-foreground">No tokens yet</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="API tokens">
            {tokens.map((token) => (
              <li key={token._id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                <div className="grid gap-0.5">
                  <p className="font-medium">{token.name}</p>
                  <p className="text-xs text-muted-foreground">
                    <span className="font-mono">{token.shown}</span> · {token.team ? token.team.name : "Personal"} ·
                    created {formatDate(token.createdAt)} ·{" "}
                    {token.lastUsedAt === null ? "never used" : `last used ${formatDateTime(token.lastUsedAt)}`}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="text-destructive"
                  onClick={() => setRevoking({ id: token._id, name: token.name })}
                >
                  <Trash2Icon />
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
        {revoking && (
          <DestructiveConfirmDialog
            open
            onOpenChange={(open) => {
              if (!open) setRevoking(null);
            }}
            title="Revoke token?"
            description="Scripts using this token stop working at once."
            subject={revoking.name}
            confirmText="Revoke"
            loadingText="Revoking…"
            loadingLabel="Revoking token"
            failureText="The token could not be revoked. Please try again."
            onConfirm={() => revoke({ tokenId: revoking.id })}
            onConfirmed={() => toast.success("Token revoked")}
          />
        )}
      </CardContent>
    </Card>
  );
}

/** Shown when the tokens cannot load. */
export function ApiTokensUnavailable() {
  return <Banner tone="error">Failed to load your API tokens</Banner>;
}
