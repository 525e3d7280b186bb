import { useNow } from "@/hooks/use-now";
import { formatDateTime } from "@/lib/dates";

import { formatCount, formatTestDuration } from "../../convex/lib/format";

interface TestTimesProps {
  test: {
    _creationTime: number;
    startedAt?: number;
    completedAt?: number;
    responsesCount: number;
    expectedResponses: number;
  };
}

/** Started, completed, duration (ticking until completion) and responses. */
export function TestTimes({ test }: TestTimesProps) {
  return (
    <dl className="grid grid-cols-2 gap-4 rounded-lg border p-4 text-sm sm:grid-cols-4">
      <div>
        <dt className="text-muted-foreground">Started</dt>
        <dd className="font-medium">{formatDateTime(test.startedAt ?? test._creationTime)}</dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Completed</dt>
        <dd className="font-medium">{test.completedAt ? formatDateTime(test.completedAt) : "In progress"}</dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Duration</dt>
        <dd className="font-medium tabular-nums" data-testid="test-duration">
          <Duration startedAt={test.startedAt ?? test._creationTime} completedAt={test.completedAt} />
        </dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Responses</dt>
        <dd className="font-medium tabular-nums">
          {formatCount(test.responsesCount)} / {formatCount(test.expectedResponses)}
        </dd>
      </div>
    </dl>
  );
}

/** m:ss; until completion it counts up with the clock (its own component, so only it re-renders). */
export function Duration({ startedAt, completedAt }: { startedAt: number; completedAt?: number }) {
  if (completedAt !== undefined) return <>{formatTestDuration(startedAt, completedAt, completedAt)}</>;
  return <TickingDuration startedAt={startedAt} />;
}

function TickingDuration({ startedAt }: { startedAt: number }) {
  const now = useNow(1000);
  return <>{formatTestDuration(startedAt, null, now)}</>;
}
