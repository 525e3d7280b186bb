// Checks on every answer, as a run records them: each generation call's answers are checked in
// the mutation that records them (the call's latency and cost at hand), each response keeps its
// failures, and the call's tally goes into a row of its own — inserted once per recording, never
// written by another call — which the run's folds add into the test's checkTotals row
// (core/checkTotals.ts), where the pass-rate figures are read.
import { v } from "convex/values";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { ActionCtx, MutationCtx, QueryCtx } from "../_generated/server";
import { checkFigures, tallyOf, type CheckFigures, type CheckTally } from "../lib/checkFigures";
import { checkAnswers, failedChecksLast } from "../lib/checks";
import { checkLabelsOf, checkTotalsOf } from "./checkTotals";
import { TEST_LIMITS } from "../lib/limits";

/** What a response row stores of its checks. */
export type ResponseCheckFields = Pick<Doc<"responses">, "checkFailures" | "failedCheck">;

/**
 * Checks a generation call's answers (each with its share of the call's cost and the call's
 * latency), stores the call's tally and returns each answer's fields for its response row.
 */
export async function recordAnswerChecks(
  ctx: MutationCtx,
  test: { _id: Id<"tests">; configuration: Pick<Doc<"tests">["configuration"], "checks"> },
  call: Doc<"calls">,
  answers: readonly string[],
  figures: { latencyMs: number; costUsd: number },
): Promise<ResponseCheckFields[]> {
  const checks = test.configuration.checks ?? [];
  if (checks.length === 0 || answers.length === 0) return answers.map(() => ({}));
  const results = checkAnswers(
    checks,
    answers.map((content) => ({
      content,
      topicId: call.topicId,
      latencyMs: figures.latencyMs,
      costUsd: figures.costUsd / answers.length,
    })),
  );
  const tally = tallyOf(call.modelId, call.personaId, results);
  if (tally.answers > 0) {
    await ctx.db.insert("checkTallies", {
      testId: test._id,
      callId: call._id,
      topicId: call.topicId,
      ...tally,
      byCheck: [...tally.byCheck],
    });
  }
  return results.map((result) =>
    result.applied.length === 0 ? {} : { checkFailures: [...result.failures], failedCheck: result.failures.length > 0 },
  );
}

/** Recordings of one test at most: every generation call, and its one retry for missing answers. */
const MAX_TALLIES = TEST_LIMITS.maxCallsPerTest * 2;

/** The test's tallies (at most one per generation call recording, a few hundred bytes each). */
export async function talliesOf(ctx: QueryCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("checkTallies")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(MAX_TALLIES);
}

export const passRateValidator = v.object({
  answers: v.number(),
  passed: v.number(),
  rate: v.union(v.number(), v.null()),
  interval: v.union(v.object({ low: v.number(), high: v.number() }), v.null()),
});

/** The checks section of the results, the monitor and the shared page. */
export const checkSummaryValidator = v.union(
  v.null(),
  v.object({
    rankLast: v.boolean(),
    checks: v.array(v.object({ id: v.string(), label: v.string() })),
    personas: v.array(v.object({ id: v.string(), name: v.string() })),
    models: v.array(
      v.object({
        modelId: v.string(),
        modelName: v.string(),
        overall: passRateValidator,
        byCheck: v.array(v.object({ checkId: v.string(), ...passRateValidator.fields })),
        byPersona: v.array(v.object({ personaId: v.string(), ...passRateValidator.fields })),
      }),
    ),
  }),
);

/** The checks section of a test from its labels and its tallies by model × persona. */
function summaryOf(
  labels: Pick<Doc<"checkTotals">, "rankLast" | "checks" | "personas" | "models">,
  tallies: readonly CheckTally[],
) {
  if (labels.checks.length === 0) return null;
  const figures: CheckFigures = checkFigures(
    tallies,
    labels.checks,
    labels.models.map((model) => model.id),
    labels.personas.map((persona) => persona.id),
  );
  return {
    rankLast: labels.rankLast,
    checks: labels.checks,
    personas: labels.personas,
    models: figures.models.map((model, index) => ({
      ...model,
      modelName: labels.models[index]!.name,
      byCheck: [...model.byCheck],
      byPersona: [...model.byPersona],
    })),
  };
}

/**
 * The test's pass rates with their labels; null when the test has no checks. From the row its
 * run's folds keep (core/checkTotals.ts); a test without one (its run not folded yet, or ended
 * before the row existed) from its configuration: no answer counted yet while it waits for its
 * first fold, else its tallies.
 */
export async function checkSummary(ctx: QueryCtx, test: Doc<"tests">) {
  const totals = await checkTotalsOf(ctx, test._id);
  if (totals !== null) return summaryOf(totals, totals.tallies);
  const labels = checkLabelsOf(test);
  const waiting = test.status === "running" || test.status === "pending";
  return summaryOf(labels, waiting || labels.checks.length === 0 ? [] : await talliesOf(ctx, test._id));
}

/**
 * checkSummary of the test `testId` read from its checkTotals row alone once its run has folded
 * (the checks section subscribed while it runs: it re-runs with the folds, not with the
 * recordings or the test's row).
 */
export async function checkSummaryOfTest(ctx: QueryCtx, testId: Id<"tests">) {
  const totals = await checkTotalsOf(ctx, testId);
  if (totals !== null) return summaryOf(totals, totals.tallies);
  const test = await ctx.db.get("tests", testId);
  return test === null ? null : await checkSummary(ctx, test);
}

/** Answers read per page when the jury statistics ask which ones failed a check. */
export const FAILING_PAGE = 1000;

/**
 * The jury statistics' input with "An answer that fails a check ranks last" applied when the test
 * asks for it (lib/checks.ts failedChecksLast); unchanged otherwise. Reads the failing answers in
 * bounded pages.
 */
export async function withFailedChecksLast<Input extends Parameters<typeof failedChecksLast>[0]>(
  ctx: ActionCtx,
  testId: Id<"tests">,
  input: Input,
): Promise<Input> {
  const failing = new Set<string>();
  let cursor: string | null = null;
  for (;;) {
    const result: { page: string[]; isDone: boolean; continueCursor: string } | null = await ctx.runQuery(
      internal.checks.failingAnswersPage,
      { testId, paginationOpts: { numItems: FAILING_PAGE, cursor } },
    );
    if (result === null) return input;
    for (const id of result.page) failing.add(id);
    if (result.isDone) break;
    cursor = result.continueCursor;
  }
  return failedChecksLast(input, failing);
}
