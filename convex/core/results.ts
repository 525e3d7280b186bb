// What the results and shared pages show, built from a test's counters and its modelStats rows
// (models × (personas + 1) at most) so that no query the UI subscribes to reads every response.
import { v } from "convex/values";
import { testFigureFields } from "../lib/metrics";
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { LIMITS } from "../lib/pricing";
import { namesOfResponse, type Names } from "../lib/resultsFigures";

// The figures are pure (lib/resultsFigures.ts: the pages compute them too); the server's callers take them from here.
export { metricsOf, namesOf, namesOfResponse, rankingsOf, type Names } from "../lib/resultsFigures";
import { checkFailure, modelRanking } from "../validators";
import { fail } from "../functions";
import { counterFiguresValidator } from "./pipeline/counterRow";
import { jobFiguresValidator, storedTestHeader, testHeader } from "./tests";

/** Every stats row of one test: one per model for all personas ('') and one per model × persona. */
export const MAX_STATS_ROWS = LIMITS.maxGeneratorModels * (LIMITS.maxPersonas + 1);

export const rankingValidator = modelRanking;

export const metricsValidator = v.object({
  totalResponses: v.number(),
  evaluations: v.number(),
  /** averageResponseTimeMs, completionRate, …: the per-test figures of lib/metrics. */
  ...testFigureFields,
  expectedResponses: v.number(),
  expectedEvaluations: v.number(),
  /** The test's gateway spend in dollars (History's cost) = generation + judging. */
  totalCostUsd: v.number(),
  /** Spend on writing the answers. */
  generationCostUsd: v.number(),
  /** Spend on judge calls (each evaluation shows its share). */
  judgingCostUsd: v.number(),
});

export const modelChartValidator = v.object({
  modelId: v.string(),
  modelName: v.string(),
  responses: v.number(),
  evaluationCount: v.number(),
  /** Null until a judge has scored the model. */
  averageScore: v.union(v.number(), v.null()),
  costUsd: v.number(),
  costPerResponseUsd: v.union(v.number(), v.null()),
  averageLatencyMs: v.union(v.number(), v.null()),
  medianLatencyMs: v.union(v.number(), v.null()),
  p95LatencyMs: v.union(v.number(), v.null()),
  /** The slowest answer's latency (null before the first answer). */
  maxLatencyMs: v.union(v.number(), v.null()),
  /**
   * Median and p95 from every answer's latency. False for tests recorded before those were kept:
   * then they are read from a histogram, within the width of the bucket that holds them.
   */
  latencyExact: v.boolean(),
  /** No other model is both cheaper (or as cheap) and better (or as good). */
  onFrontier: v.boolean(),
});

export const heatmapValidator = v.object({
  personas: v.array(v.object({ id: v.string(), name: v.string() })),
  models: v.array(v.object({ id: v.string(), name: v.string() })),
  cells: v.array(
    v.object({
      personaId: v.string(),
      modelId: v.string(),
      averageScore: v.union(v.number(), v.null()),
      evaluationCount: v.number(),
    }),
  ),
});

export const personaBreakdownValidator = v.array(
  v.object({ personaId: v.string(), personaName: v.string(), rankings: v.array(rankingValidator) }),
);

const latencyFiguresValidator = v.object({
  medianLatencyMs: v.union(v.number(), v.null()),
  p95LatencyMs: v.union(v.number(), v.null()),
  maxLatencyMs: v.union(v.number(), v.null()),
  latencyExact: v.boolean(),
});

/** A stats row as the results page's live half sends it (lib/resultsFigures.ts statsFiguresOf). */
const statsFiguresValidator = v.object({
  modelId: v.string(),
  personaId: v.string(),
  responses: v.number(),
  scoreSum: v.number(),
  scoreCount: v.number(),
  costUsd: v.number(),
  latencyMsSum: v.number(),
  latency: latencyFiguresValidator,
});

/** The results page's test as stored (results.test). */
export const storedResultsValidator = v.object({ test: storedTestHeader, valid: v.boolean() });

/** What changes while the test runs (results.live). */
export const liveResultsValidator = v.object({
  counters: v.union(v.null(), counterFiguresValidator),
  rows: v.array(statsFiguresValidator),
  job: jobFiguresValidator,
  share: v.union(v.null(), v.object({ shareId: v.string(), isActive: v.boolean() })),
});

