// The jury statistics of a test, kept in `testStats` (docs/pipeline.md, "Finish and the jury
// statistics"). Its registered functions are here; core/jury/ holds what they call.
//
// A burst of judge results must not mean one computation per result, and no subscribed query may
// read all evaluations of a test. One recomputation per test is scheduled or running at a time
// (`pending`). While a test's pool worker reports, it looks after its reports, in its own action
// (core/pipeline/workerLook.ts, no scheduled job): one query (pollInfo), and a recomputation when
// its count of reports with judge results (testConcurrency.judgedReports, its own row) moved past
// the one the stored figures include (testStats.judgedSeen), so the report never reads a row the
// store writes. Other callers (reviews, tests without a worker, an end outside the pipeline) use `requestJuryStats`:
// a request while one is pending marks it `dirty`, which makes it run once more at the end.
// The recomputation reads in proportion to what changed: it keeps the compact rows the
// statistics need (each answer's model, pair, length and cost; each judge score; each ranking
// call's answers) in a few `juryStateChunks` documents, and reads only the answers and judge
// scores that arrived since its last run (by creation time, from a cursor kept on the stats row,
// less a margin for transactions that committed late; rows it already holds are skipped). When
// the test ends, one full computation (run by the worker that finished it, else scheduled:
// core/jury/finalRun.ts) reads the test page by page in bounded internal queries
// and replaces the kept rows, so the figures shown at the end are a full recomputation's (the
// kept rows are sorted the same way either way, so both give identical figures). The team's
// blind reviews (core/reviews.ts) are read and computed in the same run, so a verdict and a
// judge result that arrive together make one recomputation, and later judge results refresh the
// judges' agreement with the team.
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { hasEnded } from "./lib/testStatus";
import { internalAction, internalMutation, internalQuery } from "./functions";
import { initialsOf } from "./lib/initials";
import { humanStatsValidator, juryStatsValidator } from "./tables/juryStats";
import { juryVerdictOf } from "./core/juryView";
import { setSummaryVerdict } from "./core/testSummaries";
import { beginWorkerLook, JURY_STATS_DELAY_MS, statsRow } from "./core/jury/poll";
import { JURY_STATS_PAGE_SIZE, recomputeJuryStats } from "./core/jury/recompute";
import { cursorValidator, keepState, stateUpdateValidator } from "./core/jury/keep";
import { handOutOwedJuryStats } from "./core/jury/finalRun";

/** The test's run row (core/pipeline/runView.ts): whether its run goes on. */
async function runRowOf(ctx: QueryCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testRuns")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/**
 * What the worker's look needs (small rows, no configuration): whether a recomputation was asked for,
 * whether the run goes on, and the worker's judged reports against those the statistics include.
 */
export const pollInfo = internalQuery({
  args: { testId: v.id("tests") },
  returns: v.object({
    dirty: v.boolean(),
    running: v.boolean(),
    judgedReports: v.number(),
    judgedSeen: v.number(),
    /** When the stored figures were computed (absent: none yet). */
    computedAt: v.optional(v.number()),
    /** The run row's state (absent: the test has none). */
    run: v.optional(v.union(v.literal("running"), v.literal("closed"))),
  }),
  handler: async (ctx, { testId }) => {
    const row = await ctx.db
      .query("testStats")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    const run = await runRowOf(ctx, testId);
    const reports = await ctx.db
      .query("testConcurrency")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    return {
      dirty: row?.dirty ?? true,
      running: run?.running ?? false,
      ...(run ? { run: run.running ? ("running" as const) : ("closed" as const) } : {}),
      judgedReports: reports?.judgedReports ?? 0,
      judgedSeen: row?.judgedSeen ?? 0,
      ...(row?.computedAt === undefined ? {} : { computedAt: row.computedAt }),
    };
  },
});

/**
 * The running test's worker takes the statistics' turn for its look (core/pipeline/workerLook.ts):
 * false when a recomputation is already scheduled or running.
 */
export const beginLook = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.boolean(),
  handler: async (ctx, { testId }) => await beginWorkerLook(ctx, testId),
});

