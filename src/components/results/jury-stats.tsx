// The jury's evidence on the results and shared pages: the summary sentence,
// rankings with intervals and tie ranges, and the Jury section (agreement overall and per
// persona × topic, each judge's record, Bradley–Terry ratings and the win-rate heatmap). Each
// piece subscribes to the stored statistics itself (Convex shares one subscription between
// them), so the figures fill in live as judges report, and a failure stays inside its piece.
import { useQuery } from "convex/react";
import { FlagIcon, InfoIcon, ScaleIcon } from "lucide-react";
import type { ReactNode } from "react";

import { EmptyState } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { formatCount } from "../../../convex/lib/format";
import {
  agreementMethodHelp,
  agreementMethodName,
  decisionSentence,
  formatCorrelation,
  formatInterval,
  formatJudgeCost,
  formatRating,
  formatSelfPreference,
  formatShare,
  hasDecision,
  hasScores,
  JURY_EMPTY,
  JURY_LOAD_FAILED,
  JURY_TITLE,
  judgeFlags,
  nameOf,
  winRateStrength,
  type JuryAgreement,
  type JuryStats,
  type JuryView,
} from "./jury-model";
import { JuryCostSplit } from "./jury-costs";
import { JuryScoreBreakdown } from "./jury-ratings";
import { ResultsTable, type ResultsColumn } from "./results-table";
import { ConfidenceRankings } from "./rankings";
import { ResultsSection } from "@/components/results-section";

/** Whose statistics: the owner's test, or a shared link (anonymous). */
export type JurySource = { testId: Id<"tests"> } | { shareId: string };

/** The stored statistics with names; undefined while loading, null when the test or link is gone. */
export function useJuryView(source: JurySource): JuryView | null | undefined {
  const owner = useQuery(api.results.juryStats, "testId" in source ? { testId: source.testId } : "skip");
  const shared = useQuery(api.shares.juryStats, "shareId" in source ? { shareId: source.shareId } : "skip");
  return "testId" in source ? owner : shared;
}

function JuryBoundary({ children }: { children: ReactNode }) {
  return (
    <QueryErrorBoundary
      fallback={(error, reset) => (
        <ErrorState title={JURY_LOAD_FAILED} message={errorMessage(error)} onRetry={reset} className="py-6" />
      )}
    >
      {children}
    </QueryErrorBoundary>
  );
}

type JuryRender = (view: JuryView | null | undefined) => ReactNode;

/** Subscribes inside its own error boundary, so a failed query stays in this piece. */
function WithJury({ source, children }: { source: JurySource; children: JuryRender }) {
  return (
    <JuryBoundary>
      <JuryConsumer source={source} render={children} />
    </JuryBoundary>
  );
}

function JuryConsumer({ source, render }: { source: JurySource; render: JuryRender }) {
  return <>{render(useJuryView(source))}</>;
}

/** "What the evidence supports", at the top of the results: shown once a model has a score. */
export function JurySummary({ source }: { source: JurySource }) {
  // A failure is shown once, in the Jury section; the sentence is left out meanwhile.
  return (
    <QueryErrorBoundary fallback={() => null}>
      <JurySummaryOf source={source} />
    </QueryErrorBoundary>
  );
}

function JurySummaryOf({ source }: { source: JurySource }) {
  const view = useJuryView(source);
  if (!view || !hasDecision(view.stats)) return null;
  return <JurySummaryView view={view} stats={view.stats} />;
}

export function JurySummaryView({ view, stats }: { view: JuryView; stats: JuryStats }) {
  return (
    // A status, not an alert: it changes as judges report, and is read politely.
    <Alert role="status" data-testid="jury-summary" variant={stats.summary.kind === "best" ? "success" : "default"}>
      <ScaleIcon />
      <AlertTitle className="line-clamp-none">{decisionSentence(stats)}</AlertTitle>
      <AlertDescription>
        Mean scores with 95% bootstrap intervals ({formatCount(stats.resamples)} resamples over{" "}
        {formatCount(stats.units)} persona × topic {stats.units === 1 ? "unit" : "units"}), from{" "}
        {formatCount(view.evaluationsSeen)} judge {view.evaluationsSeen === 1 ? "score" : "scores"}.
        {view.live && " Updating as the judges report."}
      </AlertDescription>
    </Alert>
  );
}

