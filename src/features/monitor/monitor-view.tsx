import { Link } from "@tanstack/react-router";
import {
  AlertTriangleIcon,
  BanIcon,
  ChartColumnIcon,
  ClockIcon,
  CreditCardIcon,
  HourglassIcon,
  MessageSquareTextIcon,
  TrophyIcon,
  type LucideIcon,
} from "lucide-react";
import { type ReactNode, useState } from "react";

import { ViewerAvatars } from "@/components/presence";
import { TestTitle } from "@/components/status-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";

import {
  formatRelativeTime,
  formatScore,
  formatTestCost,
  formatTestDuration,
  timeLeftText,
} from "../../../convex/lib/format";
// A finished re-judging offers its compare link here too (the rejudge feature's own button).
import { CompareJuriesLink } from "@/features/rejudge/rejudge-links";
import { canStop, hasEnded } from "../../../convex/lib/testStatus";
import {
  elapsedSpan,
  hiddenRankedModels,
  modelCounts,
  monitorCounters,
  monitorStage,
  plural,
  previewOf,
  progressMeaning,
  scoreBarPercent,
  type MonitorData,
  type MonitorRanking,
  type MonitorResponse,
  type MonitorTest,
} from "./monitor-model";
import { DraftActions } from "@/features/dashboard/draft-actions";
import { chargeBehindShortfall, MissingWorkNotice } from "@/components/missing-work";
import { missingWorkSummary } from "../../../convex/lib/progress";
import { ResponseDialog } from "./response-dialog";
import { StopTestButton } from "./stop-test-button";
import { EndedMoneyNotice } from "@/components/money-notice";
import { shownFigure } from "@/components/results-stat-cards";
import { testFigures } from "../../../convex/lib/metrics";
import { JuryMonitorPanel } from "./jury-monitor-panel";
import { MonitorChecks } from "@/components/results/check-pass-rates";
import { refundLine } from "@/components/failure-notice";
import { useQuery } from "convex/react";
import { api } from "../../../convex/_generated/api";

interface MonitorViewProps {
  data: MonitorData;
  /** Unix milliseconds, ticking every second (useNow). */
  now: number;
  onStop: () => Promise<void>;
  /** After an unpaid draft was discarded from here. */
  onDiscarded?: () => void;
}

/** The live monitor of one test (spec part 1 §2); every number comes from the live query. */
export function MonitorView({ data, now, onStop, onDiscarded }: MonitorViewProps) {
  const { test } = data;
  const finished = hasEnded(test.status);
  return (
    <div className="space-y-6">
      <TestHeader test={test} now={now} onStop={onStop} />
      <StageNotice test={test} onDiscarded={onDiscarded} />
      {/* A failed test's notice says why once; the missing work is its reason. */}
      {test.status !== "failed" && (
        <MissingWorkNotice
          work={test}
          delivery={finished ? test : undefined}
          chargedCents={chargeBehindShortfall(test)}
        />
      )}
      {finished && <EndedMoneyNotice test={test} />}
      <ProgressPanel test={test} now={now} />
      <Counters test={test} />
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <RankingsCard rankings={data.rankings} hidden={hiddenRankedModels(data)} />
        <ActivityCard testId={test._id} responses={data.latestResponses} now={now} />
      </div>
      {!test.awaitingPayment && <JuryMonitorPanel testId={test._id} evaluationsCount={test.evaluationsCount} />}
      {!test.awaitingPayment && <MonitorChecks testId={test._id} />}
    </div>
  );
}

function TestHeader({ test, now, onStop }: { test: MonitorTest; now: number; onStop: () => Promise<void> }) {
  const counts = modelCounts(test.size);
  const { start, end } = elapsedSpan(test);
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-2">
        <TestTitle name={test.name} status={test.status} className="text-2xl sm:text-3xl" />
        <p className="text-sm text-muted-foreground">
          <span className="font-medium text-foreground">Task type:</span> {test.taskType}
        </p>
        <p className="text-sm text-muted-foreground" aria-label="Test size">
          {plural(counts.models, "model")} · {plural(counts.judges, "judge")} · {plural(counts.personas, "persona")} ·{" "}
          {plural(counts.topics, "topic")}
        </p>
        <ViewerAvatars room={`test:${test._id}`} page="monitor" />
      </div>
      <div className="flex shrink-0 items-center gap-4">
        <dl className="text-right">
          <dt className="text-xs text-muted-foreground">{end === undefined ? "Time since start" : "Duration"}</dt>
          <dd
            className="flex items-center justify-end gap-1.5 font-mono text-lg tabular-nums"
            data-testid="elapsed-time"
          >
            <ClockIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            {formatTestDuration(start, end, now)}
          </dd>
        </dl>
        {canStop(test.status) && (
          <StopTestButton testId={test._id} testName={test.name} chargedCents={test.chargedCents} onStop={onStop} />
        )}
      </div>
    </div>
  );
}

