import { useRouterState } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { useCallback, useEffect, useState } from "react";

import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Skeleton } from "@/components/ui/skeleton";
import { USAGE_SECTION_ID } from "@/lib/navigation";
import { api } from "../../../convex/_generated/api";
import { ApiKeySection } from "./api-key-section";
import { ApiTokensSection, ApiTokensUnavailable } from "./api-tokens-section";
import { Banner } from "@/components/banner";
import { ChangePasswordSection } from "./change-password-section";
import { ProfileSection } from "./profile-section";

export const PROFILE_LOAD_FAILED = "Failed to load profile information";

export function AccountSettingsPage() {
  const [profileLoaded, setProfileLoaded] = useState(false);
  const onProfileLoaded = useCallback(() => setProfileLoaded(true), []);
  useScrollToHashSection(USAGE_SECTION_ID, profileLoaded);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Account Settings</h1>
        <p className="text-muted-foreground">Your profile, password, own API key and API tokens.</p>
      </div>
      <QueryErrorBoundary fallback={() => <Banner tone="error">{PROFILE_LOAD_FAILED}</Banner>}>
        <Profile onLoaded={onProfileLoaded} />
      </QueryErrorBoundary>
      <ChangePasswordSection />
      <QueryErrorBoundary fallback={() => <Banner tone="error">Failed to load your API key settings</Banner>}>
        <ApiKeySection />
      </QueryErrorBoundary>
      <QueryErrorBoundary fallback={() => <ApiTokensUnavailable />}>
        <ApiTokensSection />
      </QueryErrorBoundary>
    </div>
  );
}

/**
 * The user menu's Usage item opens /dashboard/settings#usage. The section is there from the first
 * render, but the profile above it grows when it loads, so it is scrolled to again then.
 */
function useScrollToHashSection(id: string, aboveLoaded: boolean) {
  const hash = useRouterState({ select: (state) => state.location.hash });
  useEffect(() => {
    if (hash === id) document.getElementById(id)?.scrollIntoView({ block: "start" });
  }, [hash, id, aboveLoaded]);
}

function Profile({ onLoaded }: { onLoaded: () => void }) {
  const profile = useQuery(api.profile.get);
  const loaded = profile !== undefined;
  useEffect(() => {
    if (loaded) onLoaded();
  }, [loaded, onLoaded]);
  if (profile === undefined) return <Skeleton className="h-96 rounded-xl" aria-label="Loading profile" />;
  // Keyed by account, not by update: a save keeps the form (and its banner) in place.
  return <ProfileSection key={profile.id} profile={profile} />;
}