/** Everything above the results page's lists (results.get, lib/resultsFigures.ts resultsViewOf). */
export const resultsViewValidator = v.object({
  test: testHeader,
  valid: v.boolean(),
  metrics: metricsValidator,
  rankings: v.array(rankingValidator),
  personaBreakdown: personaBreakdownValidator,
  models: v.array(modelChartValidator),
  heatmap: heatmapValidator,
  share: v.union(v.null(), v.object({ shareId: v.string(), isActive: v.boolean() })),
});

/** A test's stats rows: one per model for all personas ('') and one per model × persona. */
export async function statsRowsOf(ctx: QueryCtx, testId: Id<"tests">): Promise<Doc<"modelStats">[]> {
  return await ctx.db
    .query("modelStats")
    .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
    .take(MAX_STATS_ROWS);
}

/**
 * The answers with their score sums from their answerScores rows (one small row each, written
 * by the fold): recordings no longer add to the answer's row, so several judges' calls of one
 * answer write no common row. An answer without one keeps its stored sums (answers recorded
 * before, seeded ones, and those not judged yet).
 */
export async function withScores(ctx: QueryCtx, responses: readonly Doc<"responses">[]): Promise<Doc<"responses">[]> {
  return await Promise.all(
    responses.map(async (response) => {
      const row = await ctx.db
        .query("answerScores")
        .withIndex("by_response", (q) => q.eq("responseId", response._id))
        .unique();
      return row ? { ...response, scoreSum: row.scoreSum, scoreCount: row.scoreCount } : response;
    }),
  );
}

export function responseView(response: Doc<"responses">, names: Names) {
  return {
    _id: response._id,
    _creationTime: response._creationTime,
    modelId: response.modelId,
    ...namesOfResponse(response, names),
    content: response.content,
    tokens: response.tokens,
    latencyMs: response.latencyMs,
    costUsd: response.costUsd,
    averageScore: response.scoreCount > 0 ? response.scoreSum / response.scoreCount : null,
    evaluationCount: response.scoreCount,
    ...(response.checkFailures === undefined ? {} : { checkFailures: response.checkFailures }),
  };
}

export const responseViewValidator = v.object({
  _id: v.id("responses"),
  _creationTime: v.number(),
  modelId: v.string(),
  modelName: v.string(),
  personaName: v.string(),
  topicTitle: v.string(),
  content: v.string(),
  tokens: v.number(),
  latencyMs: v.number(),
  costUsd: v.number(),
  averageScore: v.union(v.number(), v.null()),
  evaluationCount: v.number(),
  /** The checks this answer failed, and why; absent when no check ran on it. */
  checkFailures: v.optional(v.array(checkFailure)),
});

type CallLabels = { label: string; responseId: Id<"responses"> }[];

/**
 * What a ranking call's evaluations share, read back from its judgeExplanations row: rows written
 * since explanations are kept once per call have "" and their call's row; rows written since
 * labels are kept once have only their own label; older rows and rating rows carry their own.
 * Each call's row is read once per reader.
 */
export function judgeCallReader(ctx: QueryCtx) {
  const byCall = new Map<Id<"calls">, Promise<Doc<"judgeExplanations"> | null>>();
  const callRow = (callId: Id<"calls">) => {
    let row = byCall.get(callId);
    if (row === undefined) {
      row = ctx.db
        .query("judgeExplanations")
        .withIndex("by_call", (q) => q.eq("callId", callId))
        .first();
      byCall.set(callId, row);
    }
    return row;
  };
  type Evaluation = Pick<Doc<"evaluations">, "explanation" | "callId" | "rank" | "responseId" | "label" | "labels">;
  return {
    /** The explanation as written by its judge. */
    explanationOf: async (evaluation: Evaluation): Promise<string> => {
      const callId = evaluation.callId;
      if (evaluation.explanation !== "" || callId === undefined || evaluation.rank === undefined)
        return evaluation.explanation;
      return (await callRow(callId))?.explanation ?? "";
    },
    /** A ranking's labels: which label showed which answer in its call, in the order shown (undefined: none). */
    labelsOf: async (evaluation: Evaluation): Promise<CallLabels | undefined> => {
      if (evaluation.labels !== undefined) return evaluation.labels;
      if (evaluation.label === undefined || evaluation.callId === undefined) return undefined;
      return (await callRow(evaluation.callId))?.labels;
    },
    /** The label this evaluation's answer was shown under (undefined: not a ranking's row). */
    labelOf: (evaluation: Evaluation): string | undefined =>
      evaluation.label ?? evaluation.labels?.find((entry) => entry.responseId === evaluation.responseId)?.label,
  };
}

