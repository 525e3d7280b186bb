import { usePaginatedQuery } from "convex/react";
import { GavelIcon } from "lucide-react";
import { useState } from "react";

import { EmptyState } from "@/components/empty-state";
import { Markdown } from "@/components/markdown";
import { Spinner } from "@/components/spinner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/dates";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { criterionLabel } from "../../../convex/lib/criteria";
import { formatCostPerResponse, formatScore } from "../../../convex/lib/format";
import { groupEvaluations, type BatchLabel, type EvaluationBatch } from "./evaluation-batches";
import { Detail } from "@/components/results/response-dialog";
import { LoadMore } from "./responses-section";
import { EVALUATIONS_PAGE, preview, type EvaluationRow } from "@/components/results/results-model";

export const NO_EVALUATIONS = "No evaluations available";

function Scores({ scores }: { scores: Record<string, number> }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Scores">
      {Object.entries(scores).map(([criterion, score]) => (
        <li key={criterion}>
          <Badge variant="secondary" className="tabular-nums">
            {criterionLabel(criterion)}: {formatScore(score)}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/**
 * The judges' verdicts, 10 at a time: evaluator, a 50-character preview, scores, explanation and
 * cost. A ranking call's rows come together under its judge, with its explanation once and the
 * labels it named the answers by.
 */
export function EvaluationsList({ testId }: { testId: Id<"tests"> }) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.results.evaluations,
    { testId },
    { initialNumItems: EVALUATIONS_PAGE },
  );
  const [open, setOpen] = useState<EvaluationRow | null>(null);

  if (status === "LoadingFirstPage") return <Spinner label="Loading evaluations" />;
  if (results.length === 0) return <EmptyState title={NO_EVALUATIONS} icon={GavelIcon} className="py-6" />;
  return (
    <div className="space-y-3">
      <ul className="space-y-3" aria-label="Evaluations">
        {groupEvaluations(results).map((batch) =>
          batch.rows.length === 1 && batch.labels.length === 0 ? (
            <li key={batch.key} className="rounded-md border">
              <EvaluationItem evaluation={batch.rows[0]!} withExplanation onOpen={setOpen} />
            </li>
          ) : (
            <li key={batch.key} className="rounded-md border" data-testid="evaluation-batch">
              <BatchHeader batch={batch} />
              <ul className="divide-y border-t" aria-label={`Evaluations by ${batch.evaluatorName}`}>
                {batch.rows.map((evaluation) => (
                  <li key={evaluation._id}>
                    <EvaluationItem evaluation={evaluation} onOpen={setOpen} />
                  </li>
                ))}
              </ul>
            </li>
          ),
        )}
      </ul>
      <LoadMore status={status} onLoadMore={() => loadMore(EVALUATIONS_PAGE)} label="Load more evaluations" />
      <EvaluationDialog evaluation={open} onClose={() => setOpen(null)} />
    </div>
  );
}

/** One judge call: who judged, in which order, what it cost, its explanation and its labels. */
function BatchHeader({ batch }: { batch: EvaluationBatch }) {
  return (
    <div className="space-y-2 p-3">
      <p className="text-sm">
        <span className="font-medium">{batch.evaluatorName}</span>
        <span className="text-muted-foreground">
          {" "}
          ranked {batch.rows.length} answer{batch.rows.length === 1 ? "" : "s"}
          {batch.order === "reverse" ? " (shown in reverse order)" : ""} · {formatCostPerResponse(batch.costUsd)}
        </span>
      </p>
      {batch.explanation && <p className="text-sm whitespace-pre-wrap">{batch.explanation}</p>}
      {batch.labels.length > 0 && <LabelMap labels={batch.labels} />}
    </div>
  );
}

/** Which neutral label showed which answer, so an explanation's "G is the most specific" can be read. */
function LabelMap({ labels }: { labels: readonly BatchLabel[] }) {
  return (
    <dl className="grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_1fr]" aria-label="Answer labels">
      {labels.map((entry) => (
        <div key={entry.label} className="contents" data-testid="answer-label">
          <dt className="font-mono font-semibold">{entry.label}</dt>
          <dd className="min-w-0 truncate text-muted-foreground">
            {entry.modelName === null ? (
              "Answer no longer available"
            ) : (
              <>
                <span className="text-foreground">{entry.modelName}</span> — “{preview(entry.preview)}”
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function EvaluationItem({
  evaluation,
  withExplanation = false,
  onOpen,
}: {
  evaluation: EvaluationRow;
  withExplanation?: boolean;
  onOpen: (evaluation: EvaluationRow) => void;
}) {
  return (
    <div className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start" data-testid="evaluation-row">
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="text-sm">
          {evaluation.label !== undefined && (
            <Badge variant="outline" className="mr-1.5 font-mono" aria-label={`Label ${evaluation.label}`}>
              {evaluation.label}
            </Badge>
          )}
          <span className="font-medium">{evaluation.evaluatorName}</span>
          {evaluation.response && <span className="text-muted-foreground"> on {evaluation.response.modelName}</span>}
          {evaluation.rank !== undefined && <span className="text-muted-foreground"> · ranked #{evaluation.rank}</span>}
          <span className="text-muted-foreground tabular-nums"> · {formatCostPerResponse(evaluation.costUsd)}</span>
        </div>
        <p className="text-sm text-muted-foreground italic">
          “{evaluation.response ? preview(evaluation.response.content) : "Response no longer available"}”
        </p>
        <Scores scores={evaluation.scores} />
        {withExplanation && evaluation.explanation && <p className="line-clamp-2 text-sm">{evaluation.explanation}</p>}
      </div>
      <Button
        variant="outline"
        size="sm"
        onClick={() => onOpen(evaluation)}
        aria-label={`View evaluation by ${evaluation.evaluatorName}`}
      >
        View Details
      </Button>
    </div>
  );
}

/** The full response, the scores, the explanation and when it was evaluated. */
export function EvaluationDialog({ evaluation, onClose }: { evaluation: EvaluationRow | null; onClose: () => void }) {
  return (
    <Dialog open={evaluation !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="sm:max-w-3xl">
        {evaluation && (
          <>
            <DialogHeader>
              <DialogTitle>Evaluation by {evaluation.evaluatorName}</DialogTitle>
              <DialogDescription>
                {evaluation.response
                  ? `${evaluation.response.modelName} · ${evaluation.response.personaName} · ${evaluation.response.topicTitle}`
                  : "The evaluated response is no longer available."}
              </DialogDescription>
            </DialogHeader>
            {evaluation.response && (
              <div className="max-h-[40dvh] overflow-y-auto rounded-md border bg-muted/30 p-4">
                <Markdown>{evaluation.response.content}</Markdown>
              </div>
            )}
            <div className="space-y-2">
              <h3 className="text-sm font-semibold">Scores</h3>
              <Scores scores={evaluation.scores} />
            </div>
            <div className="space-y-1">
              <h3 className="text-sm font-semibold">Explanation</h3>
              <p className="text-sm whitespace-pre-wrap">{evaluation.explanation || "No explanation given."}</p>
            </div>
            <dl className="text-sm">
              {evaluation.label !== undefined && <Detail label="Shown to the judge as" value={evaluation.label} />}
              <Detail label="Cost" value={formatCostPerResponse(evaluation.costUsd)} />
              <Detail label="Evaluated" value={formatDateTime(evaluation._creationTime)} />
            </dl>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
