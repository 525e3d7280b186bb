// What the compare page reads of one test (compare.ts): its scores per persona × topic pair from
// the jury statistics' kept rows (juryStateChunks, a few compact documents refreshed about once a
// second while the test runs), never its answers. A test whose statistics have not kept rows yet,
// or one too large to decode within a query's time (more than KEPT_ROWS_BUDGET answers and
// judgements), is scored per persona from its modelStats rows instead (coarser units).
import { v, type Infer } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { type RunScores, type UnitScores, unitScoresOf, verdictsOfCalls } from "../lib/compare";
import { repeatsOf } from "../lib/repeats";
import { juryStatsValidator } from "../tables/juryStats";
import { decodeJuryState, juryInput, type JuryState } from "./jury/state";
import { statsRowsOf } from "./results";
import { settleWordsOfRow, settleWordsValidator } from "./settleView";

/** The chunks' rows, each row once (a later chunk's copy of a row wins, as in mergeJuryStates). */
function keptRows(chunks: readonly JuryState[]): JuryState {
  const once = <T extends { id: string }>(rows: T[][]) => [
    ...new Map(rows.flat().map((row) => [row.id, row])).values(),
  ];
  return {
    responses: once(chunks.map((chunk) => chunk.responses)),
    evaluations: once(chunks.map((chunk) => chunk.evaluations)),
    calls: once(chunks.map((chunk) => chunk.calls)),
  };
}

/** The kept-rows documents a test has at most (core/jury/state.ts MAX_STATE_CHUNKS). */
const MAX_STATE_CHUNKS = 64;

/**
 * Answers plus judgements of a test whose kept rows the query decodes (about 1 MB, 5 chunks):
 * two such tests took about 0.5 s in bench/compare-query.ts on a loaded machine, within a
 * query's 1 s. Larger tests are resampled per persona.
 */
export const KEPT_ROWS_BUDGET = 10_000;

/** What a test's units are: persona × topic pairs, or personas (no kept rows, or too many). */
export type UnitKind = "pair" | "persona";

export const pairRefValidator = v.object({ personaId: v.string(), topicId: v.string() });

/**
 * The test's scores per unit. The judges' verdicts are taken as they are: "An answer that fails a
 * check ranks last" changes the jury statistics, not these (the page shows the pass rates beside).
 */
export async function runScoresOf(ctx: QueryCtx, test: Doc<"tests">): Promise<RunScores & { unit: UnitKind }> {
  const config = test.configuration;
  const models = config.generatorModels.map(({ id, name }) => ({ id, name }));
  // A pair is matched in the other test by its persona's name and its topic's title.
  const personaName = new Map(config.personas.map((persona) => [persona.id, persona.name]));
  const topicTitle = new Map(config.topics.map((topic) => [topic.id, topic.title]));
  const keyOf = (unit: { personaId: string; topicId: string }) =>
    JSON.stringify([
      personaName.get(unit.personaId) ?? unit.personaId,
      unit.topicId === "" ? "" : (topicTitle.get(unit.topicId) ?? unit.topicId),
    ]);
  const chunks =
    test.responsesCount + test.evaluationsCount > KEPT_ROWS_BUDGET
      ? []
      : await ctx.db
          .query("juryStateChunks")
          .withIndex("by_test_index", (q) => q.eq("testId", test._id))
          .take(MAX_STATE_CHUNKS);
  if (chunks.length > 0) {
    const state = keptRows(chunks.map((chunk) => decodeJuryState(chunk.data)));
    const input = juryInput(
      test._id,
      { scale: config.scoringParameters.scale, models, judges: config.evaluatorModels.map((model) => model.id) },
      state.responses,
      state.evaluations,
      state.calls,
    );
    const verdicts = verdictsOfCalls(input);
    return {
      models,
      unit: "pair",
      units: unitScoresOf(state.responses, verdicts).map((unit) => ({ ...unit, key: keyOf(unit) })),
    };
  }
  // No kept rows yet: one unit per persona, from the per-persona stats rows.
  const units = new Map<string, UnitScores & { means: Map<string, number> }>();
  for (const row of await statsRowsOf(ctx, test._id)) {
    if (row.personaId === "" || row.scoreCount === 0) continue;
    const unit = units.get(row.personaId) ?? {
      personaId: row.personaId,
      topicId: "",
      key: keyOf({ personaId: row.personaId, topicId: "" }),
      means: new Map<string, number>(),
    };
    unit.means.set(row.modelId, row.scoreSum / row.scoreCount);
    units.set(row.personaId, unit);
  }
  return { models, unit: "persona", units: [...units.values()] };
}

/**
 * How a test ran, beside its figures (issue 35 on the compare page): its repeats with each model's
 * spread between them, and where its "stop when settled" question stands, both as its results
 * page shows them, so a test that stopped early or was repeated reads as such next to the other.
 */
export const runFactsValidator = v.object({
  /** Runs of each persona × topic (1: not repeated). */
  repeats: v.number(),
  /** A repeated test's models with their spread between repeats as last computed (empty otherwise). */
  repeatSpread: v.array(juryStatsValidator.fields.models.element.pick("modelId", "modelName", "repeatSpread")),
  /** The "stop when settled" question in words (core/settleView.ts); null without the setting. */
  settle: v.union(settleWordsValidator, v.null()),
});

/** A test's run facts: one read of its testStats row, and only when it is repeated or stops when settled. */
export async function runFactsOf(ctx: QueryCtx, test: Doc<"tests">): Promise<Infer<typeof runFactsValidator>> {
  const repeats = repeatsOf(test.configuration.repeats);
  if (repeats === 1 && test.configuration.stopWhenSettled === undefined)
    return { repeats, repeatSpread: [], settle: null };
  const row = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", test._id))
    .unique();
  return {
    repeats,
    repeatSpread:
      repeats === 1
        ? []
        : (row?.stats?.models ?? []).map(({ modelId, modelName, repeatSpread }) => ({
            modelId,
            modelName,
            ...(repeatSpread === undefined ? {} : { repeatSpread }),
          })),
    settle: settleWordsOfRow(test, row),
  };
}
