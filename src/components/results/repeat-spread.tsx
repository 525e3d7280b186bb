// Repeats for variance (issue 35, item 4): per model, how far its score moved between the runs
// of a repeated test (convex/lib/stats/repeats.ts), with how many repeats it rests on.
import { RepeatIcon } from "lucide-react";

import { EmptyState } from "@/components/empty-state";
import { ResultsSection } from "@/components/results-section";
import type { JuryModel } from "@/components/results/jury-model";
import { useJuryView, type JurySource } from "@/components/results/jury-stats";
import { ResultsTable, type ResultsColumn } from "@/components/results/results-table";
import { Skeleton } from "@/components/ui/skeleton";

export const REPEAT_SPREAD_TITLE = "Between-Repeat Spread";
const REPEAT_SPREAD_EMPTY = "The spread appears once a model has been judged in two repeats";

/** What the spread rests on, under the section's title (results, shared and compare pages). */
export function repeatSpreadDescription(repeats: number): string {
  return `Each persona × topic ran ${repeats} times in fresh calls. The score intervals already count this spread: a pair with all its runs is one sample.`;
}

type SpreadRow = Pick<JuryModel, "modelId" | "modelName"> & { repeatSpread: NonNullable<JuryModel["repeatSpread"]> };

const sd = (value: number | null) => (value === null ? "—" : `±${value.toFixed(2)}`);

const COLUMNS: ResultsColumn<SpreadRow>[] = [
  { id: "Model", cell: (row) => row.modelName, className: "font-medium" },
  {
    id: "Repeats",
    help: "Runs of each persona × topic this model was judged in.",
    numeric: true,
    cell: (row) => row.repeatSpread.repeats,
  },
  {
    id: "Score per repeat",
    help: "The model's score in each run, over the persona × topic pairs judged in every run.",
    numeric: true,
    cell: (row) => row.repeatSpread.byRepeat.map((value) => (value === null ? "—" : value.toFixed(2))).join(" · "),
  },
  {
    id: "SD of the score",
    help: "Standard deviation of the score per repeat: how far this test's score for the model moves between runs.",
    numeric: true,
    cell: (row) => sd(row.repeatSpread.scoreSd),
  },
  {
    id: "SD of one pair",
    help: "Standard deviation between the runs of one persona × topic, pooled over the pairs: how far one answer's score moves when the same prompt runs again.",
    numeric: true,
    cell: (row) => sd(row.repeatSpread.cellSd),
  },
];

/**
 * The spread table of a repeated test; its section shows only for one (configuration.repeats > 1).
 * The owner's results read it by test, the shared page by its link (shares.juryStats).
 */
export function RepeatSpreadSection({ source, repeats }: { source: JurySource; repeats: number }) {
  return (
    <ResultsSection title={REPEAT_SPREAD_TITLE} description={repeatSpreadDescription(repeats)} defaultOpen>
      <RepeatSpreadTable source={source} />
    </ResultsSection>
  );
}

function RepeatSpreadTable({ source }: { source: JurySource }) {
  const view = useJuryView(source);
  if (view === undefined) return <Skeleton className="h-24 w-full" aria-label="Loading the spread between repeats" />;
  return <RepeatSpreadRows models={view?.stats?.models ?? []} />;
}

/**
 * The spread table from the jury statistics' models (those judged in two repeats), for a page that
 * read them with its own query (the compare page, per test); the empty state before any is.
 */
export function RepeatSpreadRows({
  models,
  label = "Spread of each model's score between repeats",
}: {
  models: readonly Pick<JuryModel, "modelId" | "modelName" | "repeatSpread">[];
  label?: string;
}) {
  const rows = models.filter(
    (model): model is SpreadRow => model.repeatSpread !== undefined && model.repeatSpread.pairs > 0,
  );
  if (rows.length === 0) return <EmptyState title={REPEAT_SPREAD_EMPTY} icon={RepeatIcon} className="py-6" />;
  return (
    <ResultsTable
      label={label}
      columns={COLUMNS}
      rows={rows}
      rowKey={(row) => row.modelId}
      data-testid="repeat-spread"
    />
  );
}
