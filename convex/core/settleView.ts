// Where a "stop when settled" test's question stands, in words (lib/settleWords.ts), for the
// owner's pages (settle.status) and a share link's (sharedExtras.settleStatus).
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { settledAfterText, settleLine, settleQuestionText, stoppedReasonText } from "../lib/settleWords";
import { stopReason } from "../validators";
import { hasEnded } from "../lib/testStatus";
import type { TestNames } from "../lib/testNames";

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

/**
 * The question, the last look's line and, once it stopped early, why; null for a test that does
 * not stop when settled. From the test's access row and names (core/testNames.ts): the owner's
 * and the shared page's settle line re-run with each look (its stats row) while the test runs,
 * and read no configuration.
 */
export async function settleWordsOf(
  ctx: QueryCtx,
  test: { testId: Id<"tests">; status: Doc<"tests">["status"] },
  names: TestNames,
) {
  const setting = names.stopWhenSettled;
  if (setting === undefined) return null;
  const row = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", test.testId))
    .unique();
  const generatorNames = new Map(names.generators.map((model) => [model.id, model.name]));
  const stopped = hasEnded(test.status) ? await stopReasonOf(ctx, test.testId) : null;
  return settleWords(setting, generatorNames, row, stopped);
}

/** settleWordsOf for a caller that has read the whole test already (the HTTP API's results). */
export async function settleWordsOfTest(ctx: QueryCtx, test: Doc<"tests">) {
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
  const generatorNames = new Map(test.configuration.generatorModels.map((model) => [model.id, model.name]));
  return settleWords(setting, generatorNames, row, test.stopped ?? null);
}

function settleWords(
  setting: NonNullable<TestNames["stopWhenSettled"]>,
  generatorNames: Map<string, string>,
  row: Pick<Doc<"testStats">, "settle"> | null,
  stopped: NonNullable<Doc<"tests">["stopped"]> | null,
): Infer<typeof settleWordsValidator> {
  const look = row?.settle ?? null;
  return {
    question: settleQuestionText(setting, generatorNames),
    line: look === null ? null : settleLine(look, generatorNames),
    settled: look?.settled ?? false,
    pairsDone: look?.pairsDone ?? null,
    pairsTotal: look?.pairsTotal ?? null,
    stopped,
    settledAfter: stopped === null ? null : settledAfterText(stopped),
    stoppedReason: stopped === null ? null : stoppedReasonText(stopped),
  };
}

/**
 * Why an ended test stopped early (null: it did not), from its summary (a test is stopped as it
 * ends, with its status: core/testEnding.ts), or its own row when it has no summary yet.
 */
async function stopReasonOf(ctx: QueryCtx, testId: Id<"tests">) {
  const summary = await ctx.db
    .query("testSummaries")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
  const source = summary ?? (await ctx.db.get("tests", testId));
  return source?.stopped ?? null;
}
