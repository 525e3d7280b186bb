import { usePaginatedQuery } from "convex/react";
import { MessageSquareIcon, MessageSquareTextIcon } from "lucide-react";
import { useState } from "react";

import { EmptyState } from "@/components/empty-state";
import { Spinner } from "@/components/spinner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { notesLabel, useNoteCounts } from "@/components/results/answer-notes";
import { ResponseDialog } from "@/components/results/response-dialog";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { checkFailureReasons } from "../../../convex/lib/checkReasons";
import { formatCount, formatLatency, formatScore } from "../../../convex/lib/format";
import { preview, RESPONSES_PAGE, type ResponseRow } from "@/components/results/results-model";

export const NO_RESPONSES = "No responses available";

/**
 * The test's answers, 20 at a time, each opening the full text. With checks, an answer that failed
 * one is marked with the reasons, and a filter shows only those.
 */
export function ResponsesList({ testId, hasChecks = false }: { testId: Id<"tests">; hasChecks?: boolean }) {
  const [onlyFailed, setOnlyFailed] = useState(false);
  const filtered = hasChecks && onlyFailed;
  const all = usePaginatedQuery(api.results.responses, filtered ? "skip" : { testId }, {
    initialNumItems: RESPONSES_PAGE,
  });
  const failed = usePaginatedQuery(api.checks.failedResponses, filtered ? { testId } : "skip", {
    initialNumItems: RESPONSES_PAGE,
  });
  const { results, status, loadMore } = filtered ? failed : all;
  const [open, setOpen] = useState<ResponseRow | null>(null);
  const noteCounts = useNoteCounts(testId);

  const filter = hasChecks && <FailedCheckFilter checked={onlyFailed} onChange={setOnlyFailed} />;
  if (status === "LoadingFirstPage") return <Spinner label="Loading responses" />;
  if (results.length === 0) {
    return (
      <div className="space-y-3">
        {filter}
        <EmptyState
          title={filtered ? "No answer failed a check" : NO_RESPONSES}
          icon={MessageSquareTextIcon}
          className="py-6"
        />
      </div>
    );
  }
  return (
    <div className="space-y-3">
      {filter}
      <ul className="divide-y rounded-md border" aria-label="Raw responses">
        {results.map((response) => (
          <li
            key={response._id}
            className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center"
            data-testid="response-row"
          >
            <div className="min-w-0 flex-1 space-y-1">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{response.modelName}</span>
                <Badge variant="secondary">{response.personaName}</Badge>
                <Badge variant="outline">{response.topicTitle}</Badge>
                <NoteCount count={noteCounts.get(response._id) ?? 0} />
              </div>
              <p className="truncate text-sm text-muted-foreground">{preview(response.content, 120)}</p>
              <CheckFailures failures={response.checkFailures} />
              <p className="text-xs text-muted-foreground tabular-nums">
                {formatCount(response.tokens)} tokens · {formatLatency(response.latencyMs)}
                {response.averageScore !== null && ` · score ${formatScore(response.averageScore)}`}
              </p>
            </div>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setOpen(response)}
              aria-label={`View full response from ${response.modelName}`}
            >
              View Full Response
            </Button>
          </li>
        ))}
      </ul>
      <LoadMore status={status} onLoadMore={() => loadMore(RESPONSES_PAGE)} label="Load more responses" />
      <ResponseDialog testId={testId} response={open} onClose={() => setOpen(null)} />
    </div>
  );
}

export function LoadMore({ status, onLoadMore, label }: { status: string; onLoadMore: () => void; label: string }) {
  if (status === "Exhausted") return null;
  const loading = status === "LoadingMore";
  return (
    <div className="flex justify-center">
      <Button variant="outline" onClick={onLoadMore} disabled={loading}>
        {loading && <Spinner className="text-current" label="Loading more" />}
        {label}
      </Button>
    </div>
  );
}

/** The answer's notes, live: how many the team left on it. */
function NoteCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Badge variant="secondary" data-testid="note-count">
      <MessageSquareIcon aria-hidden="true" />
      {notesLabel(count)}
    </Badge>
  );
}

/** "Only answers that failed a check". */
function FailedCheckFilter({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex items-center gap-2">
      <Checkbox id="responses-only-failed" checked={checked} onCheckedChange={(value) => onChange(value === true)} />
      <Label htmlFor="responses-only-failed" className="text-sm font-normal">
        Only answers that failed a check
      </Label>
    </div>
  );
}

/** An answer's failed checks, with why each failed. */
function CheckFailures({ failures }: { failures: ResponseRow["checkFailures"] }) {
  if (!failures || failures.length === 0) return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-xs text-destructive" data-testid="response-check-failures">
      <Badge variant="destructive">
        Failed {failures.length} {failures.length === 1 ? "check" : "checks"}
      </Badge>
      <span>{checkFailureReasons(failures)}</span>
    </p>
  );
}
