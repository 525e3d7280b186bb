import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { EyeIcon, FlaskConicalIcon, HistoryIcon, PlusIcon, ScaleIcon, Trash2Icon, TrophyIcon } from "lucide-react";
import { useMemo, useState } from "react";

import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { Money } from "@/components/money";
import { StatusBadge, statusLabel } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { DraftActions } from "@/features/dashboard/draft-actions";
import { DeleteTestDialog } from "@/components/delete-test-dialog";
import { MissingWorkLine } from "@/components/missing-work";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Duration } from "@/components/test-times";
import { useSpace } from "@/lib/space-context";
import { taskTypeLabel } from "@/lib/test-labels";
import { formatDate } from "@/lib/dates";
import { errorMessage } from "@/lib/errors";

import { api } from "../../../convex/_generated/api";
import { formatCents, TEST_COST_DECIMALS } from "../../../convex/lib/format";
import { MONEY_LABELS } from "../../../convex/lib/moneyWords";
import { verdictLine } from "../../../convex/lib/verdict";
import { HISTORY_LOAD_FAILED, historyLimitNote } from "./history-texts";
import { CompareBar, CompareCheckbox, useCompareSelection, type CompareSelection } from "./compare-selection";
// A re-judging's row names its original with the results page's own line.
import { RejudgeOf } from "@/features/rejudge/rejudge-links";
import {
  ALL,
  filterTests,
  isFiltered,
  NO_FILTERS,
  optionsOf,
  type HistoryFilters,
  type HistoryRow,
} from "./history-model";

/** /dashboard/history (spec part 2 §2). */
export function HistoryPage() {
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Test History</h1>
          <p className="text-muted-foreground">Every test you have run, newest first.</p>
        </div>
        <div className="flex gap-2">
          <Button asChild variant="outline">
            <Link to="/dashboard/judges">
              <ScaleIcon /> Judges
            </Link>
          </Button>
          <Button asChild>
            <Link to="/dashboard/setup">
              <PlusIcon /> New Test
            </Link>
          </Button>
        </div>
      </div>
      <QueryErrorBoundary
        fallback={(error, reset) => (
          <ErrorState title={HISTORY_LOAD_FAILED} message={errorMessage(error)} onRetry={reset} />
        )}
      >
        <HistoryList />
      </QueryErrorBoundary>
    </div>
  );
}

