// Public links to a test's results (spec part 2 §2 shared results page, §4 sharing). A share id
// is 128 random bits, url-safe; turning sharing off deactivates it and `view` returns null from
// then on, so pages already open switch to 'Shared Test Not Found'. Turning it on again issues
// a new id, so a link that was once withdrawn never works again.
import { v, type Infer } from "convex/values";
import { publicQuery, userMutation } from "./functions";
import { metricsValidator, rankingValidator, statsRowsOf } from "./core/results";
import { missingWorkValidator } from "./core/tests";
import { counterRowOf } from "./core/pipeline/counterRow";
import { requireTestAccess } from "./core/testAccess";
import { sharedTestIdOf, sharedTestNamesOf, sharedTestOf } from "./core/sharedTest";
import { pickFields } from "./lib/fields";
import { isValidTest, SHARED_COUNTERS, sharedViewOf } from "./lib/resultsFigures";
import type { Doc, Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { newShareId } from "./lib/shareId";
import { juryViewOfNames, sharedJuryViewValidator, withoutCosts } from "./core/juryView";
import { progress, runCounters, testConfiguration, testStatus } from "./validators";

/** Spec part 2 §9: the shared view shows the first 10 responses. */
export const SHARED_SAMPLE_RESPONSES = 10;

/** Turns sharing on: the active link, creating one when there is none. */
export const enable = userMutation({
  args: { testId: v.id("tests") },
  returns: v.object({ shareId: v.string() }),
  handler: async (ctx, { testId }) => {
    await requireTestAccess(ctx, ctx.user._id, testId, "act");
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
    await requireTestAccess(ctx, ctx.user._id, testId, "act");
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

const sharedCounterFields = pickFields(runCounters.fields, SHARED_COUNTERS);

const storedSharedValidator = v.object({
  test: v.object({
    name: v.string(),
    taskType: v.string(),
    status: testStatus,
    _creationTime: v.number(),
    startedAt: v.optional(v.number()),
    completedAt: v.optional(v.number()),
    progress,
    lastCallError: v.optional(v.string()),
    configuration: testConfiguration,
    expectedResponses: v.number(),
    expectedEvaluations: v.number(),
    ...sharedCounterFields,
  }),
  valid: v.boolean(),
});

const liveSharedValidator = v.object({
  counters: v.union(
    v.null(),
    v.object({
      sums: v.object(sharedCounterFields).partial(),
      progress,
      lastProgressAt: v.number(),
      lastCallError: v.optional(v.string()),
    }),
  ),
  rows: v.array(
    v.object({
      modelId: v.string(),
      personaId: v.string(),
      responses: v.number(),
      scoreSum: v.number(),
      scoreCount: v.number(),
    }),
  ),
  samples: v.array(
    v.object({
      modelId: v.string(),
      personaId: v.string(),
      topicId: v.string(),
      content: v.string(),
      tokens: v.number(),
      latencyMs: v.number(),
      timestamp: v.number(),
    }),
  ),
});

/**
 * The shared results for anyone holding an active link, or null, in one call (the test as stored,
 * then what its folds write): the page subscribes the two halves apart (`test`, `live`) and adds
 * them up with the same code (lib/resultsFigures.ts sharedViewOf). Holds the test's name,
 * configuration, metrics, rankings and first responses — never the owner, their ids, payments or
 * what the test cost.
 */
export const view = publicQuery({
  args: { shareId: v.string() },
  returns: v.union(v.null(), sharedView),
  handler: async (ctx, { shareId }) => {
    const test = await sharedTestOf(ctx, shareId);
    if (!test) return null;
    return sharedViewOf(storedSharedOf(test), await liveSharedOf(ctx, test._id));
  },
});

/**
 * The shared page's test as stored, or null: its name, configuration, status and shown counters
 * as of its row, which no fold writes (this query re-runs with its status, rarely else).
 */
export const test = publicQuery({
  args: { shareId: v.string() },
  returns: v.union(v.null(), storedSharedValidator),
  handler: async (ctx, { shareId }) => {
    const test = await sharedTestOf(ctx, shareId);
    return test ? storedSharedOf(test) : null;
  },
});

/**
 * What changes while the shared test runs, or null: its counter row's shown counters, its score
 * tallies and its first answers. Reads the link and the test's access row, never the test's row:
 * re-running with every fold, it reads no configuration.
 */
export const live = publicQuery({
  args: { shareId: v.string() },
  returns: v.union(v.null(), liveSharedValidator),
  handler: async (ctx, { shareId }) => {
    const testId = await sharedTestIdOf(ctx, shareId);
    return testId ? await liveSharedOf(ctx, testId) : null;
  },
});

function storedSharedOf(test: Doc<"tests">): Infer<typeof storedSharedValidator> {
  return {
    test: {
      ...pickFields(test, [
        "name",
        "taskType",
        "status",
        "_creationTime",
        "startedAt",
        "completedAt",
        "progress",
        "lastCallError",
        "configuration",
        "expectedResponses",
        "expectedEvaluations",
        ...SHARED_COUNTERS,
      ]),
    },
    valid: isValidTest(test),
  };
}

async function liveSharedOf(ctx: QueryCtx, testId: Id<"tests">): Promise<Infer<typeof liveSharedValidator>> {
  const counters = await counterRowOf(ctx, testId);
  const rows = await statsRowsOf(ctx, testId);
  const samples = await ctx.db
    .query("responses")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .take(SHARED_SAMPLE_RESPONSES);
  return {
    counters:
      counters === null
        ? null
        : {
            ...pickFields(counters, ["progress", "lastProgressAt", "lastCallError"]),
            sums: pickFields(counters.sums, SHARED_COUNTERS),
          },
    rows: rows.map((row) => pickFields(row, ["modelId", "personaId", "responses", "scoreSum", "scoreCount"])),
    samples: samples.map((response) => ({
      ...pickFields(response, ["modelId", "personaId", "topicId", "content", "tokens", "latencyMs"]),
      timestamp: response._creationTime,
    })),
  };
}

/**
 * The jury's evidence of a shared test for anyone holding an active link, or null: the same
 * figures as the owner's results (models, judges, personas and topics by name) but for the cost
 * figures, no account data. Reads the link, the access and names rows and the stats row, never
 * the configuration: it re-runs with each statistics run.
 */
export const juryStats = publicQuery({
  args: { shareId: v.string() },
  returns: sharedJuryViewValidator,
  handler: async (ctx, { shareId }) => {
    const shared = await sharedTestNamesOf(ctx, shareId);
    if (!shared) return null;
    return withoutCosts(await juryViewOfNames(ctx, shared.access, shared.names));
  },
});
