import { useMutation } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { UserRoundIcon } from "lucide-react";
import { useState, type FormEvent } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { appErrorData } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { shortId } from "../../../convex/lib/format";
import { Banner } from "@/components/banner";
import { formatMediumDateTime } from "@/lib/dates";

export type Profile = FunctionReturnType<typeof api.profile.get>;

export const PROFILE_SAVED = "Profile updated successfully!";
export const PROFILE_SAVE_FAILED = "Failed to update profile";

/** Trimmed; empty becomes null (spec part 2 §5). The server applies the same rule. */
export function cleanProfileField(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/** The avatar preview; hidden while the URL does not load as an image. */
function AvatarPreview({ url }: { url: string }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (url === "" || failedUrl === url) return null;
  return (
    <img
      src={url}
      alt="Avatar preview"
      data-testid="avatar-preview"
      className="size-16 rounded-full border object-cover"
      onError={() => setFailedUrl(url)}
    />
  );
}

export function ProfileSection({ profile }: { profile: Profile }) {
  const update = useMutation(api.profile.update);
  const [fullName, setFullName] = useState(profile.fullName ?? "");
  const [avatarUrl, setAvatarUrl] = useState(profile.avatarUrl ?? "");
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<{ tone: "success" | "error"; detail?: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setResult(null);
    try {
      await update({ fullName: cleanProfileField(fullName), avatarUrl: cleanProfileField(avatarUrl) });
      setFullName((value) => value.trim());
      setAvatarUrl((value) => value.trim());
      setResult({ tone: "success" });
    } catch (error) {
      console.error("Failed to update profile", error);
      setResult({ tone: "error", detail: appErrorData(error)?.message });
    } finally {
      setSaving(false);
    }
  }

  const preview = avatarUrl.trim();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserRoundIcon aria-hidden="true" className="size-4 text-primary" />
          <h2>Profile</h2>
        </CardTitle>
        <CardDescription>How you appear in ModelJury.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-5">
          {result?.tone === "success" && <Banner tone="success">{PROFILE_SAVED}</Banner>}
          {result?.tone === "error" && (
            <Banner tone="error">
              <p className="font-medium">{PROFILE_SAVE_FAILED}</p>
              {result.detail && <p>{result.detail}</p>}
            </Banner>
          )}
          <div className="grid gap-2">
            <Label htmlFor="profile-email">Email</Label>
            <Input id="profile-email" type="email" value={profile.email} readOnly aria-describedby="profile-email-note" className="bg-muted" />
            <p id="profile-email-note" className="text-xs text-muted-foreground">
              Email cannot be changed. Contact support if needed.
            </p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="profile-full-name">Full Name</Label>
            <Input
              id="profile-full-name"
              autoComplete="name"
              maxLength={100}
              placeholder="Your name"
              value={fullName}
              onChange={(event) => setFullName(event.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="profile-avatar-url">Avatar URL</Label>
            <div className="flex items-center gap-4">
              <Input
                id="profile-avatar-url"
                type="url"
                inputMode="url"
                maxLength={2048}
                placeholder="https://example.com/avatar.png"
                value={avatarUrl}
                onChange={(event) => setAvatarUrl(event.target.value)}
              />
              <AvatarPreview key={preview} url={preview} />
            </div>
          </div>
          <div>
            <Button type="submit" disabled={saving}>
              {saving && <Spinner className="text-current" label="Saving profile" />}
              {saving ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>
        <dl className="mt-6 grid gap-3 border-t pt-5 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-muted-foreground">Account created</dt>
            <dd data-testid="account-created">{formatMediumDateTime(profile.createdAt)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Last updated</dt>
            <dd data-testid="account-updated">{formatMediumDateTime(profile.updatedAt)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Account ID</dt>
            <dd className="font-mono" data-testid="account-short-id">
              {shortId(profile.id)}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