function HistoryList() {
  const { teamId } = useSpace();
  const data = useQuery(api.history.list, teamId === null ? {} : { teamId });
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const [deleting, setDeleting] = useState<HistoryRow | null>(null);
  const selection = useCompareSelection();
  const rows = useMemo(() => data?.tests ?? [], [data]);
  const shown = useMemo(() => filterTests(rows, filters), [rows, filters]);
  const statuses = useMemo(() => optionsOf(rows, "status"), [rows]);
  const taskTypes = useMemo(() => optionsOf(rows, "taskType"), [rows]);

  if (data === undefined) return <HistorySkeleton />;
  if (rows.length === 0) {
    return (
      <EmptyState
        title="No Tests Yet"
        description="Run your first comparison and its results will appear here."
        icon={FlaskConicalIcon}
        action={
          <Button asChild>
            <Link to="/dashboard/setup">Create Test</Link>
          </Button>
        }
      />
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 md:flex-row md:items-center">
        <SearchInput
          className="flex-1"
          type="search"
          label="Search tests"
          placeholder="Search by name or task type..."
          value={filters.search}
          onSearch={(search) => setFilters({ ...filters, search })}
        />
        <Select value={filters.status} onValueChange={(status) => setFilters({ ...filters, status })}>
          <SelectTrigger aria-label="Filter by status" className="md:w-44">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All Statuses</SelectItem>
            {statuses.map((status) => (
              <SelectItem key={status} value={status}>
                {statusLabel(status)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={filters.taskType} onValueChange={(taskType) => setFilters({ ...filters, taskType })}>
          <SelectTrigger aria-label="Filter by task type" className="md:w-48">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All Task Types</SelectItem>
            {taskTypes.map((taskType) => (
              <SelectItem key={taskType} value={taskType}>
                {taskTypeLabel(taskType)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <p className="text-sm text-muted-foreground" data-testid="history-count" aria-live="polite">
        {shown.length} of {rows.length} tests
      </p>
      <CompareBar selection={selection} />
      {data.total > rows.length && (
        <p className="text-xs text-muted-foreground">{historyLimitNote(rows.length, data.total)}</p>
      )}
      {shown.length === 0 ? (
        <EmptyState
          title="No Matching Tests"
          description="No test matches your search and filters."
          icon={HistoryIcon}
          action={
            isFiltered(filters) && (
              <Button variant="outline" onClick={() => setFilters(NO_FILTERS)}>
                Clear Filters
              </Button>
            )
          }
        />
      ) : (
        <ul className="space-y-3" aria-label="Tests">
          {shown.map((row) => (
            <HistoryItem key={row._id} row={row} selection={selection} onDelete={() => setDeleting(row)} />
          ))}
        </ul>
      )}
      <DeleteTestDialog test={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
    </div>
  );
}

function HistoryItem({
  row,
  selection,
  onDelete,
}: {
  row: HistoryRow;
  selection: CompareSelection;
  onDelete: () => void;
}) {
  return (
    <li>
      <Card className="gap-3 px-4 py-4 sm:px-6" data-testid="history-row">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="flex min-w-0 gap-3">
            {/* An unpaid draft has nothing to compare. */}
            {!row.awaitingPayment && <CompareCheckbox row={row} selection={selection} />}
            <div className="min-w-0 space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="truncate text-base font-semibold">{row.name}</h2>
                <StatusBadge status={row.awaitingPayment ? "pending_payment" : row.status} />
              </div>
              {row.rejudgeOf && <RejudgeOf original={row.rejudgeOf} />}
              <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
                <div className="flex gap-1">
                  <dt>Created</dt>
                  <dd className="text-foreground">{formatDate(row._creationTime)}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>Duration</dt>
                  <dd className="text-foreground tabular-nums">
                    {row.startedAt === undefined ? (
                      "—"
                    ) : (
                      <Duration startedAt={row.startedAt} completedAt={row.completedAt} />
                    )}
                  </dd>
                </div>
                <div className="flex gap-1">
                  <dt>Task type</dt>
                  <dd className="text-foreground">{taskTypeLabel(row.taskType)}</dd>
                </div>
                {row.repeats !== undefined && (
                  <div className="flex gap-1" data-testid="history-repeats">
                    <dt>Repeats</dt>
                    <dd className="text-foreground tabular-nums">×{row.repeats}</dd>
                  </div>
                )}
                {row.settledAfter !== undefined && (
                  <div className="flex gap-1" data-testid="history-settled">
                    <dt className="sr-only">Stopped</dt>
                    <dd className="text-foreground">{row.settledAfter}</dd>
                  </div>
                )}
                {/* The price the user pays and what the model calls cost the gateway, never one unnamed figure. */}
                {row.priceCents > 0 && (
                  <div className="flex gap-1" data-testid="history-price">
                    <dt>{row.awaitingPayment ? "Price (not paid yet)" : MONEY_LABELS.price}</dt>
                    <dd className="text-foreground tabular-nums">
                      {row.refundedCents ? (
                        // Stopped early: what stays charged, and the charge and refund it comes from.
                        <>
                          {formatCents(row.priceCents - row.refundedCents)}{" "}
                          <span className="text-muted-foreground" data-testid="history-refund">
                            ({formatCents(row.priceCents)} charged, {formatCents(row.refundedCents)} refunded)
                          </span>
                        </>
                      ) : (
                        formatCents(row.priceCents)
                      )}
                    </dd>
                  </div>
                )}
                <div className="flex gap-1" data-testid="history-calls-cost" title={MONEY_LABELS.callsCostNote}>
                  <dt>{MONEY_LABELS.callsCost}</dt>
                  <dd className="text-foreground">
                    <Money dollars={row.totalCostUsd} decimals={TEST_COST_DECIMALS} />
                  </dd>
                </div>
              </dl>
            </div>
          </div>
          {row.awaitingPayment ? (
            <div className="flex shrink-0 flex-wrap gap-2">
              <DraftActions draft={row} />
            </div>
          ) : (
            <div className="flex shrink-0 gap-2">
              <Button asChild variant="outline" size="sm">
                <Link
                  to="/dashboard/results/$testId"
                  params={{ testId: row._id }}
                  aria-label={`View results of ${row.name}`}
                >
                  <EyeIcon /> View Results
                </Link>
              </Button>
              <Button variant="ghost" size="icon-sm" aria-label={`Delete ${row.name}`} onClick={onDelete}>
                <Trash2Icon className="text-destructive" />
              </Button>
            </div>
          )}
        </div>
        {row.awaitingPayment && (
          <p className="text-sm text-muted-foreground">
            Not paid for, so it has not run. Complete the payment to start it, or discard it.
          </p>
        )}
        <MissingWorkLine work={row.missingWork} />
        {row.juryVerdict && (
          <p className="flex items-center gap-2 text-sm" data-testid="jury-verdict">
            <ScaleIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            {verdictLine(row.juryVerdict)}
          </p>
        )}
        {row.topPerformers.length > 0 && (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <TrophyIcon className="size-4 text-yellow-600" aria-hidden="true" />
            <span className="text-muted-foreground">Top performers:</span>
            <ol className="flex min-w-0 flex-wrap gap-1.5" aria-label={`Top performers of ${row.name}`}>
              {row.topPerformers.slice(0, 3).map((name, index) => (
                <li key={name} className="max-w-full min-w-0">
                  {/* A long model name is cut to the row's width, in full on hover. */}
                  <Badge variant="secondary" className="block max-w-full truncate" title={name}>
                    {index + 1}. {name}
                  </Badge>
                </li>
              ))}
            </ol>
          </div>
        )}
      </Card>
    </li>
  );
}

function HistorySkeleton() {
  return (
    <div className="space-y-3" aria-busy="true" aria-label="Loading test history">
      <Skeleton className="h-9 w-full" />
      {Array.from({ length: 4 }, (_, index) => (
        <Skeleton key={index} className="h-24 w-full" />
      ))}
    </div>
  );
}