/** What a test that is not simply running is waiting for, or how it ended. */
function StageNotice({ test, onDiscarded }: { test: MonitorTest; onDiscarded?: () => void }) {
  switch (monitorStage(test)) {
    case "awaiting_payment":
      return (
        <Alert>
          <CreditCardIcon />
          <AlertTitle>Waiting for payment</AlertTitle>
          <AlertDescription className="flex flex-col gap-3">
            <span>
              The test starts as soon as the payment is confirmed. If you left the checkout, complete the payment or
              discard the test.
            </span>
            {test.awaitingPayment && (
              <span className="flex flex-wrap gap-2">
                <DraftActions draft={test} onDiscarded={onDiscarded} />
              </span>
            )}
          </AlertDescription>
        </Alert>
      );
    case "queued":
      return (
        <Alert>
          <HourglassIcon />
          <AlertTitle>Queued</AlertTitle>
          <AlertDescription>Your test is in the queue and starts as soon as a worker is free.</AlertDescription>
        </Alert>
      );
    case "completed":
      return (
        <Alert variant="success" className="items-center">
          <TrophyIcon />
          <AlertTitle>Test completed</AlertTitle>
          <AlertDescription className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <span>
              {missingWorkSummary(test) === null
                ? "All responses and evaluations are in. The full rankings and analysis are ready."
                : "The rankings and analysis are ready, from the answers and judgements that came back."}
            </span>
            <span className="flex flex-wrap gap-2">
              <CompareJuriesLink testId={test._id} />
              <Button asChild size="lg">
                <Link to="/dashboard/results/$testId" params={{ testId: test._id }}>
                  <ChartColumnIcon /> View Results
                </Link>
              </Button>
            </span>
          </AlertDescription>
        </Alert>
      );
    case "failed":
      return <FailedNotice test={test} />;
    case "cancelled":
      return (
        <Alert>
          <BanIcon />
          <AlertTitle>Cancelled</AlertTitle>
          <AlertDescription>
            {test.progress.currentPhase === "Cancelled - Timeout"
              ? "This test made no progress for an hour and was cancelled (Cancelled - Timeout)."
              : "This test was stopped. Answers and scores received before that are kept."}
          </AlertDescription>
        </Alert>
      );
    case "running":
      return null;
  }
}

/**
 * A failed test: that it failed, why (once), and what happened to the money, as the results page
 * says it (a paid test's payment is returned; free mode and own keys owe nothing).
 */
function FailedNotice({ test }: { test: MonitorTest }) {
  const refund = useQuery(api.payments.testRefund, { testId: test._id });
  const money = refundLine(refund);
  return (
    <Alert variant="destructive" data-testid="monitor-failed">
      <AlertTriangleIcon />
      <AlertTitle>Test failed</AlertTitle>
      <AlertDescription className="flex flex-col gap-1">
        <p data-testid="monitor-failed-reason">
          {test.errorMessage?.trim() || test.progress.details || "The test could not be completed."}
        </p>
        {money && <p data-testid="monitor-failed-refund">{money}</p>}
      </AlertDescription>
    </Alert>
  );
}

