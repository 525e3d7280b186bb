import { Link } from "@tanstack/react-router";
import { FileWarningIcon, LinkIcon } from "lucide-react";

import { EmptyState, EmptyStateLink } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { Markdown } from "@/components/markdown";
import { ViewerAvatars } from "@/components/presence";
import { FullPageSpinner } from "@/components/spinner";
import { TestTitle } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import { Progress } from "@/components/ui/progress";
import { useNow } from "@/hooks/use-now";
import { MarketingHeader } from "@/features/marketing/marketing-header";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { RankingsSection } from "@/components/results/rankings-section";
import { JurySection, JurySummary } from "@/components/results/jury-stats";
import { RepeatSpreadSection } from "@/components/results/repeat-spread";
import { TestTimes } from "@/components/test-times";
import { countsLabel, taskTypeLabel } from "@/lib/test-labels";
import { ResultsSection } from "@/components/results-section";
import { SharedChecksSection } from "@/components/results/check-pass-rates";
import { StatCards } from "@/components/results-stat-cards";
import { errorMessage } from "@/lib/errors";
import { useSharedView, type SharedView } from "@/lib/results-views";

import { formatCount, formatLatency, timeLeftText } from "../../../convex/lib/format";
import { selectedCriteria } from "../../../convex/lib/types";
import { MissingWorkNotice } from "@/components/missing-work";
import { SettleNotice } from "@/components/settle-notice";
import { hasEnded } from "../../../convex/lib/testStatus";
import { SharedJuryAdvice } from "./shared-jury-advice";

export const NOT_FOUND_TITLE = "Shared Test Not Found";
export const NOT_FOUND_MESSAGE = "Shared test not found or no longer available";
export const LOAD_FAILED = "Failed to load shared test results";
export const INVALID_SHARED = "Invalid test data";

type Shared = NonNullable<SharedView>;

/** /shared/{shareId}: the public, read-only results; live while the test runs (spec part 2 §2). */
export function SharedResultsPage({ shareId }: { shareId: string }) {
  return (
    <div className="min-h-dvh bg-background">
      <MarketingHeader />
      <main className="mx-auto max-w-6xl px-4 py-8">
        <QueryErrorBoundary
          fallback={(error, reset) => <ErrorState title={LOAD_FAILED} message={errorMessage(error)} onRetry={reset} />}
        >
          <SharedScreen shareId={shareId} />
        </QueryErrorBoundary>
      </main>
    </div>
  );
}

function SharedScreen({ shareId }: { shareId: string }) {
  const shared = useSharedView(shareId);
  if (shared === undefined) return <FullPageSpinner label="Loading shared results" />;
  if (shared === null) {
    return (
      <EmptyState
        title={NOT_FOUND_TITLE}
        description={NOT_FOUND_MESSAGE}
        icon={LinkIcon}
        action={<EmptyStateLink to="/">Go to ModelJury</EmptyStateLink>}
      />
    );
  }
  if (!shared.valid)
    return <EmptyState title={INVALID_SHARED} description={NOT_FOUND_MESSAGE} icon={FileWarningIcon} />;
  return <SharedResults shared={shared} shareId={shareId} />;
}

