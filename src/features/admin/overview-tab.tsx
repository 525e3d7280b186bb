import { useQuery } from "convex/react";
import { ActivityIcon, AlertTriangleIcon, BriefcaseIcon, DollarSignIcon, InboxIcon, UsersIcon } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatMediumDate } from "@/lib/dates";
import { api } from "../../../convex/_generated/api";
import { formatCents, formatCount, formatPercent } from "../../../convex/lib/format";
import { healthWarnings, RECENT_JOBS_LIMIT } from "../../../convex/lib/jobAnalysis";

import { JobStatusBadge, JobStatusIcon } from "./job-status";
import { StatCard } from "./stat-card";
import { useMinute } from "./use-minute";

export function OverviewTab({ onShowJobs }: { onShowJobs: () => void }) {
  const now = useMinute();
  const stats = useQuery(api.admin.stats, {});
  const health = useQuery(api.admin.health, { now });
  const recent = useQuery(api.admin.listJobs, { limit: RECENT_JOBS_LIMIT });
  const warnings = health && !health.isHealthy ? healthWarnings(health) : [];

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Users" icon={UsersIcon} value={stats && formatCount(stats.totalUsers)} />
        <StatCard
          label="Total Jobs"
          icon={BriefcaseIcon}
          value={stats && formatCount(stats.totalJobs)}
          detail={stats && `${formatCount(stats.activeJobs)} active`}
        />
        <StatCard label="Total Revenue" icon={DollarSignIcon} value={stats && formatCents(stats.totalRevenueCents)} />
        <StatCard
          label="Success Rate"
          icon={ActivityIcon}
          value={stats && formatPercent(stats.successRate)}
          detail={stats && `${formatCount(stats.completedJobs)} completed`}
        />
      </div>

      {warnings.length > 0 && (
        <Alert variant="destructive">
          <AlertTriangleIcon aria-hidden="true" />
          <AlertTitle>System Health Warning</AlertTitle>
          <AlertDescription>
            <ul className="list-disc pl-4">
              {warnings.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
      )}

      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-2">
          <CardTitle>
            <h2>Recent Jobs</h2>
          </CardTitle>
          <Button variant="ghost" size="sm" onClick={onShowJobs}>
            View all jobs
          </Button>
        </CardHeader>
        <CardContent>
          {recent === undefined ? (
            <div className="space-y-3" aria-label="Loading recent jobs">
              {Array.from({ length: 4 }, (_, index) => (
                <Skeleton key={index} className="h-10 w-full" />
              ))}
            </div>
          ) : recent.jobs.length === 0 ? (
            <EmptyState
              icon={InboxIcon}
              title="No jobs yet"
              description="Jobs appear here as soon as users start tests."
            />
          ) : (
            <ul className="divide-y" aria-label="Recent jobs">
              {recent.jobs.map((job) => (
                <li key={job._id} className="flex items-center gap-3 py-2.5">
                  <JobStatusIcon status={job.status} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{job.testName}</p>
                    <p className="truncate text-sm text-muted-foreground">{job.userEmail ?? "Deleted user"}</p>
                  </div>
                  <JobStatusBadge status={job.status} />
                  <span className="hidden text-sm text-muted-foreground tabular-nums sm:inline">
                    {formatMediumDate(job._creationTime)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
