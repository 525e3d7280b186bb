import { usePaginatedQuery } from "convex/react";
import { GavelIcon } from "lucide-react";
import { useState } from "react";

import { EmptyState } from "@/components/empty-state";
import { Markdown } from "@/components/markdown";
import { Spinner } from "@/components/spinner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { formatScore } from "../../../convex/lib/format";
import { Detail, LoadMore } from "./responses-section";
import { criterionLabel, EVALUATIONS_PAGE, formatDateTime, preview, type EvaluationRow } from "./results-model";

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

/** The judges' verdicts, 10 at a time: evaluator, a 50-character preview, scores and explanation. */
export function EvaluationsList({ testId }: { testId: Id<"tests"> }) {
  const { results, status, loadMore } = usePaginatedQuery(api.results.evaluations, { testId }, { initialNumItems: EVALUATIONS_PAGE });
  const [open, setOpen] = useState<EvaluationRow | null>(null);

  if (status === "LoadingFirstPage") return <Spinner label="Loading evaluations" />;
  if (results.length === 0) return <EmptyState title={NO_EVALUATIONS} icon={GavelIcon} className="py-6" />;
  return (
    <div className="space-y-3">
      <ul className="divide-y rounded-md border" aria-label="Evaluations">
        {results.map((evaluation) => (
          <li key={evaluation._id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start" data-testid="evaluation-row">
            <div className="min-w-0 flex-1 space-y-1.5">
              <div className="text-sm">
                <span className="font-medium">{evaluation.evaluatorName}</span>
                {evaluation.response && <span className="text-muted-foreground"> on {evaluation.response.modelName}</span>}
                {evaluation.rank !== undefined && <span className="text-muted-foreground"> · ranked #{evaluation.rank}</span>}
              </div>
              <p className="text-sm text-muted-foreground italic">
                “{evaluation.response ? preview(evaluation.response.content) : "Response no longer available"}”
              </p>
              <Scores scores={evaluation.scores} />
              {evaluation.explanation && <p className="line-clamp-2 text-sm">{evaluation.explanation}</p>}
            </div>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setOpen(evaluation)}
              aria-label={`View evaluation by ${evaluation.evaluatorName}`}
            >
              View Details
            </Button>
          </li>
        ))}
      </ul>
      <LoadMore status={status} onLoadMore={() => loadMore(EVALUATIONS_PAGE)} label="Load more evaluations" />
      <EvaluationDialog evaluation={open} onClose={() => setOpen(null)} />
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
              <Detail label="Evaluated" value={formatDateTime(evaluation._creationTime)} />
            </dl>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