/**
 * Where a page of a test's rows starts: the creation time of its first row, and how many rows of
 * that same creation time come before it (creation times are unique in practice, so `skip` is 0
 * but for a tie). Encoded as the page's cursor.
 */
interface PageStart {
  time: number;
  skip: number;
}

/** Rows that may share one creation time ahead of a page's first row (more is no cursor we made). */
const MAX_CURSOR_SKIP = 1_000;

/** The message of a cursor this query did not make: usePaginatedQuery starts the list again on it. */
export const INVALID_CURSOR = "InvalidCursor: the list changed; it starts again from the top.";

function encodeStart(start: PageStart): string {
  return JSON.stringify([start.time, start.skip]);
}

function decodeStart(cursor: string): PageStart {
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== "number" ||
    !Number.isFinite(parsed[0]) ||
    !Number.isInteger(parsed[1]) ||
    parsed[1] < 0 ||
    parsed[1] > MAX_CURSOR_SKIP
  )
    fail("INVALID_INPUT", INVALID_CURSOR);
  return { time: parsed[0], skip: parsed[1] as number };
}

/** Where the page after `rows[0, end)` starts (`rows` read from `start`, whose first `start.skip` are skipped). */
function startAfter(rows: readonly { _creationTime: number }[], end: number, start: PageStart | null): PageStart {
  const last = rows[end - 1];
  if (last === undefined) return start ?? { time: 0, skip: 0 };
  let skip = 0;
  for (let index = 0; index < end; index++) if (rows[index]!._creationTime === last._creationTime) skip++;
  return { time: last._creationTime, skip };
}

/**
 * One page of a test's answers or judgements in the order they arrived, at most `numItems` rows,
 * read with `take` from the page's start (its cursor) rather than with `.paginate`. A subscribed
 * page then reads what it shows plus the next row, and its read range ends there: answers
 * arriving after it neither grow it nor re-run it. (A `.paginate` page first run while the list
 * was short keeps its end where the list ended then, as on a Convex deployment, and grows to
 * every row that arrives during the test, each re-run reading all of them.) The page is done
 * while no row follows it; when one arrives it re-runs once, ends at its last row and names where
 * the next page starts (`continueCursor`), so "Load more" appears. Exports page through the same.
 * `failedCheckOnly` (answers only) reads the answers that failed a check, the same way.
 */
export async function pageInArrivalOrder<Table extends "responses" | "evaluations">(
  ctx: QueryCtx,
  table: Table,
  testId: Id<"tests">,
  options: { numItems: number; cursor: string | null; failedCheckOnly?: boolean },
): Promise<{ page: Doc<Table>[]; isDone: boolean; continueCursor: string }> {
  const start = options.cursor === null ? null : decodeStart(options.cursor);
  const skip = start?.skip ?? 0;
  const limit = skip + options.numItems + 1;
  // Both tables have the same by_test index on testId; the generic table is typed through one of them.
  const rows: { _creationTime: number }[] = options.failedCheckOnly
    ? await ctx.db
        .query("responses")
        .withIndex("by_test_failed", (q) =>
          start === null
            ? q.eq("testId", testId).eq("failedCheck", true)
            : q.eq("testId", testId).eq("failedCheck", true).gte("_creationTime", start.time),
        )
        .take(limit)
    : await ctx.db
        .query(table as "responses")
        .withIndex("by_test", (q) =>
          start === null ? q.eq("testId", testId) : q.eq("testId", testId).gte("_creationTime", start.time),
        )
        .take(limit);
  const end = Math.min(rows.length, skip + options.numItems);
  return {
    page: rows.slice(skip, end) as unknown as Doc<Table>[],
    isDone: rows.length <= end,
    continueCursor: encodeStart(startAfter(rows, end, start)),
  };
}
