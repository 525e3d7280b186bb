import { Link } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { useViewer } from "@/hooks/use-viewer";
import { SETUP_PATH } from "@/lib/paths";
import { greetingName } from "../../../convex/lib/format";

export function DashboardHome() {
  const viewer = useViewer();

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          {viewer === undefined ? (
            <Skeleton className="h-9 w-64" />
          ) : (
            <h1 className="text-3xl font-bold tracking-tight">Welcome back, {greetingName(viewer?.email)}</h1>
          )}
          <p className="text-muted-foreground">Compare models on your prompts and let a jury of models judge them.</p>
        </div>
        <Button asChild size="lg">
          <Link to={SETUP_PATH}>
            <PlusIcon /> Create New Test
          </Link>
        </Button>
      </div>
    </div>
  );
}
