import { useQuery } from "convex/react";

import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Skeleton } from "@/components/ui/skeleton";
import { api } from "../../../convex/_generated/api";
import { ApiKeySection } from "./api-key-section";
import { Banner } from "@/components/banner";
import { ChangePasswordSection } from "./change-password-section";
import { ProfileSection } from "./profile-section";

export const PROFILE_LOAD_FAILED = "Failed to load profile information";

export function AccountSettingsPage() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Account Settings</h1>
        <p className="text-muted-foreground">Your profile, password and own API key.</p>
      </div>
      <QueryErrorBoundary fallback={() => <Banner tone="error">{PROFILE_LOAD_FAILED}</Banner>}>
        <Profile />
      </QueryErrorBoundary>
      <ChangePasswordSection />
      <QueryErrorBoundary fallback={() => <Banner tone="error">Failed to load your API key settings</Banner>}>
        <ApiKeySection />
      </QueryErrorBoundary>
    </div>
  );
}

function Profile() {
  const profile = useQuery(api.profile.get);
  if (profile === undefined) return <Skeleton className="h-96 rounded-xl" aria-label="Loading profile" />;
  // Keyed by account, not by update: a save keeps the form (and its banner) in place.
  return <ProfileSection key={profile.id} profile={profile} />;
}
