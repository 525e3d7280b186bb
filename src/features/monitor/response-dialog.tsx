import { Markdown } from "@/components/markdown";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/dates";
import { AnswerNotes } from "@/features/notes/answer-notes";

import { formatCostPerResponse, formatCount, formatLatency } from "../../../convex/lib/format";
import type { Id } from "../../../convex/_generated/dataModel";
import type { MonitorResponse } from "./monitor-model";

/** One answer in full: topic, persona, the text (sanitized Markdown), tokens, latency, cost, time, and the team's notes. */
export function ResponseDialog({
  testId,
  response,
  onClose,
}: {
  testId: Id<"tests">;
  response: MonitorResponse | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={response !== null} onOpenChange={(open) => !open && onClose()}>
      {response && (
        <DialogContent className="max-h-[95dvh] overflow-y-auto sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>Response from {response.modelName}</DialogTitle>
            <DialogDescription>
              {response.topicTitle} · {response.personaName}
            </DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
            <Detail label="Topic" value={response.topicTitle} />
            <Detail label="Persona" value={response.personaName} />
            <Detail label="Model" value={response.modelName} />
          </dl>
          <div className="max-h-[50dvh] overflow-y-auto rounded-md border bg-muted/30 p-4">
            <Markdown>{response.content}</Markdown>
          </div>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <Detail label="Tokens" value={formatCount(response.tokens)} />
            <Detail label="Latency" value={formatLatency(response.latencyMs)} />
            <Detail label="Cost" value={formatCostPerResponse(response.costUsd)} />
            <Detail label="Time" value={formatDateTime(response._creationTime)} />
          </dl>
          <AnswerNotes testId={testId} responseId={response._id} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words tabular-nums">{value}</dd>
    </div>
  );
}
