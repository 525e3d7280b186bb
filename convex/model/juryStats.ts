// The jury statistics of a test (ARCHITECTURE "Jury statistics"), kept in `testStats`.
//
// A burst of judge results must not mean one computation per result, and no subscribed query may
// read all evaluations of a test. So the pipeline calls `requestJuryStats` when results arrive:
// it schedules one recomputation per test at a time (`pending`), and a request that arrives while
// one is scheduled or running only marks it `dirty`, which makes it run once more at the end.
// The recomputation reads the test page by page in bounded internal queries (a test may hold
// 20,000 judge scores with their explanations, more than one transaction may read), computes
// with the pure functions of lib/stats, and stores the outcome in one small mutation. The team's
// blind reviews (model/reviews.ts) are read and computed in the same run, so a verdict and a
// judge result that arrive together make one recomputation, and later judge results refresh the
// judges' agreement with the team.
import { paginationOptsValidator } from "convex/server";
import { v } from "convex/values";
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internalAction, internalMutation, internalQuery } from "../functions";
import { isReverseRankingKey, shownOrder } from "../lib/prompts";
import { initialsOf } from "../lib/initials";
import { computeJuryStats, type JuryRanking, type JuryRating, type JuryResponse } from "../lib/stats";
import { computeHumanStats, type HumanStats, type HumanVerdict } from "../lib/stats/human";
import { humanStatsValidator, juryStatsValidator, type HumanStatsDoc } from "../validators";
import { juryVerdictOf, sameVerdict } from "./juryView";

/** Documents one page query reads. */
export const JURY_STATS_PAGE_SIZE = 500;
/** How long results may gather before a recomputation starts. */
export const JURY_STATS_DELAY_MS = 1_000;

async function statsRow(ctx: MutationCtx, testId: Id<"tests">) {
  return await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}

/**
 * Asks for the test's jury statistics to be recomputed: schedules it unless a recomputation is
 * already scheduled or running, in which case that one runs again when it ends.
 */
export async function requestJuryStats(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await statsRow(ctx, testId);
  if (row?.pending) {
    if (!row.dirty) await ctx.db.patch("testStats", row._id, { dirty: true });
    return;
  }
  if (row) await ctx.db.patch("testStats", row._id, { pending: true, dirty: false });
  else await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: false });
  await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.model.juryStats.recompute, { testId });
}

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
  }),
);

export const testInfo = internalQuery({
  args: { testId: v.id("tests") },
  returns: testInfoValidator,
  handler: async (ctx, { testId }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test) return null;
    return {
      scale: test.configuration.scoringParameters.scale,
      models: test.configuration.generatorModels.map(({ id, name }) => ({ id, name })),
      judges: test.configuration.evaluatorModels.map((model) => model.id),
    };
  },
});

const page = <T extends ReturnType<typeof v.object>>(row: T) =>
  v.object({ page: v.array(row), isDone: v.boolean(), continueCursor: v.string() });

const responseRow = v.object({
  id: v.string(),
  modelId: v.string(),
  personaId: v.string(),
  topicId: v.string(),
  length: v.number(),
  costUsd: v.number(),
});

