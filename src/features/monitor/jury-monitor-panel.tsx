// The monitor's compact view of the jury's evidence: agreement and each
// model's interval filling in as the judges report. Live: the query updates by itself.
import { ScaleIcon } from "lucide-react";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { AgreementBadge, useJuryView } from "@/components/results/jury-stats";
import {
  decisionSentence,
  formatInterval,
  hasDecision,
  JURY_EMPTY,
  JURY_TITLE,
  judgeFlags,
  rankLabel,
  scorePercent,
} from "@/components/results/jury-model";
import { QueryErrorBoundary } from "@/components/query-error-boundary";

import type { Id } from "../../../convex/_generated/dataModel";
import { formatScore } from "../../../convex/lib/format";
import { juryCountText } from "./monitor-model";

/** `evaluationsCount`: the test's own count of judge scores, which the figures may trail by a moment. */
export function JuryMonitorPanel({ testId, evaluationsCount }: { testId: Id<"tests">; evaluationsCount?: number }) {
  return (
    <Card className="gap-3" data-testid="jury-monitor">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <ScaleIcon className="size-4" aria-hidden="true" /> {JURY_TITLE}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <QueryErrorBoundary
          fallback={() => <p className="text-sm text-destructive">Could not load the jury's statistics.</p>}
        >
          <JuryMonitorBody testId={testId} evaluationsCount={evaluationsCount} />
        </QueryErrorBoundary>
      </CardContent>
    </Card>
  );
}

function JuryMonitorBody({ testId, evaluationsCount }: { testId: Id<"tests">; evaluationsCount?: number }) {
  const view = useJuryView({ testId });
  if (view === undefined) return <Skeleton className="h-24 w-full" aria-label="Loading the jury's statistics" />;
  if (view === null || !hasDecision(view.stats)) return <p className="text-sm text-muted-foreground">{JURY_EMPTY}</p>;
  const stats = view.stats;
  const flagged = stats.judges.filter((judge) => judge.flagged);
  return (
    <div className="space-y-3">
      <p className="text-sm font-medium" data-testid="jury-monitor-summary">
        {decisionSentence(stats)}
      </p>
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <span>Agreement</span>
        <AgreementBadge figure={stats.agreement.overall} />
        <span>
          · <span data-testid="jury-monitor-count">{juryCountText(evaluationsCount ?? 0, view.evaluationsSeen)}</span> ·{" "}
          {flagged.length === 0
            ? "no judge flagged"
            : `${flagged.length} ${flagged.length === 1 ? "judge" : "judges"} flagged`}
        </span>
      </div>
      <ol className="space-y-2" aria-label="Intervals so far">
        {stats.models
          .filter((model) => model.meanScore !== null && model.scoreInterval !== null)
          .map((model) => (
            <li
              key={model.modelId}
              className="grid grid-cols-[2.5rem_minmax(0,10rem)_1fr_auto] items-center gap-2 text-sm"
            >
              <span className="text-xs font-semibold text-muted-foreground tabular-nums">#{rankLabel(model.rank)}</span>
              <span className="truncate">{model.modelName}</span>
              <span className="relative h-2 rounded-full bg-muted" aria-hidden="true">
                <span
                  className="absolute inset-y-0 rounded-full bg-primary/40"
                  style={{
                    left: `${scorePercent(model.scoreInterval!.low)}%`,
                    width: `${Math.max(0.5, scorePercent(model.scoreInterval!.high) - scorePercent(model.scoreInterval!.low))}%`,
                  }}
                />
                <span
                  className="absolute -inset-y-0.5 w-0.5 rounded bg-primary"
                  style={{ left: `${scorePercent(model.meanScore!)}%` }}
                />
              </span>
              <span className="text-xs tabular-nums">
                {formatScore(model.meanScore!)}{" "}
                <span className="text-muted-foreground">({formatInterval(model.scoreInterval)})</span>
              </span>
            </li>
          ))}
      </ol>
      {flagged.length > 0 && (
        <ul className="space-y-1 text-xs text-destructive" aria-label="Flagged judges">
          {flagged.map((judge) => (
            <li key={judge.judgeModelId}>
              {view.judges.find((entry) => entry.id === judge.judgeModelId)?.name ?? judge.judgeModelId}:{" "}
              {judgeFlags(judge).join("; ")}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
