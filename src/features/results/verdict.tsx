// The top of the results page: the verdict in plain words (which model to pick, how sure the jury
// is, what would settle it), then the figures a buyer compares per model (score, cost per answer,
// speed). The statistics behind it stay one click away in the sections below.
import { GavelIcon } from "lucide-react";

import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";

import type { Id } from "../../../convex/_generated/dataModel";
import { formatCostPerResponse, formatLatency, formatScore } from "../../../convex/lib/format";
import { MAX_SCORE } from "../../../convex/lib/scoring";
import { formatInterval, hasDecision, type JuryView } from "@/components/results/jury-model";
import { useJuryView } from "@/components/results/jury-stats";
import { isLive, type ResultsData } from "@/components/results/results-model";
import { ResultsTable, type ResultsColumn } from "@/components/results/results-table";
import { plainVerdict, type PlainVerdict } from "./verdict-model";

export const VERDICT_TITLE = "The verdict";
export const VERDICT_WAITING = "The verdict appears once the judges have scored the answers.";

/** Nothing for a test with no answers (its failure notice says why). */
export function VerdictPanel({ testId, results }: { testId: Id<"tests">; results: ResultsData }) {
  if (results.test.responsesCount === 0 && !isLive(results.test.status)) return null;
  return (
    // A failure of the statistics is shown once, in the Jury section; the figures still show.
    <QueryErrorBoundary fallback={() => <VerdictCard view={null} results={results} />}>
      <VerdictOf testId={testId} results={results} />
    </QueryErrorBoundary>
  );
}

function VerdictOf({ testId, results }: { testId: Id<"tests">; results: ResultsData }) {
  const view = useJuryView({ testId });
  if (view === undefined) return <Skeleton className="h-48 w-full" aria-label="Loading the verdict" />;
  return <VerdictCard view={view} results={results} />;
}

export function VerdictCard({ view, results }: { view: JuryView | null; results: ResultsData }) {
  const stats = hasDecision(view?.stats) ? view.stats : null;
  const verdict = stats
    ? plainVerdict({
        models: stats.models,
        figures: results.models,
        summary: stats.summary,
        live: view?.live ?? isLive(results.test.status),
        units: stats.units,
      })
    : null;
  return (
    <section
      aria-labelledby="verdict-title"
      data-testid="verdict"
      className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center gap-2">
        <GavelIcon className="size-4 text-muted-foreground" aria-hidden="true" />
        <h2 id="verdict-title" className="text-sm font-medium text-muted-foreground">
          {VERDICT_TITLE}
        </h2>
        {verdict && (
          <Badge variant={verdict.kind === "clear" ? "default" : "secondary"} data-testid="verdict-certainty">
            {verdict.certainty}
          </Badge>
        )}
      </div>
      {verdict ? <VerdictWords verdict={verdict} /> : <p className="text-muted-foreground">{VERDICT_WAITING}</p>}
      <CompareTable results={results} stats={stats} verdict={verdict} />
    </section>
  );
}

function VerdictWords({ verdict }: { verdict: PlainVerdict }) {
  return (
    <div className="space-y-3">
      <p className="text-xl font-semibold tracking-tight break-words sm:text-2xl" data-testid="verdict-headline">
        {verdict.headline}
      </p>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div className="min-w-0 space-y-0.5">
          <dt className="font-medium">How sure the jury is</dt>
          <dd className="break-words text-muted-foreground" data-testid="verdict-confidence">
            {verdict.confidence}
          </dd>
        </div>
        <div className="min-w-0 space-y-0.5">
          <dt className="font-medium">What would settle it</dt>
          <dd className="break-words text-muted-foreground" data-testid="verdict-settle">
            {verdict.settle}
          </dd>
        </div>
      </dl>
    </div>
  );
}

type Stats = NonNullable<JuryView["stats"]>;

/** Every model's score, cost per answer and median response time: the jury's order once it has one. */
function CompareTable({
  results,
  stats,
  verdict,
}: {
  results: ResultsData;
  stats: Stats | null;
  verdict: PlainVerdict | null;
}) {
  const jury = new Map((stats?.models ?? []).map((model) => [model.modelId, model]));
  const rows = results.models
    .map((model) => {
      const figures = jury.get(model.modelId);
      return {
        ...model,
        score: figures?.meanScore ?? model.averageScore,
        interval: figures?.scoreInterval ?? null,
      };
    })
    .sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.modelName.localeCompare(b.modelName, "en"));
  if (rows.length === 0) return null;
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-medium">Compare the models</h3>
      <ResultsTable
        label="Compare the models"
        columns={compareColumns(verdict)}
        rows={rows}
        rowKey={(row) => row.modelId}
        rowProps={(row) => {
          const picked = verdict?.pickId === row.modelId;
          return {
            className: cn(picked && "shadow-[inset_3px_0_0_var(--color-primary)]"),
            "data-testid": "compare-row",
            "aria-current": picked ? "true" : undefined,
          };
        }}
      />
    </div>
  );
}

type CompareRow = ResultsData["models"][number] & {
  score: number | null;
  interval: { low: number; high: number } | null;
};

function compareColumns(verdict: PlainVerdict | null): ResultsColumn<CompareRow>[] {
  return [
    {
      id: "Model",
      className: "max-w-[14rem] break-words",
      cell: (row) => (
        <>
          {row.modelName}
          {verdict?.pickId === row.modelId && <span className="block text-xs font-normal text-primary">Our pick</span>}
        </>
      ),
    },
    {
      id: "Score",
      header: `Score / ${MAX_SCORE}`,
      numeric: true,
      cell: (row) => (
        <>
          {row.score === null ? "—" : formatScore(row.score)}
          {row.interval && (
            <span
              className="block text-xs whitespace-nowrap text-muted-foreground"
              title="95% range: where the score would likely land on a rerun"
            >
              {formatInterval(row.interval)}
            </span>
          )}
        </>
      ),
    },
    {
      id: "Cost per answer",
      numeric: true,
      cell: (row) => (row.costPerResponseUsd === null ? "—" : formatCostPerResponse(row.costPerResponseUsd)),
    },
    {
      id: "Median time",
      numeric: true,
      cell: (row) => (row.medianLatencyMs === null ? "—" : formatLatency(row.medianLatencyMs)),
    },
  ];
}
