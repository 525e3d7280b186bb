// The owner's results page (spec part 2 §2): one query for everything above the lists, which
// reads the test, its job, its share and its modelStats rows; the responses and evaluations come
// a page at a time. Exports page through the same rows with larger pages.
import {
  paginationOptsValidator,
  paginationResultValidator,
  type PaginationOptions,
  type PaginationResult,
} from "convex/server";
import { v, type Infer } from "convex/values";
import { fail, userQuery } from "./functions";
import {
  judgeCallReader,
  liveResultsValidator,
  pageInArrivalOrder,
  resultsViewValidator,
  responseView,
  responseViewValidator,
  statsRowsOf,
  storedResultsValidator,
  withScores,
} from "./core/results";
import { counterFiguresOf, counterRowOf } from "./core/pipeline/counterRow";
import { requireTest, requireTestAccess, requireTestNames } from "./core/testAccess";
import { nameMapsOf } from "./lib/testNames";
import { jobFiguresOf, storedHeaderOf } from "./core/tests";
import { isValidTest, resultsViewOf, statsFiguresOf } from "./lib/resultsFigures";
import { checkFailure } from "./validators";
import type { Doc, Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { preview } from "./lib/text";
import { juryViewOfNames, juryViewValidator } from "./core/juryView";

/** Largest page a client may ask for; the UI asks for 20 responses and 10 evaluations. */
const MAX_PAGE = 100;
/** Largest export page: whole answers are long, so a few hundred stay well inside read limits. */
const MAX_EXPORT_RESPONSES_PAGE = 500;
const MAX_EXPORT_EVALUATIONS_PAGE = 1000;

function clampPage(options: PaginationOptions, max: number) {
  return { numItems: Math.max(1, Math.min(max, Math.floor(options.numItems))), cursor: options.cursor };
}

/**
 * One page of the test's responses or evaluations in the order they arrived, at most `max` rows,
 * bounded to what it shows (core/results.ts pageInArrivalOrder): a live page subscribed while
 * the test runs does not grow with it.
 */
function pageByTest<Table extends "responses" | "evaluations">(
  ctx: QueryCtx,
  table: Table,
  testId: Id<"tests">,
  paginationOpts: PaginationOptions,
  max: number,
): Promise<PaginationResult<Doc<Table>>> {
  return pageInArrivalOrder(ctx, table, testId, clampPage(paginationOpts, max));
}

/**
 * The page's header, metrics, rankings and chart data in one call (the test as stored, then what
 * its folds write). The page subscribes the two halves apart (`test`, `live`) and adds them up with
 * the same code (lib/resultsFigures.ts resultsViewOf). Takes the id from the address as typed.
 */
export const get = userQuery({
  args: { testId: v.string() },
  returns: resultsViewValidator,
  handler: async (ctx, args) => {
    const testId = normalizedTestId(ctx, args.testId);
    const stored = storedResultsOf(await requireTest(ctx, ctx.user._id, testId, "read"));
    return resultsViewOf(stored, await liveResultsOf(ctx, testId));
  },
});

/**
 * The results page's test as stored: its configuration, names, status and counters as of its
 * row. No fold writes the row (the counters go to the counter row), so this query re-runs with
 * the test's status and rarely else; `live` carries what changes while it runs.
 */
export const test = userQuery({
  args: { testId: v.string() },
  returns: storedResultsValidator,
  handler: async (ctx, args) => {
    const testId = normalizedTestId(ctx, args.testId);
    return storedResultsOf(await requireTest(ctx, ctx.user._id, testId, "read"));
  },
});

/**
 * What changes while the test runs: its counter row, its stats rows, its job and its share. Access
 * is checked on the test's small access row: re-running with every fold, this query reads no
 * configuration.
 */
export const live = userQuery({
  args: { testId: v.string() },
  returns: liveResultsValidator,
  handler: async (ctx, args) => {
    const testId = normalizedTestId(ctx, args.testId);
    await requireTestAccess(ctx, ctx.user._id, testId, "read");
    return await liveResultsOf(ctx, testId);
  },
});

function normalizedTestId(ctx: QueryCtx, testId: string): Id<"tests"> {
  const id = ctx.db.normalizeId("tests", testId);
  if (!id) fail("NOT_FOUND", "Test not found.");
  return id;
}

function storedResultsOf(test: Doc<"tests">): Infer<typeof storedResultsValidator> {
  return { test: storedHeaderOf(test), valid: isValidTest(test) };
}

async function liveResultsOf(ctx: QueryCtx, testId: Id<"tests">): Promise<Infer<typeof liveResultsValidator>> {
  const counters = await counterRowOf(ctx, testId);
  const job = await ctx.db
    .query("jobs")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
  const share = await ctx.db
    .query("shares")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .first(); // shares.ts keeps one row per test
  return {
    counters: counters === null ? null : counterFiguresOf(counters),
    rows: (await statsRowsOf(ctx, testId)).map(statsFiguresOf),
    job: jobFiguresOf(job),
    share: share ? { shareId: share.shareId, isActive: share.isActive } : null,
  };
}

/**
 * The jury's evidence: intervals, tie ranks, ratings, agreement and each judge's
 * record, as last computed. Reads the test's access and names rows and its one testStats row,
 * never its configuration or its evaluations: it re-runs with each statistics run.
 */
export const juryStats = userQuery({
  args: { testId: v.id("tests") },
  returns: juryViewValidator,
  handler: async (ctx, { testId }) => {
    const { access, names } = await requireTestNames(ctx, ctx.user._id, testId, "read");
    return await juryViewOfNames(ctx, access, names);
  },
});

/** Raw responses in the order they arrived; the page shows 20, then more on request. */
export const responses = userQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(responseViewValidator),
  handler: async (ctx, { testId, paginationOpts }) => {
    const names = nameMapsOf((await requireTestNames(ctx, ctx.user._id, testId, "read")).names);
    const page = await pageByTest(ctx, "responses", testId, paginationOpts, MAX_PAGE);
    return { ...page, page: (await withScores(ctx, page.page)).map((response) => responseView(response, names)) };
  },
});

