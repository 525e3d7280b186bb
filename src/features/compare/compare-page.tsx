// /compare?a={testId}&b={testId}: two tests the user may read side by side (issue 22 step 2),
// live while either runs. Uses the check pass-rate cell (components/results/check-pass-rates);
// how each test ran (repeats, stop when settled) is compare-runs.tsx, the answers side by side
// compare-answers.tsx.
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { GitCompareIcon, ScaleIcon } from "lucide-react";

import { EmptyState, EmptyStateLink } from "@/components/empty-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { StatusBadge } from "@/components/status-badge";
import { TestLoadError } from "@/components/test-access-lost";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { api } from "../../../convex/_generated/api";
import { formatScore } from "../../../convex/lib/format";
import { hasEnded } from "../../../convex/lib/testStatus";
import { TOO_LITTLE_EVIDENCE, verdictLine } from "../../../convex/lib/verdict";
import { PassRateCell } from "@/components/results/check-pass-rates";
import { AnswersSection } from "./compare-answers";
import { CompareExportMenu } from "./compare-export-menu";
import { FewerPairsNote, RepeatSpreadsSection, RunFactsOfTest } from "./compare-runs";
import { Section } from "./compare-section";
import { ALL_CHECKS } from "../../../convex/lib/checkCompare";
import {
  COMPARE_TITLE,
  ERROR_TITLE,
  formatDifference,
  formatInterval,
  formatPoints,
  formatPointsInterval,
  LARGER_THAN_CHANCE,
  NO_CHECKS,
  NO_DIFFERENCES,
  NO_SHARED_MODELS,
  PICK_TWO_TEXT,
  PICK_TWO_TITLE,
  SAME_TEST_TEXT,
  WITHIN_CHANCE,
} from "./compare-texts";

export type Comparison = FunctionReturnType<typeof api.compare.get>;
type Header = Comparison["a"];
type Verdict = NonNullable<Comparison["verdicts"]["a"]>;

export function ComparePage({ a, b }: { a?: string; b?: string }) {
  if (!a || !b || a === b) {
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-bold">{COMPARE_TITLE}</h1>
        <EmptyState
          icon={GitCompareIcon}
          title={PICK_TWO_TITLE}
          description={a && a === b ? SAME_TEST_TEXT : PICK_TWO_TEXT}
          action={<EmptyStateLink to="/dashboard/history">Go to History</EmptyStateLink>}
        />
      </div>
    );
  }
  return (
    <QueryErrorBoundary
      fallback={(error, reset) => <TestLoadError title={ERROR_TITLE} error={error} onRetry={reset} />}
    >
      <CompareScreen a={a} b={b} />
    </QueryErrorBoundary>
  );
}

function CompareScreen({ a, b }: { a: string; b: string }) {
  const comparison = useQuery(api.compare.get, { a, b });
  if (comparison === undefined) return <CompareSkeleton />;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">{COMPARE_TITLE}</h1>
        <CompareExportMenu comparison={comparison} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <TestCard side="A" test={comparison.a} verdict={comparison.verdicts.a} runs={comparison.runs.a} />
        <TestCard side="B" test={comparison.b} verdict={comparison.verdicts.b} runs={comparison.runs.b} />
      </div>
      <ModelsSection comparison={comparison} />
      <RepeatSpreadsSection runs={comparison.runs} />
      <StabilitySection comparison={comparison} />
      <ChecksSection comparison={comparison} />
      <DifferencesSection differences={comparison.differences} />
      <AnswersSection a={comparison.a._id} b={comparison.b._id} pairs={comparison.pairs} />
    </div>
  );
}