function ProgressPanel({ test, now }: { test: MonitorTest; now: number }) {
  const percentage = Math.min(100, Math.max(0, Math.round(test.progress.percentage)));
  const finished = hasEnded(test.status);
  return (
    <Card>
      <CardContent className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <div className="space-y-0.5">
            <p className="text-xs text-muted-foreground">Current phase</p>
            <p className="font-medium" data-testid="progress-phase">
              {test.progress.currentPhase}
            </p>
          </div>
          <div className="text-right">
            <p className="text-2xl font-semibold tabular-nums" data-testid="progress-percentage">
              {percentage}%
            </p>
            <p className="text-xs text-muted-foreground" data-testid="progress-meaning">
              {progressMeaning(test)}
            </p>
          </div>
        </div>
        <Progress value={percentage} aria-label="Test progress" aria-valuetext={`${percentage}%`} />
        <div className="flex flex-wrap justify-between gap-2 text-sm text-muted-foreground">
          {/* A failed test's reason is in its notice above. */}
          {test.status !== "failed" && <span data-testid="progress-details">{test.progress.details}</span>}
          {!finished && (
            <span>
              Estimated time remaining:{" "}
              <span className="font-medium text-foreground">{timeLeftText(test.progress, now)}</span>
            </span>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function Counters({ test }: { test: MonitorTest }) {
  const averageTime = shownFigure("averageResponseTimeMs", testFigures(monitorCounters(test)));
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Counter label="Responses Generated" value={`${test.responsesCount} / ${test.expectedResponses}`} />
      <Counter label="Evaluations Completed" value={`${test.evaluationsCount} / ${test.expectedEvaluations}`} />
      <Counter label={averageTime.label} value={averageTime.value} />
      <Counter label="Estimated Cost" value={formatTestCost(test.totalCostUsd)} hint="so far" />
    </div>
  );
}

function Counter({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card role="group" aria-label={label} className="gap-2 py-4">
      <CardHeader className="px-4">
        <p className="text-sm text-muted-foreground">
          {label}
          {hint && <span className="sr-only"> {hint}</span>}
        </p>
      </CardHeader>
      <CardContent className="px-4">
        <p className="text-2xl font-semibold tabular-nums">{value}</p>
      </CardContent>
    </Card>
  );
}

function RankingsCard({ rankings, hidden }: { rankings: MonitorRanking[]; hidden: number }) {
  return (
    <RegionCard
      title="Current Rankings"
      icon={TrophyIcon}
      emptyText={rankings.length === 0 ? "No rankings available" : null}
      footer={hidden > 0 && <p className="mt-4 text-sm text-muted-foreground">+{hidden} more</p>}
    >
      <ol className="space-y-4">
        {rankings.map((ranking, index) => (
          <li key={ranking.modelId} className="space-y-1.5">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="flex min-w-0 items-baseline gap-2">
                <span className="w-5 shrink-0 text-muted-foreground tabular-nums">{index + 1}.</span>
                <span className="truncate font-medium" title={ranking.modelId}>
                  {ranking.modelName}
                </span>
              </span>
              <span className="shrink-0 tabular-nums">
                <span className="font-semibold">{formatScore(ranking.averageScore)}</span>
                <span className="text-muted-foreground"> / 10 · {plural(ranking.totalResponses, "response")}</span>
              </span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
              <div
                className="h-full rounded-full bg-primary transition-all"
                style={{ width: `${scoreBarPercent(ranking.averageScore)}%` }}
              />
            </div>
          </li>
        ))}
      </ol>
    </RegionCard>
  );
}

function ActivityCard({
  testId,
  responses,
  now,
}: {
  testId: MonitorTest["_id"];
  responses: MonitorResponse[];
  now: number;
}) {
  const [selected, setSelected] = useState<MonitorResponse | null>(null);
  return (
    <>
      <RegionCard
        title="Recent Activity"
        icon={MessageSquareTextIcon}
        emptyText={responses.length === 0 ? "No activity yet" : null}
      >
        <ul className="divide-y">
          {responses.map((response) => (
            <li key={response._id}>
              <button
                type="button"
                onClick={() => setSelected(response)}
                className="w-full space-y-1 rounded-md px-2 py-3 text-left transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <span className="flex min-w-0 items-baseline justify-between gap-3 text-sm">
                  <span className="min-w-0 truncate font-medium" title={response.modelName}>
                    {response.modelName}
                  </span>
                  <span className="shrink-0 text-xs text-muted-foreground">
                    {formatRelativeTime(response._creationTime, now)}
                  </span>
                </span>
                <span className="block truncate text-xs text-muted-foreground">
                  {response.personaName} · {response.topicTitle}
                </span>
                <span className="line-clamp-2 block text-sm text-muted-foreground">{previewOf(response.content)}</span>
              </button>
            </li>
          ))}
        </ul>
      </RegionCard>
      <ResponseDialog testId={testId} response={selected} onClose={() => setSelected(null)} />
    </>
  );
}

/** A monitor card named by its title (a region), its icon beside it; `emptyText`, when set, in place of the content. */
function RegionCard({
  title,
  icon: Icon,
  emptyText,
  footer,
  children,
}: {
  title: string;
  icon: LucideIcon;
  emptyText: string | null;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card role="region" aria-label={title}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon className="size-4" aria-hidden="true" /> {title}
        </CardTitle>
      </CardHeader>
      <CardContent>
        {emptyText === null ? children : <p className="py-6 text-center text-sm text-muted-foreground">{emptyText}</p>}
        {footer}
      </CardContent>
    </Card>
  );
}
