// Public links to a test's results (spec part 2 §2 shared results page, §4 sharing). A share id
// is 128 random bits, url-safe; turning sharing off deactivates it and `view` returns null from
// then on, so pages already open switch to 'Shared Test Not Found'. Turning it on again issues
// a new id, so a link that was once withdrawn never works again.
import { v, type Infer } from "convex/values";
import { publicQuery, userMutation } from "./functions";
import {
  isValidTest,
  metricsOf,
  metricsValidator,
  namesOf,
  namesOfResponse,
  rankingsOf,
  rankingValidator,
  statsRowsOf,
} from "./core/results";
import { missingWorkOf, missingWorkValidator } from "./core/tests";
import { countedTestOf } from "./core/pipeline/counterRow";
import { requireTest } from "./core/testAccess";
import { sharedTestOf } from "./core/sharedTest";
import { newShareId } from "./lib/shareId";
import { juryViewOf, sharedJuryViewValidator, withoutCosts } from "./core/juryView";
import { progress, testConfiguration, testStatus } from "./validators";

/** Spec part 2 §9: the shared view shows the first 10 responses. */
export const SHARED_SAMPLE_RESPONSES = 10;

/** Turns sharing on: the active link, creating one when there is none. */
export const enable = userMutation({
  args: { testId: v.id("tests") },
  returns: v.object({ shareId: v.string() }),
  handler: async (ctx, { testId }) => {
    await requireTest(ctx, ctx.user._id, testId, "act");
    const existing = await ctx.db
      .query("shares")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .first();
    if (existing?.isActive) return { shareId: existing.shareId };
    const shareId = newShareId();
    if (existing) await ctx.db.patch("shares", existing._id, { shareId, isActive: true });
    else await ctx.db.insert("shares", { testId, userId: ctx.user._id, shareId, isActive: true });
    return { shareId };
  },
});

/** Turns sharing off; the link stops working for everyone at once. */
export const disable = userMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    await requireTest(ctx, ctx.user._id, testId, "act");
    const rows = await ctx.db
      .query("shares")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .take(10);
    for (const row of rows) {
      if (row.isActive) await ctx.db.patch("shares", row._id, { isActive: false });
    }
    return null;
  },
});

const sharedMetricsValidator = metricsValidator.omit("totalCostUsd", "generationCostUsd", "judgingCostUsd");

const sharedView = v.object({
  testName: v.string(),
  taskType: v.string(),
  status: testStatus,
  createdAt: v.number(),
  startedAt: v.optional(v.number()),
  completedAt: v.optional(v.number()),
  /** While it runs: its phase, percentage and time left (the forecast end), as the monitor shows them. */
  progress: v.optional(progress),
  valid: v.boolean(),
  configuration: testConfiguration,
  /** The results page's metrics less its cost figures: the shared page shows no money (spec part 2). */
  metrics: sharedMetricsValidator,
  /** Answers and judgements given up on, and why: shown, never hidden. */
  missingWork: missingWorkValidator,
  rankings: v.array(rankingValidator),
  sampleResponses: v.array(
    v.object({
      key: v.string(),
      modelName: v.string(),
      personaName: v.string(),
      topicTitle: v.string(),
      content: v.string(),
      tokens: v.number(),
      latencyMs: v.number(),
      timestamp: v.number(),
    }),
  ),
});

function sharedMetricsOf(...args: Parameters<typeof metricsOf>): Infer<typeof sharedMetricsValidator> {
  const {
    totalCostUsd: _total,
    generationCostUsd: _generation,
    judgingCostUsd: _judging,
    ...metrics
  } = metricsOf(...args);
  return metrics;
}

/**
 * The shared results for anyone holding an active link, or null. Holds the test's name,
 * configuration, metrics, rankings and first responses — never the owner, their ids, payments or
 * what the test cost.
 */
export const view = publicQuery({
  args: { shareId: v.string() },
  returns: v.union(v.null(), sharedView),
  handler: async (ctx, { shareId }) => {
    const stored = await sharedTestOf(ctx, shareId);
    if (!stored) return null;
    // Its figures: the test's row plus, while it runs, its counter row.
    const test = await countedTestOf(ctx, stored);
    const rows = await statsRowsOf(ctx, test._id);
    const names = namesOf(test);
    const samples = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", test._id))
      .take(SHARED_SAMPLE_RESPONSES);
    return {
      testName: test.name,
      taskType: test.taskType,
      status: test.status,
      createdAt: test._creationTime,
      ...(test.startedAt === undefined ? {} : { startedAt: test.startedAt }),
      ...(test.completedAt === undefined ? {} : { completedAt: test.completedAt }),
      ...(test.status === "running" ? { progress: test.progress } : {}),
      valid: isValidTest(test),
      configuration: test.configuration,
      metrics: sharedMetricsOf(test, rows),
      missingWork: missingWorkOf(test),
      rankings: rankingsOf(test, rows),
      sampleResponses: samples.map((response, index) => ({
        key: String(index),
        ...namesOfResponse(response, names),
        content: response.content,
        tokens: response.tokens,
        latencyMs: response.latencyMs,
        timestamp: response._creationTime,
      })),
    };
  },
});

/**
 * The jury's evidence of a shared test for anyone holding an active link, or null: the same
 * figures as the owner's results (models, judges, personas and topics by name) but for the cost
 * figures, no account data.
 */
export const juryStats = publicQuery({
  args: { shareId: v.string() },
  returns: sharedJuryViewValidator,
  handler: async (ctx, { shareId }) => {
    const test = await sharedTestOf(ctx, shareId);
    if (!test) return null;
    return withoutCosts(await juryViewOf(ctx, test));
  },
});
