import { useNavigate } from "@tanstack/react-router";
import { SettleNotice } from "@/components/settle-notice";
import { FileWarningIcon } from "lucide-react";
import { useState } from "react";

import { EmptyState, EmptyStateLink } from "@/components/empty-state";
import { FullPageSpinner } from "@/components/spinner";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { TestLoadError } from "@/components/test-access-lost";

import type { Id } from "../../../convex/_generated/dataModel";
import { formatCount } from "../../../convex/lib/format";
import { hasEnded } from "../../../convex/lib/testStatus";
import { EvaluationsList } from "./evaluations-section";
import { CostQualityChart, LatencyChart } from "@/components/results/model-charts";
import { PersonaHeatmap } from "./persona-heatmap";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { RankingsList } from "@/components/results/rankings";
import { RankingsSection } from "@/components/results/rankings-section";
import { JurySection } from "@/components/results/jury-stats";
import { ResponsesList } from "./responses-section";
import { ResultsChecksSection } from "@/components/results/check-pass-rates";
import { ResultsHeader } from "./results-header";
import { type ResultsData } from "@/components/results/results-model";
import { ResultsSection } from "@/components/results-section";
import { StatCards } from "@/components/results-stat-cards";
import { CostSummary } from "./cost-summary";
import { EndedMoneyNotice } from "@/components/money-notice";
import { chargeBehindShortfall, MissingWorkNotice } from "@/components/missing-work";
import { TestTimes } from "@/components/test-times";
import { FailureNotice } from "@/components/failure-notice";
import { VerdictPanel } from "./verdict";
import { RepeatSpreadSection } from "@/components/results/repeat-spread";
import { ReviewButton, TeamReviewSection } from "./team-review";
import { RejudgeActions, RejudgeNotice } from "@/features/rejudge/rejudge-links";
import { JuryAdviceCard } from "@/features/jury-advice/jury-advice-card";
import { useResultsView } from "@/lib/results-views";

export const ERROR_TITLE = "Error Loading Results";
export const INVALID_TITLE = "Invalid Test Data";
export const INVALID_MESSAGE = "This test has corrupted or incomplete data.";

/** /dashboard/results/{testId}: the owner's results, live while the test runs (spec part 2 §2). */
export function ResultsPage({ testId }: { testId: string }) {
  // Set while this page deletes its test, so the test vanishing shows a spinner, not an error.
  const [deleting, setDeleting] = useState(false);
  return (
    <QueryErrorBoundary
      fallback={(error, reset) =>
        deleting ? (
          <FullPageSpinner label="Deleting test" />
        ) : (
          <TestLoadError title={ERROR_TITLE} error={error} onRetry={reset} />
        )
      }
    >
      <ResultsScreen testId={testId as Id<"tests">} deleting={deleting} onDeletingChange={setDeleting} />
    </QueryErrorBoundary>
  );
}

