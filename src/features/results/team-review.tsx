// The results page's human seat on the jury: the "Review answers" button and the Team review
// section (reviews.summary): the team's ranking beside the jury's, how far each model judge
// agrees with the team, and how far the reviewers agree with each other. Live: a teammate's
// verdict moves these figures without a reload. Nothing here loads the review page's code.
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { ClipboardCheckIcon, UsersIcon } from "lucide-react";
import type { ReactNode } from "react";

import { EmptyState } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { ResultsSection } from "@/components/results-section";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/errors";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { formatCount } from "../../../convex/lib/format";
import { formatCorrelation, formatInterval } from "@/components/results/jury-model";
import { BandBadge, JuryRankings } from "@/components/results/jury-stats";
import { ConfidenceRankings } from "@/components/results/rankings";
import { ResultsTable, type ResultsColumn } from "@/components/results/results-table";
import {
  reviewedText,
  REVIEW_BUTTON,
  TEAM_REVIEW_EMPTY,
  TEAM_REVIEW_TITLE,
  type TeamReview,
} from "@/components/results/team-review-model";

export const TEAM_REVIEW_LOAD_FAILED = "Could not load the team review";
export const JUDGES_TITLE = "Which judge agrees with your team";
export const NO_JURY_YET = "The jury has not scored yet";

/**
 * "Review answers", with how far the caller has got; nothing for someone who may not review (a
 * team viewer) or while that is not known yet.
 */
export function ReviewButton({
  testId,
  variant = "outline",
}: {
  testId: Id<"tests">;
  variant?: "outline" | "default";
}) {
  return (
    <QueryErrorBoundary fallback={() => null}>
      <ReviewButtonOf testId={testId} variant={variant} />
    </QueryErrorBoundary>
  );
}

function ReviewButtonOf({ testId, variant }: { testId: Id<"tests">; variant: "outline" | "default" }) {
  // Both reads are O(1) documents; reviews.pair would read the test's judge calls to list its pairs.
  const mayAct = useQuery(api.notes.canAdd, { testId });
  const summary = useQuery(api.reviews.summary, { testId });
  if (!mayAct) return null;
  const yours = summary?.reviewers.find((reviewer) => reviewer.isYou)?.pairs ?? 0;
  return (
    <Button asChild variant={variant}>
      <Link
        to="/dashboard/results/$testId/review"
        params={{ testId }}
        title={summary ? reviewedText(yours, summary.totalPairs) : undefined}
      >
        <ClipboardCheckIcon /> {REVIEW_BUTTON}
      </Link>
    </Button>
  );
}

export function TeamReviewSection({ testId }: { testId: Id<"tests"> }) {
  return (
    <ResultsSection title={TEAM_REVIEW_TITLE} description="Your team's blind verdicts beside the jury's" defaultOpen>
      <QueryErrorBoundary
        fallback={(error, reset) => (
          <ErrorState title={TEAM_REVIEW_LOAD_FAILED} message={errorMessage(error)} onRetry={reset} className="py-6" />
        )}
      >
        <TeamReviewOf testId={testId} />
      </QueryErrorBoundary>
    </ResultsSection>
  );
}

function TeamReviewOf({ testId }: { testId: Id<"tests"> }) {
  const summary = useQuery(api.reviews.summary, { testId });
  if (summary === undefined) {
    return (
      <div className="space-y-3" aria-busy="true" aria-label="Loading the team review">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (summary === null || summary.pairsReviewed === 0) {
    return (
      <EmptyState
        title={TEAM_REVIEW_EMPTY}
        description="Rank or score the answers yourself without seeing which model wrote them; your team's verdicts then stand beside the jury's."
        icon={UsersIcon}
        className="py-6"
        action={<ReviewButton testId={testId} variant="default" />}
      />
    );
  }
  return <TeamReviewDetails testId={testId} summary={summary} />;
}

export function TeamReviewDetails({ testId, summary }: { testId: Id<"tests">; summary: TeamReview }) {
  const team = summary.models.map((model) => ({
    modelId: model.modelId,
    modelName: model.modelName,
    meanScore: model.meanScore,
    scoreInterval: model.interval,
    rank: model.rank,
    rating: null,
    ratingInterval: null,
  }));
  return (
    <div className="space-y-8" data-testid="team-review">
      <Reviewers summary={summary} action={<ReviewButton testId={testId} />} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Column title="Your team">
          <ConfidenceRankings models={team} label="Team ranking with 95% intervals" />
        </Column>
        <Column title="The jury">
          <JuryRankings source={{ testId }} fallback={<EmptyState title={NO_JURY_YET} className="py-6" />} />
        </Column>
      </div>
      <JudgesAgreement summary={summary} />
    </div>
  );
}

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-3">
      <h3 className="font-medium">{title}</h3>
      {children}
    </div>
  );
}

