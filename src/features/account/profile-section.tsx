import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { UserRoundIcon } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { appErrorData } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { shortId } from "../../../convex/lib/format";
import { cleanOptionalText, PROFILE_LIMITS, profileSchema } from "../../../convex/lib/forms";
import { Banner } from "@/components/banner";
import { formatMediumDateTime } from "@/lib/dates";

export type Profile = FunctionReturnType<typeof api.profile.get>;

export const PROFILE_SAVED = "Profile updated successfully!";
export const PROFILE_SAVE_FAILED = "Failed to update profile";

type ProfileUpdate = z.output<typeof profileSchema>;

/** Trimmed; empty becomes null (spec part 2 §5): the profile schema's rule, which the server parses with. */
export function cleanProfileField(value: string): string | null {
  return cleanOptionalText(value);
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

type ProfileValues = z.input<typeof profileSchema>;

export function ProfileSection({ profile }: { profile: Profile }) {
  const update = useMutation(api.profile.update);
  // The schema profile.update parses with (convex/lib/forms): trimmed, empty as null.
  const form = useForm<ProfileValues, unknown, ProfileUpdate>({
    resolver: zodResolver(profileSchema),
    defaultValues: { fullName: profile.fullName ?? "", avatarUrl: profile.avatarUrl ?? "" },
  });
  const [result, setResult] = useState<{ tone: "success" | "error"; detail?: string } | null>(null);
  const saving = form.formState.isSubmitting;

  async function submit(values: ProfileUpdate) {
    setResult(null);
    try {
      await update(values);
      form.reset({ fullName: values.fullName ?? "", avatarUrl: values.avatarUrl ?? "" });
      setResult({ tone: "success" });
    } catch (error) {
      console.error("Failed to update profile", error);
      setResult({ tone: "error", detail: appErrorData(error)?.message });
    }
  }

  const preview = form.watch("avatarUrl").trim();
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
        <Form {...form}>
          <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-5">
            {result?.tone === "success" && <Banner tone="success">{PROFILE_SAVED}</Banner>}
            {result?.tone === "error" && (
              <Banner tone="error">
                <p className="font-medium">{PROFILE_SAVE_FAILED}</p>
                {result.detail && <p>{result.detail}</p>}
              </Banner>
            )}
            <div className="grid gap-2">
              <Label htmlFor="profile-email">Email</Label>
              <Input
                id="profile-email"
                type="email"
                value={profile.email}
                readOnly
                aria-describedby="profile-email-note"
                className="bg-muted"
              />
              <p id="profile-email-note" className="text-xs text-muted-foreground">
                Email cannot be changed. Contact support if needed.
              </p>
            </div>
            <FormField
              control={form.control}
              name="fullName"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Full Name</FormLabel>
                  <FormControl>
                    <Input
                      autoComplete="name"
                      maxLength={PROFILE_LIMITS.maxFullNameLength}
                      placeholder="Your name"
                      {...field}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="avatarUrl"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Avatar URL</FormLabel>
                  <div className="flex items-center gap-4">
                    <FormControl>
                      <Input
                        type="url"
                        inputMode="url"
                        maxLength={PROFILE_LIMITS.maxAvatarUrlLength}
                        placeholder="https://example.com/avatar.png"
                        {...field}
                      />
                    </FormControl>
                    <AvatarPreview key={preview} url={preview} />
                  </div>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div>
              <Button type="submit" disabled={saving}>
                {saving && <Spinner className="text-current" label="Saving profile" />}
                {saving ? "Saving..." : "Save Changes"}
              </Button>
            </div>
          </form>
        </Form>
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
