import { Link } from "@tanstack/react-router";
import {
  CheckCircle2Icon,
  CircleDotIcon,
  CirclePlusIcon,
  CircleXIcon,
  FileTextIcon,
  PlayIcon,
  UserRoundIcon,
  type LucideIcon,
} from "lucide-react";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";
import { formatRelativeTime } from "../../../convex/lib/format";
import { ACTIVITY_LABELS, type ActivityEntry } from "./dashboard-model";
import { useNow } from "@/hooks/use-now";

const ICONS: Readonly<Record<ActivityEntry["kind"], { icon: LucideIcon; className: string }>> = {
  test_completed: { icon: CheckCircle2Icon, className: "text-green-600 dark:text-green-400" },
  test_failed: { icon: CircleXIcon, className: "text-red-600 dark:text-red-400" },
  test_cancelled: { icon: CircleDotIcon, className: "text-muted-foreground" },
  test_running: { icon: PlayIcon, className: "text-blue-600 dark:text-blue-400" },
  test_created: { icon: CirclePlusIcon, className: "text-yellow-600 dark:text-yellow-400" },
  persona_saved: { icon: UserRoundIcon, className: "text-primary" },
  topic_saved: { icon: FileTextIcon, className: "text-primary" },
};

function ActivityRow({ entry, now }: { entry: ActivityEntry; now: number }) {
  const { icon: Icon, className } = ICONS[entry.kind];
  const body = (
    <>
      <Icon aria-hidden="true" className={cn("mt-0.5 size-4 shrink-0", className)} />
      <div className="min-w-0 flex-1">
        <p className="text-sm">
          <span className="font-medium">{ACTIVITY_LABELS[entry.kind]}</span>
          <span className="text-muted-foreground">: </span>
          <span className="break-words">{entry.title}</span>
        </p>
        <p className="text-xs text-muted-foreground">
          <time dateTime={new Date(entry.at).toISOString()}>{formatRelativeTime(entry.at, now)}</time>
        </p>
      </div>
    </>
  );
  return (
    <li>
      {entry.testId ? (
        <Link
          to="/dashboard/results/$testId"
          params={{ testId: entry.testId }}
          className="flex gap-3 rounded-md px-2 py-2 hover:bg-muted/60"
        >
          {body}
        </Link>
      ) : (
        <div className="flex gap-3 px-2 py-2">{body}</div>
      )}
    </li>
  );
}

export function RecentActivity({ activity }: { activity: readonly ActivityEntry[] | undefined }) {
  // Relative times change by the minute at the finest.
  const now = useNow(30_000);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Recent Activity</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="px-4">
        {activity === undefined ? (
          <div className="space-y-2" aria-busy="true" aria-label="Loading recent activity">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} className="h-10" />
            ))}
          </div>
        ) : activity.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No recent activity</p>
        ) : (
          // At most 8 entries; the list scrolls rather than growing the page.
          <ul aria-label="Recent activity" className="max-h-80 space-y-1 overflow-y-auto pr-1">
            {activity.map((entry) => (
              <ActivityRow key={entry.id} entry={entry} now={now} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
