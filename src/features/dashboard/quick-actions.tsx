import { Link, type LinkProps } from "@tanstack/react-router";
import { ActivityIcon, HistoryIcon, PlusIcon, type LucideIcon } from "lucide-react";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

const ACTIONS: readonly { label: string; description: string; to: LinkProps["to"]; icon: LucideIcon }[] = [
  { label: "New Test", description: "Set up a comparison", to: "/dashboard/setup", icon: PlusIcon },
  { label: "Monitor", description: "Watch the current test", to: "/dashboard/monitor", icon: ActivityIcon },
  { label: "History", description: "Browse past tests", to: "/dashboard/history", icon: HistoryIcon },
];

export function QuickActions() {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Quick Actions</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="px-4">
        <nav aria-label="Quick actions" className="grid gap-2">
          {ACTIONS.map(({ label, description, to, icon: Icon }) => (
            <Link
              key={label}
              to={to}
              className="flex items-center gap-3 rounded-lg border px-3 py-2.5 transition-colors hover:bg-muted/60"
            >
              <span className="flex size-8 items-center justify-center rounded-md bg-primary/10 text-primary">
                <Icon aria-hidden="true" className="size-4" />
              </span>
              <span className="flex flex-col">
                <span className="text-sm font-medium">{label}</span>
                <span className="text-xs text-muted-foreground">{description}</span>
              </span>
            </Link>
          ))}
        </nav>
      </CardContent>
    </Card>
  );
}
