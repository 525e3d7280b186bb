import { ActivityIcon, CheckCircle2Icon, ClockIcon, MessageSquareTextIcon, type LucideIcon } from "lucide-react";

import { Card, CardContent } from "@/components/ui/card";

import { formatCount, formatLatency, formatRatio } from "../../convex/lib/format";
import { TEST_FIGURES, type FigureFormat, type TestFigureKey, type TestFigures } from "../../convex/lib/metrics";

/** What the results and shared queries' metrics both hold: the counts and lib/metrics' figures. */
export type Metrics = { totalResponses: number; evaluations: number } & TestFigures;

/** How each kind of per-test figure is shown, and its icon. */
const FIGURE_DISPLAY: Record<FigureFormat, { format: (value: number) => string; icon: LucideIcon }> = {
  latency: { format: formatLatency, icon: ClockIcon },
  ratio: { format: formatRatio, icon: CheckCircle2Icon },
};

/** One per-test figure as a tile shows it: FIGURES' label, its value formatted, its icon (also the monitor's counter). */
export function shownFigure(
  key: TestFigureKey,
  figures: TestFigures,
): { label: string; value: string; icon: LucideIcon } {
  const { label, format } = TEST_FIGURES.find((figure) => figure.key === key)!;
  return { label, value: FIGURE_DISPLAY[format].format(figures[key]), icon: FIGURE_DISPLAY[format].icon };
}

/** The tiles of the results and shared pages (spec part 2 §2): two counts, then every per-test figure. */
export function StatCards({ metrics }: { metrics: Metrics }) {
  const tiles: { label: string; value: string; icon: LucideIcon }[] = [
    { label: "Total Responses", value: formatCount(metrics.totalResponses), icon: MessageSquareTextIcon },
    { label: "Evaluations", value: formatCount(metrics.evaluations), icon: ActivityIcon },
    ...TEST_FIGURES.map(({ key }) => shownFigure(key, metrics)),
  ];
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {tiles.map(({ label, value, icon: Icon }) => (
        <Card key={label} className="py-4">
          <CardContent className="flex items-center justify-between gap-3 px-4">
            <dl className="space-y-1">
              <dt className="text-sm text-muted-foreground">{label}</dt>
              <dd
                className="text-2xl font-bold tabular-nums"
                data-testid={`stat-${label.toLowerCase().replace(/\s+/g, "-")}`}
              >
                {value}
              </dd>
            </dl>
            <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
