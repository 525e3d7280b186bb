// The compare page's export (issue 22: exports carry every new figure, each rebuildable from the
// rows). A CSV with one row per model both tests tested, and a JSON with the same rows, the rank
// correlation, the check pass rates of both tests (passed of total, so the Wilson intervals can
// be worked again), each check side by side with its difference's interval, each test's verdict,
// what differs in the configuration, and how each test ran (repeats, why it stopped early). Figures are written unrounded, so an
// exported difference is exactly score B less score A, and the ranks give back the correlation.
import Papa from "papaparse";

import { verdictLine } from "../../../convex/lib/verdict";
import { fileSlug } from "@/components/results/results-model";
import type { Comparison } from "./compare-page";

type Cell = string | number;
type ModelRow = Comparison["models"][number];
type PassRate = NonNullable<NonNullable<Comparison["checks"]>["models"][number]["a"]>;

/** One CSV column: its header and its value on a model's row. */
export interface CompareColumn {
  header: string;
  value: (model: ModelRow, comparison: Comparison) => Cell;
}

const figure = (value: number | null | undefined): Cell => (value === null || value === undefined ? "" : value);

/** What the bootstrap resampled, as the page says it. */
export const UNITS_RESAMPLED = { pair: "persona × topic pairs", persona: "personas" } as const;

export const COMPARE_CSV_COLUMNS: readonly CompareColumn[] = [
  { header: "Model", value: (model) => model.modelName },
  { header: "Model ID", value: (model) => model.modelId },
  { header: "Score A", value: (model) => figure(model.a.score) },
  { header: "Rank A", value: (model) => figure(model.a.rank) },
  { header: "Score B", value: (model) => figure(model.b.score) },
  { header: "Rank B", value: (model) => figure(model.b.rank) },
  { header: "Difference (B - A)", value: (model) => figure(model.difference) },
  { header: "95% Low", value: (model) => figure(model.interval?.low) },
  { header: "95% High", value: (model) => figure(model.interval?.high) },
  {
    header: "Larger Than Chance",
    value: (model) => (model.difference === null ? "" : model.largerThanChance ? "yes" : "no"),
  },
  { header: "Units Resampled", value: (_model, comparison) => UNITS_RESAMPLED[comparison.resampled] },
];

type Side = "a" | "b";
const spreadOf = (comparison: Comparison, side: Side, model: ModelRow) =>
  comparison.runs[side].repeatSpread.find((row) => row.modelId === model.modelId)?.repeatSpread;

/** How one test ran (issue 35): its repeats with the model's spread between them, and why it stopped early. */
function runColumns(side: Side): CompareColumn[] {
  const name = side.toUpperCase();
  return [
    { header: `Repeats ${name}`, value: (_model, comparison) => comparison.runs[side].repeats },
    {
      header: `Between-Repeat SD ${name} (Score)`,
      value: (model, comparison) => figure(spreadOf(comparison, side, model)?.scoreSd),
    },
    {
      header: `Between-Repeat SD ${name} (Pair)`,
      value: (model, comparison) => figure(spreadOf(comparison, side, model)?.cellSd),
    },
    {
      header: `Stopped After Pairs ${name}`,
      value: (_model, comparison) => figure(comparison.runs[side].settle?.stopped?.pairsDone),
    },
    {
      header: `Pairs Planned ${name}`,
      value: (_model, comparison) => figure(comparison.runs[side].settle?.stopped?.pairsTotal),
    },
    { header: `Stop Reason ${name}`, value: (_model, comparison) => comparison.runs[side].settle?.stoppedReason ?? "" },
  ];
}

/** Appended after the columns every comparison has, when either test was repeated or set to stop when settled. */
export const RUN_CSV_COLUMNS: readonly CompareColumn[] = [...runColumns("a"), ...runColumns("b")];

const ranSpecially = (comparison: Comparison) =>
  (["a", "b"] as const).some((side) => comparison.runs[side].repeats > 1 || comparison.runs[side].settle !== null);

/** One row per model both tests tested. */
export function buildCompareCsv(comparison: Comparison): string {
  const columns = ranSpecially(comparison) ? [...COMPARE_CSV_COLUMNS, ...RUN_CSV_COLUMNS] : COMPARE_CSV_COLUMNS;
  return Papa.unparse({
    fields: columns.map((column) => column.header),
    data: comparison.models.map((model) => columns.map((column) => column.value(model, comparison))),
  });
}

function testOf(test: Comparison["a"]) {
  return {
    id: test._id,
    name: test.name,
    status: test.status,
    createdAt: new Date(test._creationTime).toISOString(),
  };
}

function passRateOf(rate: PassRate | null) {
  return rate === null
    ? null
    : {
        passed: rate.passed,
        total: rate.answers,
        rate: rate.rate,
        low: rate.interval?.low ?? null,
        high: rate.interval?.high ?? null,
      };
}

/** The CSV's rows as objects, plus the correlation, the pass rates and the configuration's differences. */
export function buildCompareJson(comparison: Comparison): string {
  const document = {
    testA: testOf(comparison.a),
    testB: testOf(comparison.b),
    unitsResampled: UNITS_RESAMPLED[comparison.resampled],
    models: comparison.models.map((model) => ({
      modelId: model.modelId,
      modelName: model.modelName,
      scoreA: model.a.score,
      rankA: model.a.rank,
      scoreB: model.b.score,
      rankB: model.b.rank,
      difference: model.difference,
      interval: model.interval,
      largerThanChance: model.largerThanChance,
    })),
    onlyInA: comparison.onlyInA,
    onlyInB: comparison.onlyInB,
    rankCorrelation: comparison.rankCorrelation,
    /** Per model, passed answers of those checked in each test; null: that test has no checks. */
    checkPassRates:
      comparison.checks === null
        ? null
        : comparison.checks.models.map((model) => ({
            modelId: model.modelId,
            modelName: model.modelName,
            a: passRateOf(model.a),
            b: passRateOf(model.b),
          })),
    /** "All checks" and each check: both pass rates, the difference B − A and its Newcombe 95% interval. */
    checkComparison:
      comparison.checks === null
        ? null
        : comparison.checks.byCheck.map((group) => ({
            check: group.label,
            models: group.models.map((model) => ({
              modelId: model.modelId,
              modelName: model.modelName,
              a: passRateOf(model.a),
              b: passRateOf(model.b),
              difference: model.difference,
              interval: model.interval,
              largerThanChance: model.largerThanChance,
            })),
          })),
    /** Each test's jury decision, worded as on the page. */
    verdicts: {
      a: comparison.verdicts.a === null ? null : verdictLine(comparison.verdicts.a),
      b: comparison.verdicts.b === null ? null : verdictLine(comparison.verdicts.b),
    },
    configurationDifferences: comparison.differences,
    /** How each test ran: its repeats with each model's spread between them, and its stop-when-settled words. */
    runs: comparison.runs,
  };
  return JSON.stringify(document, null, 2);
}

export function compareFileName(comparison: Comparison, format: "csv" | "json"): string {
  return `${fileSlug(comparison.a.name)}-vs-${fileSlug(comparison.b.name)}-comparison.${format}`;
}
