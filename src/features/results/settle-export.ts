// "Stop when settled" in the results export (issue 35): a settled test's rows carry where its
// question stood and why it stopped, in the results page's words (settle.status), and each row its
// pair's place in the seeded order the run drew the pairs in (lib/settleInput.ts orderedPairs).
// The pairs placed 1 … "Stopped After Pairs" are the ones the decision read, so the stop can be
// rebuilt from the rows: each pair's model means, in that order, through the confidence
// sequences of lib/settle.ts at the exported confidence.
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import { orderedPairs, type SettleConfiguration } from "../../../convex/lib/settleInput";

/** settle.status for a test set to stop when settled: the question, the last look and why it stopped. */
export type SettleStatusView = NonNullable<FunctionReturnType<typeof api.settle.status>>;

/** What the export carries of a settled test: the words, and each pair's place in the draw (1 …). */
export interface SettleExport {
  status: SettleStatusView;
  pairOrder: ReadonlyMap<string, number>;
}

const pairKey = (personaId: string, topicId: string) => JSON.stringify([personaId, topicId]);

/** The export's settle facts; null for a test not set to stop when settled. */
export function settleExportOf(
  configuration: Pick<SettleConfiguration, "personas" | "topics" | "stopWhenSettled">,
  status: SettleStatusView | null,
): SettleExport | null {
  if (status === null || configuration.stopWhenSettled === undefined) return null;
  const pairOrder = new Map(
    orderedPairs(configuration).map((pair, index) => [pairKey(pair.personaId, pair.topicId), index + 1]),
  );
  return { status, pairOrder };
}

/** A row's pair's place in the draw (1 …); "" for a pair the configuration does not list. */
export function pairPlace(settle: SettleExport, pair: { personaId: string; topicId: string }): number | "" {
  return settle.pairOrder.get(pairKey(pair.personaId, pair.topicId)) ?? "";
}

/**
 * The CSV's settle columns, appended after every other column (the existing ones keep their
 * places), with the same value on answer and judgement rows.
 */
export function settleCsvCells(
  settle: SettleExport,
): readonly { header: string; value: (pair: { personaId: string; topicId: string }) => string | number }[] {
  const { status } = settle;
  const same = (value: string | number | null) => () => value ?? "";
  return [
    { header: "Settle Question", value: same(status.question) },
    { header: "Settle Confidence", value: same(status.setting.confidence) },
    { header: "Pair Order", value: (pair) => pairPlace(settle, pair) },
    { header: "Settle Pairs Judged", value: same(status.pairsDone) },
    { header: "Settle Pairs Planned", value: same(status.pairsTotal ?? settle.pairOrder.size) },
    { header: "Settled", value: same(status.settled ? "yes" : "no") },
    { header: "Settle Status", value: same(status.line) },
    { header: "Stopped After Pairs", value: same(status.stopped?.pairsDone ?? null) },
    { header: "Stop Reason", value: same(status.stoppedReason) },
  ];
}

/** The JSON's settle block: the setting, the words, and the pairs in the order the run drew them. */
export function settleJson(settle: SettleExport | null) {
  if (settle === null) return null;
  const { setting, ...words } = settle.status;
  return {
    setting,
    ...words,
    pairOrder: [...settle.pairOrder.entries()]
      .sort(([, x], [, y]) => x - y)
      .map(([key, order]) => {
        const [personaId, topicId] = JSON.parse(key) as [string, string];
        return { order, personaId, topicId };
      }),
  };
}
