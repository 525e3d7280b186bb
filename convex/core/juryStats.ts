// The jury statistics of a test (ARCHITECTURE "Jury statistics"), kept in `testStats`.
//
// A burst of judge results must not mean one computation per result, and no subscribed query may
// read all evaluations of a test. One recomputation per test is scheduled or running at a time
// (`pending`). While a test's pool worker reports, the statistics poll (startJuryStatsPoll, from
// ensureWorkers): each poll is one query (pollInfo), and a recomputation runs when the worker's
// count of reports with judge results (testConcurrency.judgedReports, its own row) moved past
// the one the stored figures include (testStats.judgedSeen), so neither the report nor the store
// reads a row the other writes (a conflict on a deployment). Other callers (reviews, tests
// without a worker) use `requestJuryStats`: a request while one is pending marks it `dirty`,
// which makes it run once more at the end.
// The recomputation reads in proportion to what changed: it keeps the compact rows the
// statistics need (each answer's model, pair, length and cost; each judge score; each ranking
// call's answers) in a few `juryStateChunks` documents, and reads only the answers and judge
// scores that arrived since its last run (by creation time, from a cursor kept on the stats row,
// less a margin for transactions that committed late; rows it already holds are skipped). When
// the test ends, one full computation reads the test page by page in bounded internal queries
// and replaces the kept rows, so the figures shown at the end are a full recomputation's (the
// kept rows are sorted the same way either way, so both give identical figures). The team's
// blind reviews (core/reviews.ts) are read and computed in the same run, so a verdict and a
// judge result that arrive together make one recomputation, and later judge results refresh the
// judges' agreement with the team.
import { paginationOptsValidator, type PaginationResult } from "convex/server";
import { v, type Infer } from "convex/values";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { hasEnded } from "../lib/testStatus";
import { internalAction, internalMutation, internalQuery } from "../functions";
import { isReverseRankingKey, shownOrder } from "../lib/prompts";
import { initialsOf } from "../lib/initials";
import { RANKING_SCORE_KEY } from "../lib/scoring";
import { computeJuryStats, type JuryRanking, type JuryRating, type JuryResponse } from "../lib/stats";
import { computeHumanStats, type HumanStats, type HumanVerdict } from "../lib/stats/human";
import { humanStatsValidator, juryStatsValidator, type HumanStatsDoc } from "../validators";
import { juryVerdictOf } from "./juryView";
import { setSummaryVerdict } from "./testSummaries";
import { withFailedChecksLast } from "./checks";

/** Documents one page query reads. */
export const JURY_STATS_PAGE_SIZE = 500;
/** How long results may gather before a recomputation starts. */
export const JURY_STATS_DELAY_MS = 1_000;
/**
 * How far before its cursor an incremental run reads again: a row's creation time is taken when
 * its mutation runs, which commits a little later (a mutation runs at most 1 s of code), so a
 * row created just before the cursor may become visible after a run read past it.
 */
export const JURY_STATS_CURSOR_MARGIN_MS = 3_000;
/** Characters of kept rows per juryStateChunks document. */
export const JURY_STATE_CHUNK_CHARS = 200_000;

async function statsRow(ctx: MutationCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/**
 * How often a running test's statistics look whether its worker reported judge results since
 * their last run (testConcurrency.judgedReports against testStats.judgedSeen, read in a query).
 */
export const JURY_STATS_POLL_MS = 1_000;
/**
 * A running test whose worker has not reported for this long, or that has no worker (its
 * recordings ask for statistics themselves), stops polling; its next worker starts it again.
 */
export const JURY_STATS_POLL_IDLE_MS = 60_000;
/**
 * A running test's statistics are recomputed in proportion to what arrived: once the worker's
 * judged reports since the last run are at least this fraction of those the stored figures
 * include (each run reads all kept rows, and the margin of rows before its cursor, again; run
 * after every report, the 650-call test read its kept rows ~20 times and its judge scores ~4
 * times), or once the stored figures are JURY_STATS_STALE_MS old. The run's end is the exact one.
 */
export const JURY_STATS_GROWTH = 0.5;
/** How old a running test's figures may get while new judge results wait for the growth above. */
export const JURY_STATS_STALE_MS = 20_000;

/** Whether a running test's poll recomputes now (pure; the poll's figures and the time). */
export function pollDue(
  poll: { dirty: boolean; judgedReports: number; judgedSeen: number; computedAt?: number },
  now: number,
): boolean {
  if (poll.dirty) return true;
  const fresh = poll.judgedReports - poll.judgedSeen;
  if (fresh <= 0) return false;
  return (
    fresh >= JURY_STATS_GROWTH * poll.judgedSeen ||
    poll.computedAt === undefined ||
    now - poll.computedAt >= JURY_STATS_STALE_MS
  );
}

/**
 * Asks for the test's jury statistics to be recomputed: schedules it unless a recomputation is
 * already scheduled or running, in which case that one runs again when it ends. (A running
 * test's worker does not ask: its reports count judge results on their own row, which the poll
 * started with the run reads; see startJuryStatsPoll.)
 */
export async function requestJuryStats(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await statsRow(ctx, testId);
  if (row?.pending) {
    if (!row.dirty) await ctx.db.patch("testStats", row._id, { dirty: true });
    return;
  }
  if (row) await ctx.db.patch("testStats", row._id, { pending: true, dirty: true });
  else await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: true });
  await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.core.juryStats.recompute, { testId });
}

