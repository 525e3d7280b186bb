import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { seedFinishedTest, SEED_MODELS } from "./finishedTests.fixture";
import { createUser, createBackend, codeOf, errorOf } from "./test.helpers";

async function setup(responses = 40, evaluationsPerResponse = 3) {
  const t = createBackend();
  const owner = await createUser(t, "owner@example.com");
  const testId = await seedFinishedTest(t, {
    userId: owner.userId,
    responses,
    evaluationsPerResponse,
    withPayment: true,
  });
  return { t, owner, testId };
}

describe("results.get", () => {
  test("gives the header, the four metrics, rankings, the persona breakdown and the chart data", async () => {
    const { owner, testId } = await setup(40, 3);
    const results = await owner.as.query(api.results.get, { testId });
    expect(results.valid).toBe(true);
    expect(results.test.name).toBe("Coffee taglines");
    expect(results.metrics).toMatchObject({ totalResponses: 40, evaluations: 120, completionRate: 1 });
    // Half the answers at 800 ms, half at 1200 ms.
    expect(results.metrics.averageResponseTimeMs).toBe(1000);
    // Model 1 (Claude) scores 7.5, model 0 (GPT) 6.5: the better one ranks first.
    expect(
      results.rankings.map((ranking) => [ranking.modelName, ranking.averageScore, ranking.totalResponses]),
    ).toEqual([
      [SEED_MODELS[1].name, 7.5, 20],
      [SEED_MODELS[0].name, 6.5, 20],
    ]);
    expect(results.personaBreakdown.map((persona) => persona.personaName)).toEqual(["Pirate", "Poet"]);
    expect(results.personaBreakdown[0].rankings[0]).toMatchObject({
      modelName: SEED_MODELS[1].name,
      totalResponses: 10,
    });

    const [best, cheaper] = results.models;
    expect(best).toMatchObject({ modelName: SEED_MODELS[1].name, averageScore: 7.5, responses: 20 });
    expect(best.costPerResponseUsd).toBeCloseTo(0.0002);
    expect(cheaper.costPerResponseUsd).toBeCloseTo(0.0001);
    // Cheaper but worse, and better but dearer: neither beats the other on both.
    expect(results.models.every((model) => model.onFrontier)).toBe(true);
    expect(best.averageLatencyMs).toBe(1200);
    expect(best.medianLatencyMs).toBeGreaterThan(1000);
    expect(best.medianLatencyMs).toBeLessThanOrEqual(1500);
    expect(best.p95LatencyMs).toBeLessThanOrEqual(1500);

    expect(results.heatmap.personas.map((persona) => persona.name)).toEqual(["Pirate", "Poet"]);
    expect(results.heatmap.models.map((model) => model.name)).toEqual([SEED_MODELS[1].name, SEED_MODELS[0].name]);
    expect(results.heatmap.cells).toHaveLength(4);
    expect(results.heatmap.cells[0]).toMatchObject({ personaId: "p1", modelId: SEED_MODELS[1].id, averageScore: 7.5 });
    expect(results.share).toBeNull();
  });

  test("a model that is dearer and no better is off the frontier", async () => {
    const { t, owner, testId } = await setup(8, 1);
    await t.run(async (ctx) => {
      const rows = await ctx.db
        .query("modelStats")
        .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
        .collect();
      for (const row of rows) {
        // Make the cheaper model also the better one.
        if (row.modelId === SEED_MODELS[0].id)
          await ctx.db.patch("modelStats", row._id, { scoreSum: row.scoreCount * 9.9 });
      }
    });
    const results = await owner.as.query(api.results.get, { testId });
    expect(results.models.find((model) => model.modelId === SEED_MODELS[0].id)?.onFrontier).toBe(true);
    expect(results.models.find((model) => model.modelId === SEED_MODELS[1].id)?.onFrontier).toBe(false);
  });

  test("a test without personas is reported as invalid rather than breaking the page", async () => {
    const { t, owner, testId } = await setup(4, 0);
    await t.run(async (ctx) => {
      const row = (await ctx.db.get("tests", testId))!;
      await ctx.db.patch("tests", testId, { configuration: { ...row.configuration, personas: [] } });
    });
    expect((await owner.as.query(api.results.get, { testId })).valid).toBe(false);
  });
});

