// Compare two tests (issue 22 step 2): the page's figures in one subscribed query that reads
// both tests' stored rows (header, jury statistics' kept rows or modelStats, check tallies), and
// the answers of one persona × topic pair side by side in a second, bounded query. A repeated or
// settled test's testStats row gives its repeat spread and settle words (core/compare.ts). Either test
// may be the caller's own or their team's, exactly as the results page allows (requireTest).
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { fail, userQuery } from "./functions";
import { checkSummary, passRateValidator } from "./core/checks";
import { pairRefValidator, runFactsOf, runFactsValidator, runScoresOf } from "./core/compare";
import { namesOf, responseView, responseViewValidator, withScores } from "./core/results";
import { requireTest, TEST_NOT_FOUND } from "./core/testAccess";
import { headerOf, testHeader } from "./core/tests";
import { summaryRowOf } from "./core/testSummaries";
import { compareRuns, configurationDifferences, matchedPairs, stabilityReading } from "./lib/compare";
import { compareCheckRates } from "./lib/checkCompare";
import { TEST_LIMITS } from "./lib/limits";
import { juryVerdictValidator } from "./tables/juryStats";
import { countedTestOf } from "./core/pipeline/counterRow";

export const SAME_TEST = "Pick two different tests to compare.";

/**
 * Answers of one persona × topic pair: every model's, at most the responses per topic each, in
 * every repeat; both tests' together at most the results export's page of whole answers (500),
 * which stays inside a query's read limits. Only a repeated test of very few pairs has more.
 */
const MAX_PAIR_ANSWERS = Math.min(
  TEST_LIMITS.maxGeneratorModels * TEST_LIMITS.maxResponsesPerTopic * TEST_LIMITS.maxRepeats,
  250,
);

/** An answer side by side, with its repeat (0 …) in a repeated test. */
const pairAnswerValidator = responseViewValidator.extend({ repeat: v.optional(v.number()) });

const standingValidator = v.object({ score: v.union(v.number(), v.null()), rank: v.union(v.number(), v.null()) });
const intervalValidator = v.object({ low: v.number(), high: v.number() });
const pairRefOrNull = v.union(pairRefValidator, v.null());
/** A model's pass rate in each test (null: that test has no such checks). */
const passRatesValidator = v.object({
  modelId: v.string(),
  modelName: v.string(),
  a: v.union(passRateValidator, v.null()),
  b: v.union(passRateValidator, v.null()),
});

const comparisonValidator = v.object({
  a: testHeader,
  b: testHeader,
  /** Each test's jury decision as History keeps it (null before its jury scored a model). */
  verdicts: v.object({ a: v.union(juryVerdictValidator, v.null()), b: v.union(juryVerdictValidator, v.null()) }),
  /** How each test ran: its repeats and their spread, and why it stopped early (as its results page says). */
  runs: v.object({ a: runFactsValidator, b: runFactsValidator }),
  models: v.array(
    v.object({
      modelId: v.string(),
      modelName: v.string(),
      a: standingValidator,
      b: standingValidator,
      difference: v.union(v.number(), v.null()),
      interval: v.union(intervalValidator, v.null()),
      largerThanChance: v.boolean(),
    }),
  ),
  onlyInA: v.array(v.string()),
  onlyInB: v.array(v.string()),
  rankCorrelation: v.object({
    method: v.literal("spearman"),
    value: v.union(v.number(), v.null()),
    reading: v.string(),
  }),
  /** Per shared model, its overall check pass rate in each test (null: that test has no checks). */
  checks: v.union(
    v.null(),
    v.object({
      a: v.boolean(),
      b: v.boolean(),
      models: v.array(passRatesValidator),
      /** "All checks", then each check (matched by label): both pass rates and the difference's 95% interval. */
      byCheck: v.array(
        v.object({
          label: v.string(),
          models: v.array(
            passRatesValidator.extend({
              difference: v.union(v.number(), v.null()),
              interval: v.union(intervalValidator, v.null()),
              largerThanChance: v.boolean(),
            }),
          ),
        }),
      ),
    }),
  ),
  differences: v.array(v.string()),
  /** What the bootstrap resampled: persona × topic pairs, or personas (a test without kept jury rows, or a large one). */
  resampled: v.union(v.literal("pair"), v.literal("persona")),
  pairs: v.array(v.object({ persona: v.string(), topic: v.string(), a: pairRefOrNull, b: pairRefOrNull })),
});

async function readableTest(ctx: QueryCtx & { user: Doc<"users"> }, raw: string): Promise<Doc<"tests">> {
  const testId = ctx.db.normalizeId("tests", raw);
  if (!testId) fail("NOT_FOUND", TEST_NOT_FOUND);
  return await countedTestOf(ctx, await requireTest(ctx, ctx.user._id, testId, "read"));
}

