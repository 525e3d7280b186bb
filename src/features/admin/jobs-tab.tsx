import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import {
  BriefcaseIcon,
  ChevronDownIcon,
  ChevronRightIcon,
  MoreHorizontalIcon,
  RotateCcwIcon,
  RotateCwIcon,
  Trash2Icon,
  XIcon,
} from "lucide-react";
import { Fragment, useState } from "react";

import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { api } from "../../../convex/_generated/api";
import { canCancelJob, canRetryJob, type JobStatus } from "../../../convex/lib/jobAnalysis";

import { ADMIN_FAILURES, runAdminAction } from "./admin-actions";
import { countLabel, formatJobAmount, formatJobDuration, matchesJobSearch, shortId } from "./admin-format";
import { useConfirm, type ConfirmRequest } from "@/components/confirm-dialog";
import { formatMediumDate } from "@/lib/dates";
import { JobDetails } from "./job-details";
import { JobStatusBadge } from "./job-status";
import { TableSkeleton } from "./users-tab";

export type AdminJob = FunctionReturnType<typeof api.admin.listJobs>["jobs"][number];

const STATUS_FILTERS = [
  { value: "all", label: "All Statuses" },
  { value: "queued", label: "Queued" },
  { value: "processing", label: "Processing" },
  { value: "completed", label: "Completed" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number]["value"];

export const JOB_CONFIRMATIONS = {
  cancel: "Are you sure you want to cancel this job?",
  forceRestart:
    "This deletes the test's responses and evaluations and runs it again from the start, with its retry count reset.",
  delete: "This deletes the job and its test with every response and evaluation. Payment records are kept.",
} as const;

const COLUMNS = 8;

export function JobsTab() {
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<StatusFilter>("all");
  const [openJobId, setOpenJobId] = useState<string | null>(null);
  const data = useQuery(api.admin.listJobs, status === "all" ? {} : { status });
  const actions = useJobActions();

  const jobs = data?.jobs.filter((job) => matchesJobSearch(job, search)) ?? [];

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          className="w-full sm:max-w-sm"
          type="search"
          label="Search jobs"
          value={search}
          onSearch={setSearch}
        />
        <Select value={status} onValueChange={(value) => setStatus(value as StatusFilter)}>
          <SelectTrigger aria-label="Filter by status" className="w-full sm:w-44">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {STATUS_FILTERS.map((option) => (
              <SelectItem key={option.value} value={option.value}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {data && (
          <p className="text-sm text-muted-foreground sm:ml-auto" aria-live="polite">
            {countLabel(jobs.length, Math.max(data.total, data.jobs.length), "jobs")}
          </p>
        )}
      </div>

      {data === undefined ? (
        <TableSkeleton label="Loading jobs" />
      ) : jobs.length === 0 ? (
        <EmptyState
          icon={BriefcaseIcon}
          title="No jobs found"
          description={
            data.jobs.length === 0
              ? status === "all"
                ? "Jobs appear here as soon as users start tests."
                : "No job has this status."
              : "No job matches your search."
          }
        />
      ) : (
        <div className="rounded-lg border">
          <Table aria-label="Jobs">
            <TableHeader>
              <TableRow>
                <TableHead>Job</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>User</TableHead>
                <TableHead className="text-right">Amount</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="text-right">Duration</TableHead>
                <TableHead className="text-right">Retries</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {jobs.map((job) => {
                const open = openJobId === job._id;
                return (
                  <Fragment key={job._id}>
                    <JobRow
                      job={job}
                      open={open}
                      onToggle={() => setOpenJobId(open ? null : job._id)}
                      actions={actions}
                    />
                    {open && (
                      <TableRow className="bg-muted/30 hover:bg-muted/30">
                        <TableCell colSpan={COLUMNS} className="p-4 whitespace-normal">
                          <JobDetails jobId={job._id} />
                        </TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
      {actions.dialog}
    </div>
  );
}

type JobActions = ReturnType<typeof useJobActions>;

/** Retry, cancel (confirmed), force restart (confirmed) and delete (confirmed). */
function useJobActions() {
  const retry = useMutation(api.admin.retryJob);
  const cancel = useMutation(api.admin.cancelJob);
  const forceRestart = useMutation(api.admin.forceRestartJob);
  const remove = useMutation(api.admin.deleteJob);
  const { ask, dialog } = useConfirm();

  const confirmThen = (request: Omit<ConfirmRequest, "onConfirm">, run: () => Promise<unknown>) =>
    ask({ ...request, onConfirm: async () => void (await run()) });

  return {
    dialog,
    retry: (job: AdminJob) =>
      runAdminAction(() => retry({ jobId: job._id }), ADMIN_FAILURES.retry, `'${job.testName}' is queued again.`),
    cancel: (job: AdminJob) =>
      confirmThen(
        {
          title: "Cancel Job",
          description: JOB_CONFIRMATIONS.cancel,
          subject: job.testName,
          confirmText: "Cancel Job",
          cancelText: "Keep Job",
          destructive: true,
        },
        () =>
          runAdminAction(() => cancel({ jobId: job._id }), ADMIN_FAILURES.cancel, `'${job.testName}' was cancelled.`),
      ),
    forceRestart: (job: AdminJob) =>
      confirmThen(
        {
          title: "Force Restart",
          description: JOB_CONFIRMATIONS.forceRestart,
          subject: job.testName,
          confirmText: "Force Restart",
          destructive: true,
        },
        () =>
          runAdminAction(
            () => forceRestart({ jobId: job._id }),
            ADMIN_FAILURES.forceRestart,
            `'${job.testName}' restarts from the beginning.`,
          ),
      ),
    remove: (job: AdminJob) =>
      confirmThen(
        {
          title: "Delete Job",
          description: JOB_CONFIRMATIONS.delete,
          subject: job.testName,
          confirmText: "Delete Job",
          destructive: true,
          irreversible: true,
        },
        () =>
          runAdminAction(() => remove({ jobId: job._id }), ADMIN_FAILURES.deleteJob, `'${job.testName}' was deleted.`),
      ),
  };
}

function JobRow({
  job,
  open,
  onToggle,
  actions,
}: {
  job: AdminJob;
  open: boolean;
  onToggle: () => void;
  actions: JobActions;
}) {
  const [retrying, setRetrying] = useState(false);
  const status: JobStatus = job.status;

  async function retry() {
    setRetrying(true);
    try {
      await actions.retry(job);
    } finally {
      setRetrying(false);
    }
  }

  return (
    <TableRow data-state={open ? "selected" : undefined}>
      <TableCell>
        <div className="max-w-56 truncate font-medium" title={job.testName}>
          {job.testName}
        </div>
        <div className="font-mono text-xs text-muted-foreground">{shortId(job._id)}</div>
      </TableCell>
      <TableCell>
        <JobStatusBadge status={status} />
      </TableCell>
      <TableCell className="max-w-48 truncate">{job.userEmail ?? "Deleted user"}</TableCell>
      <TableCell className="text-right tabular-nums">{formatJobAmount(job.amountCents)}</TableCell>
      <TableCell className="whitespace-nowrap">{formatMediumDate(job._creationTime)}</TableCell>
      <TableCell className="text-right tabular-nums">{formatJobDuration(job)}</TableCell>
      <TableCell className="text-right tabular-nums">
        {job.retryCount}/{job.maxRetries}
      </TableCell>
      <TableCell>
        <div className="flex items-center justify-end gap-1">
          {/* A test without a payment standing (refunded, never paid) cannot run again: the details say why. */}
          {canRetryJob(status) && job.retryRefusal === null && (
            <Button variant="outline" size="sm" disabled={retrying} onClick={() => void retry()}>
              <RotateCcwIcon aria-hidden="true" /> Retry
            </Button>
          )}
          {canCancelJob(status) && (
            <Button variant="outline" size="sm" onClick={() => actions.cancel(job)}>
              <XIcon aria-hidden="true" /> Cancel
            </Button>
          )}
          <Button variant="ghost" size="sm" aria-expanded={open} onClick={onToggle}>
            {open ? <ChevronDownIcon aria-hidden="true" /> : <ChevronRightIcon aria-hidden="true" />}
            Details
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="More actions">
                <MoreHorizontalIcon aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem
                disabled={status === "pending_payment" || job.retryRefusal !== null}
                onSelect={() => actions.forceRestart(job)}
              >
                <RotateCwIcon aria-hidden="true" /> Force Restart
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem variant="destructive" onSelect={() => actions.remove(job)}>
                <Trash2Icon aria-hidden="true" /> Delete Job
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </TableCell>
    </TableRow>
  );
}
