import { useMutation, useQuery } from "convex/react";
import {
  AlertTriangleIcon,
  BellOffIcon,
  CheckCircle2Icon,
  ClockIcon,
  GaugeIcon,
  Loader2Icon,
  MailIcon,
  TimerOffIcon,
  type LucideIcon,
} from "lucide-react";
import { type ReactNode, useState } from "react";

import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";
import { formatMediumDateTime } from "@/lib/dates";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { formatCount, formatRatio } from "../../../convex/lib/format";

import { ADMIN_FAILURES, runAdminAction } from "./admin-actions";
import { shortId } from "./admin-format";
import { JobStatusBadge } from "./job-status";
import { StatCard } from "./stat-card";
import { useMinute } from "./use-minute";

export function HealthTab() {
  const now = useMinute();
  const health = useQuery(api.admin.health, { now });

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          label="Queued"
          icon={ClockIcon}
          value={health && formatCount(health.queuedJobs)}
          detail="Created in the last 24 hours"
        />
        <StatCard label="Processing" icon={Loader2Icon} value={health && formatCount(health.processingJobs)} />
        <StatCard
          label="Stuck"
          icon={TimerOffIcon}
          tone={health && health.stuckJobs > 0 ? "danger" : "default"}
          value={health && formatCount(health.stuckJobs)}
          detail="Processing for over 1 hour"
        />
      </div>

      {health === undefined ? (
        <Skeleton className="h-20 w-full" />
      ) : (
        <div
          role="status"
          className={cn(
            "flex items-start gap-3 rounded-lg border p-4",
            health.isHealthy
              ? "border-green-600/40 bg-green-600/10 text-green-800 dark:text-green-300"
              : "border-amber-500/40 bg-amber-500/10 text-amber-900 dark:text-amber-300",
          )}
        >
          {health.isHealthy ? (
            <CheckCircle2Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          ) : (
            <AlertTriangleIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          )}
          <div className="space-y-0.5">
            <p className="font-semibold">{health.isHealthy ? "System Healthy" : "System Needs Attention"}</p>
            <p className="text-sm">
              {health.isHealthy ? "All systems operating normally" : "Issues detected that may require intervention"}
            </p>
            <p className="text-xs opacity-80">Last updated {formatMediumDateTime(health.lastUpdated)}</p>
          </div>
        </div>
      )}

      {health && health.stuck.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Stuck Jobs</h2>
            </CardTitle>
            <CardDescription>Cancel them on the Jobs tab, then retry.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y text-sm" aria-label="Stuck jobs">
              {health.stuck.map((job) => (
                <li key={job._id} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0 truncate">
                    <span className="font-medium">{job.testName}</span>{" "}
                    <span className="font-mono text-xs text-muted-foreground">{shortId(job._id)}</span>
                  </span>
                  <span className="text-muted-foreground">since {formatMediumDateTime(job.since)}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}

      <GatewayLoadCard />
      <AlertsCard />
      <ContactMessagesCard />
    </div>
  );
}

/** What the stuck-job cron reported and nobody has settled yet. */
function AlertsCard() {
  const alerts = useQuery(api.admin.listAlerts, {});
  const resolve = useMutation(api.admin.resolveAlert);
  const [resolving, setResolving] = useState<Id<"alerts"> | null>(null);

  async function resolveOne(alertId: Id<"alerts">) {
    setResolving(alertId);
    try {
      await runAdminAction(() => resolve({ alertId }), ADMIN_FAILURES.resolveAlert);
    } finally {
      setResolving(null);
    }
  }

  return (
    <ListCard
      title="Stuck Job Alerts"
      description="Jobs processing over an hour, and payments that need a look: an amount that differs from the quote, a refund Stripe refused."
      items={alerts}
      emptyIcon={BellOffIcon}
      emptyTitle="No open alerts"
      label="Stuck job alerts"
    >
      {(alert) => (
        <li key={alert._id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0 space-y-1">
            <p className="text-sm break-words">{alert.message}</p>
            <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              {formatMediumDateTime(alert._creationTime)}
              {alert.jobStatus ? (
                <JobStatusBadge status={alert.jobStatus} />
              ) : alert.jobId ? (
                <Badge variant="secondary">Job deleted</Badge>
              ) : null}
            </p>
          </div>
          <Button
            variant="outline"
            size="sm"
            disabled={resolving === alert._id}
            onClick={() => void resolveOne(alert._id)}
          >
            Resolve
          </Button>
        </li>
      )}
    </ListCard>
  );
}

/** Each running test's gateway concurrency now, and how often the gateway answered 429. */
function GatewayLoadCard() {
  const load = useQuery(api.admin.gatewayLoad, {});
  const share = load?.rateLimitedShare;
  return (
    <ListCard
      title="Gateway Concurrency"
      description={
        load === undefined || share === null || share === undefined
          ? "Calls each running test keeps in flight; it grows while the gateway keeps up and backs off on rate limits."
          : `Calls each running test keeps in flight. Rate limited (429): ${formatRatio(share)} of ${formatCount(load.exchanges)} gateway calls.`
      }
      items={load?.tests}
      emptyIcon={GaugeIcon}
      emptyTitle="No test is running"
      label="Gateway concurrency by running test"
    >
      {(test) => (
        <li key={test.testId} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
          <span className="min-w-0 truncate">
            <span className="font-medium">{test.testName}</span>{" "}
            <span className="font-mono text-xs text-muted-foreground">{shortId(test.testId)}</span>
          </span>
          <span className="flex flex-wrap items-center gap-3 text-muted-foreground">
            <span>
              Concurrency <span className="font-medium text-foreground">{formatCount(test.level)}</span>
            </span>
            <span>{formatCount(test.inFlight)} in flight</span>
            <span>
              429: {formatCount(test.rateLimited)} of {formatCount(test.exchanges)}
            </span>
          </span>
        </li>
      )}
    </ListCard>
  );
}

function ContactMessagesCard() {
  const messages = useQuery(api.contact.list, {});
  return (
    <ListCard
      title="Contact Messages"
      description="The 100 newest messages from the contact form."
      items={messages}
      emptyIcon={MailIcon}
      emptyTitle="No contact messages"
      label="Contact messages"
    >
      {(message) => (
        <li key={message._id} className="space-y-1 py-3">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{message.subject}</span>
            <span className="text-muted-foreground">
              from {message.name} &lt;
              <a className="underline underline-offset-2" href={`mailto:${message.email}`}>
                {message.email}
              </a>
              &gt;
            </span>
            <span className="text-xs text-muted-foreground">{formatMediumDateTime(message.createdAt)}</span>
          </div>
          <p className="text-sm break-words whitespace-pre-wrap text-muted-foreground">{message.message}</p>
        </li>
      )}
    </ListCard>
  );
}

/** An admin card's list: a skeleton while it loads, an empty state, else the items in a labelled list. */
function ListCard<T>({
  title,
  description,
  items,
  emptyIcon,
  emptyTitle,
  label,
  children,
}: {
  title: string;
  description: string;
  items: T[] | undefined;
  emptyIcon: LucideIcon;
  emptyTitle: string;
  label: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {items === undefined ? (
          <Skeleton className="h-16 w-full" />
        ) : items.length === 0 ? (
          <EmptyState icon={emptyIcon} title={emptyTitle} className="py-6" />
        ) : (
          <ul className="divide-y" aria-label={label}>
            {items.map(children)}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