function CompareSkeleton() {
  return (
    <div className="space-y-6" role="status" aria-label="Loading comparison">
      <Skeleton className="h-8 w-64" />
      <div className="grid gap-4 md:grid-cols-2">
        <Skeleton className="h-32" />
        <Skeleton className="h-32" />
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}

function TestCard({
  side,
  test,
  verdict,
  runs,
}: {
  side: "A" | "B";
  test: Header;
  verdict: Verdict | null;
  runs: Comparison["runs"]["a"];
}) {
  const running = !hasEnded(test.status);
  return (
    <Card role="region" aria-label={`Test ${side}`}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <span className="text-muted-foreground">Test {side}</span>
          <Link to="/dashboard/results/$testId" params={{ testId: test._id }} className="hover:underline">
            {test.name}
          </Link>
          <StatusBadge status={test.status} />
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-2 text-sm text-muted-foreground">
        <p>Created {formatDateTime(test._creationTime)}</p>
        {verdict && (
          <p className="flex items-center gap-2 text-foreground" data-testid="compare-verdict">
            <ScaleIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            {verdictLine(verdict)}
          </p>
        )}
        <RunFactsOfTest side={side === "A" ? "a" : "b"} runs={runs} />
        {running && (
          <div className="space-y-1">
            <Progress value={test.progress.percentage} aria-label={`Test ${side} progress`} />
            <p>
              {test.progress.currentPhase} · {Math.round(test.progress.percentage)}%
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function score(value: number | null): string {
  return value === null ? "—" : formatScore(value);
}

function rank(value: number | null): string {
  return value === null ? "—" : `#${value}`;
}

function ModelsSection({ comparison }: { comparison: Comparison }) {
  const { models, onlyInA, onlyInB } = comparison;
  // A difference between runs claims nothing when either run rests on too little evidence.
  const thin = comparison.verdicts.a?.kind === "thin" || comparison.verdicts.b?.kind === "thin";
  const others = [
    onlyInA.length > 0 ? `Only in A: ${onlyInA.join(", ")}.` : null,
    onlyInB.length > 0 ? `Only in B: ${onlyInB.join(", ")}.` : null,
  ].filter((text) => text !== null);
  return (
    <Section title="Scores by model">
      {models.length === 0 ? (
        <EmptyState title={NO_SHARED_MODELS} description="The two tests tested different models." />
      ) : (
        <>
          {/* Narrower than 768 px the eight columns do not fit: each model folds into a card,
              the difference, its interval and the verdict first. */}
          <ul aria-label="Scores by model" className="grid gap-3 md:hidden">
            {models.map((model) => (
              <li key={model.modelId} className="rounded-lg border p-3 text-sm">
                <p className="font-medium break-words">{model.modelName}</p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                  <dt className="text-muted-foreground">Difference (B − A)</dt>
                  <dd className="tabular-nums">
                    {model.difference === null ? "—" : formatDifference(model.difference)}
                  </dd>
                  <dt className="text-muted-foreground">95% interval</dt>
                  <dd className="tabular-nums">{model.interval ? formatInterval(model.interval) : "—"}</dd>
                  <dt className="text-muted-foreground">Verdict</dt>
                  <dd>
                    <ModelVerdict model={model} thin={thin} />
                  </dd>
                  <dt className="text-muted-foreground">Test A</dt>
                  <dd className="tabular-nums">
                    {score(model.a.score)} · {rank(model.a.rank)}
                  </dd>
                  <dt className="text-muted-foreground">Test B</dt>
                  <dd className="tabular-nums">
                    {score(model.b.score)} · {rank(model.b.rank)}
                  </dd>
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden md:block">
            <Table aria-label="Scores by model">
              <TableHeader>
                <TableRow>
                  <TableHead>Model</TableHead>
                  <TableHead className="text-right">Difference (B − A)</TableHead>
                  <TableHead>95% interval</TableHead>
                  <TableHead>Verdict</TableHead>
                  <TableHead className="text-right">Score A</TableHead>
                  <TableHead className="text-right">Rank A</TableHead>
                  <TableHead className="text-right">Score B</TableHead>
                  <TableHead className="text-right">Rank B</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {models.map((model) => (
                  <TableRow key={model.modelId}>
                    <TableCell className="font-medium">{model.modelName}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {model.difference === null ? "—" : formatDifference(model.difference)}
                    </TableCell>
                    <TableCell className="tabular-nums">
                      {model.interval ? formatInterval(model.interval) : "—"}
                    </TableCell>
                    <TableCell>
                      <ModelVerdict model={model} thin={thin} />
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{score(model.a.score)}</TableCell>
                    <TableCell className="text-right tabular-nums">{rank(model.a.rank)}</TableCell>
                    <TableCell className="text-right tabular-nums">{score(model.b.score)}</TableCell>
                    <TableCell className="text-right tabular-nums">{rank(model.b.rank)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
      {others.length > 0 && <p className="text-sm text-muted-foreground">{others.join(" ")}</p>}
      <FewerPairsNote runs={comparison.runs} />
      <p className="text-xs text-muted-foreground">
        Scores out of 10. The interval comes from resampling each test&apos;s{" "}
        {comparison.resampled === "pair" ? "persona × topic pairs" : "personas"}; a difference whose interval leaves out
        0 is larger than chance.
      </p>
    </Section>
  );
}

/** Whether a model's difference between the tests is larger than chance. */
function ModelVerdict({ model, thin }: { model: Comparison["models"][number]; thin: boolean }) {
  return model.difference === null ? (
    <span className="text-muted-foreground">Not scored in both</span>
  ) : thin ? (
    <span className="text-muted-foreground">{TOO_LITTLE_EVIDENCE}</span>
  ) : model.largerThanChance ? (
    <span className="font-medium">{LARGER_THAN_CHANCE}</span>
  ) : (
    <span className="text-muted-foreground">{WITHIN_CHANCE}</span>
  );
}

function StabilitySection({ comparison }: { comparison: Comparison }) {
  const { value, reading } = comparison.rankCorrelation;
  return (
    <Section title="Stability">
      <p>
        <span className="font-medium">Rank correlation (Spearman): </span>
        <span className="tabular-nums">{value === null ? "—" : value.toFixed(2)}</span>
      </p>
      <p className="text-sm text-muted-foreground">{reading}</p>
    </Section>
  );
}

function ChecksSection({ comparison }: { comparison: Comparison }) {
  const { checks } = comparison;
  return (
    <Section title="Check pass rates">
      {checks === null ? (
        <p className="text-sm text-muted-foreground">{NO_CHECKS}</p>
      ) : (
        <>
          <Table aria-label="Check pass rates">
            <TableHeader>
              <TableRow>
                <TableHead>Check</TableHead>
                <TableHead>Model</TableHead>
                <TableHead>Test A</TableHead>
                <TableHead>Test B</TableHead>
                <TableHead className="text-right">Difference (B − A)</TableHead>
                <TableHead>95% interval</TableHead>
                <TableHead>Verdict</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {checks.byCheck.flatMap((group) =>
                group.models.map((model, index) => (
                  <CheckRow
                    key={`${group.label}|${model.modelId}`}
                    check={group.label}
                    first={index === 0}
                    rows={group.models.length}
                    model={model}
                    hasChecks={checks}
                  />
                )),
              )}
            </TableBody>
          </Table>
          <p className="text-xs text-muted-foreground">
            Share of answers that passed. The difference&apos;s interval is Newcombe&apos;s, from both rates&apos;
            Wilson intervals; a difference whose interval leaves out 0 is larger than chance.
          </p>
        </>
      )}
    </Section>
  );
}

type CheckRowFigures = NonNullable<Comparison["checks"]>["byCheck"][number]["models"][number];

function CheckRow({
  check,
  first,
  rows,
  model,
  hasChecks,
}: {
  check: string;
  first: boolean;
  rows: number;
  model: CheckRowFigures;
  hasChecks: { a: boolean; b: boolean };
}) {
  // "All checks" rows name the model alone (as the results page's pass rates do); a check's rows name the check too.
  const subject = check === ALL_CHECKS ? model.modelName : `${model.modelName}, ${check},`;
  return (
    <TableRow data-testid="check-compare-row">
      {first && (
        <TableCell rowSpan={rows} className="align-top font-medium">
          {check}
        </TableCell>
      )}
      <TableCell>{model.modelName}</TableCell>
      {(["a", "b"] as const).map((side) => (
        <TableCell key={side}>
          {model[side] !== null ? (
            <PassRateCell rate={model[side]} label={`${subject} in test ${side.toUpperCase()}`} />
          ) : (
            <span className="text-muted-foreground">
              {!hasChecks[side] && check === ALL_CHECKS ? "No checks" : "—"}
            </span>
          )}
        </TableCell>
      ))}
      <TableCell className="text-right tabular-nums">
        {model.difference === null ? "—" : formatPoints(model.difference)}
      </TableCell>
      <TableCell className="tabular-nums">{model.interval ? formatPointsInterval(model.interval) : "—"}</TableCell>
      <TableCell>
        {model.difference === null ? (
          <span className="text-muted-foreground">—</span>
        ) : model.largerThanChance ? (
          <span className="font-medium">{LARGER_THAN_CHANCE}</span>
        ) : (
          <span className="text-muted-foreground">{WITHIN_CHANCE}</span>
        )}
      </TableCell>
    </TableRow>
  );
}

function DifferencesSection({ differences }: { differences: readonly string[] }) {
  return (
    <Section title="What differs in the configuration">
      {differences.length === 0 ? (
        <p className="text-sm text-muted-foreground">{NO_DIFFERENCES}</p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 text-sm">
          {differences.map((difference) => (
            <li key={difference}>{difference}</li>
          ))}
        </ul>
      )}
    </Section>
  );
}
