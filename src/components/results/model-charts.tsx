import { Bar, BarChart, CartesianGrid, LabelList, Legend, Scatter, ScatterChart, XAxis, YAxis, ZAxis } from "recharts";

import { ChartContainer, ChartTooltip, ChartTooltipContent, type ChartConfig } from "@/components/ui/chart";

import { formatCostPerResponse, formatLatency, formatScore } from "../../../convex/lib/format";
import { LATENCY_BUCKET_BOUNDS_MS, latencyBucketIndex, MAX_SCORE } from "../../../convex/lib/scoring";
import { labelSides, niceTicks, shortLabel, wrapLabel, type LabelSide } from "./chart-ticks";
import type { ResultsData } from "./results-model";

type ModelPoint = ResultsData["models"][number];

const COST_CHART: ChartConfig = {
  frontier: { label: "Best value", color: "var(--chart-2)" },
  dominated: { label: "Beaten on cost and score", color: "var(--muted-foreground)" },
};

/** The score axis of every chart: 0, 2, 4, 6, 8, 10. */
export const SCORE_TICKS = niceTicks(MAX_SCORE);

/** Height of a wrapped tick's line (11 px text). */
const TICK_LINE_HEIGHT = 13;

/**
 * A category axis tick: the model's name cut to fit, the full name on hover (its SVG title); or,
 * with `wrap`, the whole name in lines of that many characters, centred on the tick.
 */