/** The rankings with intervals and tie ranges once scored; `fallback` (the plain list) until then. */
export function JuryRankings({ source, fallback }: { source: JurySource; fallback: ReactNode }) {
  return (
    <QueryErrorBoundary fallback={() => fallback}>
      <JuryRankingsOf source={source} fallback={fallback} />
    </QueryErrorBoundary>
  );
}

function JuryRankingsOf({ source, fallback }: { source: JurySource; fallback: ReactNode }) {
  const view = useJuryView(source);
  if (!view || !hasScores(view.stats)) return <>{fallback}</>;
  return <ConfidenceRankings models={view.stats.models} />;
}

/** The collapsible "The Jury" section with its loading, empty and error states. */
export function JurySection({ source, defaultOpen = true }: { source: JurySource; defaultOpen?: boolean }) {
  return (
    <ResultsSection
      title={JURY_TITLE}
      description="How the jury judged: agreement (Krippendorff's alpha or Kendall's W), each judge's biases, Bradley–Terry ratings and win rates"
      defaultOpen={defaultOpen}
    >
      <WithJury source={source}>
        {(view) => {
          if (view === undefined) return <JurySkeleton />;
          if (view === null || !hasScores(view.stats))
            return <EmptyState title={JURY_EMPTY} icon={ScaleIcon} className="py-6" />;
          return <JuryDetails view={view} stats={view.stats} />;
        }}
      </WithJury>
    </ResultsSection>
  );
}

function JurySkeleton() {
  return (
    <div className="space-y-3" aria-busy="true" aria-label="Loading the jury's statistics">
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}

export function JuryDetails({ view, stats }: { view: JuryView; stats: JuryStats }) {
  return (
    <div className="space-y-8" data-testid="jury-details">
      <AgreementPanel view={view} stats={stats} />
      <JudgeTable view={view} stats={stats} />
      <JuryScoreBreakdown view={view} stats={stats} />
      <JuryCostSplit stats={stats} />
      <div className="grid gap-8 lg:grid-cols-2 [&>*]:min-w-0">
        <RatingsTable stats={stats} />
        <WinRateHeatmap stats={stats} />
      </div>
    </div>
  );
}

function MethodTip({ method, help }: { method: JuryAgreement["method"]; help: string }) {
  return (
    <Tooltip>
      <TooltipTrigger
        type="button"
        className="inline-flex items-center gap-1 text-xs text-muted-foreground underline decoration-dotted underline-offset-2"
        aria-label={`How ${agreementMethodName(method)} works`}
      >
        <InfoIcon className="size-3.5" aria-hidden="true" />
        {agreementMethodName(method)}
      </TooltipTrigger>
      <TooltipContent className="max-w-xs">{help}</TooltipContent>
    </Tooltip>
  );
}

const BAND_TONE: Record<string, string> = {
  none: "bg-destructive/10 text-red-800 dark:text-red-300",
  weak: "bg-orange-500/15 text-orange-800 dark:text-orange-300",
  moderate: "bg-yellow-500/15 text-yellow-800 dark:text-yellow-300",
  strong: "bg-green-500/15 text-green-800 dark:text-green-300",
  "very strong": "bg-green-600/20 text-green-800 dark:text-green-300",
};

/** An agreement figure's band in words, coloured by strength (also the team review's reviewers). */
export function BandBadge({ figure }: { figure: Pick<JuryAgreement, "band" | "label"> }) {
  return (
    <span
      className={cn(
        "inline-flex rounded-md px-2 py-0.5 text-xs font-medium",
        figure.band ? BAND_TONE[figure.band] : "bg-muted text-foreground",
      )}
    >
      {figure.label}
    </span>
  );
}

function AgreementPanel({ view, stats }: { view: JuryView; stats: JuryStats }) {
  const { overall, byUnit } = stats.agreement;
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Jury agreement</h3>
      <div className="flex flex-wrap items-center gap-3 rounded-lg border p-4" data-testid="jury-agreement">
        <span className="text-2xl font-bold tabular-nums">
          {overall.value === null ? "—" : overall.value.toFixed(2)}
        </span>
        <BandBadge figure={overall} />
        <MethodTip method={overall.method} help={agreementMethodHelp(stats)} />
        <span className="text-xs text-muted-foreground">
          overall, over {formatCount(stats.units)} persona × topic {stats.units === 1 ? "unit" : "units"}
        </span>
      </div>
      {byUnit.length > 0 && (
        <ResultsTable
          label="Agreement per persona and topic"
          frame="tall"
          dense
          columns={unitColumns(view, overall.method)}
          rows={byUnit}
          rowKey={(unit) => `${unit.personaId}\u0000${unit.topicId}`}
        />
      )}
    </div>
  );
}

