import { Bar, BarChart, CartesianGrid, LabelList, Legend, Scatter, ScatterChart, XAxis, YAxis, ZAxis } from "recharts";

import { ChartContainer, ChartTooltip, ChartTooltipContent, type ChartConfig } from "@/components/ui/chart";

import { formatCostPerResponse, formatLatency, formatScore } from "../../../convex/lib/format";
import { LATENCY_BUCKET_BOUNDS_MS, latencyBucketIndex, MAX_SCORE } from "../../../convex/lib/scoring";
import type { ResultsData } from "./results-model";

type ModelPoint = ResultsData["models"][number];

const COST_CHART: ChartConfig = {
  frontier: { label: "Best value", color: "var(--chart-2)" },
  dominated: { label: "Beaten on cost and score", color: "var(--muted-foreground)" },
};

/**
 * Cost per response against average score; models that no other model beats on both (cheaper
 * or as cheap, and better or as good) are marked and joined into the frontier.
 */
export function CostQualityChart({ models }: { models: readonly ModelPoint[] }) {
  const points = models
    .filter((model) => model.averageScore !== null && model.costPerResponseUsd !== null)
    .map((model) => ({
      modelName: model.modelName,
      cost: model.costPerResponseUsd ?? 0,
      score: model.averageScore ?? 0,
      onFrontier: model.onFrontier,
    }));
  if (points.length === 0) return <p className="text-sm text-muted-foreground">Shown once models have been scored.</p>;
  const frontier = points.filter((point) => point.onFrontier).sort((a, b) => a.cost - b.cost);
  const dominated = points.filter((point) => !point.onFrontier);
  return (
    <figure className="space-y-2">
      <ChartContainer
        config={COST_CHART}
        label={`Cost per response against average score. Best value: ${frontier.map((point) => point.modelName).join(", ")}`}
        className="aspect-auto h-72"
      >
        <ScatterChart margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid />
          <XAxis
            type="number"
            dataKey="cost"
            name="Cost per response"
            tickFormatter={(value: number) => (value === 0 ? "$0" : `$${value.toPrecision(2)}`)}
            tickLine={false}
          />
          <YAxis
            type="number"
            dataKey="score"
            name="Average score"
            domain={[0, MAX_SCORE]}
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
            <LabelList dataKey="modelName" position="top" className="fill-foreground text-[11px]" />
          </Scatter>
          <Scatter name={COST_CHART.dominated.label} data={dominated} fill="var(--color-dominated)">
            <LabelList dataKey="modelName" position="top" className="fill-muted-foreground text-[11px]" />
          </Scatter>
        </ScatterChart>
      </ChartContainer>
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
export function LatencyChart({ models }: { models: readonly ModelPoint[] }) {
  const data = latencyRows(models);
  if (data.length === 0) return <p className="text-sm text-muted-foreground">Shown once models have answered.</p>;
  const estimated = data.filter((row) => !row.exact);
  const largestError = Math.max(
    0,
    ...estimated.flatMap((row) => [row.median, row.p95].map((s) => latencyEstimateError(s * 1000))),
  );
  return (
    <figure className="space-y-2">
      <ChartContainer
        config={LATENCY_CHART}
        label={`Latency per model, fastest first: ${data
          .map(
            (row) =>
              `${row.modelName} median ${formatLatency(row.median * 1000)}, p95 ${formatLatency(row.p95 * 1000)}` +
              (row.slowest === null ? "" : `, slowest ${formatLatency(row.slowest * 1000)}`),
          )
          .join("; ")}`}
        className="aspect-auto h-72"
      >
        <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="modelName" tickLine={false} interval={0} tick={{ fontSize: 11 }} />
          <YAxis tickLine={false} width={40} tickFormatter={(value: number) => `${value}s`} />
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
