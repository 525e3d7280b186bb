import { TrophyIcon } from "lucide-react";
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from "recharts";

import { EmptyState } from "@/components/empty-state";
import { ChartContainer, ChartTooltip, ChartTooltipContent, type ChartConfig } from "@/components/ui/chart";
import { cn } from "@/lib/utils";

import { formatCount, formatScore } from "../../../convex/lib/format";
import { MAX_SCORE, scoreBarPercent } from "../../../convex/lib/scoring";

export interface RankingRow {
  modelId: string;
  modelName: string;
  totalResponses: number;
  averageScore: number;
  evaluationCount: number;
}

export const NO_RANKINGS = "No rankings available";

/** Rank, model, responses and average score (2 decimals) with a bar of width score / 10. */
export function RankingsList({ rankings, label = "Model rankings" }: { rankings: readonly RankingRow[]; label?: string }) {
  if (rankings.length === 0) return <EmptyState title={NO_RANKINGS} icon={TrophyIcon} className="py-6" />;
  return (
    <ol className="space-y-3" aria-label={label}>
      {rankings.map((ranking, index) => {
        const scored = ranking.evaluationCount > 0;
        return (
          <li key={ranking.modelId} className="space-y-1.5" data-testid="ranking-row">
            <div className="flex items-center gap-3">
              <span
                className={cn(
                  "flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-bold",
                  index === 0 && scored ? "bg-yellow-500/20 text-yellow-700 dark:text-yellow-400" : "bg-muted text-muted-foreground",
                )}
                aria-label={`Rank ${index + 1}`}
              >
                {index + 1}
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
        <XAxis type="number" domain={[0, MAX_SCORE]} tickLine={false} axisLine={false} />
        <YAxis type="category" dataKey="modelName" width={150} tickLine={false} axisLine={false} />
        <ChartTooltip
          cursor={{ fillOpacity: 0.1 }}
          content={<ChartTooltipContent labelKey="modelName" formatter={(value) => formatScore(Number(value))} />}
        />
        <Bar dataKey="averageScore" fill="var(--color-averageScore)" radius={4} />
      </BarChart>
    </ChartContainer>
  );
}