/**
 * A running test's worker starts (core/pipeline/claim.ts ensureWorkers): its statistics poll
 * while the run goes on (recompute reschedules itself while the run row says running and the
 * worker reports) and recompute when the worker's reports counted judge results they have not
 * seen, so neither the worker's report nor the statistics' store reads a row the other writes.
 * The poll's last run, after the test ended, is the full one. Nothing when a recomputation is
 * already scheduled (it polls from its end on).
 */
export async function startJuryStatsPoll(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await statsRow(ctx, testId);
  if (row?.pending) return;
  if (row) await ctx.db.patch("testStats", row._id, { pending: true });
  else await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: false });
  await ctx.scheduler.runAfter(JURY_STATS_POLL_MS, internal.core.juryStats.recompute, { testId });
}

/** The test's run row (core/pipeline/runView.ts): whether its run goes on. */
async function runRowOf(ctx: QueryCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testRuns")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/**
 * What the poll needs (small rows, no configuration): whether a recomputation was asked for,
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
    /** When the worker last reported (absent: not yet). */
    reportedAt: v.optional(v.number()),
    /** Before its first report: a worker is scheduled (else none reports: no poll). */
    workerStarting: v.boolean(),
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
      ...(reports ? { reportedAt: reports.updatedAt } : {}),
      // The test's row only before the worker's first report (a query: nothing to conflict with).
      workerStarting: reports === null && ((await ctx.db.get("tests", testId))?.activeWorkers ?? 0) > 0,
    };
  },
});

/** The poll ends (its test's worker stopped reporting), unless a recomputation was asked for meanwhile. */
export const stopPoll = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    const row = await statsRow(ctx, testId);
    if (!row?.pending) return null;
    if (row.dirty) await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.core.juryStats.recompute, { testId });
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

const cursorValidator = v.object({ responses: v.number(), evaluations: v.number() });

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

const stateUpdateValidator = v.object({
  /** "replace": the full run's rows replace the kept ones; "append": new rows after them. */
  mode: v.union(v.literal("replace"), v.literal("append")),
  /** The rows, encoded (encodeJuryState), one string per chunk to write. */
  chunks: v.array(v.string()),
  cursor: cursorValidator,
  /** A full run after the test ended made these rows. */
  exact: v.boolean(),
});

