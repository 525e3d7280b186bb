// Cost split: what each model's answers cost to write and what judging them cost,
// from the stored jury statistics. Each figure adds up from the export: a model's generation cost
// is the sum of the Cost of its Answer rows, its judging cost the sum of the Cost of its Judgement
// rows (each judge call's cost shared over the answers it scored); each judge's own cost is in the
// judge table.
import { formatDollars } from "../../../convex/lib/format";
import type { JuryStats } from "./jury-model";
import { ResultsFooterRow, ResultsTable, type ResultsColumn } from "./results-table";

/** Costs shown to 4 decimals, as the judge table shows a judge's cost. */
export function formatSplitCost(dollars: number): string {
  return formatDollars(dollars, 4);
}

const COST_COLUMNS: ResultsColumn<JuryStats["models"][number]>[] = [
  { id: "Model", cell: (model) => model.modelName },
  {
    id: "Generation",
    help: "Writing its answers",
    numeric: true,
    cell: (model) => formatSplitCost(model.generationCostUsd ?? 0),
  },
  {
    id: "Judging",
    help: "Its share of each judge call that scored its answers",
    numeric: true,
    cell: (model) => formatSplitCost(model.judgingCostUsd ?? 0),
  },
  {
    id: "Total",
    numeric: true,
    cell: (model) => formatSplitCost((model.generationCostUsd ?? 0) + (model.judgingCostUsd ?? 0)),
  },
];

/** Nothing for a shared link's viewers: they get no cost figures. */
export function JuryCostSplit({ stats }: { stats: JuryStats }) {
  if (stats.costs === undefined) return null;
  const { generationUsd, judgingUsd } = stats.costs;
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Cost split</h3>
      <ResultsTable
        label="Cost per model"
        dense
        columns={COST_COLUMNS}
        rows={stats.models}
        rowKey={(model) => model.modelId}
        rowProps={() => ({ "data-testid": "cost-split-row" })}
        footer={
          <ResultsFooterRow
            name="All models"
            dense
            data-testid="cost-split-total"
            figures={[generationUsd, judgingUsd, generationUsd + judgingUsd].map(formatSplitCost)}
          />
        }
      />
      <p className="text-xs text-muted-foreground">
        In the export, a model's generation cost is the sum of the Cost of its Answer rows, and its judging cost the sum
        of the Cost of its Judgement rows (each judge call's cost shared over the answers it scored).
      </p>
    </div>
  );
}
