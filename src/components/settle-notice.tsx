import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { GaugeIcon } from "lucide-react";

import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";

/**
 * "Stop when settled" on the monitor and the results page (issue 35): the question, how settled it
 * is ("Settled at 95%: A is best", "Not settled yet: …") and, once the test stopped early, why
 * ("Settled after 38 of 100 pairs: …"). Nothing for a test without the setting. The words are
 * convex/lib/settleWords.ts. A share link's viewers read the same words by the link.
 */
export function SettleNotice(source: { testId: Id<"tests"> } | { shareId: string }) {
  const owner = useQuery(api.settle.status, "testId" in source ? { testId: source.testId } : "skip");
  const shared = useQuery(api.sharedExtras.settleStatus, "shareId" in source ? { shareId: source.shareId } : "skip");
  const status = "testId" in source ? owner : shared;
  if (!status) return null;
  return <SettleNoticeView status={status} />;
}

/** The notice's words as settle.status / sharedExtras.settleStatus / compare.get give them. */
export type SettleWords = NonNullable<FunctionReturnType<typeof api.sharedExtras.settleStatus>>;

/** The notice itself, for a page that read the words with its own query (the compare page, per test). */
export function SettleNoticeView({ status, label = "Stop when settled" }: { status: SettleWords; label?: string }) {
  return (
    <section
      aria-label={label}
      data-testid="settle-notice"
      className="flex items-start gap-2 rounded-lg border px-4 py-3 text-sm"
    >
      <GaugeIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div className="grid min-w-0 gap-1 break-words">
        <p className="font-medium">Stop when settled: {status.question}</p>
        {status.stoppedReason !== null ? (
          <p>{status.stoppedReason}</p>
        ) : (
          <p className="text-muted-foreground">{status.line ?? "Not settled yet: no pair has been judged."}</p>
        )}
        {status.stoppedReason !== null && status.line !== null ? (
          <p className="text-muted-foreground">{status.line}</p>
        ) : null}
      </div>
    </section>
  );
}