/** Keeps the recomputation's rows: replaces them, or appends to the last chunk while it has room. */
async function keepState(ctx: MutationCtx, testId: Id<"tests">, update: Infer<typeof stateUpdateValidator>) {
  // Replacing deletes every chunk; appending reads only the last.
  const kept = await ctx.db
    .query("juryStateChunks")
    .withIndex("by_test_index", (q) => q.eq("testId", testId))
    .order("desc")
    .take(update.mode === "replace" ? MAX_STATE_CHUNKS : 1);
  let next = 0;
  if (update.mode === "replace") {
    for (const chunk of kept) await ctx.db.delete("juryStateChunks", chunk._id);
  } else {
    const last = kept[0];
    next = last ? last.index + 1 : 0;
    const first = update.chunks[0];
    if (last && first !== undefined && last.data.length + first.length <= JURY_STATE_CHUNK_CHARS) {
      await ctx.db.patch("juryStateChunks", last._id, {
        data: encodeJuryState(mergeJuryStates(decodeJuryState(last.data), decodeJuryState(first))),
      });
      update = { ...update, chunks: update.chunks.slice(1) };
    }
  }
  for (const data of update.chunks) await ctx.db.insert("juryStateChunks", { testId, index: next++, data });
}

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
    // A run that ended before this one's full read: one more, the full one (the poll's last).
    const closed = run === "closed";
    const again = row.dirty || polling || (closed && !(state ? state.exact : row.exact === true));
    if (state) await keepState(ctx, testId, state);
    await ctx.db.patch("testStats", row._id, {
      ...(stats === null ? {} : { stats, computedAt: Date.now(), evaluationsSeen }),
      ...(humans === undefined ? {} : { humans: humans ?? undefined }),
      ...(state ? { cursor: state.cursor, exact: state.exact } : {}),
      ...(judgedSeen === undefined ? {} : { judgedSeen }),
      pending: again,
      dirty: false,
    });
    // History's winner or tie, kept on the test's summary row (testSummaries.verdictOfTest reads
    // it from the statistics), not on the test's row, which the pool worker's claims and reports
    // read. Written once the run has ended (by the full run then): while it runs the worker's
    // report syncs that summary row, and the two would conflict.
    if (stats !== null && !polling) await setSummaryVerdict(ctx, testId, juryVerdictOf(stats));
    const delay = polling && !row.dirty ? JURY_STATS_POLL_MS : JURY_STATS_DELAY_MS;
    if (again) await ctx.scheduler.runAfter(delay, internal.core.juryStats.recompute, { testId });
    return null;
  },
});

/**
 * When a test ends: its kept rows were read incrementally, so one full recomputation makes the
 * figures shown from now on a full recomputation's. Tests without jury statistics are left alone.
 * While its worker reports, the statistics poll: their next run sees the run row closed and is
 * that full one (store runs once more when the run closed under it), so the ending, often in
 * the worker's report, does not read the statistics' row their store writes.
 */
export async function finishJuryStats(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const reports = await ctx.db
    .query("testConcurrency")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
  if (reports && Date.now() - reports.updatedAt <= JURY_STATS_POLL_IDLE_MS / 2) return;
  const row = await statsRow(ctx, testId);
  if (row && row.exact !== true) await requestJuryStats(ctx, testId);
}

/** The compact rows the statistics are computed from (kept between runs in juryStateChunks). */
export interface JuryState {
  responses: (JuryResponse & { t: number; costUsd: number })[];
  evaluations: (JuryEvaluationRow & { id: string; t: number })[];
  calls: JuryJudgeCallRow[];
}

type JuryEvaluationRow = Parameters<typeof juryInput>[3][number];
type JuryJudgeCallRow = Parameters<typeof juryInput>[4][number] & { id: string };

/** Chunks a test keeps at most (a 6,000-judgement test needs a handful). */
const MAX_STATE_CHUNKS = 64;

export const EMPTY_JURY_STATE: JuryState = { responses: [], evaluations: [], calls: [] };

/**
 * The rows as one compact string (version 2): arrays of tuples rather than objects; model ids
 * once (`m`) and answer and call ids once (`s`), each referred to by index wherever a row names
 * it (an answer's own row, the judge scores of it, the ranking calls that showed it); a judge
 * call's consecutive scores in one group (`g`: the call, judge and cost once); and a ranking's
 * single "overall" score as a bare number. An incremental run rereads every kept chunk, so its
 * size is what each run reads: about half the first encoding's (`e`, still read).
 */
