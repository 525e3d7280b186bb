// The HTTP API under /api/v1 (routes in http.ts, handlers in core/httpApi.ts). Every request is
// authenticated by a personal access token (apiTokens.authenticate); the functions here then act
// for the token's user in the token's space only, with the same checks as the app's own
// functions: the user's role in the team (read again in the same transaction), requireTest for
// the test, and a test outside the token's space is "not found" like another person's test.
import { validate } from "convex-helpers/validators";
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { fail, internalMutation, internalQuery } from "./functions";
import { apiConfigurationOf, apiFieldPath } from "./lib/apiConfig";
import { validateTestConfig } from "./lib/pricing";
import { TEAM_MESSAGES, type TeamRole } from "./lib/teams";
import type { Problem } from "./lib/types";
import { settleWordsOfTest } from "./core/settleView";
import { API_TOKEN_MESSAGES, inSpace, principalMay, principalOf, type Principal } from "./core/apiTokens";
import { checkSummary } from "./core/checks";
import { juryViewOf } from "./core/juryView";
import { metricsOf, rankingsOf, statsRowsOf } from "./core/results";
import { requireTest, summariesOfSpace, TEST_NOT_FOUND, type TestAccess } from "./core/testAccess";
import { takeWithinBytes } from "./lib/boundedList";
import { API_LIST_LIMIT } from "./lib/limits";
import { hasEnded } from "./lib/testStatus";
import { verdictPayload } from "./lib/verdict";
import { MAX_CATALOG_SIZE } from "./core/catalog";
import { createTest, priceConfiguration } from "./core/testCreation";
import { headerOf } from "./core/tests";
import { testConfiguration, type TestConfiguration } from "./validators";
import { countedTestOf } from "./core/pipeline/counterRow";

async function principalFor(ctx: QueryCtx, tokenId: Doc<"apiTokens">["_id"], role: TeamRole): Promise<Principal> {
  const principal = await principalOf(ctx, tokenId);
  if (principal === null) fail("UNAUTHENTICATED", API_TOKEN_MESSAGES.unauthorized);
  if (!principalMay(principal, role)) fail("FORBIDDEN", TEAM_MESSAGES.viewersRead);
  return principal;
}

/** The test when it is in the token's space and the user may `need` it; NOT_FOUND otherwise. */
async function testFor(ctx: QueryCtx, principal: Principal, rawId: string, need: TestAccess): Promise<Doc<"tests">> {
  const testId = ctx.db.normalizeId("tests", rawId);
  const test = testId === null ? null : await ctx.db.get("tests", testId);
  if (test === null || !inSpace(principal, test)) fail("NOT_FOUND", TEST_NOT_FOUND);
  // Its figures: the test's row plus, while it runs, its counter row.
  return await countedTestOf(ctx, await requireTest(ctx, principal.user._id, test._id, need));
}

const tokenArgs = { tokenId: v.id("apiTokens") };
const problemsValidator = v.array(v.object({ field: v.string(), message: v.string() }));

/** "Validator error for checks[0].kind: Expected …" → its path and the rest, for a problem. */
function validatorProblem(message: string): Problem {
  const match = /^Validator error(?: for ([^:]+))?: ([\s\S]*)$/.exec(message);
  return match ? { field: match[1] ?? "configuration", message: match[2] } : { field: "configuration", message };
}

/** Problems of the models a configuration names that the catalog does not have, at their exact field. */
async function unknownModelProblems(ctx: QueryCtx, configuration: TestConfiguration): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const field of ["generatorModels", "evaluatorModels"] as const) {
    for (const [index, model] of configuration[field].entries()) {
      const row = await ctx.db
        .query("llmModels")
        .withIndex("by_model_id", (q) => q.eq("modelId", model.id))
        .first();
      if (row === null) {
        problems.push({
          field: `${field}[${index}]`,
          message: `The model ${model.id} is not available. Choose another model (GET /models lists them).`,
        });
      }
    }
  }
  return problems;
}