async function headerOfTest(ctx: QueryCtx, test: Doc<"tests">) {
  const job = await ctx.db
    .query("jobs")
    .withIndex("by_test", (q) => q.eq("testId", test._id))
    .unique();
  return headerOf(test, job);
}

/** The compare page's figures. Takes the ids from the address as typed (`?a=…&b=…`). */
export const get = userQuery({
  args: { a: v.string(), b: v.string() },
  returns: comparisonValidator,
  handler: async (ctx, args) => {
    const testA = await readableTest(ctx, args.a);
    const testB = await readableTest(ctx, args.b);
    if (testA._id === testB._id) fail("INVALID_INPUT", SAME_TEST);
    const runA = await runScoresOf(ctx, testA);
    const runB = await runScoresOf(ctx, testB);
    const comparison = compareRuns(runA, runB, { seed: `${testA._id}|${testB._id}` });
    const checksA = await checkSummary(ctx, testA);
    const checksB = await checkSummary(ctx, testB);
    const overall = (summary: typeof checksA, modelId: string) =>
      summary?.models.find((model) => model.modelId === modelId)?.overall ?? null;
    return {
      a: await headerOfTest(ctx, testA),
      b: await headerOfTest(ctx, testB),
      verdicts: {
        a: (await summaryRowOf(ctx, testA._id))?.juryVerdict ?? null,
        b: (await summaryRowOf(ctx, testB._id))?.juryVerdict ?? null,
      },
      runs: { a: await runFactsOf(ctx, testA), b: await runFactsOf(ctx, testB) },
      models: comparison.models.map((model) => ({ ...model, a: { ...model.a }, b: { ...model.b } })),
      onlyInA: [...comparison.onlyInA],
      onlyInB: [...comparison.onlyInB],
      rankCorrelation: {
        method: "spearman" as const,
        value: comparison.rankCorrelation,
        reading: stabilityReading(comparison.rankCorrelation),
      },
      checks:
        checksA === null && checksB === null
          ? null
          : {
              a: checksA !== null,
              b: checksB !== null,
              models: comparison.models.map((model) => ({
                modelId: model.modelId,
                modelName: model.modelName,
                a: overall(checksA, model.modelId),
                b: overall(checksB, model.modelId),
              })),
              byCheck: compareCheckRates(checksA, checksB, comparison.models),
            },
      differences: configurationDifferences(testA.configuration, testB.configuration),
      resampled: runA.unit === "pair" && runB.unit === "pair" ? ("pair" as const) : ("persona" as const),
      pairs: matchedPairs(testA.configuration, testB.configuration),
    };
  },
});

async function pairAnswers(
  ctx: QueryCtx,
  test: Doc<"tests">,
  pair: { personaId: string; topicId: string } | undefined,
) {
  if (pair === undefined) return [];
  const names = namesOf(test);
  // Each answer's average from its answerScores row (recordings no longer write the answer's).
  const rows = await withScores(
    ctx,
    await ctx.db
      .query("responses")
      .withIndex("by_test_pair", (q) =>
        q.eq("testId", test._id).eq("personaId", pair.personaId).eq("topicId", pair.topicId),
      )
      .take(MAX_PAIR_ANSWERS),
  );
  // The models in the test's order, each model's answers by repeat, then in the order they arrived.
  const order = new Map(test.configuration.generatorModels.map((model, index) => [model.id, index]));
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (x, y) =>
        (order.get(x.row.modelId) ?? 0) - (order.get(y.row.modelId) ?? 0) ||
        (x.row.repeat ?? 0) - (y.row.repeat ?? 0) ||
        x.index - y.index,
    )
    .map(({ row }) => ({
      ...responseView(row, names),
      ...(row.repeat === undefined ? {} : { repeat: row.repeat }),
    }));
}

/** One persona × topic pair's answers in both tests (a side absent when that test has no such pair). */
export const answers = userQuery({
  args: {
    a: v.id("tests"),
    b: v.id("tests"),
    pairA: v.optional(pairRefValidator),
    pairB: v.optional(pairRefValidator),
  },
  returns: v.object({ a: v.array(pairAnswerValidator), b: v.array(pairAnswerValidator) }),
  handler: async (ctx, args) => {
    const testA = await requireTest(ctx, ctx.user._id, args.a, "read");
    const testB = await requireTest(ctx, ctx.user._id, args.b, "read");
    return { a: await pairAnswers(ctx, testA, args.pairA), b: await pairAnswers(ctx, testB, args.pairB) };
  },
});