export function encodeJuryState(state: JuryState): string {
  const table = () => {
    const values: string[] = [];
    const indexOf = new Map<string, number>();
    const at = (value: string) => {
      let index = indexOf.get(value);
      if (index === undefined) {
        index = values.length;
        values.push(value);
        indexOf.set(value, index);
      }
      return index;
    };
    return { values, at };
  };
  const models = table();
  const ids = table();
  const scoresOf = (scores: Record<string, number>) => {
    const keys = Object.keys(scores);
    return keys.length === 1 && keys[0] === RANKING_SCORE_KEY ? scores[RANKING_SCORE_KEY]! : scores;
  };
  const r = state.responses.map((row) => [
    ids.at(row.id),
    row.t,
    models.at(row.modelId),
    row.personaId,
    row.topicId,
    row.length,
    row.costUsd,
  ]);
  // Consecutive scores of one call by one judge at one cost: [call, judge, cost, rows].
  const g: [number | null, number, number, unknown[][]][] = [];
  let group: (typeof g)[number] | undefined;
  for (const row of state.evaluations) {
    const call = row.callId === undefined ? null : ids.at(row.callId);
    const judge = models.at(row.judgeModelId);
    if (!group || group[0] !== call || group[1] !== judge || group[2] !== row.costUsd) {
      group = [call, judge, row.costUsd, []];
      g.push(group);
    }
    group[3].push([row.id, row.t, ids.at(row.responseId), scoresOf(row.scores), row.rank ?? null]);
  }
  const c = state.calls.map((row) => [
    ids.at(row.id),
    row.key,
    models.at(row.judgeModelId),
    row.personaId,
    row.topicId,
    row.responseIds.map((id) => ids.at(id)),
  ]);
  return JSON.stringify({ v: 2, m: models.values, s: ids.values, r, g, c });
}

type Scores = number | Record<string, number>;
type EncodedState =
  | {
      v?: undefined;
      m: string[];
      r: [string, number, number, string, string, number, number][];
      e: [string, number, string, number, Scores, number | null, number, string | null][];
      c: [string, string, number, string, string, string[]][];
    }
  | {
      v: 2;
      m: string[];
      s: string[];
      r: [number, number, number, string, string, number, number][];
      g: [number | null, number, number, [string, number, number, Scores, number | null][]][];
      c: [number, string, number, string, string, number[]][];
    };

/** The rows of encodeJuryState's string (either version). */
export function decodeJuryState(data: string): JuryState {
  const raw = JSON.parse(data) as EncodedState;
  const model = (index: number) => raw.m[index]!;
  const scoresOf = (scores: Scores) => (typeof scores === "number" ? { [RANKING_SCORE_KEY]: scores } : scores);
  const evaluation = (
    id: string,
    t: number,
    responseId: string,
    judgeModelId: number,
    scores: Scores,
    rank: number | null,
    costUsd: number,
    callId: string | null,
  ) => ({
    id,
    t,
    responseId,
    judgeModelId: model(judgeModelId),
    scores: scoresOf(scores),
    ...(rank === null ? {} : { rank }),
    costUsd,
    ...(callId === null ? {} : { callId }),
  });
  if (raw.v === 2) {
    const id = (index: number) => raw.s[index]!;
    return {
      responses: raw.r.map(([index, t, modelId, personaId, topicId, length, costUsd]) => ({
        id: id(index),
        t,
        modelId: model(modelId),
        personaId,
        topicId,
        length,
        costUsd,
      })),
      evaluations: raw.g.flatMap(([call, judge, costUsd, rows]) =>
        rows.map(([rowId, t, responseId, scores, rank]) =>
          evaluation(rowId, t, id(responseId), judge, scores, rank, costUsd, call === null ? null : id(call)),
        ),
      ),
      calls: raw.c.map(([index, key, judgeModelId, personaId, topicId, responseIds]) => ({
        id: id(index),
        key,
        judgeModelId: model(judgeModelId),
        personaId,
        topicId,
        responseIds: responseIds.map(id),
      })),
    };
  }
  return {
    responses: raw.r.map(([id, t, modelId, personaId, topicId, length, costUsd]) => ({
      id,
      t,
      modelId: model(modelId),
      personaId,
      topicId,
      length,
      costUsd,
    })),
    evaluations: raw.e.map((row) => evaluation(...row)),
    calls: raw.c.map(([id, key, judgeModelId, personaId, topicId, responseIds]) => ({
      id,
      key,
      judgeModelId: model(judgeModelId),
      personaId,
      topicId,
      responseIds,
    })),
  };
}

/** Both sets of rows, each row once (the later copy of a row read twice wins). */
export function mergeJuryStates(kept: JuryState, added: JuryState): JuryState {
  const merge = <T extends { id: string }>(left: readonly T[], right: readonly T[]) => {
    const ids = new Set(right.map((row) => row.id));
    return [...left.filter((row) => !ids.has(row.id)), ...right];
  };
  return {
    responses: merge(kept.responses, added.responses),
    evaluations: merge(kept.evaluations, added.evaluations),
    calls: merge(kept.calls, added.calls),
  };
}

