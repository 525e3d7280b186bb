// Each model's mean score per criterion (rating tests) and per judge, with 95% bootstrap intervals
// over the persona × topic units, from the stored jury statistics. The means add
// up from the export: the mean of a criterion's "<Criterion> Score" column, or of the Score column
// of one judge's Judgement rows, over the model's answers.
import { criterionLabel } from "../../../convex/lib/criteria";
import { formatScore } from "../../../convex/lib/format";
import { formatInterval, nameOf, type JuryModel, type JuryStats, type JuryView } from "./jury-model";
import { ResultsTable, type ResultsColumn } from "./results-table";

type SeriesMean = { mean: number | null; interval: { low: number; high: number } | null };

function MeanCell({ figure }: { figure: SeriesMean | undefined }) {
  if (!figure || figure.mean === null) return <span className="text-muted-foreground">—</span>;
  return (
    <>
      <span className="font-semibold">{formatScore(figure.mean)}</span>
      <span className="block text-xs text-muted-foreground">{formatInterval(figure.interval)}</span>
    </>
  );
}

function MeansTable({
  label,
  columns,
  models,
  figureOf,
}: {
  label: string;
  columns: { id: string; name: string }[];
  models: readonly JuryModel[];
  figureOf: (model: JuryModel, columnId: string) => SeriesMean | undefined;
}) {
  return (
    <ResultsTable
      label={label}
      dense
      alignTop
      columns={[
        { id: "Model", cell: (model) => model.modelName },
        ...columns.map((column): ResultsColumn<JuryModel> => ({
          id: column.id,
          header: column.name,
          numeric: true,
          cell: (model) => <MeanCell figure={figureOf(model, column.id)} />,
        })),
      ]}
      rows={models}
      rowKey={(model) => model.modelId}
    />
  );
}

/** Per-criterion (rating tests) and per-judge means of every scored model, each with its 95% interval. */
export function JuryScoreBreakdown({ view, stats }: { view: JuryView; stats: JuryStats }) {
  const models = stats.models.filter((model) => model.meanScore !== null);
  const judges = stats.judges.map((judge) => ({
    id: judge.judgeModelId,
    name: nameOf(view.judges, judge.judgeModelId),
  }));
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Scores in detail</h3>
      {stats.scale === "rating" && stats.criteria.length > 0 && (
        <MeansTable
          label="Mean score per criterion"
          columns={stats.criteria.map((criterion) => ({ id: criterion, name: criterionLabel(criterion) }))}
          models={models}
          figureOf={(model, criterion) => model.criteria.find((entry) => entry.criterion === criterion)}
        />
      )}
      <MeansTable
        label="Mean score per judge"
        columns={judges}
        models={models}
        figureOf={(model, judgeModelId) => model.byJudge.find((entry) => entry.judgeModelId === judgeModelId)}
      />
      <p className="text-xs text-muted-foreground">
        Means over the persona × topic units, with 95% bootstrap intervals below each figure.
        {stats.scale === "ranking" && " On the ranking scale the answer placed k-th of N scores (N − k + 1) / N × 10."}
      </p>
    </div>
  );
}
