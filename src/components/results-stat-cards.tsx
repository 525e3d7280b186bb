import { ActivityIcon, CheckCircle2Icon, ClockIcon, MessageSquareTextIcon, type LucideIcon } from "lucide-react";

import { Card, CardContent } from "@/components/ui/card";

import { formatCount, formatLatency, formatRatio } from "../../convex/lib/format";

export interface Metrics {
  totalResponses: number;
  evaluations: number;
  averageResponseTimeMs: number;
  completionRate: number;
}

/** The four tiles of the results and shared pages (spec part 2 §2). */
export function StatCards({ metrics }: { metrics: Metrics }) {
  const tiles: { label: string; value: string; icon: LucideIcon }[] = [
    { label: "Total Responses", value: formatCount(metrics.totalResponses), icon: MessageSquareTextIcon },
    { label: "Evaluations", value: formatCount(metrics.evaluations), icon: ActivityIcon },
    { label: "Average Response Time", value: formatLatency(metrics.averageResponseTimeMs), icon: ClockIcon },
    { label: "Completion Rate", value: formatRatio(metrics.completionRate), icon: CheckCircle2Icon },
  ];
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {tiles.map(({ label, value, icon: Icon }) => (
        <Card key={label} className="py-4">
          <CardContent className="flex items-center justify-between gap-3 px-4">
            <div className="space-y-1">
              <dt className="text-sm text-muted-foreground">{label}</dt>
              <dd
                className="text-2xl font-bold tabular-nums"
                data-testid={`stat-${label.toLowerCase().replace(/\s+/g, "-")}`}
              >
                {value}
              </dd>
            </div>
            <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
          </CardContent>
        </Card>
      ))}
    </dl>
  );
}