/** The rows in one order whatever the reads' order: creation time, then id (calls by id). */
export function sortedJuryState(state: JuryState): JuryState {
  const byTime = (a: { t: number; id: string }, b: { t: number; id: string }) =>
    a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    responses: [...state.responses].sort(byTime),
    evaluations: [...state.evaluations].sort(byTime),
    calls: [...state.calls].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
}

/** The rows cut into chunks of at most JURY_STATE_CHUNK_CHARS characters each (encoded). */
export function chunkJuryState(state: JuryState): string[] {
  const chunks: string[] = [];
  // Rows of each kind in runs, so a chunk never outgrows its limit by more than one run.
  const RUN = 100;
  let current: JuryState = { responses: [], evaluations: [], calls: [] };
  let size = 0;
  const flush = () => {
    if (size > 0) chunks.push(encodeJuryState(current));
    current = { responses: [], evaluations: [], calls: [] };
    size = 0;
  };
  for (const kind of ["responses", "evaluations", "calls"] as const) {
    const rows = state[kind];
    for (let start = 0; start < rows.length; start += RUN) {
      const run = rows.slice(start, start + RUN);
      const length = JSON.stringify(run).length;
      if (size > 0 && size + length > JURY_STATE_CHUNK_CHARS * 0.9) flush();
      (current[kind] as unknown[]).push(...run);
      size += length;
    }
  }
  flush();
  return chunks;
}

/** Builds computeJuryStats' input from the test's rows (pure; exported for tests). */
export function juryInput(
  testId: string,
  info: { scale: "ranking" | "rating"; models: { id: string; name: string }[]; judges: string[] },
  responses: readonly JuryResponse[],
  evaluations: readonly {
    responseId: string;
    judgeModelId: string;
    scores: Record<string, number>;
    rank?: number;
    costUsd: number;
    callId?: string;
  }[],
  judgeCalls: readonly {
    id?: string;
    key: string;
    judgeModelId: string;
    personaId: string;
    topicId: string;
    responseIds: string[];
  }[],
) {
  const known = new Map(responses.map((response) => [response.id, response]));
  const ratings: JuryRating[] = [];
  const rankings: JuryRanking[] = [];
  if (info.scale === "rating") {
    for (const evaluation of evaluations) {
      ratings.push({
        judgeModelId: evaluation.judgeModelId,
        responseId: evaluation.responseId,
        scores: evaluation.scores,
        costUsd: evaluation.costUsd,
      });
    }
  } else {
    // One group per ranking call: its evaluations, by rank, are its order. Evaluations name their
    // call (both orders of one judge × persona × topic are two calls); older ones are grouped by
    // judge × persona × topic, which had one call.
    const unitKey = (judge: string, personaId: string, topicId: string) => JSON.stringify([judge, personaId, topicId]);
    const groups = new Map<
      string,
      { judgeModelId: string; entries: { responseId: string; rank: number }[]; costUsd: number }
    >();
    for (const evaluation of evaluations) {
      const response = known.get(evaluation.responseId);
      if (!response || evaluation.rank === undefined) continue;
      const key = evaluation.callId ?? unitKey(evaluation.judgeModelId, response.personaId, response.topicId);
      const group = groups.get(key) ?? { judgeModelId: evaluation.judgeModelId, entries: [], costUsd: 0 };
      group.entries.push({ responseId: evaluation.responseId, rank: evaluation.rank });
      group.costUsd += evaluation.costUsd;
      groups.set(key, group);
    }
    // Answers per persona × topic: the scale a ranking that skipped some (own family) is scored on.
    const pairAnswers = new Map<string, number>();
    for (const response of responses) {
      const key = JSON.stringify([response.personaId, response.topicId]);
      pairAnswers.set(key, (pairAnswers.get(key) ?? 0) + 1);
    }
    const callOf = new Map<string, { shown: string[]; order: "forward" | "reverse"; outOf: number }>();
    for (const call of judgeCalls) {
      const entry = {
        // The pipeline shows the call's answers that still exist, in shownOrder of the call's key.
        shown: shownOrder(
          call.responseIds.filter((id) => known.has(id)),
          call.key,
        ),
        order: isReverseRankingKey(call.key) ? ("reverse" as const) : ("forward" as const),
        outOf: pairAnswers.get(JSON.stringify([call.personaId, call.topicId])) ?? 0,
      };
      if (call.id !== undefined) callOf.set(call.id, entry);
      if (entry.order === "forward") callOf.set(unitKey(call.judgeModelId, call.personaId, call.topicId), entry);
    }
    for (const [key, group] of groups) {
      const ranking = group.entries.sort((a, b) => a.rank - b.rank).map((entry) => entry.responseId);
      const call = callOf.get(key);
      rankings.push({
        judgeModelId: group.judgeModelId,
        shown: call?.shown ?? [],
        ranking,
        order: call?.order ?? "forward",
        outOf: Math.max(call?.outOf ?? 0, ranking.length),
        costUsd: group.costUsd,
      });
    }
  }
  return { seed: testId, scale: info.scale, models: info.models, judges: info.judges, responses, rankings, ratings };
}