/**
 * The configuration as tests.create takes it, or every problem found (shape, the catalog, then
 * the setup page's rules), each under its exact field path in the request ("checks[0].kind").
 */
async function parsedConfiguration(
  ctx: QueryCtx,
  input: unknown,
): Promise<{ configuration: TestConfiguration; problems: Problem[] }> {
  const { configuration, problems } = apiConfigurationOf(input);
  if (problems.length > 0) return { configuration: configuration as TestConfiguration, problems };
  try {
    validate(testConfiguration, configuration, { throw: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { configuration: configuration as TestConfiguration, problems: [validatorProblem(message)] };
  }
  const typed = configuration as TestConfiguration;
  const rules = validateTestConfig(typed).map((problem) => ({ ...problem, field: apiFieldPath(problem.field) }));
  return { configuration: typed, problems: [...(await unknownModelProblems(ctx, typed)), ...rules] };
}

const quoteFields = {
  priceCents: v.number(),
  paymentRequired: v.boolean(),
  usesOwnKey: v.boolean(),
  estimate: v.object({
    generationCost: v.number(),
    evaluationCost: v.number(),
    totalCost: v.number(),
    totalQueries: v.number(),
    estimatedTokens: v.number(),
  }),
  calls: v.object({ generation: v.number(), evaluation: v.number(), total: v.number() }),
};

/** POST /api/v1/quote: the price tests.create would quote for this configuration, nothing stored. */
export const quoteConfiguration = internalQuery({
  args: { ...tokenArgs, configuration: v.any() },
  returns: v.union(
    v.object({ ok: v.literal(false), problems: problemsValidator }),
    v.object({ ok: v.literal(true), ...quoteFields }),
  ),
  handler: async (ctx, args) => {
    const principal = await principalFor(ctx, args.tokenId, "member");
    const { configuration, problems } = await parsedConfiguration(ctx, args.configuration);
    if (problems.length > 0) return { ok: false as const, problems };
    const priced = await priceConfiguration(ctx, principal.user._id, configuration);
    return {
      ok: true as const,
      priceCents: priced.priceCents,
      paymentRequired: priced.paymentRequired,
      usesOwnKey: priced.usesOwnKey,
      estimate: priced.estimate,
      calls: {
        generation: priced.calls.generationCalls,
        evaluation: priced.calls.evaluationCalls,
        total: priced.calls.total,
      },
    };
  },
});

/**
 * POST /api/v1/tests: tests.create for the token's space. Like Run Test, a test nobody has to
 * pay for (the user's own gateway key, a free deployment) is queued at once; otherwise it waits
 * for its payment (start answers the checkout address).
 */
export const create = internalMutation({
  args: { ...tokenArgs, configuration: v.any() },
  returns: v.union(
    v.object({ ok: v.literal(false), problems: problemsValidator }),
    v.object({ ok: v.literal(true), testId: v.id("tests"), priceCents: v.number(), paymentRequired: v.boolean() }),
  ),
  handler: async (ctx, args) => {
    const principal = await principalFor(ctx, args.tokenId, "member");
    const { configuration, problems } = await parsedConfiguration(ctx, args.configuration);
    if (problems.length > 0) return { ok: false as const, problems };
    const created = await createTest(ctx, principal.user._id, configuration, principal.teamId);
    return { ok: true as const, ...created };
  },
});

/** POST /api/v1/tests/{id}/start, first step: what the test needs to start, and who would pay. */
export const startable = internalQuery({
  args: { ...tokenArgs, testId: v.string() },
  returns: v.object({
    testId: v.id("tests"),
    userId: v.id("users"),
    status: v.string(),
    awaitingPayment: v.boolean(),
    priceCents: v.number(),
  }),
  handler: async (ctx, args) => {
    const principal = await principalFor(ctx, args.tokenId, "member");
    const test = await testFor(ctx, principal, args.testId, "act");
    const job = await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", test._id))
      .unique();
    const header = headerOf(test, job);
    // Only whoever created the test pays for it (payments.payableTest).
    if (header.awaitingPayment && test.userId !== principal.user._id) {
      fail("FORBIDDEN", "Only the person who created this test can pay for it.");
    }
    return {
      testId: test._id,
      userId: principal.user._id,
      status: test.status,
      awaitingPayment: header.awaitingPayment,
      priceCents: test.priceCents,
    };
  },
});

/**
 * Whether the test's figures will not change any more: it ended and, when it completed, its jury
 * statistics (rankings, intervals, the top group) were recomputed in full after the end, with no
 * recomputation waiting. A test is marked completed before that last recomputation lands (about a
 * second later), so a client that read the results on "completed" alone saw no ranks.
 */
async function isFinal(ctx: QueryCtx, test: Doc<"tests">): Promise<boolean> {
  if (!hasEnded(test.status)) return false;
  if (test.status !== "completed") return true;
  const stats = await ctx.db
    .query("testStats")
    .withIndex("by_test", (q) => q.eq("testId", test._id))
    .unique();
  return stats !== null && stats.exact === true && !stats.pending && !stats.dirty;
}

async function statusOf(ctx: QueryCtx, test: Doc<"tests">, job: Doc<"jobs"> | null) {
  const header = headerOf(test, job);
  return {
    testId: test._id,
    name: test.name,
    status: test.status,
    final: await isFinal(ctx, test),
    awaitingPayment: header.awaitingPayment,
    progress: {
      phase: test.progress.currentPhase,
      percentage: test.progress.percentage,
      ...(test.progress.estimatedTimeRemaining ? { estimatedTimeRemaining: test.progress.estimatedTimeRemaining } : {}),
    },
    responses: { done: test.responsesCount, expected: test.expectedResponses, missing: test.missingResponses },
    evaluations: { done: test.evaluationsCount, expected: test.expectedEvaluations, missing: test.missingEvaluations },
    priceCents: test.priceCents,
    chargedCents: header.chargedCents,
    usesOwnKey: test.usesOwnKey === true,
    gatewayCostUsd: test.totalCostUsd,
    createdAt: test._creationTime,
    ...(test.startedAt === undefined ? {} : { startedAt: test.startedAt }),
    ...(test.completedAt === undefined ? {} : { completedAt: test.completedAt }),
    ...(test.errorMessage ? { error: test.errorMessage } : {}),
    ...(test.lastCallError ? { lastCallError: test.lastCallError } : {}),
  };
}

async function jobOf(ctx: QueryCtx, test: Doc<"tests">) {
  return await ctx.db
    .query("jobs")
    .withIndex("by_test", (q) => q.eq("testId", test._id))
    .unique();
}

/** GET /api/v1/tests/{id}: status and progress. */
export const status = internalQuery({
  args: { ...tokenArgs, testId: v.string() },
  // The JSON the API answers; its shape is documented in lib/openapi.ts.
  returns: v.any(),
  handler: async (ctx, args) => {
    const principal = await principalFor(ctx, args.tokenId, "viewer");
    const test = await testFor(ctx, principal, args.testId, "read");
    return await statusOf(ctx, test, await jobOf(ctx, test));
  },
});

/** GET /api/v1/tests/{id}/quote: the quote stored when the test was created. */
export const quote = internalQuery({
  args: { ...tokenArgs, testId: v.string() },
  returns: v.object({
    testId: v.id("tests"),
    priceCents: v.number(),
    paymentRequired: v.boolean(),
    usesOwnKey: v.boolean(),
    estimate: quoteFields.estimate,
    expectedResponses: v.number(),
    expectedEvaluations: v.number(),
  }),
  handler: async (ctx, args) => {
    const principal = await principalFor(ctx, args.tokenId, "viewer");
    const test = await testFor(ctx, principal, args.testId, "read");
    const header = headerOf(test, await jobOf(ctx, test));
    return {
      testId: test._id,
      priceCents: test.priceCents,
      paymentRequired: header.awaitingPayment,
      usesOwnKey: test.usesOwnKey === true,
      estimate: test.estimate,
      expectedResponses: test.expectedResponses,
      expectedEvaluations: test.expectedEvaluations,
    };
  },
});

/**
 * GET /api/v1/tests/{id}/results: the rankings with the jury's intervals and tie ranks, the jury
 * statistics, the metrics, each model's check pass rate when the test has checks, and a settled
 * test's stop. Reads the test, its stats rows and its testStats row, as the results page does.
 */
export const results = internalQuery({
  args: { ...tokenArgs, testId: v.string() },
  returns: v.any(),
  handler: async (ctx, args) => {
    const principal = await principalFor(ctx, args.tokenId, "viewer");
    const test = await testFor(ctx, principal, args.testId, "read");
    const rows = await statsRowsOf(ctx, test._id);
    const jury = await juryViewOf(ctx, test);
    const juryModels = new Map((jury.stats?.models ?? []).map((model) => [model.modelId, model]));
    const rankings = rankingsOf(test, rows).map((ranking) => {
      const stats = juryModels.get(ranking.modelId);
      return {
        modelId: ranking.modelId,
        modelName: ranking.modelName,
        averageScore: ranking.averageScore,
        responses: ranking.totalResponses,
        evaluations: ranking.evaluationCount,
        meanScore: stats?.meanScore ?? null,
        scoreInterval: stats?.scoreInterval ?? null,
        /** Best and worst rank the intervals allow; best 1 is the top tie group. */
        rank: stats?.rank ?? null,
        rating: stats?.rating ?? null,
        ratingInterval: stats?.ratingInterval ?? null,
      };
    });
    const status = await statusOf(ctx, test, await jobOf(ctx, test));
    return {
      test: status,
      /** The figures will not change any more (see isFinal); until then rankings may lack ranks. */
      final: status.final,
      metrics: metricsOf(test, rows),
      rankings,
      // No tie group on too little evidence: the jury names no model then.
      topGroup:
        jury.stats?.summary.kind === "thin"
          ? []
          : rankings.filter((ranking) => ranking.rank?.best === 1).map((ranking) => ranking.modelId),
      verdict: verdictPayload(jury.stats),
      jury: jury.stats,
      /** Pass rates per model overall, per check and per persona with 95% Wilson intervals; null without checks. */
      checks: await checkSummary(ctx, test),
      /** "Stop when settled" in the results page's words: where the question stands and why it stopped; null without the setting. */
      settle: await settleWordsOfTest(ctx, test),
    };
  },
});

/** GET /api/v1/tests: the space's tests, newest first. */
export const list = internalQuery({
  args: { ...tokenArgs, limit: v.number() },
  returns: v.any(),
  handler: async (ctx, args) => {
    const principal = await principalFor(ctx, args.tokenId, "viewer");
    const limit = Math.max(1, Math.min(API_LIST_LIMIT, Math.floor(args.limit)));
    // The tests' summary rows (core/testSummaries.ts), within the list byte budget.
    const { rows } = await takeWithinBytes(
      (await summariesOfSpace({ ...ctx, user: principal.user }, principal.teamId)).order("desc"),
      limit,
    );
    return rows.map((test) => ({
      testId: test.testId,
      name: test.name,
      status: test.status,
      createdAt: test.createdAt,
      ...(test.completedAt === undefined ? {} : { completedAt: test.completedAt }),
      priceCents: test.priceCents,
      gatewayCostUsd: test.totalCostUsd,
      topPerformers: test.topPerformers,
    }));
  },
});

/** GET /api/v1/models: the catalog's models (ids to write in a configuration), by id. */
export const models = internalQuery({
  args: tokenArgs,
  returns: v.array(v.object({ id: v.string(), name: v.string(), tier: v.string() })),
  handler: async (ctx, args) => {
    await principalFor(ctx, args.tokenId, "viewer");
    const rows = await ctx.db.query("llmModels").take(MAX_CATALOG_SIZE);
    return rows
      .map((row) => ({ id: row.modelId, name: row.name, tier: row.tier }))
      .sort((a, b) => a.id.localeCompare(b.id));
  },
});
