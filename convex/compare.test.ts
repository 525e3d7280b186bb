// Compare two tests (compare.ts) on seeded finished tests: a known difference is found, two
// identical tests show none, a stranger's test is refused, and one pair's answers come side by side.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { KEPT_ROWS_BUDGET } from "./core/compare";
import { SEED_MODELS, seedFinishedTest } from "./finishedTests.fixture";
import {
  computeFinalJuryStats,
  createBackend,
  createUser,
  errorOf,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
} from "./test.helpers";
import { syncTestSummaryOf } from "./core/testSummaries";

/** 16 answers (2 models × 2 personas × 2 topics × 2), each rated by 2 judges: model i scores 6.5 + i. */
async function seed(t: TestBackend, userId: Id<"users">, name = "Coffee taglines") {
  return await seedFinishedTest(t, { userId, responses: 16, evaluationsPerResponse: 2, name });
}

/** Every judge now gives the first model's answers 9 and 9 (score 9 instead of 6.5). */
async function rescoreFirstModel(t: TestBackend, testId: Id<"tests">) {
  await t.run(async (ctx) => {
    const responses = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .take(100);
    for (const response of responses) {
      if (response.modelId !== SEED_MODELS[0].id) continue;
      const evaluations = await ctx.db
        .query("evaluations")
        .withIndex("by_response", (q) => q.eq("responseId", response._id))
        .take(10);
      for (const evaluation of evaluations) {
        await ctx.db.patch("evaluations", evaluation._id, { scores: { accuracy: 9, creativity: 9 } });
      }
    }
  });
}

