// The dashboard home (spec part 1 §2) in one live query. Every read is small: the figures come
// from counters on the user row, or the team's in a team's space (core/userStats.ts), the lists from the newest few rows of an index (spec part 1 §9:
// 10 recent tests; activity from 5 tests, 3 personas and 3 topics).
import { v, type Infer } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { takeWithinBytes } from "./lib/boundedList";
import { internal } from "./_generated/api";
import { internalMutation, userQuery } from "./functions";
import { summariesOfSpace } from "./core/testAccess";
import { MAX_SAVED_ASSETS } from "./core/savedAssets";
import { isDraft, personalFigures, rebuildTeamPart, savedAssetCount } from "./core/userStats";
import { testStatus } from "./validators";

export const RECENT_TESTS_LOADED = 10;
export const SAVED_ASSETS_SHOWN = 5;
export const ACTIVITY_TESTS = 5;
export const ACTIVITY_PERSONAS = 3;
export const ACTIVITY_TOPICS = 3;
export const ACTIVITY_SHOWN = 8;

const personaView = v.object({
  _id: v.id("personas"),
  name: v.string(),
  description: v.string(),
  systemPrompt: v.string(),
  updatedAt: v.number(),
});

const topicView = v.object({
  _id: v.id("topics"),
  title: v.string(),
  description: v.string(),
  prompt: v.string(),
  updatedAt: v.number(),
});

const activityKind = v.union(
  v.literal("test_completed"),
  v.literal("test_failed"),
  v.literal("test_cancelled"),
  v.literal("test_running"),
  v.literal("test_created"),
  v.literal("persona_saved"),
  v.literal("topic_saved"),
);

const activityEntry = v.object({
  id: v.string(),
  kind: activityKind,
  title: v.string(),
  at: v.number(),
  testId: v.optional(v.id("tests")),
});

function testActivity(test: Doc<"testSummaries">) {
  switch (test.status) {
    case "completed":
      return { kind: "test_completed" as const, at: test.completedAt ?? test.createdAt };
    case "failed":
      return { kind: "test_failed" as const, at: test.completedAt ?? test.createdAt };
    case "cancelled":
      return { kind: "test_cancelled" as const, at: test.completedAt ?? test.createdAt };
    case "running":
      return { kind: "test_running" as const, at: test.startedAt ?? test.createdAt };
    default:
      return { kind: "test_created" as const, at: test.createdAt };
  }
}

/** In a team's space the tests and their figures are the team's; personas and topics stay the caller's. */
export const home = userQuery({
  args: { teamId: v.optional(v.id("teams")) },
  returns: v.object({
    stats: v.object({
      totalTests: v.number(),
      completedTests: v.number(),
      totalSpentCents: v.number(),
      averageSpentCents: v.number(),
      responses: v.number(),
      evaluations: v.number(),
      savedAssets: v.number(),
    }),
    recentTests: v.array(
      v.object({
        _id: v.id("tests"),
        name: v.string(),
        status: testStatus,
        modelCount: v.number(),
        createdAt: v.number(),
        /** An unpaid draft: offered 'Complete Payment' or discarding, not counted as a run. */
        awaitingPayment: v.boolean(),
        priceCents: v.number(),
      }),
    ),
    personas: v.object({ total: v.number(), items: v.array(personaView) }),
    topics: v.object({ total: v.number(), items: v.array(topicView) }),
    activity: v.array(activityEntry),
  }),
  handler: async (ctx, { teamId }) => {
    const user = ctx.user;
    // The tests' summary rows (core/testSummaries.ts), never their configurations.
    const { rows: tests } = await takeWithinBytes(
      (await summariesOfSpace(ctx, teamId)).order("desc"),
      RECENT_TESTS_LOADED,
    );
    const team = teamId === undefined ? null : await ctx.db.get("teams", teamId);
    // The chosen space's figures: the team's, or the user's own less their team tests.
    const figures = team ?? personalFigures(user);
    const personas = await ctx.db
      .query("personas")
      .withIndex("by_user", (q) => q.eq("userId", user._id))
      .order("desc")
      .take(SAVED_ASSETS_SHOWN);
    const topics = await ctx.db
      .query("topics")
      .withIndex("by_user", (q) => q.eq("userId", user._id))
      .order("desc")
      .take(SAVED_ASSETS_SHOWN);
    const personaTotal = await savedAssetCount(ctx, user, "personas", MAX_SAVED_ASSETS);
    const topicTotal = await savedAssetCount(ctx, user, "topics", MAX_SAVED_ASSETS);

    const totalTests = figures.testCount ?? 0;
    const totalSpentCents = figures.totalSpentCents ?? 0;

    const activity: Infer<typeof activityEntry>[] = [
      ...tests.slice(0, ACTIVITY_TESTS).map((test) => ({
        id: `test:${test.testId}`,
        title: test.name || "Unnamed Test",
        testId: test.testId,
        ...testActivity(test),
      })),
      ...personas.slice(0, ACTIVITY_PERSONAS).map((persona) => ({
        id: `persona:${persona._id}`,
        kind: "persona_saved" as const,
        title: persona.name,
        at: persona.updatedAt,
      })),
      ...topics.slice(0, ACTIVITY_TOPICS).map((topic) => ({
        id: `topic:${topic._id}`,
        kind: "topic_saved" as const,
        title: topic.title,
        at: topic.updatedAt,
      })),
    ]
      .sort((a, b) => b.at - a.at)
      .slice(0, ACTIVITY_SHOWN);

    return {
      stats: {
        totalTests,
        completedTests: figures.completedTestCount ?? 0,
        totalSpentCents,
        averageSpentCents: totalTests > 0 ? Math.round(totalSpentCents / totalTests) : 0,
        responses: figures.responseCount ?? 0,
        evaluations: figures.evaluationCount ?? 0,
        savedAssets: personaTotal + topicTotal,
      },
      recentTests: tests.map((test) => ({
        _id: test.testId,
        name: test.name,
        status: test.status,
        modelCount: test.modelCount,
        createdAt: test.createdAt,
        awaitingPayment: isDraft(test),
        priceCents: test.priceCents,
      })),
      personas: {
        total: personaTotal,
        items: personas.map((persona) => ({
          _id: persona._id,
          name: persona.name,
          description: persona.description,
          systemPrompt: persona.systemPrompt,
          updatedAt: persona.updatedAt,
        })),
      },
      topics: {
        total: topicTotal,
        items: topics.map((topic) => ({
          _id: topic._id,
          title: topic.title,
          description: topic.description,
          prompt: topic.prompt,
          updatedAt: topic.updatedAt,
        })),
      },
      activity,
    };
  },
});

/** Users whose team part one transaction of the rebuild sets (each reads its team tests). */
export const TEAM_PART_REBUILD_BATCH = 20;

/**
 * One-off migration for accounts with team tests from before the team part was kept: sets each
 * user's team part from their team tests (core/userStats.ts rebuildTeamPart), a batch of users per
 * transaction, scheduling the next batch itself. Safe beside live tests and to run again:
 *   npx convex run dashboard:rebuildTeamFigures
 */
export const rebuildTeamFigures = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ users: v.number(), isDone: v.boolean() }),
  handler: async (ctx, { cursor }) => {
    const page = await ctx.db.query("users").paginate({ cursor: cursor ?? null, numItems: TEAM_PART_REBUILD_BATCH });
    for (const user of page.page) await rebuildTeamPart(ctx, user._id);
    if (!page.isDone)
      await ctx.scheduler.runAfter(0, internal.dashboard.rebuildTeamFigures, { cursor: page.continueCursor });
    return { users: page.page.length, isDone: page.isDone };
  },
});
