// Where a "stop when settled" test's question stands, in words (lib/settleWords.ts), for the
// owner's pages (settle.status) and a share link's (sharedExtras.settleStatus).
import { v, type Infer } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { settledAfterText, settleLine, settleQuestionText, stoppedReasonText } from "../lib/settleWords";
import { stopReason } from "../validators";

export const settleWordsValidator = v.object({
  question: v.string(),
  line: v.union(v.string(), v.null()),
  settled: v.boolean(),
  pairsDone: v.union(v.number(), v.null()),
  pairsTotal: v.union(v.number(), v.null()),
  stopped: v.union(stopReason, v.null()),
  settledAfter: v.union(v.string(), v.null()),
  stoppedReason: v.union(v.string(), v.null()),
});

/** The question, the last look's line and, once it stopped early, why; null for a test that does not stop when settled. */
export async function settleWordsOf(ctx: QueryCtx, test: Doc<"tests">) {
  if (test.configuration.stopWhenSettled === undefined) return null;
  const row = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", test._id))
    .unique();
  return settleWordsOfRow(test, row);
}

/** settleWordsOf from the test's testStats row already read (the compare page reads it for the repeats too). */
export function settleWordsOfRow(
  test: Doc<"tests">,
  row: Pick<Doc<"testStats">, "settle"> | null,
): Infer<typeof settleWordsValidator> | null {
  const setting = test.configuration.stopWhenSettled;
  if (setting === undefined) return null;
  const names = new Map(test.configuration.generatorModels.map((model) => [model.id, model.name]));
  const look = row?.settle ?? null;
  const stopped = test.stopped ?? null;
  return {
    question: settleQuestionText(setting, names),
    line: look === null ? null : settleLine(look, names),
    settled: look?.settled ?? false,
    pairsDone: look?.pairsDone ?? null,
    pairsTotal: look?.pairsTotal ?? null,
    stopped,
    settledAfter: stopped === null ? null : settledAfterText(stopped),
    stoppedReason: stopped === null ? null : stoppedReasonText(stopped),
  };
}
