// /dashboard/results/{testId}/review: the blind review. One persona × topic pair at a time, its
// answers under neutral labels in the order the server shuffled them for this reviewer; the
// test's own scale (rank the answers, or score them on its criteria). Enter saves and moves to
// the next pair not reviewed yet; ← and → move between pairs. The page is live: answers still
// being written arrive as the models finish them, and the pair list shows what is reviewed.
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery } from "convex/react";
import {
  ArrowLeftIcon,
  CheckCircle2Icon,
  ChevronLeftIcon,
  ChevronRightIcon,
  CircleIcon,
  EyeIcon,
  InboxIcon,
  SaveIcon,
} from "lucide-react";
import { useEffect, useRef, useState } from "react";

import { EmptyState, EmptyStateLink } from "@/components/empty-state";
import { ViewerAvatars } from "@/components/presence";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { TestLoadError } from "@/components/test-access-lost";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/errors";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { RankingBoard } from "./ranking-board";
import { RatingGrid } from "./rating-grid";
import {
  answersSignature,
  initialRanking,
  initialScores,
  missingScores,
  neighbourPair,
  nextUnreviewed,
  pairKey,
  progressText,
  REVIEW_EMPTY,
  REVIEW_EMPTY_HINT,
  REVIEW_LOAD_FAILED,
  REVIEW_TITLE,
  VIEWERS_CANNOT_REVIEW,
  type RatingScores,
  type ReviewCurrent,
  type ReviewPairSummary,
  type ReviewPairView,
} from "./review-model";

type PairRef = { personaId: string; topicId: string };

/** Just the ids: the query's arguments take nothing else. */
function refOf(pair: PairRef): PairRef {
  return { personaId: pair.personaId, topicId: pair.topicId };
}

export const ALL_REVIEWED = "Every pair with answers is reviewed. You can still change any of them.";

export function ReviewPage({ testId }: { testId: string }) {
  return (
    <QueryErrorBoundary
      fallback={(error, reset) => <TestLoadError title={REVIEW_LOAD_FAILED} error={error} onRetry={reset} />}
    >
      <ReviewScreen testId={testId as Id<"tests">} />
    </QueryErrorBoundary>
  );
}

function ReviewScreen({ testId }: { testId: Id<"tests"> }) {
  // The pair on screen. Null until the server has picked the first one to review; then pinned, so
  // saving (which changes which pair is "first unreviewed") never swaps the pair under the reviewer.
  const [chosen, setChosen] = useState<PairRef | null>(null);
  const result = useQuery(api.reviews.pair, chosen ? { testId, ...chosen } : { testId });
  // While the next pair loads, the last one stays on screen (dimmed) instead of a skeleton.
  const [shown, setShown] = useState(result);
  if (result !== undefined && result !== shown) setShown(result);
  const view = result ?? shown;
  const current = view?.current ?? null;
  if (chosen === null && current !== null) setChosen(refOf(current));

  if (view === undefined) return <ReviewSkeleton />;
  if (view === null) {
    return (
      <EmptyState
        title="Test not found"
        description="It may have been deleted."
        action={<EmptyStateLink to="/dashboard/history">Back to History</EmptyStateLink>}
      />
    );
  }
  return (
    <div className="space-y-6">
      <ReviewHeader testId={testId} view={view} />
      {!view.canReview && (
        <Alert data-testid="viewer-notice">
          <EyeIcon />
          <AlertTitle>{VIEWERS_CANNOT_REVIEW}</AlertTitle>
          <AlertDescription>You can read the answers; the team's members and owners review them.</AlertDescription>
        </Alert>
      )}
      {current === null ? (
        <EmptyState title={REVIEW_EMPTY} description={REVIEW_EMPTY_HINT} icon={InboxIcon} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
          <PairList pairs={view.pairs} current={current} onChoose={setChosen} />
          <PairEditor
            // A new pair, or a change in its answers (a label may then stand for another answer),
            // starts again from the saved verdict.
            key={`${pairKey(current)}\u0000${answersSignature(current.answers)}`}
            testId={testId}
            view={view}
            current={current}
            loading={result === undefined}
            onChoose={setChosen}
          />
        </div>
      )}
    </div>
  );
}

