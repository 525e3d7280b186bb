// The run engine's migration: a test's stats rows from the sharded design (several per model ×
// persona, each with its shard) become one row per model × persona holding their sums, which
// every reader now reads alone; rows of the sharded counters (a table the schema no longer
// declares) are deleted.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import { seedFinishedTest } from "../../finishedTests.fixture";
import { createBackend, createUser } from "../../test.helpers";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const sums = (responses: number, latencies: number[], scoreSum: number) => ({
  responses,
  tokens: 100 * responses,
  costUsd: 0.001 * responses,
  latencyMsSum: latencies.reduce((sum, value) => sum + value, 0),
  latencyBuckets: [responses],
  latenciesMs: latencies,
  scoreSum,
  scoreCount: responses,
});

test("merges each model × persona's shard rows into one row and deletes the counters' shards", async () => {
  const t = createBackend();
  const owner = await createUser(t, "ada@example.com");
  const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 4 });
  await t.run(async (ctx) => {
    for (const row of await ctx.db
      .query("modelStats")
      .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
      .collect())
      await ctx.db.delete("modelStats", row._id);
    const model = "openai/gpt-4o-mini";
    await ctx.db.insert("modelStats", { testId, modelId: model, personaId: "", shard: 3, ...sums(2, [900, 1200], 14) });
    await ctx.db.insert("modelStats", { testId, modelId: model, personaId: "", shard: 11, ...sums(1, [1000], 8) });
    await ctx.db.insert("modelStats", { testId, modelId: model, personaId: "p1", shard: 0, ...sums(3, [800], 21) });
    const db = ctx.db as unknown as { insert: (table: string, value: object) => Promise<unknown> };
    await db.insert("runShards", { testId, shard: 5, responsesCount: 0 });
  });

  await t.mutation(internal.migrations.runEngine, {});
  await t.finishAllScheduledFunctions(vi.runAllTimers);

  const rows = await t.run(async (ctx) =>
    (
      await ctx.db
        .query("modelStats")
        .withIndex("by_test_model_persona", (q) => q.eq("testId", testId as Id<"tests">))
        .collect()
    ).map(({ _id, _creationTime, ...row }) => row),
  );
  expect(rows).toEqual([
    {
      testId,
      modelId: "openai/gpt-4o-mini",
      personaId: "",
      responses: 3,
      tokens: 300,
      costUsd: 0.001 * 2 + 0.001,
      latencyMsSum: 3100,
      latencyBuckets: [3],
      latenciesMs: [900, 1000, 1200],
      scoreSum: 22,
      scoreCount: 3,
    },
    { testId, modelId: "openai/gpt-4o-mini", personaId: "p1", ...sums(3, [800], 21) },
  ]);
  const counterShards = await t.run(async (ctx) =>
    (ctx.db as unknown as { query: (table: string) => { collect: () => Promise<unknown[]> } })
      .query("runShards")
      .collect(),
  );
  expect(counterShards).toEqual([]);
});
