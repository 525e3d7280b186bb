import type { LucideIcon } from "lucide-react";
import type * as React from "react";

import { Skeleton } from "@/components/ui/skeleton";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/lib/utils";

interface StatCardProps {
  label: string;
  /** Undefined while loading. */
  value: React.ReactNode | undefined;
  detail?: React.ReactNode;
  icon: LucideIcon;
  tone?: "default" | "warning" | "danger";
}

const TONES = {
  default: "text-muted-foreground",
  warning: "text-amber-500",
  danger: "text-destructive",
} as const;

/** One figure of the overview or health cards; its region is named by its label. */
export function StatCard({ label, value, detail, icon: Icon, tone = "default" }: StatCardProps) {
  const id = `stat-${label.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <Card className="gap-2 py-5" role="group" aria-labelledby={id}>
      <CardContent className="space-y-1">
        <div className="flex items-center justify-between gap-2">
          <p id={id} className="text-sm font-medium text-muted-foreground">
            {label}
          </p>
          <Icon aria-hidden="true" className={cn("size-4", TONES[tone])} />
        </div>
        {value === undefined ? (
          <Skeleton className="h-8 w-20" />
        ) : (
          <p className="text-2xl font-bold tabular-nums">{value}</p>
        )}
        {detail !== undefined && value !== undefined && <p className="text-xs text-muted-foreground">{detail}</p>}
      </CardContent>
    </Card>
  );
}