const runOf = (poll: { run?: "running" | "closed" }) => (poll.run === undefined ? {} : { run: poll.run });

/**
 * Computes the test's jury statistics and stores them: from the kept rows and what arrived since
 * (incremental), or, on the first run and once after the test ended, from the whole test read in
 * bounded pages (full).
 */
export const recompute = internalAction({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    // A running test's poll: nothing asked for, and too few judge results reported since the
    // last run (pollDue), or none.
    const poll = await ctx.runQuery(internal.core.juryStats.pollInfo, { testId });
    if (poll.running && !pollDue(poll, Date.now())) {
      const idle =
        poll.reportedAt === undefined ? !poll.workerStarting : Date.now() - poll.reportedAt > JURY_STATS_POLL_IDLE_MS;
      // Stops only with nothing left to compute (results waiting are computed once stale).
      if (idle && poll.judgedReports === poll.judgedSeen)
        await ctx.runMutation(internal.core.juryStats.stopPoll, { testId });
      else await ctx.scheduler.runAfter(JURY_STATS_POLL_MS, internal.core.juryStats.recompute, { testId });
      return null;
    }
    await ctx.runMutation(internal.core.juryStats.begin, { testId });
    const info = await ctx.runQuery(internal.core.juryStats.testInfo, { testId });
    if (!info) {
      await ctx.runMutation(internal.core.juryStats.store, { testId, stats: null, evaluationsSeen: 0, ...runOf(poll) });
      return null;
    }
    const readAll = async <T>(
      query:
        | typeof internal.core.juryStats.responsesPage
        | typeof internal.core.juryStats.evaluationsPage
        | typeof internal.core.juryStats.judgeCallsPage
        | typeof internal.core.juryStats.verdictsPage,
      after?: number,
      before?: number,
    ): Promise<T[]> => {
      const rows: T[] = [];
      let cursor: string | null = null;
      for (;;) {
        const result = (await ctx.runQuery(query, {
          testId,
          ...(after === undefined ? {} : { after }),
          ...(before === undefined ? {} : { before }),
          paginationOpts: { numItems: JURY_STATS_PAGE_SIZE, cursor },
        })) as PaginationResult<T>;
        rows.push(...result.page);
        if (result.isDone) return rows;
        cursor = result.continueCursor;
      }
    };
    const full = info.cursor === undefined || (info.ended && !info.exact);
    let state: JuryState | null = null;
    let added: JuryState;
    /** An incremental poll's read time: every row created a margin before it was read. */
    let readUpTo: number | undefined;
    if (full) {
      added = {
        responses: await readAll(internal.core.juryStats.responsesPage),
        evaluations: await readAll(internal.core.juryStats.evaluationsPage),
        calls: info.scale === "ranking" ? await readAll(internal.core.juryStats.judgeCallsPage) : [],
      };
    } else {
      state = EMPTY_JURY_STATE;
      for (let index = 0; ; index++) {
        const data = await ctx.runQuery(internal.core.juryStats.stateChunk, { testId, index });
        if (data === null) break;
        state = mergeJuryStates(state, decodeJuryState(data));
      }
      const since = (time: number) => time - JURY_STATS_CURSOR_MARGIN_MS;
      // A running test's poll reads only rows surely committed (created a margin ago) and moves
      // its cursor to now, so its next run starts where this one stopped: each row is read once
      // (reading the margin again each time read every judge score ~3 times). The rows it leaves
      // come with the next run, and the run's end is the full one.
      readUpTo = poll.running ? Date.now() : undefined;
      const before = readUpTo === undefined ? undefined : since(readUpTo);
      const knownResponses = new Set(state.responses.map((row) => row.id));
      const knownEvaluations = new Set(state.evaluations.map((row) => row.id));
      const responses = (
        await readAll<JuryState["responses"][number]>(
          internal.core.juryStats.responsesPage,
          since(info.cursor!.responses),
          before,
        )
      ).filter((row) => !knownResponses.has(row.id));
      const evaluations = (
        await readAll<JuryState["evaluations"][number]>(
          internal.core.juryStats.evaluationsPage,
          since(info.cursor!.evaluations),
          before,
        )
      ).filter((row) => !knownEvaluations.has(row.id));
      // A ranking score names its call: read the calls not kept yet.
      const knownCalls = new Set(state.calls.map((row) => row.id));
      const callIds = [
        ...new Set(
          info.scale === "ranking"
            ? evaluations.flatMap((row) =>
                row.callId !== undefined && !knownCalls.has(row.callId) ? [row.callId] : [],
              )
            : [],
        ),
      ] as Id<"calls">[];
      const calls: JuryJudgeCallRow[] = [];
      // Scores from before they named their call are grouped by judge × pair, which needs the
      // test's calls: read them all (tests recorded before calls were named).
      if (info.scale === "ranking" && evaluations.some((row) => row.callId === undefined))
        calls.push(...(await readAll<JuryJudgeCallRow>(internal.core.juryStats.judgeCallsPage)));
      else
        for (let start = 0; start < callIds.length; start += JURY_STATS_PAGE_SIZE)
          calls.push(
            ...(await ctx.runQuery(internal.core.juryStats.judgeCallsByIds, {
              callIds: callIds.slice(start, start + JURY_STATS_PAGE_SIZE),
            })),
          );
      added = { responses, evaluations, calls };
    }
    const all = sortedJuryState(state ? mergeJuryStates(state, added) : added);
    // "An answer that fails a check ranks last" (core/checks.ts), when the test asks for it.
    const input = await withFailedChecksLast(
      ctx,
      testId,
      juryInput(testId, info, all.responses, all.evaluations, all.calls),
    );
    const stats = computeJuryStats(input);
    const verdicts = await readAll<HumanVerdict>(internal.core.juryStats.verdictsPage);
    const humans =
      verdicts.length === 0
        ? null
        : await withInitials(computeHumanStats({ ...input, verdicts }), (userIds) =>
            ctx.runQuery(internal.core.juryStats.reviewerInitials, { userIds }),
          );
    const latest = (rows: readonly { t: number }[], previous: number) =>
      rows.reduce((time, row) => Math.max(time, row.t), previous);
    await ctx.runMutation(internal.core.juryStats.store, {
      testId,
      stats,
      evaluationsSeen: all.evaluations.length,
      judgedSeen: poll.judgedReports,
      ...runOf(poll),
      humans,
      state: {
        mode: full ? "replace" : "append",
        chunks: chunkJuryState(full ? all : sortedJuryState(added)),
        cursor: {
          responses: latest(added.responses, Math.max(readUpTo ?? 0, info.cursor?.responses ?? 0)),
          evaluations: latest(added.evaluations, Math.max(readUpTo ?? 0, info.cursor?.evaluations ?? 0)),
        },
        exact: full && info.ended,
      },
    });
    return null;
  },
});

/** Reviewers read per initials lookup. */
const INITIALS_BATCH = 100;

/** The team's figures as stored: each reviewer by their initials, read in bounded batches. */
async function withInitials(
  humans: HumanStats,
  initialsOf: (userIds: Id<"users">[]) => Promise<string[]>,
): Promise<HumanStatsDoc> {
  const userIds = humans.reviewers.map((reviewer) => reviewer.reviewerId as Id<"users">);
  const initials: string[] = [];
  for (let start = 0; start < userIds.length; start += INITIALS_BATCH)
    initials.push(...(await initialsOf(userIds.slice(start, start + INITIALS_BATCH))));
  return {
    ...humans,
    reviewers: humans.reviewers.map((reviewer, index) => ({
      userId: userIds[index]!,
      initials: initials[index]!,
      pairs: reviewer.pairs,
    })),
  };
}
