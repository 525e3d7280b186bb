import { Detail, ResponseDialog as ResponseDetailsDialog } from "@/components/results/response-dialog";

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
    <ResponseDetailsDialog testId={testId} response={response} onClose={onClose} timeLabel="Time">
      {response && (
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
          <Detail label="Topic" value={response.topicTitle} />
          <Detail label="Persona" value={response.personaName} />
          <Detail label="Model" value={response.modelName} />
        </dl>
      )}
    </ResponseDetailsDialog>
  );
}