describe("results lists", () => {
  test("responses come 20 at a time in arrival order, with names, cost and score", async () => {
    const { owner, testId } = await setup(45, 2);
    const first = await owner.as.query(api.results.responses, {
      testId,
      paginationOpts: { numItems: 20, cursor: null },
    });
    expect(first.page).toHaveLength(20);
    expect(first.isDone).toBe(false);
    expect(first.page[0]).toMatchObject({
      modelName: SEED_MODELS[0].name,
      personaName: "Pirate",
      topicTitle: "Coffee",
      tokens: 100,
      latencyMs: 800,
      averageScore: 6.5,
      evaluationCount: 2,
    });
    expect(first.page[0].content).toContain("Answer 1");
    const second = await owner.as.query(api.results.responses, {
      testId,
      paginationOpts: { numItems: 20, cursor: first.continueCursor },
    });
    const third = await owner.as.query(api.results.responses, {
      testId,
      paginationOpts: { numItems: 20, cursor: second.continueCursor },
    });
    expect(third.page).toHaveLength(5);
    expect(third.isDone).toBe(true);
  });

  test("a client cannot ask for an unbounded page", async () => {
    const { owner, testId } = await setup(150, 0);
    const page = await owner.as.query(api.results.responses, {
      testId,
      paginationOpts: { numItems: 100_000, cursor: null },
    });
    expect(page.page).toHaveLength(100);
  });

  test("a cursor this list did not hand out starts the list again (usePaginatedQuery resets on InvalidCursor)", async () => {
    const { owner, testId } = await setup(30, 0);
    for (const cursor of ["not a cursor", "[1, -1]", '{"time":1}', "[1, 100000]"]) {
      const refusal = await errorOf(
        owner.as.query(api.results.responses, { testId, paginationOpts: { numItems: 20, cursor } }),
      );
      expect(refusal.code).toBe("INVALID_INPUT");
      expect(refusal.message).toContain("InvalidCursor");
    }
  });

  test("evaluations come 10 at a time with the judge's name and the answer judged", async () => {
    const { owner, testId } = await setup(10, 3);
    const first = await owner.as.query(api.results.evaluations, {
      testId,
      paginationOpts: { numItems: 10, cursor: null },
    });
    expect(first.page).toHaveLength(10);
    expect(first.page[0]).toMatchObject({
      evaluatorName: "Gemini 2.0 Flash",
      scores: { accuracy: 6, creativity: 7 },
      explanation: "Judge 1: clear and on topic.",
    });
    expect(first.page[0].response?.content).toContain("Answer 1");
    expect(first.isDone).toBe(false);
  });

  test("the export pages through every response and evaluation", async () => {
    const { owner, testId } = await setup(1200, 1);
    let cursor: string | null = null;
    let responses = 0;
    let pages = 0;
    for (;;) {
      const page: { page: unknown[]; isDone: boolean; continueCursor: string } = await owner.as.query(
        api.results.exportResponses,
        {
          testId,
          paginationOpts: { numItems: 10_000, cursor },
        },
      );
      responses += page.page.length;
      pages++;
      if (page.isDone) break;
      cursor = page.continueCursor;
    }
    expect(responses).toBe(1200);
    expect(pages).toBe(3);
    const evaluations = await owner.as.query(api.results.exportEvaluations, {
      testId,
      paginationOpts: { numItems: 2000, cursor: null },
    });
    expect(evaluations.page).toHaveLength(1000);
    expect(evaluations.page[0]).toMatchObject({ scores: { accuracy: 6, creativity: 7 } });
  });
});

describe("access", () => {
  test("another user cannot read, export, share or delete someone else's test", async () => {
    const { t, testId } = await setup(5, 1);
    const intruder = await createUser(t, "intruder@example.com");
    const page = { numItems: 10, cursor: null };
    expect(await codeOf(intruder.as.query(api.results.get, { testId }))).toBe("NOT_FOUND");
    expect(await codeOf(intruder.as.query(api.results.responses, { testId, paginationOpts: page }))).toBe("NOT_FOUND");
    expect(await codeOf(intruder.as.query(api.results.evaluations, { testId, paginationOpts: page }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(intruder.as.query(api.results.exportResponses, { testId, paginationOpts: page }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(intruder.as.query(api.results.exportEvaluations, { testId, paginationOpts: page }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(intruder.as.mutation(api.shares.enable, { testId }))).toBe("NOT_FOUND");
    expect(await codeOf(intruder.as.mutation(api.shares.disable, { testId }))).toBe("NOT_FOUND");
    expect(await codeOf(intruder.as.mutation(api.tests.remove, { testId }))).toBe("NOT_FOUND");
    expect(await t.run(async (ctx) => await ctx.db.get("tests", testId))).not.toBeNull();
    expect(await codeOf(t.query(api.results.get, { testId }))).toBe("UNAUTHENTICATED");
  });
});

describe("addresses", () => {
  test("an id that is not a test id reads as not found", async () => {
    const { owner } = await setup(1, 0);
    expect(await codeOf(owner.as.query(api.results.get, { testId: "not-an-id" }))).toBe("NOT_FOUND");
  });
});
