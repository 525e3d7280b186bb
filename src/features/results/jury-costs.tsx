// Cost split: what each model's answers cost to write and what judging them cost,
// from the stored jury statistics. Each figure adds up from the export: a model's generation cost
// is the sum of the Cost of its Answer rows, its judging cost the sum of the Cost of its Judgement
// rows (each judge call's cost shared over the answers it scored); each judge's own cost is in the
// judge table.
import { formatDollars } from "../../../convex/lib/format";
import type { JuryStats } from "./jury-model";

/** Costs shown to 4 decimals, as the judge table shows a judge's cost. */
export function formatSplitCost(dollars: number): string {
  return formatDollars(dollars, 4);
}

/** Nothing for a shared link's viewers: they get no cost figures. */
export function JuryCostSplit({ stats }: { stats: JuryStats }) {
  if (stats.costs === undefined) return null;
  const { generationUsd, judgingUsd } = stats.costs;
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Cost split</h3>
      <div tabIndex={0} className="overflow-x-auto rounded-lg border">
        <table className="w-full text-sm" aria-label="Cost per model">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Model
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium" title="Writing its answers">
                Generation
              </th>
              <th
                scope="col"
                className="px-3 py-2 text-right font-medium"
                title="Its share of each judge call that scored its answers"
              >
                Judging
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.models.map((model) => (
              <tr key={model.modelId} className="border-t" data-testid="cost-split-row">
                <th scope="row" className="px-3 py-1.5 text-left font-medium">
                  {model.modelName}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatSplitCost(model.generationCostUsd ?? 0)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatSplitCost(model.judgingCostUsd ?? 0)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {formatSplitCost((model.generationCostUsd ?? 0) + (model.judgingCostUsd ?? 0))}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t font-semibold" data-testid="cost-split-total">
              <th scope="row" className="px-3 py-1.5 text-left">
                All models
              </th>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatSplitCost(generationUsd)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatSplitCost(judgingUsd)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatSplitCost(generationUsd + judgingUsd)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="text-xs text-muted-foreground">
        In the export, a model's generation cost is the sum of the Cost of its Answer rows, and its judging cost the sum
        of the Cost of its Judgement rows (each judge call's cost shared over the answers it scored).
      </p>
    </div>
  );
}