/** A turn ends without storing (nothing due, or the worker's look failed), unless a recomputation was asked for meanwhile. */
export const stopPoll = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    const row = await statsRow(ctx, testId);
    if (!row?.pending) return null;
    if (row.dirty) await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.juryStats.recompute, { testId });
    else await ctx.db.patch("testStats", row._id, { pending: false });
    return null;
  },
});

/** The recomputation starts reading: results after this point need another run. */
export const begin = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    const row = await statsRow(ctx, testId);
    if (row?.dirty) await ctx.db.patch("testStats", row._id, { dirty: false });
    return null;
  },
});

const testInfoValidator = v.union(
  v.null(),
  v.object({
    scale: v.union(v.literal("ranking"), v.literal("rating")),
    models: v.array(v.object({ id: v.string(), name: v.string() })),
    judges: v.array(v.string()),
    /** The test has ended: the next run is the full one, unless it was done (exact). */
    ended: v.boolean(),
    /** Where the kept rows end (absent: none kept yet), and whether a full run made them after the end. */
    cursor: v.optional(cursorValidator),
    exact: v.boolean(),
  }),
);

export const testInfo = internalQuery({
  args: { testId: v.id("tests") },
  returns: testInfoValidator,
  handler: async (ctx, { testId }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test) return null;
    const row = await ctx.db
      .query("testStats")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    return {
      scale: test.configuration.scoringParameters.scale,
      models: test.configuration.generatorModels.map(({ id, name }) => ({ id, name })),
      judges: test.configuration.evaluatorModels.map((model) => model.id),
      ended: hasEnded(test.status),
      ...(row?.cursor ? { cursor: row.cursor } : {}),
      exact: row?.exact === true,
    };
  },
});

const page = <T extends ReturnType<typeof v.object>>(row: T) =>
  v.object({ page: v.array(row), isDone: v.boolean(), continueCursor: v.string() });

const responseRow = v.object({
  id: v.string(),
  /** Creation time: the kept rows' order and the incremental cursor. */
  t: v.number(),
  modelId: v.string(),
  personaId: v.string(),
  topicId: v.string(),
  length: v.number(),
  costUsd: v.number(),
  /** The repeat of its cell (lib/repeats.ts), when the test repeats cells. */
  repeat: v.optional(v.number()),
});

/** The test's answers, or those created after `after` (an incremental run). */
export const responsesPage = internalQuery({
  args: {
    testId: v.id("tests"),
    after: v.optional(v.number()),
    /** Only rows created before this (a running test's poll: rows surely committed). */
    before: v.optional(v.number()),
    paginationOpts: paginationOptsValidator,
  },
  returns: page(responseRow),
  handler: async (ctx, { testId, after, before, paginationOpts }) => {
    const result = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => {
        const from = after === undefined ? q.eq("testId", testId) : q.eq("testId", testId).gt("_creationTime", after);
        return before === undefined ? from : from.lt("_creationTime", before);
      })
      .paginate({ ...paginationOpts, numItems: Math.min(paginationOpts.numItems, JURY_STATS_PAGE_SIZE) });
    return {
      page: result.page.map((response) => ({
        id: response._id,
        t: response._creationTime,
        modelId: response.modelId,
        personaId: response.personaId,
        topicId: response.topicId,
        length: response.content.length,
        costUsd: response.costUsd,
        ...(response.repeat === undefined ? {} : { repeat: response.repeat }),
      })),
      isDone: result.isDone,
      continueCursor: result.continueCursor,
    };
  },
});

const evaluationRow = v.object({
  id: v.string(),
  t: v.number(),
  responseId: v.string(),
  judgeModelId: v.string(),
  scores: v.record(v.string(), v.number()),
  rank: v.optional(v.number()),
  costUsd: v.number(),
  callId: v.optional(v.string()),
});

