import { TrophyIcon } from "lucide-react";
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from "recharts";

import { EmptyState } from "@/components/empty-state";
import { ChartContainer, ChartTooltip, ChartTooltipContent, type ChartConfig } from "@/components/ui/chart";
import { cn } from "@/lib/utils";

import { formatCount, formatScore } from "../../../convex/lib/format";
import { MAX_SCORE, scoreBarPercent } from "../../../convex/lib/scoring";
import { formatInterval, formatRating, rankLabel, scorePercent, type JuryModel } from "./jury-model";
import { ModelNameTick, SCORE_TICKS } from "./model-charts";

export interface RankingRow {
  modelId: string;
  modelName: string;
  totalResponses: number;
  averageScore: number;
  evaluationCount: number;
}

export const NO_RANKINGS = "No rankings available";

/** Rank, model, responses and average score (2 decimals) with a bar of width score / 10. */
export function RankingsList({
  rankings,
  label = "Model rankings",
}: {
  rankings: readonly RankingRow[];
  label?: string;
}) {
  if (rankings.length === 0) return <EmptyState title={NO_RANKINGS} icon={TrophyIcon} className="py-6" />;
  return (
    <ol className="space-y-3" aria-label={label}>
      {rankings.map((ranking, index) => {
        const scored = ranking.evaluationCount > 0;
        // A rank belongs to a scored model only: those not scored yet are not "3rd" and "4th".
        const rank = rankings.slice(0, index + 1).filter((row) => row.evaluationCount > 0).length;
        return (
          <li key={ranking.modelId} className="space-y-1.5" data-testid="ranking-row">
            <div className="flex items-center gap-3">
              <span
                className={cn(
                  "flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-bold",
                  rank === 1 && scored
                    ? "bg-yellow-500/20 text-yellow-700 dark:text-yellow-400"
                    : "bg-muted text-muted-foreground",
                )}
                aria-label={scored ? `Rank ${rank}` : "Not ranked yet"}
              >
                {scored ? rank : "—"}
              </span>
              <div className="min-w-0 flex-1">
                <div className="truncate font-medium">{ranking.modelName}</div>
                <div className="text-xs text-muted-foreground">
                  {formatCount(ranking.totalResponses)} response{ranking.totalResponses === 1 ? "" : "s"}
                  {scored ? ` · ${formatCount(ranking.evaluationCount)} evaluations` : " · not scored yet"}
                </div>
              </div>
              <div className="text-right">
                <div className="text-lg font-bold tabular-nums">{scored ? formatScore(ranking.averageScore) : "—"}</div>
                <div className="text-xs text-muted-foreground">/ {MAX_SCORE}</div>
              </div>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
              <div
                className="h-full rounded-full bg-primary transition-[width]"
                style={{ width: `${scored ? scoreBarPercent(ranking.averageScore) : 0}%` }}
                data-testid="score-bar"
              />
            </div>
          </li>
        );
      })}
    </ol>
  );
}

const RANKING_CHART: ChartConfig = { averageScore: { label: "Average score", color: "var(--chart-1)" } };

/** Average score per model as bars, best first. */
export function RankingsChart({ rankings }: { rankings: readonly RankingRow[] }) {
  const data = rankings.filter((ranking) => ranking.evaluationCount > 0).map((ranking) => ({ ...ranking }));
  if (data.length === 0) return null;
  return (
    <ChartContainer
      config={RANKING_CHART}
      label={`Bar chart of average scores: ${data.map((row) => `${row.modelName} ${formatScore(row.averageScore)}`).join(", ")}`}
      className="aspect-auto"
      style={{ height: Math.max(160, data.length * 44 + 40) }}
    >
      <BarChart data={data} layout="vertical" margin={{ left: 8, right: 24 }}>
        <CartesianGrid horizontal={false} />
        <XAxis type="number" domain={[0, MAX_SCORE]} ticks={SCORE_TICKS} tickLine={false} axisLine={false} />
        <YAxis
          type="category"
          dataKey="modelName"
          width={120}
          interval={0}
          tickLine={false}
          axisLine={false}
          tick={<ModelNameTick length={17} />}
        />
        <ChartTooltip
          cursor={{ fillOpacity: 0.1 }}
          content={<ChartTooltipContent labelKey="modelName" formatter={(value) => formatScore(Number(value))} />}
        />
        <Bar dataKey="averageScore" fill="var(--color-averageScore)" radius={4} />
      </BarChart>
    </ChartContainer>
  );
}

/** What a ranking with confidence shows of a model (the jury's statistics, or the team review's). */
export type RankedModel = Pick<
  JuryModel,
  "modelId" | "modelName" | "meanScore" | "scoreInterval" | "rank" | "rating" | "ratingInterval"
>;

/**
 * Rankings with confidence: each model's rank, shown as a range ("1–2") when its 95%
 * interval overlaps others', its mean score with the interval as a bar on the 0–10 track, and its
 * Bradley–Terry rating with its own interval. Rows come from the stored jury statistics, best first.
 */
export function ConfidenceRankings({
  models,
  label = "Model rankings with 95% intervals",
}: {
  models: readonly RankedModel[];
  label?: string;
}) {
  const scored = models.filter((model) => model.meanScore !== null && model.scoreInterval !== null);
  if (scored.length === 0) return <EmptyState title={NO_RANKINGS} icon={TrophyIcon} className="py-6" />;
  return (
    <ol className="space-y-3" aria-label={label}>
      {scored.map((model) => {
        const interval = model.scoreInterval!;
        const rank = rankLabel(model.rank);
        const first = model.rank?.best === 1;
        return (
          <li key={model.modelId} className="space-y-1.5" data-testid="confidence-row">
            <div className="flex items-center gap-3">
              <span
                className={cn(
                  "flex h-7 min-w-7 shrink-0 items-center justify-center rounded-full px-1.5 text-xs font-bold tabular-nums",
                  first ? "bg-yellow-500/20 text-yellow-800 dark:text-yellow-300" : "bg-muted text-foreground",
                )}
                aria-label={`Rank ${rank}`}
                title={
                  rank.includes("–") ? "Its 95% interval overlaps others': it could hold any of these ranks" : undefined
                }
              >
                {rank}
              </span>
              <div className="min-w-0 flex-1">
                <div className="truncate font-medium">{model.modelName}</div>
                <div className="text-xs text-muted-foreground">
                  95% interval {formatInterval(interval)}
                  {model.rating !== null && model.ratingInterval !== null && (
                    <>
                      {" "}
                      · rating {formatRating(model.rating)} ({formatInterval(model.ratingInterval, formatRating)})
                    </>
                  )}
                </div>
              </div>
              <div className="text-right">
                <div className="text-lg font-bold tabular-nums">{formatScore(model.meanScore!)}</div>
                <div className="text-xs text-muted-foreground">/ {MAX_SCORE}</div>
              </div>
            </div>
            <div className="relative h-2 rounded-full bg-muted" aria-hidden="true">
              <div
                className="absolute inset-y-0 rounded-full bg-primary/35"
                style={{
                  left: `${scorePercent(interval.low)}%`,
                  width: `${Math.max(0.5, scorePercent(interval.high) - scorePercent(interval.low))}%`,
                }}
                data-testid="interval-bar"
              />
              <div
                className="absolute -inset-y-0.5 w-0.5 rounded bg-primary"
                style={{ left: `${scorePercent(model.meanScore!)}%` }}
              />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
