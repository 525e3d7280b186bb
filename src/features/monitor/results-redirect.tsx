import { useNavigate } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { useCallback, useEffect, useState } from "react";

import { FullPageSpinner } from "@/components/spinner";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { readCurrentTestId } from "./current-test-storage";
import { QueryErrorBoundary } from "@/components/query-error-boundary";

/**
 * /dashboard/results without an id (spec part 2 §2): to the current test's results when it is
 * completed, otherwise to /dashboard/history.
 *
 * "Current test" is the test this tab last watched on the monitor (sessionStorage, see
 * current-test-storage.ts): it stays current after it completes and is cleared when the user
 * stops it. `api.tests.current` without an id cannot serve here, since it only finds running or
 * pending tests, which are never completed. So: no remembered test → history; a remembered id
 * that is not the caller's (another account in this tab, a deleted test) → history; otherwise
 * its live status decides: completed → its results, anything else → history. If the lookup
 * fails, history too: a redirect has no screen of its own to show an error on.
 */
const HISTORY_HREF = "/dashboard/history";

export function ResultsRedirect() {
  const navigate = useNavigate();
  const goTo = useCallback((href: string) => void navigate({ href, replace: true }), [navigate]);
  return (
    <QueryErrorBoundary fallback={() => <RedirectTo href={HISTORY_HREF} go={goTo} />}>
      <ResolveCurrentResults go={goTo} />
    </QueryErrorBoundary>
  );
}

function ResolveCurrentResults({ go }: { go: (href: string) => void }) {
  const [rememberedId] = useState(readCurrentTestId);
  const ownedId = useQuery(api.tests.current, rememberedId ? { testId: rememberedId as Id<"tests"> } : "skip");
  const monitor = useQuery(api.tests.monitor, ownedId ? { testId: ownedId } : "skip");
  const destination = resultsRedirectTarget(rememberedId, ownedId, monitor?.test.status);
  if (destination === null) return <FullPageSpinner label="Finding your results" />;
  return <RedirectTo href={destination} go={go} />;
}

/** The redirect rule above as a pure function; null while the answer is still loading. */
export function resultsRedirectTarget(
  rememberedId: string | null,
  ownedId: string | null | undefined,
  status: string | undefined,
): string | null {
  if (rememberedId === null || ownedId === null) return HISTORY_HREF;
  if (ownedId === undefined || status === undefined) return null;
  return status === "completed" ? `/dashboard/results/${ownedId}` : HISTORY_HREF;
}

function RedirectTo({ href, go }: { href: string; go: (href: string) => void }) {
  useEffect(() => go(href), [href, go]);
  return <FullPageSpinner label="Finding your results" />;
}
