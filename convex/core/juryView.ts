// What the results, monitor and shared pages show of a test's jury statistics:
// the stored testStats row (one read) plus the names the statistics refer to by id, taken from
// the test's names row (its configuration's names). History shows only the verdict, kept on the test itself so that its
// list stays one read per row.
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { testNamesOf, type TestNames } from "../lib/testNames";
import { juryStatsValidator, juryVerdictValidator, type JuryStatsDoc } from "../tables/juryStats";

export { juryVerdictValidator };

const named = v.object({ id: v.string(), name: v.string() });

const juryViewFields = v.object({
  /** Null until the first judgements have been computed. */
  stats: v.union(juryStatsValidator, v.null()),
  computedAt: v.union(v.number(), v.null()),
  /** Judge scores the statistics were computed from. */
  evaluationsSeen: v.number(),
  /** A recomputation is scheduled or running: newer judgements are on their way in. */
  pending: v.boolean(),
  /** The test is still producing answers or judgements. */
  live: v.boolean(),
  judges: v.array(named),
  personas: v.array(named),
  topics: v.array(named),
});

export const juryViewValidator = v.union(v.null(), juryViewFields);
export type JuryView = NonNullable<Infer<typeof juryViewValidator>>;

/**
 * The statistics as the shared page gets them: without their cost figures (each model's
 * generation and judging cost, each judge's cost, the totals). Spec part 2's shared page shows no
 * money, and a link reaches anyone; the figures stay with the test's members.
 */
const sharedJuryStatsValidator = juryStatsValidator.omit("models", "judges", "costs").extend({
  models: v.array(juryStatsValidator.fields.models.element.omit("generationCostUsd", "judgingCostUsd")),
  judges: v.array(juryStatsValidator.fields.judges.element.omit("costUsd")),
});

export const sharedJuryViewValidator = v.union(
  v.null(),
  juryViewFields.omit("stats").extend({ stats: v.union(sharedJuryStatsValidator, v.null()) }),
);
export type SharedJuryView = NonNullable<Infer<typeof sharedJuryViewValidator>>;

/** The jury view without cost figures, for a shared link's anonymous viewers. */
export function withoutCosts(view: JuryView): SharedJuryView {
  if (view.stats === null) return { ...view, stats: null };
  const { costs: _costs, models, judges, ...stats } = view.stats;
  return {
    ...view,
    stats: {
      ...stats,
      models: models.map(({ generationCostUsd: _generation, judgingCostUsd: _judging, ...model }) => model),
      judges: judges.map(({ costUsd: _cost, ...judge }) => judge),
    },
  };
}

export type JuryVerdict = Infer<typeof juryVerdictValidator>;

const LIVE = new Set<Doc<"tests">["status"]>(["pending", "running"]);

/** The jury view of a test the caller may see, from its row (the public API has it): reads its testStats row. */
export async function juryViewOf(ctx: QueryCtx, test: Doc<"tests">): Promise<JuryView> {
  return await juryViewOfNames(ctx, { testId: test._id, status: test.status }, testNamesOf(test.configuration));
}

/**
 * The jury view of a test the caller may see, from its access row's status and its names
 * (core/testNames.ts): reads its testStats row only. The pages' queries re-run with each
 * statistics run while the test runs, and read no configuration.
 */
export async function juryViewOfNames(
  ctx: QueryCtx,
  test: { testId: Id<"tests">; status: Doc<"tests">["status"] },
  names: TestNames,
): Promise<JuryView> {
  const row = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", test.testId))
    .unique();
  return {
    stats: row?.stats ?? null,
    computedAt: row?.computedAt ?? null,
    evaluationsSeen: row?.evaluationsSeen ?? 0,
    pending: row?.pending ?? false,
    live: LIVE.has(test.status),
    judges: names.judges.map((model) => ({ id: model.id, name: model.name })),
    personas: names.personas.map((persona) => ({ id: persona.id, name: persona.name })),
    topics: names.topics.map((topic) => ({ id: topic.id, name: topic.title })),
  };
}

/** The verdict History shows (too little evidence names no leader), or undefined before any model is scored. */
export function juryVerdictOf(stats: JuryStatsDoc): JuryVerdict | undefined {
  const { kind, leaders } = stats.summary;
  if (kind === "thin") return { kind, leaders: [] };
  if (kind === "none" || leaders.length === 0) return undefined;
  const names = new Map(stats.models.map((model) => [model.modelId, model.modelName]));
  return { kind, leaders: leaders.map((id) => names.get(id) ?? id) };
}