const batchLabelValidator = v.object({
  label: v.string(),
  responseId: v.id("responses"),
  /** Null when the answer no longer exists. */
  modelName: v.union(v.string(), v.null()),
  preview: v.string(),
});

/** Characters of an answer shown beside its label. */
const LABEL_PREVIEW_LENGTH = 60;

const evaluationView = v.object({
  _id: v.id("evaluations"),
  _creationTime: v.number(),
  evaluatorModelId: v.string(),
  evaluatorName: v.string(),
  scores: v.record(v.string(), v.number()),
  explanation: v.string(),
  rank: v.optional(v.number()),
  response: v.union(v.null(), responseViewValidator),
  /** This evaluation's share of its judge call's cost, in dollars. */
  costUsd: v.number(),
  /** The judge call: a ranking call's evaluations share it, its explanation and its labels. */
  callId: v.optional(v.id("calls")),
  order: v.optional(v.union(v.literal("forward"), v.literal("reverse"))),
  /** The neutral label this answer was shown under ('G'), which the explanation names it by. */
  label: v.optional(v.string()),
  /**
   * On the first evaluation of a judge call in a page: every label of that call and the answer it
   * showed, in the order shown.
   */
  batchLabels: v.optional(v.array(batchLabelValidator)),
});

/** Evaluations with the answer each one judged; the page shows 10, then more on request. */
export const evaluations = userQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(evaluationView),
  handler: async (ctx, { testId, paginationOpts }) => {
    const names = nameMapsOf((await requireTestNames(ctx, ctx.user._id, testId, "read")).names);
    const page = await pageByTest(ctx, "evaluations", testId, paginationOpts, MAX_PAGE);
    const rows = [];
    // Answers read once per page: a ranking call's labels name the answers its rows judged.
    const answers = new Map<Id<"responses">, Doc<"responses"> | null>();
    const answerOf = async (responseId: Id<"responses">) => {
      if (!answers.has(responseId)) {
        const response = await ctx.db.get("responses", responseId);
        answers.set(responseId, response ? ((await withScores(ctx, [response]))[0] ?? null) : null);
      }
      return answers.get(responseId) ?? null;
    };
    const labelled = new Set<Id<"calls">>();
    const calls = judgeCallReader(ctx);
    for (const evaluation of page.page) {
      const response = await answerOf(evaluation.responseId);
      const callId = evaluation.callId;
      const label = calls.labelOf(evaluation);
      const firstOfCall = callId !== undefined && label !== undefined && !labelled.has(callId);
      const batch = firstOfCall ? await calls.labelsOf(evaluation) : undefined;
      if (firstOfCall) labelled.add(callId);
      rows.push({
        _id: evaluation._id,
        _creationTime: evaluation._creationTime,
        evaluatorModelId: evaluation.evaluatorModelId,
        evaluatorName: names.model.get(evaluation.evaluatorModelId) ?? evaluation.evaluatorModelId,
        scores: evaluation.scores,
        explanation: await calls.explanationOf(evaluation),
        ...(evaluation.rank === undefined ? {} : { rank: evaluation.rank }),
        response: response ? responseView(response, names) : null,
        costUsd: evaluation.costUsd,
        ...(evaluation.callId === undefined ? {} : { callId: evaluation.callId }),
        ...(evaluation.order === undefined ? {} : { order: evaluation.order }),
        ...(label === undefined ? {} : { label }),
        ...(batch
          ? {
              batchLabels: await Promise.all(
                batch.map(async (entry) => {
                  const answer = await answerOf(entry.responseId);
                  return {
                    label: entry.label,
                    responseId: entry.responseId,
                    modelName: answer ? (names.model.get(answer.modelId) ?? answer.modelId) : null,
                    preview: answer ? preview(answer.content, LABEL_PREVIEW_LENGTH) : "",
                  };
                }),
              ),
            }
          : {}),
      });
    }
    return { ...page, page: rows };
  },
});