export function ModelNameTick({
  x,
  y,
  payload,
  length = 18,
  wrap,
  anchor = "end",
}: {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
  length?: number;
  wrap?: number;
  anchor?: "end" | "middle";
}) {
  const name = String(payload?.value ?? "");
  const lines = wrap === undefined ? [shortLabel(name, length)] : wrapLabel(name, wrap);
  const firstLine = -((lines.length - 1) * TICK_LINE_HEIGHT) / 2;
  return (
    <text
      x={Number(x ?? 0)}
      y={Number(y ?? 0)}
      dx={anchor === "end" ? -4 : 0}
      dy={anchor === "end" ? 4 : 12}
      textAnchor={anchor}
      className="fill-muted-foreground text-[11px]"
    >
      <title>{name}</title>
      {lines.map((line, index) => (
        <tspan key={index} x={Number(x ?? 0)} dy={index === 0 ? firstLine : TICK_LINE_HEIGHT}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

const LABEL_OFFSET: Record<LabelSide, { dx: number; dy: number; anchor: "middle" | "start" | "end" }> = {
  top: { dx: 0, dy: -9, anchor: "middle" },
  bottom: { dx: 0, dy: 16, anchor: "middle" },
  right: { dx: 9, dy: 4, anchor: "start" },
  left: { dx: -9, dy: 4, anchor: "end" },
};

/**
 * Cost per response against average score; models that no other model beats on both (cheaper
 * or as cheap, and better or as good) are marked and joined into the frontier. Each point carries
 * its model's number (best score first), placed so that close points' numbers do not pile up; the
 * key under the chart names them, and hovering a point shows its name, cost and score.
 */
export function CostQualityChart({ models }: { models: readonly ModelPoint[] }) {
  const scored = models
    .filter((model) => model.averageScore !== null && model.costPerResponseUsd !== null)
    .map((model) => ({
      modelName: model.modelName,
      cost: model.costPerResponseUsd ?? 0,
      score: model.averageScore ?? 0,
      onFrontier: model.onFrontier,
    }))
    .sort((a, b) => b.score - a.score || a.cost - b.cost);
  if (scored.length === 0) return <p className="text-sm text-muted-foreground">Shown once models have been scored.</p>;
  const costTicks = niceTicks(Math.max(...scored.map((point) => point.cost)), 5);
  const sides = labelSides(
    scored.map((point) => ({ x: point.cost, y: point.score })),
    { x: costTicks.at(-1) ?? 1, y: MAX_SCORE },
  );
  const points = scored.map((point, index) => ({ ...point, marker: String(index + 1), side: sides[index]! }));
  const frontier = points.filter((point) => point.onFrontier).sort((a, b) => a.cost - b.cost);
  const dominated = points.filter((point) => !point.onFrontier);
  const label =
    (tone: string) => (props: { x?: unknown; y?: unknown; width?: unknown; height?: unknown; value?: unknown }) => {
      const point = points.find((entry) => entry.marker === String(props.value));
      const offset = LABEL_OFFSET[point?.side ?? "top"];
      const cx = Number(props.x ?? 0) + Number(props.width ?? 0) / 2;
      const cy = Number(props.y ?? 0) + Number(props.height ?? 0) / 2;
      return (
        <text
          x={cx + offset.dx}
          y={cy + offset.dy}
          textAnchor={offset.anchor}
          className={`${tone} text-[11px] font-semibold`}
          data-testid="cost-point-label"
        >
          {String(props.value)}
        </text>
      );
    };
  return (
    <figure className="space-y-2">
      <ChartContainer
        config={COST_CHART}
        label={`Cost per response against average score. Best value: ${frontier.map((point) => point.modelName).join(", ")}`}
        className="aspect-auto h-72"
      >
        <ScatterChart margin={{ top: 20, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid />
          <XAxis
            type="number"
            dataKey="cost"
            name="Cost per response"
            domain={[0, costTicks.at(-1) ?? 1]}
            ticks={costTicks}
            tickFormatter={(value: number) => (value === 0 ? "$0" : `$${value.toPrecision(2)}`)}
            tickLine={false}
          />
          <YAxis
            type="number"
            dataKey="score"
            name="Average score"
            domain={[0, MAX_SCORE]}
            ticks={SCORE_TICKS}
            tickLine={false}
            width={32}
          />
          <ZAxis range={[90, 90]} />
          <ChartTooltip
            content={
              <ChartTooltipContent
                labelKey="modelName"
                formatter={(value, key) =>
                  key === "cost" ? formatCostPerResponse(Number(value)) : formatScore(Number(value))
                }
              />
            }
          />
          <Legend />
          <Scatter name={COST_CHART.frontier.label} data={frontier} fill="var(--color-frontier)" line shape="diamond">
            <LabelList dataKey="marker" content={label("fill-foreground")} />
          </Scatter>
          <Scatter name={COST_CHART.dominated.label} data={dominated} fill="var(--color-dominated)">
            <LabelList dataKey="marker" content={label("fill-muted-foreground")} />
          </Scatter>
        </ScatterChart>
      </ChartContainer>
      <ol className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-2 [&>*]:min-w-0" aria-label="Models in the cost chart">
        {points.map((point) => (
          <li key={point.marker} className="flex min-w-0 gap-1.5" data-testid="cost-chart-key">
            <span className="w-4 shrink-0 text-right font-semibold tabular-nums">{point.marker}</span>
            <span className="min-w-0 flex-1 truncate" title={point.modelName}>
              {point.modelName}
            </span>
            <span className="shrink-0 text-muted-foreground tabular-nums">
              {formatCostPerResponse(point.cost)} · {formatScore(point.score)}
            </span>
          </li>
        ))}
      </ol>
      <figcaption className="text-sm text-muted-foreground">
        Best value (no other model is both cheaper and better):{" "}
        <span className="font-medium text-foreground" data-testid="frontier-models">
          {frontier.map((point) => point.modelName).join(", ")}
        </span>
      </figcaption>
    </figure>
  );
}

const LATENCY_CHART: ChartConfig = {
  median: { label: "Median", color: "var(--chart-1)" },
  p95: { label: "95th percentile", color: "var(--chart-4)" },
};

/**
 * How far a histogram estimate can be off: the width of the latency range that holds it (older
 * tests kept only those ranges; newer ones keep every answer's latency).
 */
export function latencyEstimateError(ms: number): number {
  const index = latencyBucketIndex(ms);
  const lower = index === 0 ? 0 : (LATENCY_BUCKET_BOUNDS_MS[index - 1] ?? 0);
  const upper = LATENCY_BUCKET_BOUNDS_MS[index] ?? Number.POSITIVE_INFINITY;
  return Number.isFinite(upper) ? upper - lower : lower;
}

/** The latency chart's rows: fastest median first, in seconds. */
export function latencyRows(models: readonly ModelPoint[]) {
  return models
    .filter((model) => model.medianLatencyMs !== null)
    .map((model) => ({
      modelName: model.modelName,
      median: (model.medianLatencyMs ?? 0) / 1000,
      p95: (model.p95LatencyMs ?? 0) / 1000,
      slowest: model.maxLatencyMs === null ? null : model.maxLatencyMs / 1000,
      exact: model.latencyExact,
    }))
    .sort((a, b) => a.median - b.median || a.p95 - b.p95 || a.modelName.localeCompare(b.modelName, "en"));
}

/**
 * Median and 95th-percentile latency per model, in seconds, fastest first: computed from every
 * answer's latency, or marked as estimates with their possible error for older tests.
 */
/** Characters per line of a model's name on the latency chart's axis (112 px at 11 px). */
const LATENCY_NAME_LINE = 16;

export function LatencyChart({ models }: { models: readonly ModelPoint[] }) {
  const data = latencyRows(models);
  if (data.length === 0) return <p className="text-sm text-muted-foreground">Shown once models have answered.</p>;
  const estimated = data.filter((row) => !row.exact);
  const latencyTicks = niceTicks(Math.max(...data.map((row) => row.p95)), 5);
  // Whole names on the axis, wrapped: each row is tall enough for its longest name's lines.
  const nameLines = Math.max(...data.map((row) => wrapLabel(row.modelName, LATENCY_NAME_LINE).length));
  const rowHeight = Math.max(48, nameLines * TICK_LINE_HEIGHT + 22);
  const largestError = Math.max(
    0,
    ...estimated.flatMap((row) => [row.median, row.p95].map((s) => latencyEstimateError(s * 1000))),
  );
  return (
    <figure className="space-y-2" data-testid="latency-chart">
      <ChartContainer
        config={LATENCY_CHART}
        label={`Latency per model, fastest first: ${data
          .map(
            (row) =>
              `${row.modelName} median ${formatLatency(row.median * 1000)}, p95 ${formatLatency(row.p95 * 1000)}` +
              (row.slowest === null ? "" : `, slowest ${formatLatency(row.slowest * 1000)}`),
          )
          .join("; ")}`}
        className="aspect-auto"
        style={{ height: Math.max(160, data.length * rowHeight + 72) }}
      >
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid horizontal={false} />
          <XAxis
            type="number"
            domain={[0, latencyTicks.at(-1) ?? 1]}
            ticks={latencyTicks}
            tickLine={false}
            tickFormatter={(value: number) => `${value}s`}
          />
          <YAxis
            type="category"
            dataKey="modelName"
            tickLine={false}
            interval={0}
            width={112}
            tick={<ModelNameTick wrap={LATENCY_NAME_LINE} />}
          />
          <ChartTooltip
            cursor={{ fillOpacity: 0.1 }}
            content={
              <ChartTooltipContent labelKey="modelName" formatter={(value) => formatLatency(Number(value) * 1000)} />
            }
          />
          <Legend />
          <Bar dataKey="median" name={LATENCY_CHART.median.label} fill="var(--color-median)" radius={4} />
          <Bar dataKey="p95" name={LATENCY_CHART.p95.label} fill="var(--color-p95)" radius={4} />
        </BarChart>
      </ChartContainer>
      <figcaption className="text-sm text-muted-foreground" data-testid="latency-caption">
        {estimated.length === 0
          ? "Median and 95th percentile of every answer's latency, fastest model first."
          : `Estimated from latency ranges (this test was recorded before every answer's latency was kept): ` +
            `each figure may be off by up to ${formatLatency(largestError)}.`}
      </figcaption>
    </figure>
  );
}
