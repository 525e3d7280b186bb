// One recomputation of a test's jury statistics (registered as juryStats.ts recompute):
// from the kept rows and what arrived since, or from the whole test read in bounded pages.
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { ActionCtx } from "../../_generated/server";
import type { PaginationResult } from "convex/server";
import { computeJuryStats } from "../../lib/stats";
import { computeHumanStats, type HumanStats, type HumanVerdict } from "../../lib/stats/human";
import type { HumanStatsDoc } from "../../tables/juryStats";
import { withFailedChecksLast } from "../checks";
import { settleCheck } from "../settle";
import { keepJuryAdvice } from "../juryAdvice";
import {
  chunkJuryState,
  decodeJuryState,
  EMPTY_JURY_STATE,
  juryInput,
  mergeJuryStates,
  sortedJuryState,
  type JuryJudgeCallRow,
  type JuryState,
} from "./state";

/** Documents one page query reads. */
export const JURY_STATS_PAGE_SIZE = 500;
/**
 * How far before its cursor an incremental run reads again: a row's creation time is taken when
 * its mutation runs, which commits a little later (a mutation runs at most 1 s of code), so a
 * row created just before the cursor may become visible after a run read past it.
 */
export const JURY_STATS_CURSOR_MARGIN_MS = 3_000;
const runOf = (poll: { run?: "running" | "closed" }) => (poll.run === undefined ? {} : { run: poll.run });

/** A look from the running test's worker (core/pipeline/workerLook.ts), which took the statistics' turn. */
export interface WorkerLook {
  /** Every answer and judge score created before this (worker's clock) is committed. */
  committedBefore: number;
}

/**
 * Computes the test's jury statistics and stores them: from the kept rows and what arrived since
 * (incremental), or, on the first run and once after the test ended, from the whole test read in
 * bounded pages (full). Scheduled (a request, the end) or from the worker's look (`look`).
 */
export async function recomputeJuryStats(ctx: ActionCtx, testId: Id<"tests">, look?: WorkerLook): Promise<void> {
  const poll = await ctx.runQuery(internal.juryStats.pollInfo, { testId });
  // A scheduled run nobody asked for while the test runs (its worker looks): the turn is given up.
  if (look === undefined && poll.running && !poll.dirty) {
    await ctx.runMutation(internal.juryStats.stopPoll, { testId });
    return;
  }
  await ctx.runMutation(internal.juryStats.begin, { testId });
  const info = await ctx.runQuery(internal.juryStats.testInfo, { testId });
  if (!info) {
    await ctx.runMutation(internal.juryStats.store, { testId, stats: null, evaluationsSeen: 0, ...runOf(poll) });
    return;
  }
  const readAll = async <T>(
    query:
      | typeof internal.juryStats.responsesPage
      | typeof internal.juryStats.evaluationsPage
      | typeof internal.juryStats.judgeCallsPage
      | typeof internal.juryStats.verdictsPage,
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
      responses: await readAll(internal.juryStats.responsesPage),
      evaluations: await readAll(internal.juryStats.evaluationsPage),
      calls: info.scale === "ranking" ? await readAll(internal.juryStats.judgeCallsPage) : [],
    };
  } else {
    state = EMPTY_JURY_STATE;
    for (let index = 0; ; index++) {
      const data = await ctx.runQuery(internal.juryStats.stateChunk, { testId, index });
      if (data === null) break;
      state = mergeJuryStates(state, decodeJuryState(data));
    }
    const since = (time: number) => time - JURY_STATS_CURSOR_MARGIN_MS;
    // A running test's poll reads only rows surely committed (created a margin ago) and moves
    // its cursor to now, so its next run starts where this one stopped: each row is read once
    // (reading the margin again each time read every judge score ~3 times). The rows it leaves
    // come with the next run, and the run's end is the full one.
    // The worker's look knows when its recordings committed: it reads up to then, not a margin
    // ago, and its next run from a millisecond before (a row created at that very time is read
    // by one of the two; one read twice is skipped as known).
    readUpTo = !poll.running
      ? undefined
      : look === undefined
        ? Date.now()
        : look.committedBefore - 1 + JURY_STATS_CURSOR_MARGIN_MS;
    const before = readUpTo === undefined ? undefined : (look?.committedBefore ?? since(readUpTo));
    const knownResponses = new Set(state.responses.map((row) => row.id));
    const knownEvaluations = new Set(state.evaluations.map((row) => row.id));
    const responses = (
      await readAll<JuryState["responses"][number]>(
        internal.juryStats.responsesPage,
        since(info.cursor!.responses),
        before,
      )
    ).filter((row) => !knownResponses.has(row.id));
    const evaluations = (
      await readAll<JuryState["evaluations"][number]>(
        internal.juryStats.evaluationsPage,
        since(info.cursor!.evaluations),
        before,
      )
    ).filter((row) => !knownEvaluations.has(row.id));
    // A ranking score names its call: read the calls not kept yet.
    const knownCalls = new Set(state.calls.map((row) => row.id));
    const callIds = [
      ...new Set(
        info.scale === "ranking"
          ? evaluations.flatMap((row) => (row.callId !== undefined && !knownCalls.has(row.callId) ? [row.callId] : []))
          : [],
      ),
    ] as Id<"calls">[];
    const calls: JuryJudgeCallRow[] = [];
    // Scores from before they named their call are grouped by judge × pair, which needs the
    // test's calls: read them all (tests recorded before calls were named).
    if (info.scale === "ranking" && evaluations.some((row) => row.callId === undefined))
      calls.push(...(await readAll<JuryJudgeCallRow>(internal.juryStats.judgeCallsPage)));
    else
      for (let start = 0; start < callIds.length; start += JURY_STATS_PAGE_SIZE)
        calls.push(
          ...(await ctx.runQuery(internal.juryStats.judgeCallsByIds, {
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
  const verdicts = await readAll<HumanVerdict>(internal.juryStats.verdictsPage);
  const humans =
    verdicts.length === 0
      ? null
      : await withInitials(computeHumanStats({ ...input, verdicts }), (userIds) =>
          ctx.runQuery(internal.juryStats.reviewerInitials, { userIds }),
        );
  const latest = (rows: readonly { t: number }[], previous: number) =>
    rows.reduce((time, row) => Math.max(time, row.t), previous);
  await ctx.runMutation(internal.juryStats.store, {
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
  // "Stop when settled": one look per statistics run (core/settle.ts).
  await settleCheck(ctx, testId, input);
  // The jury advice comes from the full run after the end (its exact figures), once per ending.
  if (full && info.ended) await keepJuryAdvice(ctx, testId, input);
}

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