/** The test's judge scores, or those created after `after` (an incremental run). */
export const evaluationsPage = internalQuery({
  args: {
    testId: v.id("tests"),
    after: v.optional(v.number()),
    /** Only rows created before this (a running test's poll: rows surely committed). */
    before: v.optional(v.number()),
    paginationOpts: paginationOptsValidator,
  },
  returns: page(evaluationRow),
  handler: async (ctx, { testId, after, before, paginationOpts }) => {
    const result = await ctx.db
      .query("evaluations")
      .withIndex("by_test", (q) => {
        const from = after === undefined ? q.eq("testId", testId) : q.eq("testId", testId).gt("_creationTime", after);
        return before === undefined ? from : from.lt("_creationTime", before);
      })
      .paginate({ ...paginationOpts, numItems: Math.min(paginationOpts.numItems, JURY_STATS_PAGE_SIZE) });
    return {
      page: result.page.map((evaluation) => ({
        id: evaluation._id,
        t: evaluation._creationTime,
        responseId: evaluation.responseId,
        judgeModelId: evaluation.evaluatorModelId,
        scores: evaluation.scores,
        ...(evaluation.rank === undefined ? {} : { rank: evaluation.rank }),
        costUsd: evaluation.costUsd,
        ...(evaluation.callId === undefined ? {} : { callId: evaluation.callId }),
      })),
      isDone: result.isDone,
      continueCursor: result.continueCursor,
    };
  },
});

const judgeCallRow = v.object({
  id: v.string(),
  key: v.string(),
  judgeModelId: v.string(),
  personaId: v.string(),
  topicId: v.string(),
  responseIds: v.array(v.string()),
});

/** The test's judge calls: which answers each ranking call showed (the order is derived from its key). */
export const judgeCallsPage = internalQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: page(judgeCallRow),
  handler: async (ctx, { testId, paginationOpts }) => {
    const result = await ctx.db
      .query("calls")
      .withIndex("by_test_pair", (q) => q.eq("testId", testId).eq("kind", "evaluate"))
      .paginate({ ...paginationOpts, numItems: Math.min(paginationOpts.numItems, JURY_STATS_PAGE_SIZE) });
    return { page: result.page.map(judgeCallOf), isDone: result.isDone, continueCursor: result.continueCursor };
  },
});

function judgeCallOf(call: Doc<"calls">) {
  return {
    id: call._id,
    key: call.key,
    judgeModelId: call.modelId,
    personaId: call.personaId,
    topicId: call.topicId,
    responseIds: call.responseIds ?? [],
  };
}

/** The ranking calls that new judge scores name (an incremental run reads only those). */
export const judgeCallsByIds = internalQuery({
  args: { callIds: v.array(v.id("calls")) },
  returns: v.array(judgeCallRow),
  handler: async (ctx, { callIds }) => {
    if (callIds.length > JURY_STATS_PAGE_SIZE) throw new Error("Too many calls in one read.");
    const calls = await Promise.all(callIds.map((callId) => ctx.db.get("calls", callId)));
    return calls.flatMap((call) => (call ? [judgeCallOf(call)] : []));
  },
});

/** One of the test's kept-rows documents (null past the last). */
export const stateChunk = internalQuery({
  args: { testId: v.id("tests"), index: v.number() },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, { testId, index }) => {
    const chunk = await ctx.db
      .query("juryStateChunks")
      .withIndex("by_test_index", (q) => q.eq("testId", testId).eq("index", index))
      .unique();
    return chunk?.data ?? null;
  },
});

const verdictRow = v.object({
  reviewerId: v.string(),
  personaId: v.string(),
  topicId: v.string(),
  ranking: v.optional(v.array(v.string())),
  scores: v.optional(v.array(v.object({ responseId: v.string(), scores: v.record(v.string(), v.number()) }))),
});

