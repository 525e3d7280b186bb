// @vitest-environment node
// Repeats for variance (issue 35, item 4) in the backend: the price and the calls scale with the
// repeats; a bad count is refused and stores nothing; a run makes every cell's calls once per
// repeat, each its own gateway call (the dev gateway then answers each repeat differently), judges
// each repeat apart, and the statistics and the export carry the repeat.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { quote } from "./lib/pricing";
import { REPEATS_MESSAGE } from "./lib/repeats";
import { backendWithUser, errorOf, sampleConfiguration, useDevGateway, waitFor } from "./test.helpers";

const GENERATORS = ["anthropic/claude-opus-4", "openai/gpt-4o-mini"];
const JUDGES = ["openai/gpt-4o", "anthropic/claude-sonnet-4"];
const MODELS = [...GENERATORS, ...JUDGES];
/** 2 personas × 2 topics: the 4 pairs an interval needs. */
const FOUR_PAIRS = {
  personas: [0, 1].map((index) => ({
    id: `p${index}`,
    name: `Reader ${index}`,
    description: `Reader ${index}`,
    systemPrompt: `You are reader number ${index}.`,
  })),
  topics: [0, 1].map((index) => ({
    id: `t${index}`,
    title: `Topic ${index}`,
    description: `Product line ${index}`,
    prompt: `Write a short launch email for product line ${index}.`,
  })),
  responsesPerTopic: 1,
};

const gateway = useDevGateway();

describe("repeats: price and validation", () => {
  test("three repeats triple the calls, the answers, the judgements and the cost, as the setup bar prices it", async () => {
    const { t, user } = await backendWithUser(MODELS, { holdQueue: true, pricePerToken: 5e-5 });
    const once = sampleConfiguration(GENERATORS, JUDGES, FOUR_PAIRS);
    const thrice = { ...once, repeats: 3 };
    const single = await user.as.mutation(api.tests.create, { configuration: once });
    const repeated = await user.as.mutation(api.tests.create, { configuration: thrice });
    const [a, b] = await t.run(async (ctx) => [
      (await ctx.db.get("tests", single.testId))!,
      (await ctx.db.get("tests", repeated.testId))!,
    ]);
    expect(b.configuration.repeats).toBe(3);
    expect(b.expectedResponses).toBe(3 * a.expectedResponses);
    expect(b.expectedEvaluations).toBe(3 * a.expectedEvaluations);
    expect(b.estimate.totalQueries).toBe(3 * a.estimate.totalQueries);
    expect(b.estimate.totalCost).toBeCloseTo(3 * a.estimate.totalCost, 12);
    expect(a.priceCents).toBeGreaterThan(200); // above the minimum, so the price follows the cost
    const catalog = Object.fromEntries(MODELS.map((id) => [id, { prompt: 5e-5, completion: 5e-5 }]));
    expect(repeated.priceCents).toBe(quote(thrice, catalog).priceCents);
    expect(repeated.priceCents).toBeGreaterThanOrEqual(3 * single.priceCents - 2);
  });

  test.each([0, 11, 2.5])("%s repeats are refused with the limit, and nothing is stored", async (repeats) => {
    const { t, user } = await backendWithUser(MODELS, { holdQueue: true });
    const configuration = { ...sampleConfiguration(GENERATORS, JUDGES, FOUR_PAIRS), repeats };
    const error = await errorOf(user.as.mutation(api.tests.create, { configuration }));
    expect(error).toMatchObject({ code: "INVALID_INPUT", message: REPEATS_MESSAGE, field: "repeats" });
    expect(await t.run((ctx) => ctx.db.query("tests").collect())).toHaveLength(0);
  });
});

describe("repeats: a run", () => {
  test("each cell runs once per repeat in its own call, judged apart; the statistics and the export carry the repeat", async () => {
    const { t, user } = await backendWithUser(MODELS, { email: "repeats@example.com" });
    const configuration = { ...sampleConfiguration(GENERATORS, JUDGES, FOUR_PAIRS), repeats: 3 };
    const chatsBefore = gateway().stats.chatCalls;
    const { testId } = await user.as.mutation(api.tests.create, { configuration });
    const ended = await waitFor(
      () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!),
      (row) => row.status !== "pending" && row.status !== "running",
      120_000,
    );
    await t.finishInProgressScheduledFunctions();
    expect(ended.status).toBe("completed");

    const calls = await t.run((ctx) =>
      ctx.db
        .query("calls")
        .withIndex("by_test_status", (q) => q.eq("testId", testId))
        .collect(),
    );
    const generation = calls.filter((call) => call.kind === "generate");
    const judging = calls.filter((call) => call.kind === "evaluate");
    // 2 models × 4 pairs × 3 repeats, each its own call; ranking: 2 judges × 4 pairs × 3 repeats.
    expect(generation).toHaveLength(24);
    expect(new Set(generation.map((call) => call.key)).size).toBe(24);
    expect(generation.map((call) => call.repeat).sort()).toEqual([
      ...Array(8).fill(0),
      ...Array(8).fill(1),
      ...Array(8).fill(2),
    ]);
    expect(judging).toHaveLength(24);
    expect(calls.every((call) => call.status === "succeeded")).toBe(true);
    expect(gateway().stats.chatCalls - chatsBefore).toBeGreaterThanOrEqual(48);

    // Each judge call ranks the two answers of one repeat, never answers of two repeats.
    const responses = await t.run((ctx) =>
      ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .collect(),
    );
    const repeatOf = new Map(responses.map((response) => [response._id, response.repeat]));
    for (const call of judging) {
      expect(call.responseIds).toHaveLength(2);
      expect(new Set(call.responseIds!.map((id) => repeatOf.get(id)))).toEqual(new Set([call.repeat]));
    }
    // Fresh calls: the three repeats of one cell are three different answers.
    const cell = responses.filter(
      (response) => response.modelId === GENERATORS[0] && response.personaId === "p0" && response.topicId === "t0",
    );
    expect(cell.map((response) => response.repeat).sort()).toEqual([0, 1, 2]);
    expect(new Set(cell.map((response) => response.content)).size).toBe(3);

    // The statistics: one unit per pair (the repeats clustered), and each model's spread.
    const view = await waitFor(
      () => user.as.query(api.results.juryStats, { testId }),
      (jury) => (jury?.stats?.models ?? []).every((model) => model.repeatSpread?.pairs === 4),
      60_000,
    );
    for (const model of view!.stats!.models) {
      expect(model.units).toBe(4);
      expect(model.repeatSpread).toMatchObject({ repeats: 3, pairs: 4 });
      expect(model.repeatSpread!.byRepeat).toHaveLength(3);
      expect(model.repeatSpread!.cellSd).not.toBeNull();
    }
    // Two answers ranked per call: some repeat of some pair must have swapped them (planted variance).
    expect(view!.stats!.models.some((model) => (model.repeatSpread!.cellSd ?? 0) > 0)).toBe(true);

    // The export's answer rows carry the repeat, so every figure can be rebuilt from them.
    const page = await user.as.query(api.results.exportResponses, {
      testId,
      paginationOpts: { numItems: 100, cursor: null },
    });
    expect(page.page).toHaveLength(24);
    expect(page.page.map((row) => row.repeat).sort()).toEqual(responses.map((row) => row.repeat).sort());
  }, 180_000);
});
