import { BotIcon, DollarSignIcon, FlaskConicalIcon, FolderHeartIcon, type LucideIcon } from "lucide-react";

import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatCents } from "../../../convex/lib/format";
import { plural, type DashboardHomeData } from "./dashboard-model";

interface StatCardProps {
  label: string;
  value: string;
  detail: string;
  icon: LucideIcon;
}

function StatCard({ label, value, detail, icon: Icon }: StatCardProps) {
  return (
    <Card className="gap-2 py-5" data-testid="stat-card">
      <CardContent className="flex items-start justify-between gap-3 px-5">
        <div className="min-w-0 space-y-1">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          <p className="text-2xl font-bold tracking-tight tabular-nums">{value}</p>
          <p className="text-xs text-muted-foreground">{detail}</p>
        </div>
        <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-4" aria-hidden="true" />
        </div>
      </CardContent>
    </Card>
  );
}

export function StatCards({ data }: { data: DashboardHomeData | undefined }) {
  if (data === undefined) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true" aria-label="Loading statistics">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[110px] rounded-xl" />
        ))}
      </div>
    );
  }
  const { stats, personas, topics } = data;
  return (
    <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        label="Total Tests"
        value={stats.totalTests.toLocaleString("en-US")}
        detail={`${stats.completedTests.toLocaleString("en-US")} completed`}
        icon={FlaskConicalIcon}
      />
      <StatCard
        label="Total Spent"
        value={formatCents(stats.totalSpentCents)}
        detail={`${formatCents(stats.averageSpentCents)} avg per test`}
        icon={DollarSignIcon}
      />
      <StatCard
        label="AI Responses"
        value={stats.responses.toLocaleString("en-US")}
        detail={`${plural(stats.evaluations, "evaluation")}`}
        icon={BotIcon}
      />
      <StatCard
        label="Saved Assets"
        value={stats.savedAssets.toLocaleString("en-US")}
        detail={`${plural(personas.total, "persona")} · ${plural(topics.total, "topic")}`}
        icon={FolderHeartIcon}
      />
    </section>
  );
}
