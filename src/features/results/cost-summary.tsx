import { formatTestCost } from "../../../convex/lib/format";
import { MONEY_LABELS } from "../../../convex/lib/moneyWords";
import type { ResultsData } from "@/components/results/results-model";

type CostMetrics = Pick<ResultsData["metrics"], "totalCostUsd" | "generationCostUsd" | "judgingCostUsd">;

/**
 * The test's cost as History shows it, and what it went on: writing the answers (each answer's
 * cost is in Raw Responses) and judging them (each evaluation's cost is in Evaluations).
 */
export function CostSummary({ metrics }: { metrics: CostMetrics }) {
  const parts = [
    {
      id: "total",
      label: MONEY_LABELS.callsCost,
      value: metrics.totalCostUsd,
      hint: "Generation plus judging: what the gateway charged, included in your price",
    },
    {
      id: "generation",
      label: "Generation",
      value: metrics.generationCostUsd,
      hint: "Writing the answers (Raw Responses)",
    },
    {
      id: "judging",
      label: "Judging",
      value: metrics.judgingCostUsd,
      hint: "The judges' calls, one by one in Evaluations",
    },
  ];
  return (
    <section aria-label="Cost" className="rounded-lg border p-4">
      <dl className="grid gap-4 text-sm sm:grid-cols-3">
        {parts.map((part) => (
          <div key={part.id}>
            <dt className="text-muted-foreground">{part.label}</dt>
            <dd className="text-xl font-semibold tabular-nums" data-testid={`cost-${part.id}`}>
              {formatTestCost(part.value)}
            </dd>
            <dd className="text-xs text-muted-foreground">{part.hint}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