/** One page of the CSV / JSON export's responses (spec part 2 §3 rawResponses, plus names). */
export const exportResponses = userQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(
    v.object({
      id: v.id("responses"),
      modelId: v.string(),
      modelName: v.string(),
      personaId: v.string(),
      personaName: v.string(),
      topicId: v.string(),
      topicTitle: v.string(),
      content: v.string(),
      timestamp: v.number(),
      tokens: v.number(),
      latencyMs: v.number(),
      costUsd: v.number(),
      averageScore: v.union(v.number(), v.null()),
      checkFailures: v.optional(v.array(checkFailure)),
      /** A repeated test's repeat of the answer's cell (0-based; lib/repeats.ts). */
      repeat: v.optional(v.number()),
    }),
  ),
  handler: async (ctx, { testId, paginationOpts }) => {
    const names = nameMapsOf((await requireTestNames(ctx, ctx.user._id, testId, "read")).names);
    const page = await pageByTest(ctx, "responses", testId, paginationOpts, MAX_EXPORT_RESPONSES_PAGE);
    return {
      ...page,
      page: (await withScores(ctx, page.page)).map((response) => ({
        id: response._id,
        modelId: response.modelId,
        modelName: names.model.get(response.modelId) ?? response.modelId,
        personaId: response.personaId,
        personaName: names.persona.get(response.personaId) ?? "Unknown persona",
        topicId: response.topicId,
        topicTitle: names.topic.get(response.topicId) ?? "Unknown topic",
        content: response.content,
        timestamp: response._creationTime,
        tokens: response.tokens,
        latencyMs: response.latencyMs,
        costUsd: response.costUsd,
        averageScore: response.scoreCount > 0 ? response.scoreSum / response.scoreCount : null,
        ...(response.checkFailures === undefined ? {} : { checkFailures: response.checkFailures }),
        ...(response.repeat === undefined ? {} : { repeat: response.repeat }),
      })),
    };
  },
});

/** One page of the CSV / JSON export's evaluation scores (spec part 2 §3 evaluationScores, plus cost, call, order and labels). */
export const exportEvaluations = userQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(
    v.object({
      id: v.id("evaluations"),
      responseId: v.id("responses"),
      evaluatorModelId: v.string(),
      scores: v.record(v.string(), v.number()),
      explanation: v.string(),
      rank: v.optional(v.number()),
      timestamp: v.number(),
      /** This judgement's share of its judge call's cost. */
      costUsd: v.number(),
      callId: v.optional(v.id("calls")),
      order: v.optional(v.union(v.literal("forward"), v.literal("reverse"))),
      /** Ranking: the label this answer was shown under, and which label showed which answer in its call. */
      label: v.optional(v.string()),
      labels: v.optional(v.array(v.object({ label: v.string(), responseId: v.id("responses") }))),
    }),
  ),
  handler: async (ctx, { testId, paginationOpts }) => {
    // It shows no name or setting of the test: access on the small access row, not the configuration.
    await requireTestAccess(ctx, ctx.user._id, testId, "read");
    const page = await pageByTest(ctx, "evaluations", testId, paginationOpts, MAX_EXPORT_EVALUATIONS_PAGE);
    const calls = judgeCallReader(ctx);
    return {
      ...page,
      page: await Promise.all(
        page.page.map(async (evaluation) => {
          const labels = await calls.labelsOf(evaluation);
          const label = calls.labelOf(evaluation);
          return {
            id: evaluation._id,
            responseId: evaluation.responseId,
            evaluatorModelId: evaluation.evaluatorModelId,
            scores: evaluation.scores,
            explanation: await calls.explanationOf(evaluation),
            ...(evaluation.rank === undefined ? {} : { rank: evaluation.rank }),
            timestamp: evaluation._creationTime,
            costUsd: evaluation.costUsd,
            ...(evaluation.callId === undefined ? {} : { callId: evaluation.callId }),
            ...(evaluation.order === undefined ? {} : { order: evaluation.order }),
            ...(labels === undefined ? {} : { labels }),
            ...(label === undefined ? {} : { label }),
          };
        }),
      ),
    };
  },
});
