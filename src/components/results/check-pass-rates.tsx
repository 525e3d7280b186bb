// Pass rates of a test's checks: per model overall, per check and per persona, each with its 95%
// Wilson interval. Read live (Convex queries), so the monitor's figures move as answers arrive.
import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { ShieldCheckIcon } from "lucide-react";

import { ResultsSection } from "@/components/results-section";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";

export type CheckSummary = NonNullable<FunctionReturnType<typeof api.checks.summary>>;
type PassRate = CheckSummary["models"][number]["overall"];

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** "75% (41–93%)" with the count below; "—" with no answer checked yet. */
export function PassRateCell({ rate, label }: { rate: PassRate; label: string }) {
  if (rate.rate === null) {
    return <span className="text-muted-foreground">—</span>;
  }
  const interval = rate.interval ? ` (${percent(rate.interval.low)}–${percent(rate.interval.high)})` : "";
  return (
    <span aria-label={`${label}: ${percent(rate.rate)} passed, ${rate.passed} of ${rate.answers}${interval}`}>
      <span className="font-medium tabular-nums">{percent(rate.rate)}</span>
      <span className="text-xs text-muted-foreground tabular-nums">{interval}</span>
      <span className="block text-xs text-muted-foreground tabular-nums">
        {rate.passed}/{rate.answers}
      </span>
    </span>
  );
}

/** The tables: overall and per check, then per persona. */
export function CheckPassRates({ summary, compact = false }: { summary: CheckSummary; compact?: boolean }) {
  return (
    <div className="space-y-4" data-testid="check-pass-rates">
      {summary.rankLast && (
        <p className="text-sm text-muted-foreground" data-testid="checks-rank-last-note">
          An answer that fails a check ranks last: the jury statistics place it below every passing answer.
        </p>
      )}
      <div tabIndex={0} className="overflow-x-auto">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Model</TableHead>
              <TableHead>All checks</TableHead>
              {!compact &&
                summary.checks.map((check) => (
                  <TableHead key={check.id} className="max-w-48 whitespace-normal">
                    {check.label}
                  </TableHead>
                ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {summary.models.map((model) => (
              <TableRow key={model.modelId}>
                <TableCell className="font-medium">{model.modelName}</TableCell>
                <TableCell>
                  <PassRateCell rate={model.overall} label={`${model.modelName}, all checks`} />
                </TableCell>
                {!compact &&
                  model.byCheck.map((entry, index) => (
                    <TableCell key={entry.checkId}>
                      <PassRateCell rate={entry} label={`${model.modelName}, ${summary.checks[index]?.label ?? ""}`} />
                    </TableCell>
                  ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {!compact && summary.personas.length > 1 && (
        <div tabIndex={0} className="overflow-x-auto">
          <h3 className="mb-2 text-sm font-semibold">By persona (all checks)</h3>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Model</TableHead>
                {summary.personas.map((persona) => (
                  <TableHead key={persona.id}>{persona.name}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {summary.models.map((model) => (
                <TableRow key={model.modelId}>
                  <TableCell className="font-medium">{model.modelName}</TableCell>
                  {model.byPersona.map((entry, index) => (
                    <TableCell key={entry.personaId}>
                      <PassRateCell rate={entry} label={`${model.modelName}, ${summary.personas[index]?.name ?? ""}`} />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <p className="text-xs text-muted-foreground">
        Share of answers that passed, with its 95% Wilson interval and the count. A check for one topic counts only that
        topic&apos;s answers.
      </p>
    </div>
  );
}

function Loading() {
  return <Skeleton className="h-24 w-full" data-testid="check-pass-rates-loading" />;
}

/** The results page's Checks section; nothing for a test without checks. */
export function ResultsChecksSection({ testId }: { testId: Id<"tests"> }) {
  const summary = useQuery(api.checks.summary, { testId });
  if (summary === null) return null;
  return (
    <ResultsSection title="Checks" description="Pass rate per model, per check and per persona" defaultOpen>
      {summary === undefined ? <Loading /> : <CheckPassRates summary={summary} />}
    </ResultsSection>
  );
}

/** The shared page's Checks section, for anyone holding the link. */
export function SharedChecksSection({ shareId }: { shareId: string }) {
  const summary = useQuery(api.checks.sharedSummary, { shareId });
  if (summary === null) return null;
  return (
    <ResultsSection title="Checks" description="Pass rate per model, per check and per persona" defaultOpen>
      {summary === undefined ? <Loading /> : <CheckPassRates summary={summary} />}
    </ResultsSection>
  );
}

/** The monitor's live pass rates: all checks per model. */
export function MonitorChecks({ testId }: { testId: Id<"tests"> }) {
  const summary = useQuery(api.checks.summary, { testId });
  if (summary === null) return null;
  return (
    <section className="rounded-xl border bg-card p-4" aria-labelledby="monitor-checks-heading">
      <h2 id="monitor-checks-heading" className="mb-3 flex items-center gap-2 font-semibold">
        <ShieldCheckIcon aria-hidden="true" className="size-4" /> Checks
      </h2>
      {summary === undefined ? <Loading /> : <CheckPassRates summary={summary} compact />}
    </section>
  );
}