type UnitAgreement = JuryStats["agreement"]["byUnit"][number];

function unitColumns(view: JuryView, method: JuryAgreement["method"]): ResultsColumn<UnitAgreement>[] {
  return [
    { id: "Persona", className: "font-normal", cell: (unit) => nameOf(view.personas, unit.personaId) },
    { id: "Topic", cell: (unit) => nameOf(view.topics, unit.topicId) },
    {
      id: "value",
      header: agreementMethodName(method),
      numeric: true,
      cell: (unit) => (unit.value === null ? "—" : unit.value.toFixed(2)),
    },
    { id: "Agreement", cell: (unit) => <BandBadge figure={unit} /> },
  ];
}

type JudgeStats = JuryStats["judges"][number];

function JudgeTable({ view, stats }: { view: JuryView; stats: JuryStats }) {
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Each judge examined</h3>
      <ResultsTable
        label="Judges"
        alignTop
        columns={judgeColumns(view, stats)}
        rows={stats.judges}
        rowKey={(judge) => judge.judgeModelId}
        rowProps={() => ({ "data-testid": "judge-row" })}
      />
      <p className="text-xs text-muted-foreground">
        A flag means the bias is significant (false-alarm budget {formatShare(stats.alpha)} per judge, shared by its
        checks); p-values from one-sided tests.
      </p>
    </div>
  );
}

function judgeColumns(view: JuryView, stats: JuryStats): ResultsColumn<JudgeStats>[] {
  const ranking = stats.scale === "ranking";
  // A shared link's viewers get no cost figures.
  const costs = stats.costs !== undefined;
  const agreementName = ranking ? "Kendall's tau" : "Spearman";
  const columns: (ResultsColumn<JudgeStats> | false)[] = [
    {
      id: "Judge",
      cell: (judge) => (
        <>
          {nameOf(view.judges, judge.judgeModelId)}
          <span className="block text-xs font-normal text-muted-foreground">{formatCount(judge.calls)} calls</span>
        </>
      ),
    },
    {
      id: "Agreement with panel",
      help: `Leave-one-out ${agreementName} with the rest of the panel`,
      numeric: true,
      cell: (judge) => formatCorrelation(judge.agreement.value),
    },
    ranking && {
      id: "First-shown first",
      help: "How often it ranks the first-shown answer first, against chance",
      numeric: true,
      cell: (judge) =>
        judge.position ? `${formatShare(judge.position.firstRate)} vs ${formatShare(judge.position.chance)}` : "—",
    },
    ranking && {
      id: "Position consistency",
      help: "Share of answer pairs kept in the same order when shown in reverse",
      numeric: true,
      cell: (judge) => (judge.positionConsistency === null ? "—" : formatShare(judge.positionConsistency)),
    },
    {
      id: "Length correlation",
      help: "Correlation of its scores with answer length",
      numeric: true,
      cell: (judge) => formatCorrelation(judge.length.correlation),
    },
    {
      id: "Self-preference",
      help: "Its score for its own family's answers minus what the other judges give them",
      numeric: true,
      cell: (judge) => formatSelfPreference(judge.selfPreference.value),
    },
    costs && { id: "Cost", numeric: true, cell: (judge) => formatJudgeCost(judge.costUsd ?? 0) },
    {
      id: "Flags",
      cell: (judge) => <JudgeFlags name={nameOf(view.judges, judge.judgeModelId)} flags={judgeFlags(judge)} />,
    },
  ];
  return columns.filter((column) => column !== false);
}

