// Blind human review (issue "a human seat on the jury"): a teammate judges one persona × topic
// pair at a time on the test's own scale, seeing the answers under neutral labels in an order
// shuffled for them (lib/reviews.ts). Model names and response ids never leave the server: the
// labels are mapped back to responses here, from the same shuffle. Each verdict is one
// humanJudgements row per reviewer × pair; the team's figures are recomputed with the jury
// statistics (juryStats.ts) and read from testStats.humans.
import type { Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { fail } from "../functions";
import { blindOrder, checkVerdict, type ReviewVerdict } from "../lib/reviews";
import { selectedCriteria } from "../lib/types";
import type { TestNames } from "../lib/testNames";
import type { reviewPairValidator, reviewSummaryValidator } from "../validators";
import { requestJuryStats } from "./jury/poll";

type PairView = NonNullable<Infer<typeof reviewPairValidator>>;
type SummaryView = NonNullable<Infer<typeof reviewSummaryValidator>>;

const pairKey = (personaId: string, topicId: string) => JSON.stringify([personaId, topicId]);

/** The criteria a rating test's answers are scored on (the judges' criteria). */
export function reviewCriteria(test: Doc<"tests">): string[] {
  return test.configuration.scoringParameters.scale === "rating"
    ? selectedCriteria(test.configuration.evaluationCriteria)
    : [];
}

/**
 * Answers per persona × topic pair that is ready for review: a pair's judge calls are created
 * once its generation has ended (core/pipeline.ts), and name its answers, so a pair is shown
 * with its final answers only. One index range over the test's judge calls (≤ LIMITS.maxCallsPerTest).
 */
async function readyPairs(ctx: QueryCtx, testId: Id<"tests">): Promise<Map<string, number>> {
  const calls = await ctx.db
    .query("calls")
    .withIndex("by_test_pair", (q) => q.eq("testId", testId).eq("kind", "evaluate"))
    .collect();
  const answers = new Map<string, Set<string>>();
  for (const call of calls) {
    const key = pairKey(call.personaId, call.topicId);
    const ids = answers.get(key) ?? new Set<string>();
    for (const id of call.responseIds ?? []) ids.add(id);
    answers.set(key, ids);
  }
  return new Map([...answers].map(([key, ids]) => [key, ids.size]));
}

/** The pair's answers in this reviewer's blind order: at most LIMITS.maxAnswersPerRanking reads. */
async function blindAnswers(
  ctx: QueryCtx,
  test: Doc<"tests">,
  userId: Id<"users">,
  personaId: string,
  topicId: string,
) {
  const responses = await ctx.db
    .query("responses")
    .withIndex("by_test_pair", (q) => q.eq("testId", test._id).eq("personaId", personaId).eq("topicId", topicId))
    .collect(); // bounded by LIMITS.maxAnswersPerRanking
  return blindOrder(responses, { testId: test._id, userId, personaId, topicId });
}

async function verdictRow(
  ctx: QueryCtx,
  testId: Id<"tests">,
  userId: Id<"users">,
  personaId: string,
  topicId: string,
): Promise<Doc<"humanJudgements"> | null> {
  return await ctx.db
    .query("humanJudgements")
    .withIndex("by_test_pair_user", (q) =>
      q.eq("testId", testId).eq("personaId", personaId).eq("topicId", topicId).eq("userId", userId),
    )
    .unique();
}

/** A stored verdict in the labels this reviewer sees. */
function verdictByLabel(
  row: Doc<"humanJudgements">,
  labelled: readonly { label: string; answer: Doc<"responses"> }[],
): ReviewVerdict | null {
  const labelOf = new Map(labelled.map(({ label, answer }) => [answer._id as string, label]));
  if (row.ranking) return { ranking: row.ranking.flatMap((id) => labelOf.get(id) ?? []) };
  if (row.scores) {
    return {
      scores: Object.fromEntries(
        row.scores.flatMap(({ responseId, scores }) => {
          const label = labelOf.get(responseId);
          return label === undefined ? [] : [[label, scores]];
        }),
      ),
    };
  }
  return null;
}

/**
 * The review page of a test for one reviewer: every pair with its answers and whether they did
 * it, and one pair to review (the one asked for, else the first ready pair they have not done).
 */
export async function reviewPairOf(
  ctx: QueryCtx,
  test: Doc<"tests">,
  userId: Id<"users">,
  canReview: boolean,
  wanted: { personaId?: string; topicId?: string },
): Promise<PairView> {
  const config = test.configuration;
  const ready = await readyPairs(ctx, test._id);
  const mine = await ctx.db
    .query("humanJudgements")
    .withIndex("by_test_user", (q) => q.eq("testId", test._id).eq("userId", userId))
    .collect(); // one per pair at most (≤ LIMITS.maxPersonas × LIMITS.maxTopics)
  const done = new Set(mine.map((row) => pairKey(row.personaId, row.topicId)));
  const pairs = config.personas.flatMap((persona) =>
    config.topics.map((topic) => ({
      personaId: persona.id,
      topicId: topic.id,
      personaName: persona.name,
      topicName: topic.title,
      answers: ready.get(pairKey(persona.id, topic.id)) ?? 0,
      reviewed: done.has(pairKey(persona.id, topic.id)),
    })),
  );
  const chosen =
    wanted.personaId !== undefined || wanted.topicId !== undefined
      ? pairs.find((pair) => pair.personaId === wanted.personaId && pair.topicId === wanted.topicId)
      : (pairs.find((pair) => pair.answers > 0 && !pair.reviewed) ?? pairs.find((pair) => pair.answers > 0));
  let current: PairView["current"] = null;
  if (chosen) {
    const labelled = chosen.answers > 0 ? await blindAnswers(ctx, test, userId, chosen.personaId, chosen.topicId) : [];
    // The page shows the answers it lists: the count of the pair on screen is exact.
    chosen.answers = labelled.length;
    const row = labelled.length > 0 ? await verdictRow(ctx, test._id, userId, chosen.personaId, chosen.topicId) : null;
    current = {
      personaId: chosen.personaId,
      topicId: chosen.topicId,
      personaName: chosen.personaName,
      topicName: chosen.topicName,
      userPrompt: config.userPrompt,
      answers: labelled.map(({ label, answer }) => ({ label, content: answer.content })),
      verdict: row ? verdictByLabel(row, labelled) : null,
    };
  }
  return { scale: config.scoringParameters.scale, criteria: reviewCriteria(test), canReview, pairs, current };
}

/**
 * Stores the reviewer's verdict on one pair (replacing an earlier one) and asks for the team's
 * figures to be recomputed. Refuses, changing nothing, a pair outside the test, a pair whose
 * answers are not ready, or a verdict that does not name exactly the pair's labels.
 */
export async function submitReview(
  ctx: MutationCtx,
  test: Doc<"tests">,
  userId: Id<"users">,
  input: {
    personaId: string;
    topicId: string;
    ranking?: string[];
    scores?: Record<string, Record<string, number>>;
  },
): Promise<void> {
  const config = test.configuration;
  const { personaId, topicId } = input;
  if (
    !config.personas.some((persona) => persona.id === personaId) ||
    !config.topics.some((topic) => topic.id === topicId)
  )
    fail("INVALID_INPUT", "This persona and topic are not part of the test.");
  const ready = await ctx.db
    .query("calls")
    .withIndex("by_test_pair", (q) =>
      q.eq("testId", test._id).eq("kind", "evaluate").eq("personaId", personaId).eq("topicId", topicId),
    )
    .first();
  const labelled = ready ? await blindAnswers(ctx, test, userId, personaId, topicId) : [];
  const checked = checkVerdict(
    config.scoringParameters.scale,
    labelled.map(({ label }) => label),
    reviewCriteria(test),
    input,
  );
  if ("error" in checked) fail("INVALID_INPUT", checked.error);
  const responseOf = new Map(labelled.map(({ label, answer }) => [label, answer._id]));
  const verdict =
    "ranking" in checked.verdict
      ? { ranking: checked.verdict.ranking.map((label) => responseOf.get(label)!) }
      : {
          scores: Object.entries(checked.verdict.scores).map(([label, scores]) => ({
            responseId: responseOf.get(label)!,
            scores,
          })),
        };
  const row = { testId: test._id, userId, personaId, topicId, ...verdict, updatedAt: Date.now() };
  const existing = await verdictRow(ctx, test._id, userId, personaId, topicId);
  if (existing) await ctx.db.replace("humanJudgements", existing._id, row);
  else await ctx.db.insert("humanJudgements", row);
  await requestJuryStats(ctx, test._id);
}

/**
 * The team's figures as last computed (testStats.humans): one read beside the test's names row
 * (core/testNames.ts), never its configuration, as it re-runs with each statistics run. Before any
 * review, every model and judge is listed without figures.
 */
export async function reviewSummaryOf(
  ctx: QueryCtx,
  testId: Id<"tests">,
  names: TestNames,
  userId: Id<"users">,
): Promise<SummaryView> {
  const row = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
  const humans = row?.humans;
  const judgeNames = new Map(names.judges.map((model) => [model.id, model.name]));
  return {
    reviewers: (humans?.reviewers ?? []).map((reviewer) => ({
      initials: reviewer.initials,
      pairs: reviewer.pairs,
      isYou: reviewer.userId === userId,
    })),
    pairsReviewed: humans?.pairsReviewed ?? 0,
    totalPairs: names.personas.length * names.topics.length,
    models:
      humans?.models ??
      names.generators.map((model) => ({
        modelId: model.id,
        modelName: model.name,
        meanScore: null,
        interval: null,
        rank: null,
        units: 0,
      })),
    reviewerAgreement: humans?.reviewerAgreement ?? null,
    judges: (
      humans?.judges ?? names.judges.map((model) => ({ judgeModelId: model.id, tau: null, interval: null, units: 0 }))
    ).map((judge) => ({ ...judge, judgeName: judgeNames.get(judge.judgeModelId) ?? judge.judgeModelId })),
  };
}

/**
 * One batch of a deleted account's verdicts on its teams' tests; the figures of each test they
 * reviewed are recomputed without them. Returns true when another batch is needed.
 */
export async function deleteReviewsBatch(ctx: MutationCtx, userId: Id<"users">, limit: number): Promise<boolean> {
  const rows = await ctx.db
    .query("humanJudgements")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .take(limit);
  for (const row of rows) await ctx.db.delete("humanJudgements", row._id);
  for (const testId of new Set(rows.map((row) => row.testId))) {
    if (await ctx.db.get("tests", testId)) await requestJuryStats(ctx, testId);
  }
  return rows.length === limit;
}