function SharedResults({ shared, shareId }: { shared: Shared; shareId: string }) {
  const config = shared.configuration;
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <p className="text-sm text-muted-foreground">Shared results</p>
        <TestTitle name={shared.testName} status={shared.status} />
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <Badge variant="outline">{taskTypeLabel(shared.taskType)}</Badge>
          <span>{countsLabel(config)}</span>
        </div>
        <ViewerAvatars room={`share:${shareId}`} page="shared" />
      </header>
      <TestTimes
        test={{
          _creationTime: shared.createdAt,
          startedAt: shared.startedAt,
          completedAt: shared.completedAt,
          responsesCount: shared.metrics.totalResponses,
          expectedResponses: shared.metrics.expectedResponses,
        }}
      />
      {shared.progress && <SharedProgress progress={shared.progress} />}
      <MissingWorkNotice work={shared.missingWork} />
      {config.stopWhenSettled !== undefined && <SettleNotice shareId={shareId} />}
      <JurySummary source={{ shareId }} />
      <StatCards metrics={shared.metrics} />
      <RankingsSection title="Model Rankings" source={{ shareId }} rankings={shared.rankings} />
      <SharedChecksSection shareId={shareId} />
      <JurySection source={{ shareId }} />
      {(config.repeats ?? 1) > 1 && <RepeatSpreadSection source={{ shareId }} repeats={config.repeats!} />}
      {hasEnded(shared.status) && shared.metrics.totalResponses > 0 && <SharedJuryAdvice shareId={shareId} />}
      <ResultsSection title="Sample Responses" aside={`first ${shared.sampleResponses.length}`}>
        <SampleResponses samples={shared.sampleResponses} />
      </ResultsSection>
      <ResultsSection title="Test Configuration">
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <ConfigList label="Models compared" items={config.generatorModels.map((model) => model.name)} />
          <ConfigList label="Evaluator models" items={config.evaluatorModels.map((model) => model.name)} />
          <ConfigList
            label="Personas"
            items={config.personas.map((persona) => `${persona.name} — ${persona.description}`)}
          />
          <ConfigList label="Topics" items={config.topics.map((topic) => `${topic.title} — ${topic.description}`)} />
          <ConfigList
            label="Scoring"
            items={[
              `${config.scoringParameters.scale === "ranking" ? "Ranking" : "Rating"} scale`,
              `Criteria: ${selectedCriteria(config.evaluationCriteria).join(", ") || "none"}`,
              `${config.responsesPerTopic} response${config.responsesPerTopic === 1 ? "" : "s"} per topic`,
              ...((config.repeats ?? 1) > 1 ? [`Each persona × topic run ${config.repeats} times`] : []),
            ]}
          />
        </dl>
      </ResultsSection>
      <p className="text-center text-sm text-muted-foreground">
        Compared with ModelJury.{" "}
        <Link to="/signup" className="text-primary underline-offset-4 hover:underline">
          Run your own comparison
        </Link>
      </p>
    </div>
  );
}

/** A running test's progress bar, phase and time left (counted down to its forecast end, as on the monitor). */
function SharedProgress({ progress }: { progress: NonNullable<Shared["progress"]> }) {
  const now = useNow();
  const percentage = Math.min(100, Math.max(0, Math.round(progress.percentage)));
  return (
    <section className="space-y-2 rounded-lg border p-4" aria-label="Progress" data-testid="shared-progress">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{progress.currentPhase}</span>
        <span className="text-2xl font-semibold tabular-nums">{percentage}%</span>
      </div>
      <Progress value={percentage} aria-label="Test progress" aria-valuetext={`${percentage}%`} />
      <p className="text-sm text-muted-foreground">
        Estimated time remaining:{" "}
        <span className="font-medium text-foreground" data-testid="shared-time-left">
          {timeLeftText(progress, now)}
        </span>
      </p>
    </section>
  );
}

function SampleResponses({ samples }: { samples: Shared["sampleResponses"] }) {
  if (samples.length === 0) return <p className="text-sm text-muted-foreground">No responses available</p>;
  return (
    <ul className="space-y-3" aria-label="Sample responses">
      {samples.map((sample) => (
        <li key={sample.key} className="space-y-2 rounded-md border p-3" data-testid="sample-response">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{sample.modelName}</span>
            <Badge variant="secondary">{sample.personaName}</Badge>
            <Badge variant="outline">{sample.topicTitle}</Badge>
            <span className="ml-auto text-xs text-muted-foreground tabular-nums">
              {formatCount(sample.tokens)} tokens · {formatLatency(sample.latencyMs)}
            </span>
          </div>
          <div className="max-h-64 overflow-y-auto">
            <Markdown>{sample.content}</Markdown>
          </div>
        </li>
      ))}
    </ul>
  );
}

function ConfigList({ label, items }: { label: string; items: string[] }) {
  return (
    <div className="space-y-1">
      <dt className="font-medium">{label}</dt>
      <dd>
        <ul className="list-disc space-y-0.5 pl-5 text-muted-foreground">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </dd>
    </div>
  );
}