function ReviewHeader({ testId, view }: { testId: Id<"tests">; view: ReviewPairView }) {
  const reviewed = view.pairs.filter((pair) => pair.reviewed).length;
  const total = view.pairs.length;
  return (
    <header className="space-y-4">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/dashboard/results/$testId" params={{ testId }}>
          <ArrowLeftIcon /> Back to Results
        </Link>
      </Button>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">{REVIEW_TITLE}</h1>
          <p className="text-sm text-muted-foreground">
            The answers carry neutral labels in a shuffled order; the models' names stay hidden.
          </p>
          <ViewerAvatars room={`test:${testId}`} page="review" />
        </div>
        <div className="w-full space-y-1 sm:w-64">
          <p className="text-sm font-medium tabular-nums" data-testid="review-progress">
            {progressText(view.pairs)}
          </p>
          <Progress value={total === 0 ? 0 : (reviewed / total) * 100} aria-label="Pairs reviewed" />
        </div>
      </div>
    </header>
  );
}

function PairList({
  pairs,
  current,
  onChoose,
}: {
  pairs: readonly ReviewPairSummary[];
  current: PairRef;
  onChoose: (pair: PairRef) => void;
}) {
  const currentKey = pairKey(current);
  return (
    <nav aria-label="Pairs" className="lg:sticky lg:top-20 lg:self-start">
      <ol className="max-h-[70vh] space-y-1 overflow-y-auto rounded-lg border p-2">
        {pairs.map((pair) => {
          const active = pairKey(pair) === currentKey;
          const empty = pair.answers === 0;
          return (
            <li key={pairKey(pair)}>
              <button
                type="button"
                onClick={() => onChoose(refOf(pair))}
                disabled={empty}
                aria-current={active ? "true" : undefined}
                className={cn(
                  "flex w-full items-start gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-muted disabled:cursor-not-allowed disabled:opacity-50",
                  active && "bg-muted font-medium",
                )}
                data-testid="pair-item"
              >
                {pair.reviewed ? (
                  <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden="true" />
                ) : (
                  <CircleIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                )}
                <span className="min-w-0 flex-1">
                  <span className="block truncate">{pair.personaName}</span>
                  <span className={cn("block truncate text-xs", active ? "text-foreground" : "text-muted-foreground")}>
                    {pair.topicName} · {empty ? "no answers yet" : `${pair.answers} answers`}
                  </span>
                </span>
                <span className="sr-only">{pair.reviewed ? "(reviewed)" : "(not reviewed)"}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Whether a key press belongs to the control that has focus rather than to the page. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest("[role=dialog], [role=menu], [role=listbox]")) return true;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  if (target instanceof HTMLInputElement) {
    // Radio groups keep their arrow keys; Enter in one saves, as on the rest of the page.
    return target.type === "radio" ? key !== "Enter" : true;
  }
  // Buttons and links answer Enter themselves.
  if (key === "Enter" && target.closest("button, a[href]")) return true;
  return false;
}

function PairEditor({
  testId,
  view,
  current,
  loading,
  onChoose,
}: {
  testId: Id<"tests">;
  view: ReviewPairView;
  current: ReviewCurrent;
  loading: boolean;
  onChoose: (pair: PairRef) => void;
}) {
  const ranking = view.scale === "ranking";
  const labels = current.answers.map((answer) => answer.label);
  const [order, setOrder] = useState(() => initialRanking(current));
  const [scores, setScores] = useState<RatingScores>(() => initialScores(current));
  const [saving, setSaving] = useState(false);
  const submit = useMutation(api.reviews.submit);
  const missing = ranking ? 0 : missingScores(labels, view.criteria, scores);
  const previous = neighbourPair(view.pairs, current, -1);
  const next = neighbourPair(view.pairs, current, 1);

  const save = async () => {
    if (!view.canReview || saving || loading) return;
    if (missing > 0) {
      toast.error(
        `Score every answer on every criterion: ${missing} ${missing === 1 ? "score is" : "scores are"} missing.`,
      );
      return;
    }
    setSaving(true);
    try {
      await submit({
        testId,
        personaId: current.personaId,
        topicId: current.topicId,
        ...(ranking ? { ranking: order } : { scores: pick(scores, labels, view.criteria) }),
      });
    } catch (error) {
      toast.error(errorMessage(error));
      setSaving(false);
      return;
    }
    setSaving(false);
    const following = nextUnreviewed(view.pairs, current);
    if (following) onChoose(refOf(following));
    else toast.success(ALL_REVIEWED);
  };

  // The page's keys, read at the document so they work wherever focus is on the page.
  const keys = useRef({ save, previous, next, onChoose });
  useEffect(() => {
    keys.current = { save, previous, next, onChoose };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== "Enter" && event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      if (ownsKey(event.target, event.key)) return;
      const { save, previous, next, onChoose } = keys.current;
      event.preventDefault();
      if (event.key === "Enter") void save();
      else {
        const pair = event.key === "ArrowLeft" ? previous : next;
        if (pair) onChoose(refOf(pair));
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <section
      aria-label={`${current.personaName} · ${current.topicName}`}
      aria-busy={loading || undefined}
      className={cn("min-w-0 space-y-5 transition-opacity", loading && "opacity-60")}
    >
      <div className="space-y-2">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <h2 className="text-xl font-semibold" data-testid="pair-title">
            {current.personaName} · {current.topicName}
          </h2>
          {current.verdict !== null && (
            <span className="text-xs text-green-700 dark:text-green-400">Reviewed; saving again replaces it</span>
          )}
        </div>
        <details className="rounded-lg border bg-muted/40 px-4 py-2 text-sm" open>
          <summary className="cursor-pointer font-medium">The prompt</summary>
          <p className="mt-2 whitespace-pre-wrap text-muted-foreground" data-testid="pair-prompt">
            {current.userPrompt}
          </p>
        </details>
      </div>
      {ranking ? (
        <RankingBoard answers={current.answers} order={order} onChange={setOrder} editable={view.canReview} />
      ) : (
        <RatingGrid
          answers={current.answers}
          criteria={view.criteria}
          scores={scores}
          onChange={setScores}
          editable={view.canReview}
        />
      )}
      <div className="flex flex-wrap items-center gap-2 border-t pt-4">
        <Button
          type="button"
          variant="outline"
          disabled={!previous}
          onClick={() => previous && onChoose(refOf(previous))}
          aria-label="Previous pair"
        >
          <ChevronLeftIcon /> Previous
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={!next}
          onClick={() => next && onChoose(refOf(next))}
          aria-label="Next pair"
        >
          Next <ChevronRightIcon />
        </Button>
        {view.canReview && (
          <>
            <span className="ml-auto text-xs text-muted-foreground">
              {missing > 0
                ? `${missing} ${missing === 1 ? "score" : "scores"} to go`
                : "Enter saves and moves on; ← and → move between pairs"}
            </span>
            <Button type="button" onClick={() => void save()} disabled={saving || loading || missing > 0}>
              <SaveIcon /> {saving ? "Saving..." : "Save and next"}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}

/** Only this pair's labels and the test's criteria: what the server expects, nothing left over. */
function pick(scores: RatingScores, labels: readonly string[], criteria: readonly string[]): RatingScores {
  return Object.fromEntries(
    labels.map((label) => [
      label,
      Object.fromEntries(criteria.map((criterion) => [criterion, scores[label]![criterion]!])),
    ]),
  );
}

function ReviewSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading the review">
      <Skeleton className="h-5 w-32" />
      <Skeleton className="h-10 w-1/2" />
      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <Skeleton className="h-64" />
        <Skeleton className="h-96" />
      </div>
    </div>
  );
}