function Reviewers({ summary, action }: { summary: TeamReview; action: ReactNode }) {
  const agreement = summary.reviewerAgreement;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div className="space-y-2 rounded-lg border p-4">
        <p className="text-sm" data-testid="team-review-progress">
          <span className="font-semibold tabular-nums">
            {formatCount(summary.pairsReviewed)} of {formatCount(summary.totalPairs)}
          </span>{" "}
          persona × topic {summary.totalPairs === 1 ? "pair" : "pairs"} reviewed by {summary.reviewers.length}{" "}
          {summary.reviewers.length === 1 ? "reviewer" : "reviewers"}
        </p>
        <ul className="flex flex-wrap gap-2" aria-label="Reviewers">
          {summary.reviewers.map((reviewer, index) => (
            <li
              key={`${reviewer.initials}-${index}`}
              className="flex items-center gap-2 rounded-full border py-0.5 pr-3 pl-0.5 text-xs"
              data-testid="reviewer"
            >
              <span className="flex size-6 items-center justify-center rounded-full bg-primary text-[11px] font-semibold text-primary-foreground">
                {reviewer.initials}
              </span>
              <span>
                {reviewer.isYou && <span className="font-medium">You · </span>}
                {reviewer.pairs} {reviewer.pairs === 1 ? "pair" : "pairs"}
              </span>
            </li>
          ))}
        </ul>
        {action}
      </div>
      <div className="space-y-2 rounded-lg border p-4" data-testid="reviewer-agreement">
        <h3 className="text-sm font-medium">Agreement between reviewers</h3>
        {agreement === null ? (
          <p className="text-sm text-muted-foreground">
            Shown once two teammates have reviewed the same persona × topic pair.
          </p>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <span className="text-2xl font-bold tabular-nums">{formatCorrelation(agreement.value)}</span>
            <BandBadge figure={agreement} />
            <span className="text-xs text-muted-foreground">
              {methodName(agreement.method)}, over {formatCount(agreement.units)} shared{" "}
              {agreement.units === 1 ? "pair" : "pairs"}
            </span>
          </div>
        )}
      </div>
    </div>
  );
}

/** The jury's method codes in words; any other description as the server gives it. */
function methodName(method: string): string {
  if (method === "kendall-w") return "Kendall's W";
  if (method.startsWith("krippendorff")) return "Krippendorff's alpha";
  return method;
}

/** `closest`: the first judge (the server orders them by agreement) once it has a figure. */
type JudgeAgreement = TeamReview["judges"][number] & { closest: boolean };

const JUDGE_COLUMNS: ResultsColumn<JudgeAgreement>[] = [
  {
    id: "Judge",
    cell: (judge) => (
      <>
        {judge.judgeName}
        {judge.closest && (
          <span className="ml-2 rounded-md bg-green-500/15 px-1.5 py-0.5 text-xs font-normal text-green-800 dark:text-green-300">
            closest to your team
          </span>
        )}
      </>
    ),
  },
  {
    id: "Kendall's tau",
    help: "Kendall's tau-b between the judge's order of the models and your team's (1: same order, 0: unrelated, −1: reversed)",
    numeric: true,
    className: "font-semibold",
    cell: (judge) => formatCorrelation(judge.tau),
  },
  {
    id: "95% interval",
    numeric: true,
    cell: (judge) => formatInterval(judge.interval, (value) => value.toFixed(2)),
  },
  {
    id: "Pairs",
    help: "Persona × topic pairs both the judge and your team ranked (the bootstrap resamples them)",
    numeric: true,
    cell: (judge) => formatCount(judge.units),
  },
];

function JudgesAgreement({ summary }: { summary: TeamReview }) {
  return (
    <div className="space-y-3">
      <h3 className="font-medium">{JUDGES_TITLE}</h3>
      {summary.judges.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          Appears once the judges and your team have ranked the same pairs.
        </p>
      ) : (
        <ResultsTable
          label={JUDGES_TITLE}
          columns={JUDGE_COLUMNS}
          rows={summary.judges.map((judge, index) => ({ ...judge, closest: index === 0 && judge.tau !== null }))}
          rowKey={(judge) => judge.judgeModelId}
          rowProps={() => ({ "data-testid": "judge-agreement-row" })}
        />
      )}
      {summary.judges.some((judge) => judge.tau === null) && (
        <p className="text-xs text-muted-foreground">
          — means no figure yet: it needs a pair that both the judge and your team reviewed, in which each tells two
          models apart.
        </p>
      )}
    </div>
  );
}
