import { Link } from "@tanstack/react-router";
import { ChevronRightIcon, FlaskConicalIcon, PlusIcon } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { statusLabel } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";
import { formatDate } from "@/lib/dates";
import { DraftActions } from "./draft-actions";
import {
  DRAFT_STATUS_LABEL,
  plural,
  RECENT_TESTS_SHOWN,
  statusDotTone,
  testDisplayName,
  type RecentTest,
  type StatusDotTone,
} from "./dashboard-model";

const DOT_CLASSES: Readonly<Record<StatusDotTone, string>> = {
  completed: "bg-green-500",
  running: "bg-blue-500 animate-pulse",
  failed: "bg-red-500",
  other: "bg-yellow-500",
};

const BADGE_CLASSES: Readonly<Record<StatusDotTone, string>> = {
  completed: "border-green-600/30 bg-green-600/10 text-green-800 dark:text-green-300",
  running: "border-blue-600/30 bg-blue-600/10 text-blue-800 dark:text-blue-300",
  failed: "border-red-600/30 bg-red-600/10 text-red-800 dark:text-red-300",
  other: "border-yellow-600/30 bg-yellow-500/10 text-yellow-800 dark:text-yellow-400",
};

export function TestStatus({ status }: { status: string }) {
  const tone = statusDotTone(status);
  return (
    <span
      data-testid="test-status"
      data-tone={tone}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        BADGE_CLASSES[tone],
      )}
    >
      <span aria-hidden="true" data-testid="status-dot" className={cn("size-2 rounded-full", DOT_CLASSES[tone])} />
      {statusLabel(status)}
    </span>
  );
}

/** An unpaid draft has no results to open: it offers Complete Payment and Discard instead. */
function DraftRow({ test }: { test: RecentTest }) {
  const name = testDisplayName(test.name);
  return (
    <li className="flex flex-wrap items-center gap-3 px-3 py-3" aria-label={`${name}, ${DRAFT_STATUS_LABEL}`}>
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{name}</p>
        <p className="text-xs text-muted-foreground">
          {plural(test.modelCount, "model")} · {formatDate(test.createdAt)} · not paid for, not run
        </p>
      </div>
      <TestStatus status="pending_payment" />
      <div className="flex items-center gap-1">
        <DraftActions draft={test} />
      </div>
    </li>
  );
}

function RecentTestRow({ test }: { test: RecentTest }) {
  if (test.awaitingPayment) return <DraftRow test={test} />;
  const name = testDisplayName(test.name);
  return (
    <li>
      <Link
        to="/dashboard/results/$testId"
        params={{ testId: test._id }}
        className="flex items-center gap-3 rounded-lg px-3 py-3 transition-colors hover:bg-muted/60 focus-visible:bg-muted/60 focus-visible:outline-none"
      >
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium">{name}</p>
          <p className="text-xs text-muted-foreground">
            {plural(test.modelCount, "model")} · {formatDate(test.createdAt)}
          </p>
        </div>
        <TestStatus status={test.status} />
        <ChevronRightIcon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      </Link>
    </li>
  );
}

export function RecentTests({ tests }: { tests: readonly RecentTest[] | undefined }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Recent Tests</h2>
        </CardTitle>
        <CardAction>
          <Button asChild variant="ghost" size="sm">
            <Link to="/dashboard/history">View All</Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="px-3">
        {tests === undefined ? (
          <div className="space-y-2 px-3" aria-busy="true" aria-label="Loading recent tests">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-12" />
            ))}
          </div>
        ) : tests.length === 0 ? (
          <EmptyState
            className="mx-3"
            icon={FlaskConicalIcon}
            title="No tests yet"
            description="Compare models on your own prompt: pick models, personas and topics, and let a jury of models judge."
            action={
              <Button asChild>
                <Link to="/dashboard/setup">
                  <PlusIcon /> Create Test
                </Link>
              </Button>
            }
          />
        ) : (
          <ul aria-label="Recent tests" className="divide-y">
            {tests.slice(0, RECENT_TESTS_SHOWN).map((test) => (
              <RecentTestRow key={test._id} test={test} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