/** The team's blind verdicts on the test (humanJudgements). */
export const verdictsPage = internalQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: page(verdictRow),
  handler: async (ctx, { testId, paginationOpts }) => {
    const result = await ctx.db
      .query("humanJudgements")
      .withIndex("by_test_user", (q) => q.eq("testId", testId))
      .paginate({ ...paginationOpts, numItems: Math.min(paginationOpts.numItems, JURY_STATS_PAGE_SIZE) });
    return {
      page: result.page.map((row) => ({
        reviewerId: row.userId,
        personaId: row.personaId,
        topicId: row.topicId,
        ...(row.ranking === undefined ? {} : { ranking: row.ranking }),
        ...(row.scores === undefined ? {} : { scores: row.scores }),
      })),
      isDone: result.isDone,
      continueCursor: result.continueCursor,
    };
  },
});

/** Reviewers as teammates see them: initials only ("?" for an account that is gone). */
export const reviewerInitials = internalQuery({
  args: { userIds: v.array(v.id("users")) },
  returns: v.array(v.string()),
  handler: async (ctx, { userIds }) => {
    const users = await Promise.all(userIds.map((userId) => ctx.db.get("users", userId)));
    return users.map((user) => (user ? initialsOf(user) : "?"));
  },
});

export const store = internalMutation({
  args: {
    testId: v.id("tests"),
    stats: v.union(juryStatsValidator, v.null()),
    evaluationsSeen: v.number(),
    /** The team's figures; null when the test has no verdict (left as stored when absent). */
    humans: v.optional(v.union(humanStatsValidator, v.null())),
    /** The rows this run kept (absent: none). */
    state: v.optional(stateUpdateValidator),
    /** The worker's judged reports this run read before its results (pollInfo). */
    judgedSeen: v.optional(v.number()),
    /** The run as this run read it before its results (pollInfo; absent: the test has no run row). */
    run: v.optional(v.union(v.literal("running"), v.literal("closed"))),
  },
  returns: v.null(),
  handler: async (ctx, { testId, stats, evaluationsSeen, humans, state, judgedSeen, run }) => {
    const row = await statsRow(ctx, testId);
    if (!row) return null;
    // Reads neither the test's row, which the worker's report folds into while the run goes
    // on, nor the run row, which the ending writes: the run as the recomputation read it. A run
    // that closes after that read is seen by the next poll. (No test left: its row goes.)
    if (stats === null && state === undefined && !(await ctx.db.get("tests", testId))) {
      await ctx.db.delete("testStats", row._id);
      return null;
    }
    const polling = run === "running";
    // A run that ended before this one's full read: one more, the full one.
    const closed = run === "closed";
    // Asked for meanwhile, or the run closed under it. A running test's next run is its worker's
    // look (core/pipeline/workerLook.ts): nothing is scheduled for it.
    const again = row.dirty || (closed && !(state ? state.exact : row.exact === true));
    if (state) await keepState(ctx, testId, state);
    await ctx.db.patch("testStats", row._id, {
      ...(stats === null ? {} : { stats, computedAt: Date.now(), evaluationsSeen }),
      ...(humans === undefined ? {} : { humans: humans ?? undefined }),
      ...(state ? { cursor: state.cursor, exact: state.exact } : {}),
      ...(judgedSeen === undefined ? {} : { judgedSeen }),
      // The ended test's full run is done: nothing owed (core/jury/finalRun.ts).
      ...(state?.exact ? { finalDueAt: undefined } : {}),
      pending: again,
      dirty: false,
    });
    // History's winner or tie, kept on the test's summary row (testSummaries.verdictOfTest reads
    // it from the statistics), not on the test's row, which the pool worker's claims and reports
    // read. Written once the run has ended (by the full run then): while it runs the worker's
    // report syncs that summary row, and the two would conflict.
    if (stats !== null && !polling) await setSummaryVerdict(ctx, testId, juryVerdictOf(stats));
    if (again) await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.juryStats.recompute, { testId });
    return null;
  },
});

/** The cron: ended tests' full runs whose runner died are handed out again (core/jury/finalRun.ts). */
export const handOutOwed = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await handOutOwedJuryStats(ctx, Date.now()),
});

/** Computes the test's jury statistics and stores them (core/jury/recompute.ts). */
export const recompute = internalAction({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    await recomputeJuryStats(ctx, testId);
    return null;
  },
});
