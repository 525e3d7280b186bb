import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { PlusIcon } from "lucide-react";

import { ErrorState } from "@/components/error-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { useSpace } from "@/lib/space-context";
import { useViewer } from "@/hooks/use-viewer";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { greeting } from "../../../convex/lib/format";
import { QuickActions } from "./quick-actions";
import { RecentActivity } from "./recent-activity";
import { RecentTests } from "./recent-tests";
import { SavedPersonasPanel, SavedTopicsPanel } from "./saved-assets";
import { StatCards } from "./stat-cards";

export function DashboardHome() {
  const viewer = useViewer();

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          {viewer === undefined ? (
            <Skeleton className="h-9 w-64" />
          ) : (
            <h1 className="text-3xl font-bold tracking-tight break-words">
              {greeting(viewer?.email, viewer?.isNew === true)}
            </h1>
          )}
          <p className="text-muted-foreground">Compare models on your prompts and let a jury of models judge them.</p>
        </div>
        <Button asChild size="lg">
          <Link to="/dashboard/setup">
            <PlusIcon /> Create New Test
          </Link>
        </Button>
      </div>
      <QueryErrorBoundary
        fallback={(error, retry) => (
          <ErrorState title="Failed to load your dashboard" message={errorMessage(error)} onRetry={retry} />
        )}
      >
        <DashboardPanels />
      </QueryErrorBoundary>
    </div>
  );
}

/** Everything below the greeting, from one live query (undefined while it loads). */
function DashboardPanels() {
  const { teamId } = useSpace();
  const data = useQuery(api.dashboard.home, teamId === null ? {} : { teamId });
  return (
    <div className="space-y-6">
      <StatCards data={data} />
      <div className="grid gap-6 lg:grid-cols-3">
        {/* min-w-0: grid items otherwise grow to fit their longest unbroken line on phones. */}
        <div className="min-w-0 lg:col-span-2">
          <RecentTests tests={data?.recentTests} />
        </div>
        <div className="min-w-0 space-y-6">
          <QuickActions />
          <RecentActivity activity={data?.activity} />
        </div>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <div className="min-w-0">
          <SavedPersonasPanel data={data?.personas} />
        </div>
        <div className="min-w-0">
          <SavedTopicsPanel data={data?.topics} />
        </div>
      </div>
    </div>
  );
}
