// What a recording needs of its running test (testRuns): written when the run starts and when
// it ends, so recordings never read the test's row, which the progress folds and the jury
// statistics write while the run goes on (on a deployment each such write would conflict with
// every recording in flight).
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { countedTest } from "./counterRow";
import { foldsEveryCall } from "./runCounters";

/** The part of a test's configuration its recordings use. */
export type RunConfiguration = Doc<"testRuns">["configuration"];

/** A test as its recordings see it. */
export interface RunView {
  test: { _id: Id<"tests">; configuration: RunConfiguration };
  running: boolean;
  foldEveryCall: boolean;
  /** Its recordings mark generation calls awaiting their pair's judge calls (false: a run opened before they did). */
  marksAwaitingJudges: boolean;
}

async function runRowOf(ctx: MutationCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testRuns")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/** The part of a test's configuration its work items are built from (testWork). */
export type WorkConfiguration = Doc<"testWork">["configuration"];

async function workRowOf(ctx: MutationCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testWork")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

function workConfigurationOf(test: Doc<"tests">): WorkConfiguration {
  const {
    userPrompt,
    personas,
    topics,
    responsesPerTopic,
    rankingPrompt,
    evaluationCriteria,
    scoringParameters,
    stopWhenSettled,
  } = test.configuration;
  return {
    userPrompt,
    personas,
    topics,
    responsesPerTopic,
    rankingPrompt,
    evaluationCriteria,
    scoringParameters,
    ...(stopWhenSettled === undefined ? {} : { stopWhenSettled }),
  };
}

/** The run starts (or starts again): its recordings read this from now on. */
export async function openRun(ctx: MutationCtx, test: Doc<"tests">): Promise<void> {
  const work = await workRowOf(ctx, test._id);
  if (work) await ctx.db.patch("testWork", work._id, { configuration: workConfigurationOf(test) });
  else await ctx.db.insert("testWork", { testId: test._id, configuration: workConfigurationOf(test) });
  const { responsesPerTopic, scoringParameters, evaluatorModels, checks } = test.configuration;
  const fields = {
    running: true,
    foldEveryCall: foldsEveryCall(test),
    marksAwaitingJudges: true,
    configuration: { responsesPerTopic, scoringParameters, evaluatorModels, ...(checks ? { checks } : {}) },
  };
  const row = await runRowOf(ctx, test._id);
  if (row) await ctx.db.patch("testRuns", row._id, fields);
  else await ctx.db.insert("testRuns", { testId: test._id, ...fields });
}

/** The run has ended (finished, stopped, cancelled): later results are thrown away. */
export async function closeRun(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await runRowOf(ctx, testId);
  if (row?.running) await ctx.db.patch("testRuns", row._id, { running: false });
}

/** Deletes a test's run row (with the test). */
export async function deleteRun(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await runRowOf(ctx, testId);
  if (row) await ctx.db.delete("testRuns", row._id);
  const work = await workRowOf(ctx, testId);
  if (work) await ctx.db.delete("testWork", work._id);
}

/**
 * The test as the pool worker's claims see it: whether its run goes on and what its work items
 * are built from — its run and work rows (small, written at the start and the end), or (a run
 * started before them) the test's row.
 */
export async function workViewOf(
  ctx: MutationCtx,
  testId: Id<"tests">,
): Promise<{ running: boolean; configuration: WorkConfiguration } | null> {
  const [run, work] = [await runRowOf(ctx, testId), await workRowOf(ctx, testId)];
  if (run && work) return { running: run.running, configuration: work.configuration };
  const test = await ctx.db.get("tests", testId);
  if (!test) return null;
  return { running: test.status === "running", configuration: workConfigurationOf(test) };
}

/**
 * The test as its recordings see it: its run row, or (a run started before run rows, or one
 * started without one) the test's row itself.
 */
export async function runViewOf(ctx: MutationCtx, testId: Id<"tests">): Promise<RunView | null> {
  const row = await runRowOf(ctx, testId);
  if (row)
    return {
      test: { _id: testId, configuration: row.configuration },
      running: row.running,
      foldEveryCall: row.foldEveryCall,
      marksAwaitingJudges: row.marksAwaitingJudges === true,
    };
  const test = await countedTest(ctx, testId);
  if (!test) return null;
  return { test, running: test.status === "running", foldEveryCall: foldsEveryCall(test), marksAwaitingJudges: false };
}