function ResultsScreen({
  testId,
  deleting,
  onDeletingChange,
}: {
  testId: Id<"tests">;
  deleting: boolean;
  onDeletingChange: (deleting: boolean) => void;
}) {
  // While this page deletes its test, nothing subscribes to it (a vanished test would answer
  // NOT_FOUND): the header keeps the last answer, with the dialog, until the app moves to History.
  const live = useResultsView(testId, deleting);
  const [held, setHeld] = useState(live);
  if (live !== undefined && live !== held) setHeld(live);
  const results = deleting ? held : live;
  const navigate = useNavigate();

  if (results === undefined) return <ResultsSkeleton />;
  if (!results.valid) return <InvalidTestData />;
  // A review needs answers; a team review needs a team.
  const answered = results.test.responsesCount > 0;
  const header = (
    <ResultsHeader
      results={results}
      onDeletingChange={onDeletingChange}
      onDeleted={() => void navigate({ to: "/dashboard/history", replace: true })}
      actions={
        answered && !deleting ? (
          <>
            <ReviewButton testId={testId} />
            <RejudgeActions testId={testId} configuration={results.test.configuration} />
          </>
        ) : undefined
      }
      showViewers={!deleting}
    />
  );
  if (deleting) {
    return (
      <div className="space-y-6">
        {header}
        <FullPageSpinner label="Deleting test" />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      {header}
      <RejudgeNotice testId={testId} />
      <TestTimes test={results.test} />
      <FailureNotice test={results.test} />
      {/* A failed test's notice says why once (as the monitor's does); the missing work is its reason. */}
      {results.test.status !== "failed" && (
        <MissingWorkNotice
          work={results.test}
          delivery={hasEnded(results.test.status) ? results.test : undefined}
          chargedCents={chargeBehindShortfall(results.test)}
        />
      )}
      <SettleNotice testId={results.test._id} />
      <VerdictPanel testId={testId} results={results} />
      <StatCards metrics={results.metrics} />
      <EndedMoneyNotice test={{ ...results.test, totalCostUsd: results.metrics.totalCostUsd }} />
      <CostSummary metrics={results.metrics} />
      <RankingsSection title="Overall Model Rankings" source={{ testId }} rankings={results.rankings} detailed />
      <ResultsChecksSection testId={testId} />
      <JurySection source={{ testId }} defaultOpen={false} />
      {(results.test.configuration.repeats ?? 1) > 1 && (
        <RepeatSpreadSection source={{ testId }} repeats={results.test.configuration.repeats!} />
      )}
      {hasEnded(results.test.status) && answered && (
        <JuryAdviceCard testId={testId} configuration={results.test.configuration} />
      )}
      {answered && results.test.teamId !== undefined && <TeamReviewSection testId={testId} />}
      <ResultsSection
        title="Cost, Quality and Speed"
        description="What each model's score costs, and how long it takes"
        defaultOpen
      >
        <CostAndSpeed models={results.models} />
      </ResultsSection>
      <ResultsSection title="Performance by Persona" description="Rankings within each persona" defaultOpen>
        <PersonaPerformance results={results} />
      </ResultsSection>
      <ResultsSection title="Raw Responses" aside={`${formatCount(results.metrics.totalResponses)} total`}>
        <ResponsesList testId={testId} hasChecks={(results.test.configuration.checks ?? []).length > 0} />
      </ResultsSection>
      <ResultsSection title="Evaluations" aside={`${formatCount(results.metrics.evaluations)} total`}>
        <EvaluationsList testId={testId} />
      </ResultsSection>
    </div>
  );
}

function CostAndSpeed({ models }: { models: ResultsData["models"] }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
      <div className="space-y-2">
        <h3 className="font-medium">Cost vs average score</h3>
        <CostQualityChart models={models} />
      </div>
      <div className="space-y-2">
        <h3 className="font-medium">Latency per model</h3>
        <LatencyChart models={models} />
      </div>
    </div>
  );
}

function PersonaPerformance({ results }: { results: ResultsData }) {
  if (results.personaBreakdown.length === 0) return <RankingsList rankings={[]} />;
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-2 [&>*]:min-w-0">
        {results.personaBreakdown.map((persona) => (
          <Card key={persona.personaId} className="gap-3 py-4 shadow-none">
            <CardHeader className="px-4">
              <CardTitle className="text-base">{persona.personaName}</CardTitle>
            </CardHeader>
            <CardContent className="px-4">
              <RankingsList rankings={persona.rankings} label={`Rankings for ${persona.personaName}`} />
            </CardContent>
          </Card>
        ))}
      </div>
      <div className="space-y-2">
        <h3 className="font-medium">Average score by persona and model</h3>
        <PersonaHeatmap heatmap={results.heatmap} />
      </div>
    </div>
  );
}

function InvalidTestData() {
  return (
    <EmptyState
      title={INVALID_TITLE}
      description={INVALID_MESSAGE}
      icon={FileWarningIcon}
      action={<EmptyStateLink to="/dashboard/history">Back to History</EmptyStateLink>}
    />
  );
}

function ResultsSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading results">
      <Skeleton className="h-5 w-32" />
      <Skeleton className="h-10 w-2/3" />
      <Skeleton className="h-20 w-full" />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
