// @vitest-environment node
// What each query of the results and shared pages that shows names (answers, judgements, failed
// answers, the jury figures, the settle line, the team's review figures) reads per run, on the local backend's meter: a run
// is what each of its re-runs reads while the test runs (each new answer, judgement or
// statistics run in its range). The test's configuration is ~150 KB here (personas' and topics'
// long prompts, as a real test's may be): each run reads less than the test's row alone, so none
// reads the test. They show the same names as the configuration gives, refuse a stranger and
// answer null to a withdrawn link; a test written before names rows existed shows the same
// until, and after, migrations:testNames writes its row.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { meterDifference } from "../dev/backend/meter";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { seedConfiguration, seedFinishedTest } from "./finishedTests.fixture";
import { createUserSession, refusalOf, startLocalBackend, type LocalBackend } from "./test.helpers";
import type { TestConfiguration } from "./validators";
import { TEST_NOT_FOUND } from "./core/testAccess";
import { syncTestSummaryOf } from "./core/testSummaries";
import { settledAfterText } from "./lib/settleWords";

/** A configuration of ~150 KB: the seeded grid's names, with long prompts. */
function largeConfiguration(): TestConfiguration {
  const seed = seedConfiguration();
  return {
    ...seed,
    userPrompt: `Write a tagline. ${"Keep to the point. ".repeat(1_000)}`,
    personas: seed.personas.map((persona) => ({
      ...persona,
      systemPrompt: `${persona.systemPrompt} ${"Speak plainly and kindly. ".repeat(2_000)}`,
    })),
    topics: seed.topics.map((topic) => ({
      ...topic,
      prompt: `${topic.prompt} ${"Say why it matters. ".repeat(1_000)}`,
    })),
    stopWhenSettled: { question: "withinDelta", confidence: 0.95, modelId: seed.generatorModels[1]!.id, delta: 1 },
  };
}

/** Each query run once, with the bytes the meter says it read (its name is the meter's). */
async function readsOf(backend: LocalBackend, calls: Record<string, () => Promise<unknown>>) {
  const results: Record<string, unknown> = {};
  const bytes: Record<string, number> = {};
  for (const [query, call] of Object.entries(calls)) {
    const before = backend.meter.read();
    results[query] = await call();
    const reading = meterDifference(backend.meter.read(), before)[query];
    expect({ query, calls: reading?.calls }).toEqual({ query, calls: 1 });
    bytes[query] = reading!.bytesRead;
  }
  return { results, bytes };
}

