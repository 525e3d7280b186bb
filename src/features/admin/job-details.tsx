import { useMutation, useQuery } from "convex/react";
import { AlertCircleIcon, AlertTriangleIcon, CheckCircle2Icon, LightbulbIcon } from "lucide-react";
import { useId, useState, type FormEvent, type ReactNode } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { formatMediumDateTime } from "@/lib/dates";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { analyzeJob, type Finding, type JobAnalysis } from "../../../convex/lib/jobAnalysis";
import { JOB_PRIORITY_LIMITS } from "../../../convex/lib/limits";

import { ADMIN_FAILURES, runAdminAction } from "./admin-actions";
import { useMinute } from "./use-minute";

/** The toggled panel under a job row: ids, priority, times, error, progress data, analysis. */
export function JobDetails({ jobId }: { jobId: Id<"jobs"> }) {
  const details = useQuery(api.admin.jobDetails, { jobId });
  const now = useMinute();

  if (details === undefined) {
    return (
      <div className="space-y-2" role="status" aria-label="Loading job details">
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (details === null) return <p className="text-sm text-muted-foreground">Job not found</p>;

  const { job, test, progressData } = details;
  const analysis = analyzeJob(
    {
      status: job.status,
      errorMessage: job.errorMessage,
      retryCount: job.retryCount,
      maxRetries: job.maxRetries,
      startedAt: job.startedAt ?? undefined,
      completedAt: job.completedAt ?? undefined,
      _creationTime: job._creationTime,
      responsesCount: test?.responsesCount ?? 0,
    },
    now,
  );

  return (
    <section aria-label={`Details of job ${job.testName}`} className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          <Detail term="Job ID" value={<code className="break-all">{job._id}</code>} />
          <Detail term="Test ID" value={<code className="break-all">{job.testId}</code>} />
          <Detail term="Priority" value={job.priority} />
          <Detail term="Created" value={formatMediumDateTime(job._creationTime)} />
          <Detail term="Started" value={formatMediumDateTime(job.startedAt)} />
          <Detail term="Completed" value={formatMediumDateTime(job.completedAt)} />
          {test && (
            <Detail
              term="Progress"
              value={`${test.responsesCount}/${test.expectedResponses} responses, ${test.evaluationsCount}/${test.expectedEvaluations} evaluations`}
            />
          )}
          {!test && <Detail term="Test" value="The test no longer exists." />}
          {job.retryRefusal !== null && <Detail term="Retry" value={job.retryRefusal} />}
        </dl>
        <PriorityForm key={job.priority} jobId={job._id} priority={job.priority} />
        <div className="space-y-1">
          <h4 className="text-sm font-medium">Error Message</h4>
          <p className="text-sm break-words text-muted-foreground">{job.errorMessage ?? "None"}</p>
        </div>
        <div className="space-y-1">
          <h4 className="text-sm font-medium">Progress Data</h4>
          <pre className="max-h-64 overflow-auto rounded-md bg-muted p-3 text-xs" aria-label="Progress data">
            {JSON.stringify(progressData ?? {}, null, 2)}
          </pre>
        </div>
      </div>
      <ErrorAnalysis analysis={analysis} />
    </section>
  );
}

function Detail({ term, value }: { term: string; value: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="min-w-0">{value}</dd>
    </>
  );
}

function PriorityForm({ jobId, priority }: { jobId: Id<"jobs">; priority: number }) {
  const setPriority = useMutation(api.admin.setJobPriority);
  const [value, setValue] = useState(String(priority));
  const [saving, setSaving] = useState(false);
  const inputId = useId();
  const parsed = Number(value);
  const valid =
    value.trim() !== "" &&
    Number.isInteger(parsed) &&
    parsed >= JOB_PRIORITY_LIMITS.min &&
    parsed <= JOB_PRIORITY_LIMITS.max;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    setSaving(true);
    try {
      await runAdminAction(
        () => setPriority({ jobId, priority: parsed }),
        ADMIN_FAILURES.priority,
        `Priority set to ${parsed}.`,
      );
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="flex items-end gap-2">
      <div className="space-y-1">
        <Label htmlFor={inputId}>Job priority</Label>
        <Input
          id={inputId}
          type="number"
          step={1}
          min={JOB_PRIORITY_LIMITS.min}
          max={JOB_PRIORITY_LIMITS.max}
          inputMode="numeric"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          className="w-28"
          aria-invalid={!valid}
        />
      </div>
      <Button type="submit" variant="outline" size="sm" disabled={!valid || saving || parsed === priority}>
        {saving && <Spinner className="text-current" label="Saving priority" />}
        Set Priority
      </Button>
    </form>
  );
}

function ErrorAnalysis({ analysis }: { analysis: JobAnalysis }) {
  return (
    <div className="space-y-3">
      <h4 className="text-sm font-medium">Error Analysis</h4>
      {!analysis.hasIssues ? (
        <p className="flex items-center gap-2 text-sm text-green-700 dark:text-green-400">
          <CheckCircle2Icon aria-hidden="true" className="size-4" /> No issues detected
        </p>
      ) : (
        <>
          <FindingList title="Errors" findings={analysis.errors} tone="error" />
          <FindingList title="Warnings" findings={analysis.warnings} tone="warning" />
        </>
      )}
      {analysis.suggestions.length > 0 && (
        <div className="space-y-1">
          <h5 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Suggestions</h5>
          <ul className="space-y-1 text-sm">
            {analysis.suggestions.map((suggestion) => (
              <li key={suggestion} className="flex gap-2">
                <LightbulbIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-500" />
                {suggestion}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function FindingList({ title, findings, tone }: { title: string; findings: Finding[]; tone: "error" | "warning" }) {
  if (findings.length === 0) return null;
  const Icon = tone === "error" ? AlertCircleIcon : AlertTriangleIcon;
  return (
    <div className="space-y-1">
      <h5 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h5>
      <ul className="space-y-2">
        {findings.map((finding) => (
          <li
            key={`${finding.type}:${finding.message}`}
            className={
              tone === "error"
                ? "rounded-md border border-red-600/30 bg-red-600/5 p-2 text-sm"
                : "rounded-md border border-amber-500/30 bg-amber-500/5 p-2 text-sm"
            }
          >
            <p className="flex items-center gap-2 font-medium">
              <Icon aria-hidden="true" className={tone === "error" ? "size-4 text-red-600" : "size-4 text-amber-500"} />
              {finding.type}
            </p>
            <p className="break-words text-muted-foreground">{finding.message}</p>
            <p className="text-xs text-muted-foreground">{formatMediumDateTime(finding.timestamp)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
