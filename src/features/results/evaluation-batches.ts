// The evaluations list by judge call: a ranking call scores every answer of a persona × topic pair
// with one explanation that names the answers by their neutral labels, so the explanation and
// the label → answer mapping are shown once per call, not on every row.
import type { EvaluationRow } from "@/components/results/results-model";

export type BatchLabel = NonNullable<EvaluationRow["batchLabels"]>[number];

export interface EvaluationBatch {
  readonly key: string;
  readonly evaluatorName: string;
  readonly explanation: string;
  readonly order?: EvaluationRow["order"];
  /** Which label showed which answer, in the order shown (empty for a rating call). */
  readonly labels: readonly BatchLabel[];
  readonly rows: readonly EvaluationRow[];
  /** What the judge call cost: the sum of its evaluations' shares. */
  readonly costUsd: number;
}

/**
 * What ties rows into one call: the call id; for rows recorded before evaluations named their
 * call, the same judge with the same (non-empty) explanation.
 */
function batchKey(row: EvaluationRow): string {
  if (row.callId !== undefined) return `call:${row.callId}`;
  if (row.explanation.trim() !== "") return `text:${row.evaluatorModelId}\u0000${row.explanation}`;
  return `row:${row._id}`;
}

/** The mapping of one call: as the server sent it with the call's first row, else from the rows' own labels. */
function labelsOf(rows: readonly EvaluationRow[]): BatchLabel[] {
  const sent = rows.find((row) => row.batchLabels !== undefined)?.batchLabels;
  if (sent) return sent;
  return rows
    .flatMap((row) =>
      row.label !== undefined && row.response
        ? [
            {
              label: row.label,
              responseId: row.response._id,
              modelName: row.response.modelName,
              preview: row.response.content,
            },
          ]
        : [],
    )
    .sort((a, b) => a.label.length - b.label.length || a.label.localeCompare(b.label, "en"));
}

/** Consecutive rows of one judge call become one batch (a call's rows are stored together). */
export function groupEvaluations(rows: readonly EvaluationRow[]): EvaluationBatch[] {
  const groups: EvaluationRow[][] = [];
  let lastKey: string | null = null;
  for (const row of rows) {
    const key = batchKey(row);
    if (key === lastKey) groups[groups.length - 1]!.push(row);
    else groups.push([row]);
    lastKey = key;
  }
  return groups.map((group) => {
    const first = group[0]!;
    return {
      key: `${batchKey(first)}\u0000${first._id}`,
      evaluatorName: first.evaluatorName,
      explanation: first.explanation,
      ...(first.order === undefined ? {} : { order: first.order }),
      labels: labelsOf(group),
      rows: group,
      costUsd: group.reduce((sum, row) => sum + row.costUsd, 0),
    };
  });
}