test("the results and shared pages' queries that show names read no configuration", { timeout: 120_000 }, async () => {
  const keysDir = mkdtempSync(join(tmpdir(), "mj-page-reads-"));
  const backend = await startLocalBackend(join(keysDir, "keys.json"));
  try {
    const { t } = backend;
    const { userId, sessionId } = await createUserSession(t, "ada@example.com");
    const as = t.withIdentity({ subject: `${userId}|${sessionId}` });
    const eve = await createUserSession(t, "eve@example.com");
    const stranger = t.withIdentity({ subject: `${eve.userId}|${eve.sessionId}` });
    const configuration = largeConfiguration();
    const testId = await seedFinishedTest(t, {
      userId,
      responses: 24,
      evaluationsPerResponse: 2,
      status: "running",
      configuration,
    });
    const shareId = "page-reads-share";
    const generators = configuration.generatorModels;
    await t.run(async (ctx) => {
      await ctx.db.insert("shares", { testId, userId, shareId, isActive: true });
      // Three answers failed a check; the statistics' last look names both generators.
      const answers = await ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .take(3);
      for (const answer of answers) await ctx.db.patch("responses", answer._id, { failedCheck: true });
      await ctx.db.insert("testStats", {
        testId,
        evaluationsSeen: 48,
        pending: false,
        dirty: false,
        settle: {
          question: "withinDelta",
          confidence: 0.95,
          pairsDone: 3,
          pairsTotal: 4,
          settled: true,
          outcome: "outside",
          modelId: generators[1]!.id,
          otherModelId: generators[0]!.id,
          interval: { low: -3, high: -2 },
          threshold: -1,
          failing: [],
        },
      });
    });
    const testRowBytes = await t.run(async (ctx) => JSON.stringify(await ctx.db.get("tests", testId)).length);
    expect(testRowBytes).toBeGreaterThan(150_000);

    const firstPage = (numItems: number) => ({ testId, paginationOpts: { numItems, cursor: null } });
    const pageQueries = {
      "results:responses": () => as.query(api.results.responses, firstPage(20)),
      "results:evaluations": () => as.query(api.results.evaluations, firstPage(10)),
      "results:juryStats": () => as.query(api.results.juryStats, { testId }),
      "checks:failedResponses": () => as.query(api.checks.failedResponses, firstPage(20)),
      "settle:status": () => as.query(api.settle.status, { testId }),
      "reviews:summary": () => as.query(api.reviews.summary, { testId }),
      "shares:juryStats": () => t.query(api.shares.juryStats, { shareId }),
      "sharedExtras:settleStatus": () => t.query(api.sharedExtras.settleStatus, { shareId }),
    };
    const { results, bytes } = await readsOf(backend, pageQueries);
    console.log(`bytes read per run: ${JSON.stringify(bytes)} (the test's row: ${testRowBytes})`);
    for (const [query, read] of Object.entries(bytes))
      expect({ query, readsLessThanTheTestRow: read < testRowBytes }).toEqual({ query, readsLessThanTheTestRow: true });

    // The names the configuration gives, as the pages show them.
    const responses = results["results:responses"] as {
      page: { modelName: string; personaName: string; topicTitle: string }[];
    };
    expect(responses.page).toHaveLength(20);
    expect(new Set(responses.page.map((row) => row.modelName))).toEqual(new Set(generators.map((model) => model.name)));
    expect(new Set(responses.page.map((row) => row.personaName))).toEqual(new Set(["Pirate", "Poet"]));
    expect(new Set(responses.page.map((row) => row.topicTitle))).toEqual(new Set(["Coffee", "Bikes"]));
    const evaluations = results["results:evaluations"] as { page: { evaluatorName: string }[] };
    expect(new Set(evaluations.page.map((row) => row.evaluatorName))).toEqual(
      new Set(["Gemini 2.0 Flash", "DeepSeek V3"]),
    );
    expect(results["results:juryStats"]).toMatchObject({
      live: true,
      judges: configuration.evaluatorModels.map(({ id, name }) => ({ id, name })),
      personas: [
        { id: "p1", name: "Pirate" },
        { id: "p2", name: "Poet" },
      ],
      topics: [
        { id: "t1", name: "Coffee" },
        { id: "t2", name: "Bikes" },
      ],
    });
    expect((results["checks:failedResponses"] as { page: unknown[] }).page).toHaveLength(3);
    expect(results["reviews:summary"]).toMatchObject({
      totalPairs: 4,
      models: generators.map((model) => ({ modelId: model.id, modelName: model.name })),
      judges: configuration.evaluatorModels.map((model) => ({ judgeModelId: model.id, judgeName: model.name })),
    });
    expect(results["settle:status"]).toMatchObject({
      question: "Is Claude 3.5 Haiku within 1 points of the best?",
      line: "Settled at 95%: Claude 3.5 Haiku is not within 1 points of the best (GPT-4o Mini is further ahead)",
      stopped: null,
      setting: configuration.stopWhenSettled,
    });
    const { setting: _setting, ...ownerSettle } = results["settle:status"] as Record<string, unknown>;
    expect(results["sharedExtras:settleStatus"]).toEqual(ownerSettle);

    // A stranger is refused as before; a withdrawn link shows nothing.
    for (const call of [
      () => stranger.query(api.results.responses, firstPage(20)),
      () => stranger.query(api.results.evaluations, firstPage(10)),
      () => stranger.query(api.results.juryStats, { testId }),
      () => stranger.query(api.checks.failedResponses, firstPage(20)),
      () => stranger.query(api.settle.status, { testId }),
      () => stranger.query(api.reviews.summary, { testId }),
    ])
      expect(await refusalOf(call())).toEqual({ code: "NOT_FOUND", message: TEST_NOT_FOUND });
    await as.mutation(api.shares.disable, { testId });
    expect(await t.query(api.shares.juryStats, { shareId })).toBeNull();
    expect(await t.query(api.sharedExtras.settleStatus, { shareId })).toBeNull();
    await t.run(async (ctx) => {
      const share = await ctx.db
        .query("shares")
        .withIndex("by_share_id", (q) => q.eq("shareId", shareId))
        .unique();
      await ctx.db.patch("shares", share!._id, { isActive: true });
    });

    // Stopped when settled, as the test ends: the owner's and the shared settle line say why.
    await t.run(async (ctx) => {
      await ctx.db.patch("tests", testId, {
        status: "completed",
        stopped: { reason: "settled", pairsDone: 3, pairsTotal: 4 },
      });
      await syncTestSummaryOf(ctx, testId);
    });
    const ended = await readsOf(backend, pageQueries);
    for (const [query, read] of Object.entries(ended.bytes))
      expect({ query, readsLessThanTheTestRow: read < testRowBytes }).toEqual({ query, readsLessThanTheTestRow: true });
    expect(ended.results["settle:status"]).toMatchObject({
      stopped: { reason: "settled", pairsDone: 3, pairsTotal: 4 },
      settledAfter: settledAfterText({ pairsDone: 3, pairsTotal: 4 }),
    });
    expect(ended.results["results:juryStats"]).toMatchObject({ live: false });

    // A test written before names rows existed: the same figures and names, from its own row.
    const dropNames = (id: Id<"tests">) =>
      t.run(async (ctx) => {
        const row = await ctx.db
          .query("testNames")
          .withIndex("by_test", (q) => q.eq("testId", id))
          .unique();
        await ctx.db.delete("testNames", row!._id);
      });
    await dropNames(testId);
    const older = await readsOf(backend, pageQueries);
    console.log(`bytes read per run without a names row (from the test's row): ${JSON.stringify(older.bytes)}`);
    expect(older.results).toEqual(ended.results);
    for (const [query, read] of Object.entries(older.bytes))
      expect({ query, read: read > testRowBytes }).toEqual({ query, read: true });
    // The migration writes its names row (and leaves a test that has one as it is): small reads again.
    const other = await seedFinishedTest(t, { userId, responses: 2 });
    const otherNames = await t.run((ctx) =>
      ctx.db
        .query("testNames")
        .withIndex("by_test", (q) => q.eq("testId", other))
        .unique(),
    );
    expect(await t.mutation(internal.migrations.testNames, {})).toEqual({ written: 1, done: true });
    expect(
      await t.run((ctx) =>
        ctx.db
          .query("testNames")
          .withIndex("by_test", (q) => q.eq("testId", other))
          .unique(),
      ),
    ).toEqual(otherNames);
    const migrated = await readsOf(backend, pageQueries);
    expect(migrated.results).toEqual(ended.results);
    for (const [query, read] of Object.entries(migrated.bytes))
      expect({ query, readsLessThanTheTestRow: read < testRowBytes }).toEqual({ query, readsLessThanTheTestRow: true });
  } finally {
    await backend.close();
    rmSync(keysDir, { recursive: true, force: true });
  }
});