function JudgeFlags({ name, flags }: { name: string; flags: string[] }) {
  if (flags.length === 0) return <span className="text-muted-foreground">None</span>;
  return (
    <ul className="space-y-1" aria-label={`Flags of ${name}`}>
      {flags.map((flag) => (
        <li key={flag} className="flex gap-1.5 text-destructive">
          <FlagIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          <span>{flag}</span>
        </li>
      ))}
    </ul>
  );
}

const RATING_COLUMNS: ResultsColumn<JuryStats["models"][number]>[] = [
  { id: "Model", className: "font-normal", cell: (model) => model.modelName },
  { id: "Rating", numeric: true, className: "font-semibold", cell: (model) => formatRating(model.rating!) },
  {
    id: "95% interval",
    numeric: true,
    cell: (model) => formatInterval(model.ratingInterval, formatRating),
  },
];

function RatingsTable({ stats }: { stats: JuryStats }) {
  const rated = stats.models.filter((model) => model.rating !== null).sort((a, b) => (b.rating ?? 0) - (a.rating ?? 0));
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Bradley–Terry ratings</h3>
      {/* A scroll box of its own: long names or intervals never widen the page. */}
      <ResultsTable
        label="Bradley–Terry ratings"
        frame="plain"
        dense
        data-testid="ratings-scroll"
        columns={RATING_COLUMNS}
        rows={rated}
        rowKey={(model) => model.modelId}
      />
      <p className="text-xs text-muted-foreground">
        Elo scale as Chatbot Arena uses it (400 points = 10:1 odds; the average model at 1000).
      </p>
    </div>
  );
}

function WinRateHeatmap({ stats }: { stats: JuryStats }) {
  const names = new Map(stats.models.map((model) => [model.modelId, model.modelName]));
  const { modelIds, matrix } = stats.winRates;
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Pairwise win rates</h3>
      <div tabIndex={0} className="overflow-x-auto">
        <table className="w-full border-separate border-spacing-1 text-sm" aria-label="Pairwise win rates">
          <thead>
            <tr>
              <th scope="col" className="px-2 py-1 text-left font-medium text-muted-foreground">
                Row beats column
              </th>
              {modelIds.map((id) => (
                <th key={id} scope="col" className="px-2 py-1 text-center font-medium">
                  {names.get(id) ?? id}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {modelIds.map((rowId, i) => (
              <tr key={rowId}>
                <th scope="row" className="px-2 py-1 text-left font-medium whitespace-nowrap">
                  {names.get(rowId) ?? rowId}
                </th>
                {modelIds.map((columnId, j) => {
                  const rate = matrix[i]?.[j] ?? null;
                  const tone = rate !== null && rate >= 0.5 ? "var(--chart-2)" : "var(--chart-5)";
                  return (
                    <td
                      key={columnId}
                      className="rounded-md px-2 py-2 text-center tabular-nums"
                      style={
                        rate === null
                          ? undefined
                          : {
                              background: `color-mix(in oklab, ${tone} ${Math.round(10 + winRateStrength(rate) * 70)}%, transparent)`,
                            }
                      }
                      data-testid="win-rate-cell"
                    >
                      {rate === null ? <span className="text-muted-foreground">—</span> : formatShare(rate)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A small badge of the overall agreement, for compact places (the monitor). */
export function AgreementBadge({ figure }: { figure: JuryAgreement }) {
  return (
    <Badge variant="outline" className="gap-1.5 font-normal">
      <span className="font-semibold tabular-nums">{figure.value === null ? "—" : figure.value.toFixed(2)}</span>
      {figure.label}
    </Badge>
  );
}