export const responsesPage = internalQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: page(responseRow),
  handler: async (ctx, { testId, paginationOpts }) => {
    const result = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .paginate({ ...paginationOpts, numItems: Math.min(paginationOpts.numItems, JURY_STATS_PAGE_SIZE) });
    return {
      page: result.page.map((response) => ({
        id: response._id,
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
  responseId: v.string(),
  judgeModelId: v.string(),
  scores: v.record(v.string(), v.number()),
  rank: v.optional(v.number()),
  costUsd: v.number(),
  callId: v.optional(v.string()),
});

export const evaluationsPage = internalQuery({
  args: { testId: v.id("tests"), paginationOpts: paginationOptsValidator },
  returns: page(evaluationRow),
  handler: async (ctx, { testId, paginationOpts }) => {
    const result = await ctx.db
      .query("evaluations")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .paginate({ ...paginationOpts, numItems: Math.min(paginationOpts.numItems, JURY_STATS_PAGE_SIZE) });
    return {
      page: result.page.map((evaluation) => ({
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
    return {
      page: result.page.map((call) => ({
        id: call._id,
        key: call.key,
        judgeModelId: call.modelId,
        personaId: call.personaId,
        topicId: call.topicId,
        responseIds: call.responseIds ?? [],
      })),
      isDone: result.isDone,
      continueCursor: result.continueCursor,
    };
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
  },
  returns: v.null(),
  handler: async (ctx, { testId, stats, evaluationsSeen, humans }) => {
    const row = await statsRow(ctx, testId);
    if (!row) return null;
    const test = await ctx.db.get("tests", testId);
    if (!test) {
      await ctx.db.delete("testStats", row._id);
      return null;
    }
    await ctx.db.patch("testStats", row._id, {
      ...(stats === null ? {} : { stats, computedAt: Date.now(), evaluationsSeen }),
      ...(humans === undefined ? {} : { humans: humans ?? undefined }),
      pending: row.dirty,
      dirty: false,
    });
    // History's winner or tie, kept on the test so its list reads no stats rows.
    const verdict = stats === null ? undefined : juryVerdictOf(stats);
    if (stats !== null && !sameVerdict(verdict, test.juryVerdict))
      await ctx.db.patch("tests", testId, { juryVerdict: verdict });
    if (row.dirty) await ctx.scheduler.runAfter(JURY_STATS_DELAY_MS, internal.model.juryStats.recompute, { testId });
    return null;
  },
});

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

/** Reads the test in bounded pages, computes its jury statistics and stores them. */
export const recompute = internalAction({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    await ctx.runMutation(internal.model.juryStats.begin, { testId });
    const info = await ctx.runQuery(internal.model.juryStats.testInfo, { testId });
    if (!info) {
      await ctx.runMutation(internal.model.juryStats.store, { testId, stats: null, evaluationsSeen: 0 });
      return null;
    }
    const readAll = async <T>(
      query:
        | typeof internal.model.juryStats.responsesPage
        | typeof internal.model.juryStats.evaluationsPage
        | typeof internal.model.juryStats.judgeCallsPage
        | typeof internal.model.juryStats.verdictsPage,
    ): Promise<T[]> => {
      const rows: T[] = [];
      let cursor: string | null = null;
      for (;;) {
        const result = (await ctx.runQuery(query, {
          testId,
          paginationOpts: { numItems: JURY_STATS_PAGE_SIZE, cursor },
        })) as {
          page: T[];
          isDone: boolean;
          continueCursor: string;
        };
        rows.push(...result.page);
        if (result.isDone) return rows;
        cursor = result.continueCursor;
      }
    };
    const responses = await readAll<JuryResponse>(internal.model.juryStats.responsesPage);
    const evaluations = await readAll<Parameters<typeof juryInput>[3][number]>(
      internal.model.juryStats.evaluationsPage,
    );
    const judgeCalls =
      info.scale === "ranking"
        ? await readAll<Parameters<typeof juryInput>[4][number]>(internal.model.juryStats.judgeCallsPage)
        : [];
    const input = juryInput(testId, info, responses, evaluations, judgeCalls);
    const stats = computeJuryStats(input);
    const verdicts = await readAll<HumanVerdict>(internal.model.juryStats.verdictsPage);
    const humans =
      verdicts.length === 0
        ? null
        : await withInitials(computeHumanStats({ ...input, verdicts }), (userIds) =>
            ctx.runQuery(internal.model.juryStats.reviewerInitials, { userIds }),
          );
    await ctx.runMutation(internal.model.juryStats.store, {
      testId,
      stats,
      evaluationsSeen: evaluations.length,
      humans,
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
