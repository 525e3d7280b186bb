// Creating a test from a configuration: the one path of the setup page's Run Test (tests.create)
// and the HTTP API's create (publicApi.ts). The caller has already checked who may create a test
// in the space; this validates, prices from the cached catalog and stores the test with its job.
import { settleProblems } from "../lib/settle";
import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { fail } from "../functions";
import { countCalls, LIMITS, quote, validateTestConfig, type QuoteParts } from "../lib/pricing";
import { initialProgress } from "../lib/progress";
import type { TestConfiguration } from "../validators";
import { priceCatalog } from "./catalog";
import { insertJob } from "./jobs";
import { paymentsEnabled } from "./payments";
import { EMPTY_RUN_COUNTERS } from "./pipeline/runCounters";
import { syncTestSummaryOf } from "./testSummaries";
import { recordTestRun } from "./userStats";
import { dispatchSoon } from "./pipeline/dispatchSoon";

/**
 * The configuration validated, with the catalog's model names, its quote, and whether the user
 * pays for it: what tests.create stores, and the HTTP API's quote answers without storing.
 * `parts` "judging" prices the judge calls alone (a re-judging, core/rejudge.ts).
 */
export async function priceConfiguration(
  ctx: QueryCtx,
  userId: Id<"users">,
  configuration: TestConfiguration,
  parts: QuoteParts = "all",
) {
  const problems = [
    ...validateTestConfig(configuration),
    ...settleProblems(configuration.stopWhenSettled, configuration.generatorModels),
  ];
  if (problems.length > 0) fail("INVALID_INPUT", problems[0].message, { field: problems[0].field });
  const calls = countCalls(configuration);
  if (calls.total > LIMITS.maxCallsPerTest) {
    fail(
      "INVALID_INPUT",
      `This test would make ${calls.total} model calls; the limit is ${LIMITS.maxCallsPerTest}. Use fewer models, personas, topics or responses per topic.`,
      { field: "limits" },
    );
  }
  const catalog = await priceCatalog(ctx);
  const models = await modelNames(
    ctx,
    [...configuration.generatorModels, ...configuration.evaluatorModels].map((m) => m.id),
  );
  const withNames = {
    ...configuration,
    name: configuration.name.trim() || "Unnamed Test",
    generatorModels: configuration.generatorModels.map((model) => ({
      id: model.id,
      name: models.get(model.id) ?? model.id,
    })),
    evaluatorModels: configuration.evaluatorModels.map((model) => ({
      id: model.id,
      name: models.get(model.id) ?? model.id,
    })),
  };
  const { estimate, priceCents } = quote(withNames, catalog, parts);
  const usesOwnKey = await hasOwnKey(ctx, userId);
  const paymentRequired = paymentsEnabled() && !usesOwnKey && priceCents > 0;
  return { withNames, calls, estimate, priceCents, usesOwnKey, paymentRequired };
}

/** "Stop when settled" draws the pairs in an order seeded at creation (kept, so a look can be replayed). */
function withSettleSeed<Config extends TestConfiguration>(configuration: Config): Config {
  const setting = configuration.stopWhenSettled;
  if (setting === undefined || setting.seed !== undefined) return configuration;
  return { ...configuration, stopWhenSettled: { ...setting, seed: Math.random().toString(36).slice(2, 12) } };
}

export async function createTest(
  ctx: MutationCtx,
  userId: Id<"users">,
  configuration: TestConfiguration,
  teamId: Id<"teams"> | undefined,
  /** A re-judging of this finished test: its answers are copied, only its judging is priced. */
  rejudgeOf?: Id<"tests">,
  /** A rerun of this test (setup's Rerun Test): its results offer "Compare with the original". */
  rerunOf?: Id<"tests">,
): Promise<{ testId: Id<"tests">; priceCents: number; paymentRequired: boolean }> {
  const { withNames, calls, estimate, priceCents, usesOwnKey, paymentRequired } = await priceConfiguration(
    ctx,
    userId,
    configuration,
    rejudgeOf === undefined ? "all" : "judging",
  );
  const now = Date.now();
  const testId = await ctx.db.insert("tests", {
    userId,
    ...(teamId === undefined ? {} : { teamId }),
    name: withNames.name,
    taskType: withNames.taskType || "general",
    configuration: withSettleSeed(withNames),
    status: "pending",
    progress: { currentPhase: initialProgress(withNames).phase, percentage: 0 },
    estimate,
    priceCents,
    usesOwnKey,
    expectedResponses: calls.expectedResponses,
    expectedEvaluations: calls.expectedEvaluations,
    ...EMPTY_RUN_COUNTERS,
    lastProgressAt: now,
    ...(paymentRequired ? { awaitingPayment: true } : {}),
    ...(rejudgeOf === undefined ? {} : { rejudgeOf }),
    ...(rerunOf === undefined ? {} : { rerunOf }),
  });
  await syncTestSummaryOf(ctx, testId);
  await insertJob(ctx, {
    testId,
    userId,
    testName: withNames.name,
    status: paymentRequired ? "pending_payment" : "queued",
    amountCents: paymentRequired ? priceCents : 0,
  });
  // An unpaid draft is counted when its payment settles (recordTestPaid).
  if (!paymentRequired) await recordTestRun(ctx, { userId, teamId });
  if (!paymentRequired) await dispatchSoon(ctx);
  return { testId, priceCents, paymentRequired };
}

async function modelNames(ctx: QueryCtx, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of new Set(ids)) {
    const row = await ctx.db
      .query("llmModels")
      .withIndex("by_model_id", (q) => q.eq("modelId", id))
      .first();
    if (!row) fail("INVALID_INPUT", `The model ${id} is not available. Choose another model.`, { field: "models" });
    names.set(id, row.name);
  }
  return names;
}

export async function hasOwnKey(ctx: QueryCtx, userId: Id<"users">): Promise<boolean> {
  const key = await ctx.db
    .query("apiKeys")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .first();
  return key !== null;
}
