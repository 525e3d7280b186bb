// How each compared test ran (compare.get `runs`, issue 35 on the compare page): a test that
// stopped when settled says why and on how many pairs, a repeated one its repeats and each model's
// spread between them (hand-worked below), a plain one neither; a stranger's test gives nothing.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { SEED_MODELS, seedFinishedTest } from "./finishedTests.fixture";
import {
  computeFinalJuryStats,
  createBackend,
  createUser,
  errorOf,
  markSettled,
  type TestBackend,
} from "./test.helpers";

/** 16 answers (2 models × 2 personas × 2 topics × 2), each rated by 2 judges: model i scores 6.5 + i. */
async function seed(t: TestBackend, userId: Id<"users">, name: string) {
  return await seedFinishedTest(t, { userId, responses: 16, evaluationsPerResponse: 2, name });
}

/**
 * Two repeats: each cell's second answer (the last 8 of the 16) is its repeat 2, and there the
 * judges give the first model 9 instead of 6.5. So the first model scores 6.5 in repeat 1 and 9 in
 * repeat 2 on every pair: SD of the score = SD of one pair = 2.5 / √2 ≈ 1.7678; the second model
 * scores 7.5 in both: SD 0.
 */
async function repeatTwice(t: TestBackend, testId: Id<"tests">) {
  await t.run(async (ctx) => {
    const test = (await ctx.db.get("tests", testId))!;
    await ctx.db.patch("tests", testId, { configuration: { ...test.configuration, repeats: 2 } });
    const responses = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .take(16);
    for (const [index, response] of responses.entries()) {
      const repeat = index < 8 ? 0 : 1;
      await ctx.db.patch("responses", response._id, { repeat });
      if (repeat === 0 || response.modelId !== SEED_MODELS[0].id) continue;
      const evaluations = await ctx.db
        .query("evaluations")
        .withIndex("by_response", (q) => q.eq("responseId", response._id))
        .take(10);
      for (const evaluation of evaluations)
        await ctx.db.patch("evaluations", evaluation._id, { scores: { accuracy: 9, creativity: 9 } });
    }
  });
}

describe("compare.get: how each test ran", () => {
  test("a settled test says it stopped after 38 of 100 pairs and why; the plain one says nothing", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const settled = await seed(t, userId, "Settled");
    const full = await seed(t, userId, "Full");
    await markSettled(t, settled);

    const comparison = await as.query(api.compare.get, { a: settled, b: full });
    expect(comparison.runs.a.settle).toMatchObject({
      question: "Which model is best?",
      stopped: { reason: "settled", pairsDone: 38, pairsTotal: 100 },
      settledAfter: "Settled after 38 of 100 pairs",
      stoppedReason:
        "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.",
    });
    expect(comparison.runs.b).toEqual({ repeats: 1, repeatSpread: [], settle: null });
    // The other way round, the settled test is B.
    const swapped = await as.query(api.compare.get, { a: full, b: settled });
    expect(swapped.runs.a.settle).toBeNull();
    expect(swapped.runs.b.settle?.settledAfter).toBe("Settled after 38 of 100 pairs");
  });

  test("a repeated test gives its repeats and each model's spread between them", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const plain = await seed(t, userId, "Once");
    const repeated = await seed(t, userId, "Twice");
    await repeatTwice(t, repeated);
    await computeFinalJuryStats(t, plain);
    await computeFinalJuryStats(t, repeated);

    const { runs } = await as.query(api.compare.get, { a: plain, b: repeated });
    expect(runs.a).toEqual({ repeats: 1, repeatSpread: [], settle: null });
    expect(runs.b.repeats).toBe(2);
    expect(runs.b.settle).toBeNull();
    const [first, second] = runs.b.repeatSpread;
    expect(first).toMatchObject({ modelId: SEED_MODELS[0].id, repeatSpread: { repeats: 2, pairs: 4 } });
    expect(first!.repeatSpread!.byRepeat).toEqual([6.5, 9]);
    expect(first!.repeatSpread!.scoreSd).toBeCloseTo(2.5 / Math.SQRT2, 4);
    expect(first!.repeatSpread!.cellSd).toBeCloseTo(2.5 / Math.SQRT2, 4);
    expect(second).toMatchObject({ modelId: SEED_MODELS[1].id, repeatSpread: { repeats: 2, byRepeat: [7.5, 7.5] } });
    expect(second!.repeatSpread!.scoreSd).toBeCloseTo(0, 6);
  });

  test("a settled or repeated test the caller may not read gives nothing, however it is paired", async () => {
    const t = createBackend();
    const owner = await createUser(t, "ada@example.com");
    const stranger = await createUser(t, "eve@example.com");
    const theirs = await seed(t, owner.userId, "Settled");
    await markSettled(t, theirs);
    await repeatTwice(t, theirs);
    const own = await seed(t, stranger.userId, "Mine");
    for (const args of [
      { a: own, b: theirs },
      { a: theirs, b: own },
    ])
      expect(await errorOf(stranger.as.query(api.compare.get, args))).toMatchObject({
        code: "NOT_FOUND",
        message: "Test not found.",
      });
  });
});

describe("compare.answers of a repeated test", () => {
  test("each answer names its repeat, each model's answers in repeat order whatever order they arrived in", async () => {
    const t = createBackend();
    const { userId, as } = await createUser(t, "ada@example.com");
    const plain = await seed(t, userId, "Once");
    const repeated = await seed(t, userId, "Twice");
    // The later answers are the first repeat here: arrival order and repeat order disagree.
    const pair = await t.run(async (ctx) => {
      const test = (await ctx.db.get("tests", repeated))!;
      await ctx.db.patch("tests", repeated, { configuration: { ...test.configuration, repeats: 2 } });
      const responses = await ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", repeated))
        .take(16);
      for (const [index, response] of responses.entries())
        await ctx.db.patch("responses", response._id, { repeat: index < 8 ? 1 : 0 });
      return { personaId: responses[0]!.personaId, topicId: responses[0]!.topicId };
    });
    const answers = await as.query(api.compare.answers, { a: plain, b: repeated, pairA: pair, pairB: pair });
    expect(answers.b.map((answer) => [answer.modelName, answer.repeat])).toEqual([
      [SEED_MODELS[0].name, 0],
      [SEED_MODELS[0].name, 1],
      [SEED_MODELS[1].name, 0],
      [SEED_MODELS[1].name, 1],
    ]);
    expect(answers.a.every((answer) => answer.repeat === undefined)).toBe(true);
  });
});
