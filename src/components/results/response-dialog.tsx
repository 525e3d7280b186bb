// One answer in full, as the results' Raw Responses and the monitor's latest responses open it.
import type { ReactNode } from "react";

import { Markdown } from "@/components/markdown";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/dates";

import type { Id } from "../../../convex/_generated/dataModel";
import { formatCostPerResponse, formatCount, formatLatency } from "../../../convex/lib/format";
import { AnswerNotes } from "./answer-notes";
import type { ResponseRow } from "./results-model";

/** What the response dialog shows of an answer: the results' rows and the monitor's latest responses both carry it. */
export type ResponseDetails = Pick<
  ResponseRow,
  "_id" | "_creationTime" | "modelName" | "topicTitle" | "personaName" | "content" | "tokens" | "latencyMs" | "costUsd"
>;

/**
 * Topic, persona, the full text as sanitized Markdown, tokens, latency, cost (6 decimals), generated-at, notes:
 * the results' full-response dialog and the monitor's view-response modal (`timeLabel` "Time", `children` above the text).
 */
export function ResponseDialog({
  testId,
  response,
  onClose,
  timeLabel = "Generated",
  children,
}: {
  testId: Id<"tests">;
  response: ResponseDetails | null;
  onClose: () => void;
  timeLabel?: string;
  children?: ReactNode;
}) {
  return (
    <Dialog open={response !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[95dvh] overflow-y-auto sm:max-w-3xl">
        {response && (
          <>
            <DialogHeader>
              <DialogTitle>Response from {response.modelName}</DialogTitle>
              <DialogDescription>
                Topic: {response.topicTitle} · Persona: {response.personaName}
              </DialogDescription>
            </DialogHeader>
            {children}
            <div className="max-h-[55dvh] overflow-y-auto rounded-md border bg-muted/30 p-4">
              <Markdown>{response.content}</Markdown>
            </div>
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              <Detail label="Tokens" value={formatCount(response.tokens)} />
              <Detail label="Latency" value={formatLatency(response.latencyMs)} />
              <Detail label="Cost" value={formatCostPerResponse(response.costUsd)} />
              <Detail label={timeLabel} value={formatDateTime(response._creationTime)} />
            </dl>
            <AnswerNotes testId={testId} responseId={response._id} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

export function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