describe("compare.get", () => {
  test("two tests with a known difference: the first model gains 2.5, larger than chance; the order reverses", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const a = await seed(t, userId);
    const b = await seed(t, userId, "Coffee taglines (Rerun)");
    await rescoreFirstModel(t, b);
    await computeFinalJuryStats(t, a);
    await computeFinalJuryStats(t, b);

    const comparison = await as.query(api.compare.get, { a, b });
    expect(comparison.a.name).toBe("Coffee taglines");
    expect(comparison.b.name).toBe("Coffee taglines (Rerun)");
    expect(comparison.models).toEqual([
      {
        modelId: SEED_MODELS[0].id,
        modelName: SEED_MODELS[0].name,
        a: { score: 6.5, rank: 2 },
        b: { score: 9, rank: 1 },
        difference: 2.5,
        interval: { low: 2.5, high: 2.5 },
        largerThanChance: true,
      },
      {
        modelId: SEED_MODELS[1].id,
        modelName: SEED_MODELS[1].name,
        a: { score: 7.5, rank: 1 },
        b: { score: 7.5, rank: 2 },
        difference: 0,
        interval: { low: 0, high: 0 },
        largerThanChance: false,
      },
    ]);
    expect(comparison.rankCorrelation.value).toBe(-1);
    expect(comparison.rankCorrelation.reading).toMatch(/^Reversed/);
    expect(comparison.differences).toEqual([]);
    expect(comparison.pairs).toHaveLength(4);
  });

  test("two identical tests: no difference found and a rank correlation of 1", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const a = await seed(t, userId);
    const b = await seed(t, userId);
    await computeFinalJuryStats(t, a);
    await computeFinalJuryStats(t, b);

    const comparison = await as.query(api.compare.get, { a, b });
    expect(comparison.models.map((model) => [model.difference, model.largerThanChance])).toEqual([
      [0, false],
      [0, false],
    ]);
    expect(comparison.rankCorrelation.value).toBe(1);
    expect(comparison.rankCorrelation.reading).toMatch(/^Stable/);
  });

  test("before the jury statistics keep their rows, the scores come from the per-persona stats", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const a = await seed(t, userId);
    const b = await seed(t, userId);
    const comparison = await as.query(api.compare.get, { a, b });
    expect(comparison.models.map((model) => [model.a.score, model.b.score, model.difference])).toEqual([
      [6.5, 6.5, 0],
      [7.5, 7.5, 0],
    ]);
  });

  test("a test too large to decode its kept rows in a query is resampled per persona", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const a = await seed(t, userId);
    const b = await seed(t, userId);
    await rescoreFirstModel(t, b);
    await computeFinalJuryStats(t, a);
    await computeFinalJuryStats(t, b);
    expect((await as.query(api.compare.get, { a, b })).resampled).toBe("pair");
    await t.run((ctx) => ctx.db.patch("tests", b, { evaluationsCount: KEPT_ROWS_BUDGET }));
    const comparison = await as.query(api.compare.get, { a, b });
    expect(comparison.resampled).toBe("persona");
    // The per-persona stats rows, which the rescoring did not touch.
    expect(comparison.models[0]!.b.score).toBe(6.5);
  });

  test("says what differs in the configuration and which models only one test has", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const a = await seed(t, userId);
    const b = await seed(t, userId);
    await t.run(async (ctx) => {
      const test = (await ctx.db.get("tests", b))!;
      await ctx.db.patch("tests", b, {
        configuration: {
          ...test.configuration,
          userPrompt: "Write a slogan.",
          generatorModels: [SEED_MODELS[1], { id: "x/new", name: "New Model" }],
        },
      });
    });
    const comparison = await as.query(api.compare.get, { a, b });
    expect(comparison.models.map((model) => model.modelName)).toEqual([SEED_MODELS[1].name]);
    expect(comparison.onlyInA).toEqual([SEED_MODELS[0].name]);
    expect(comparison.onlyInB).toEqual(["New Model"]);
    expect(comparison.differences).toEqual([
      `Models only in A: ${SEED_MODELS[0].name}.`,
      "Models only in B: New Model.",
      "The prompt differs.",
    ]);
  });

  test("refuses a stranger's test, and the same test twice", async () => {
    const t = createBackend();
    const owner = await createUser(t, "ada@example.com");
    const stranger = await createUser(t, "eve@example.com");
    const mine = await seed(t, owner.userId);
    const theirs = await seed(t, stranger.userId);
    expect(await errorOf(owner.as.query(api.compare.get, { a: mine, b: theirs }))).toMatchObject({
      code: "NOT_FOUND",
      message: "Test not found.",
    });
    expect(await errorOf(owner.as.query(api.compare.get, { a: theirs, b: mine }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await errorOf(owner.as.query(api.compare.answers, { a: mine, b: theirs }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await errorOf(owner.as.query(api.compare.get, { a: mine, b: "not-an-id" }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await errorOf(owner.as.query(api.compare.get, { a: mine, b: mine }))).toMatchObject({
      code: "INVALID_INPUT",
      message: "Pick two different tests to compare.",
    });
  });

  test("a team's test is compared by a viewer of the team, as its results are", async () => {
    const t = createBackend();
    const owner = await createUser(t, "ada@example.com");
    const viewer = await createUser(t, "vic@example.com");
    const teamTest = await seed(t, owner.userId);
    const own = await seed(t, viewer.userId);
    await t.run(async (ctx) => {
      const teamId = await ctx.db.insert("teams", { name: "Team", createdBy: owner.userId, updatedAt: Date.now() });
      await ctx.db.insert("memberships", { teamId, userId: owner.userId, role: "owner" });
      await ctx.db.insert("memberships", { teamId, userId: viewer.userId, role: "viewer" });
      await ctx.db.patch("tests", teamTest, { teamId });
      await syncTestSummaryOf(ctx, teamTest); // its summary and access row, as a test created in the team has
    });
    const comparison = await viewer.as.query(api.compare.get, { a: teamTest, b: own });
    expect(comparison.models).toHaveLength(2);
  });
});

describe("compare.answers", () => {
  test("one persona × topic pair's answers of both tests side by side, models in the test's order", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const a = await seed(t, userId);
    const b = await seed(t, userId);
    const answers = await as.query(api.compare.answers, {
      a,
      b,
      pairA: { personaId: "p1", topicId: "t1" },
      pairB: { personaId: "p2", topicId: "t2" },
    });
    expect(answers.a.map((answer) => answer.modelName)).toEqual([
      SEED_MODELS[0].name,
      SEED_MODELS[0].name,
      SEED_MODELS[1].name,
      SEED_MODELS[1].name,
    ]);
    expect(answers.b).toHaveLength(4);
    expect(answers.a[0]!.averageScore).toBe(6.5);
    // A pair the other test does not have: that side is empty.
    expect((await as.query(api.compare.answers, { a, b, pairA: { personaId: "p1", topicId: "t1" } })).b).toEqual([]);
  });
});

describe("a rerun's link to its original (tests.rerunOf)", () => {
  test("Run Test of a rerun records the original, and the rerun's results header carries it", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const configuration = sampleConfiguration();
    await seedCatalog(
      t,
      [...configuration.generatorModels, ...configuration.evaluatorModels].map((model) => model.id),
    );
    const original = await seed(t, userId);
    const { testId } = await as.mutation(api.tests.create, {
      configuration: { ...configuration, name: "Coffee taglines (Rerun)" },
      rerunOf: original,
    });
    expect((await as.query(api.results.get, { testId })).test.rerunOf).toBe(original);
    const plain = await as.mutation(api.tests.create, { configuration });
    expect((await as.query(api.results.get, { testId: plain.testId })).test.rerunOf).toBeUndefined();
  });

  test("a rerun of a test the user may not read is refused and creates nothing", async () => {
    const t = createBackend();
    const owner = await createUser(t, "ada@example.com");
    const stranger = await createUser(t, "eve@example.com");
    const configuration = sampleConfiguration();
    await seedCatalog(
      t,
      [...configuration.generatorModels, ...configuration.evaluatorModels].map((model) => model.id),
    );
    const theirs = await seed(t, stranger.userId);
    expect(await errorOf(owner.as.mutation(api.tests.create, { configuration, rerunOf: theirs }))).toMatchObject({
      code: "NOT_FOUND",
    });
    const tests = await t.run((ctx) =>
      ctx.db
        .query("tests")
        .withIndex("by_user", (q) => q.eq("userId", owner.userId))
        .take(10),
    );
    expect(tests).toEqual([]);
  });
});
