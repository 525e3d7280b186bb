// /dashboard/judges: the chosen space's judges over its finished tests (issue 35 item 3,
// "History"): which judges the advised smaller juries left out how often, and what each cost
// against what it added (the tests that needed it). From juryAdvice.ofSpace.
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { ScaleIcon } from "lucide-react";

import { EmptyState, EmptyStateLink } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/errors";
import { useSpace } from "@/lib/space-context";
import { api } from "../../../convex/_generated/api";
import { formatTestCost } from "../../../convex/lib/format";

const JUDGES_TEXTS = {
  title: "Judges",
  description:
    "Which judges earned their cost: over your finished tests, the judges a smaller jury reached the same verdict without.",
  loadFailed: "The judges could not be loaded.",
  empty: "No finished tests with jury advice yet",
  emptyDescription: "Each finished test works out which judges its verdict needed; they add up here.",
  truncated: "Summed over the newest 500 tests with advice.",
} as const;

export function JudgesPage() {
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">{JUDGES_TEXTS.title}</h1>
        <p className="text-muted-foreground">{JUDGES_TEXTS.description}</p>
      </div>
      <QueryErrorBoundary
        fallback={(error, reset) => (
          <ErrorState title={JUDGES_TEXTS.loadFailed} message={errorMessage(error)} onRetry={reset} />
        )}
      >
        <JudgesTable />
      </QueryErrorBoundary>
    </div>
  );
}

/** "2 of 5 tests": how often a judge was left out of the advised jury. */
function leftOutText(leftOut: number, decided: number): string {
  return `${leftOut} of ${decided} ${decided === 1 ? "test" : "tests"}`;
}

/**
 * The tests without advice, told apart: too little evidence is the test declining to advise (its
 * verdict too close to repeat), not a jury that needed every judge.
 */
function noAdviceText(tooLittleEvidence: number, noAdvice: number): string {
  const other = noAdvice - tooLittleEvidence;
  return (
    (tooLittleEvidence > 0 ? `, too little evidence to advise in ${tooLittleEvidence}` : "") +
    (other > 0 ? `, no advice in ${other}` : "")
  );
}

function JudgesTable() {
  const { teamId } = useSpace();
  const history = useQuery(api.juryAdvice.ofSpace, teamId === null ? {} : { teamId });
  if (history === undefined) {
    return (
      <div className="space-y-3" aria-busy="true" aria-label="Loading judges">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (history.tests === 0) {
    return (
      <EmptyState
        title={JUDGES_TEXTS.empty}
        description={JUDGES_TEXTS.emptyDescription}
        icon={ScaleIcon}
        action={<EmptyStateLink to="/dashboard/setup">New Test</EmptyStateLink>}
      />
    );
  }
  return (
    <div className="space-y-4">
      <p data-testid="judges-summary">
        {history.tests} {history.tests === 1 ? "test" : "tests"} with advice: a smaller jury reached the same verdict in{" "}
        {history.advised}, every judge counted in {history.allNeeded}
        {noAdviceText(history.tooLittleEvidence, history.noAdvice)}. The advised juries would have saved{" "}
        {formatTestCost(history.savableUsd)} of judging.
      </p>
      <Card className="overflow-x-auto p-0">
        <table className="w-full text-sm">
          <thead className="border-b text-left text-muted-foreground">
            <tr>
              <th className="px-4 py-2 font-medium">Judge</th>
              <th className="px-4 py-2 font-medium">Tests judged</th>
              <th className="px-4 py-2 font-medium">Left out of the advised jury</th>
              <th className="px-4 py-2 font-medium">Judging cost</th>
              <th className="px-4 py-2 font-medium">Cost where not needed</th>
              <th className="px-4 py-2 font-medium">Independent votes of its juries</th>
            </tr>
          </thead>
          <tbody>
            {history.judges.map((judge) => (
              <tr key={judge.judgeModelId} className="border-b last:border-0">
                <th scope="row" className="px-4 py-2 text-left font-medium">
                  {judge.name}
                </th>
                <td className="px-4 py-2 tabular-nums">{judge.tests}</td>
                <td className="px-4 py-2 tabular-nums">{leftOutText(judge.leftOut, judge.decided)}</td>
                <td className="px-4 py-2 tabular-nums">{formatTestCost(judge.costUsd)}</td>
                <td className="px-4 py-2 tabular-nums">{formatTestCost(judge.leftOutCostUsd)}</td>
                <td className="px-4 py-2 tabular-nums">
                  {judge.meanVotes === null ? "—" : `${judge.meanVotes.toFixed(1)} on average`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {history.truncated && <p className="text-sm text-muted-foreground">{JUDGES_TEXTS.truncated}</p>}
      <p className="text-sm text-muted-foreground">
        Each test&apos;s advice is on its results.{" "}
        <Link to="/dashboard/history" className="underline">
          Test History
        </Link>
      </p>
    </div>
  );
}
