// A test's pass-rate figures folded like its counters: each generation call's recording inserts
// its tally (core/checks.ts recordAnswerChecks), and the run's fold (core/pipeline/runCounters.ts
// foldCounters) adds the settled ones into the test's checkTotals row, one tally per model ×
// persona, and deletes them. The checks section reads that row, written at most once per fold;
// read over the tallies, it re-ran on every recording and read them all (quadratic in the calls).
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { CheckTally } from "../lib/checkFigures";
import { checkLabel } from "../lib/checks";

/** Most tallies folded per batch (a few hundred bytes each); the fold that ends a run takes up to 8. */
const TALLY_BATCH = 500;
const FINAL_TALLY_BATCHES = 8;

type Tally = Doc<"checkTotals">["tallies"][number];

export async function checkTotalsOf(ctx: QueryCtx, testId: Id<"tests">): Promise<Doc<"checkTotals"> | null> {
  return await ctx.db
    .query("checkTotals")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/** `tallies` added into `into` by model × persona, and check by check. */
export function addTallies(into: readonly Tally[], tallies: readonly CheckTally[]): Tally[] {
  const merged = new Map<string, Tally>(
    into.map((tally) => [`${tally.modelId}\u0000${tally.personaId}`, { ...tally, byCheck: [...tally.byCheck] }]),
  );
  for (const tally of tallies) {
    const key = `${tally.modelId}\u0000${tally.personaId}`;
    const sum = merged.get(key) ?? {
      modelId: tally.modelId,
      personaId: tally.personaId,
      answers: 0,
      passed: 0,
      byCheck: [],
    };
    sum.answers += tally.answers;
    sum.passed += tally.passed;
    for (const check of tally.byCheck) {
      const index = sum.byCheck.findIndex((entry) => entry.checkId === check.checkId);
      if (index < 0) sum.byCheck.push({ ...check });
      else
        sum.byCheck[index] = {
          checkId: check.checkId,
          applied: sum.byCheck[index]!.applied + check.applied,
          passed: sum.byCheck[index]!.passed + check.passed,
        };
    }
    merged.set(key, sum);
  }
  return [...merged.values()];
}

/** The labels the checks section shows, from the configuration (written with the row). */
export function checkLabelsOf(test: Pick<Doc<"tests">, "configuration">) {
  const config = test.configuration;
  const topicName = (topicId: string) => config.topics.find((topic) => topic.id === topicId)?.title;
  return {
    rankLast: config.failedChecksRankLast === true,
    checks: (config.checks ?? []).map((check) => ({ id: check.id, label: checkLabel(check, topicName) })),
    personas: config.personas.map((persona) => ({ id: persona.id, name: persona.name })),
    models: config.generatorModels.map((model) => ({ id: model.id, name: model.name })),
  };
}

/**
 * Folds the test's tallies into its checkTotals row and deletes them: those created before
 * `settledBefore` (a running fold: no recording in flight inserts there), or all of them (the
 * fold that ends the run). Creates the row on the first fold, so the checks section of a running
 * test reads it from then on. Writes nothing when there is nothing new.
 */
export async function foldCheckTallies(
  ctx: MutationCtx,
  test: Pick<Doc<"tests">, "_id" | "configuration">,
  settledBefore?: number,
): Promise<void> {
  const tallies: Doc<"checkTallies">[] = [];
  for (let round = 0; round < (settledBefore === undefined ? FINAL_TALLY_BATCHES : 1); round++) {
    const batch = await ctx.db
      .query("checkTallies")
      .withIndex("by_test", (q) =>
        settledBefore === undefined
          ? q.eq("testId", test._id)
          : q.eq("testId", test._id).lt("_creationTime", settledBefore),
      )
      .take(TALLY_BATCH);
    for (const row of batch) await ctx.db.delete("checkTallies", row._id);
    tallies.push(...batch);
    if (batch.length < TALLY_BATCH) break;
  }
  const row = await checkTotalsOf(ctx, test._id);
  if (row === null) {
    await ctx.db.insert("checkTotals", { testId: test._id, ...checkLabelsOf(test), tallies: addTallies([], tallies) });
    return;
  }
  if (tallies.length > 0) await ctx.db.patch("checkTotals", row._id, { tallies: addTallies(row.tallies, tallies) });
}
