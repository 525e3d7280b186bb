// @vitest-environment node
// Landed calls are recorded in batches (core/pipeline/recordBatcher.ts, runner.recordBatch). A
// batch whose commit the worker did not hear of is sent again: it must change nothing, or the
// test would count its answers or its cost twice.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import { createBackend, createUser, drainDispatch, sampleConfiguration, seedCatalog } from "./test.helpers";
import { countedTest } from "./core/pipeline/counterRow";
import type { Outcome, WorkItem } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const JUDGES = ["google/gemini-2.0-flash-001"];
const GENERATION_COST = 0.001;

function generated(item: WorkItem): Outcome {
  expect(item.kind).toBe("generate");
  return {
    kind: "generated",
    answers: ["First answer.", "Second answer."],
    promptTokens: 10,
    completionTokens: 20,
    latencyMs: 700,
    costUsd: GENERATION_COST,
  };
}

describe("a batch of recordings", () => {
  test("sent twice records its calls once: answers and cost counted once", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...JUDGES]);
    await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
    const user = await createUser(t, "ada@example.com");
    const personas = ["p1", "p2"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
    const topics = ["t1", "t2"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
    const { testId } = await user.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics, responsesPerTopic: 2 }),
    });
    await drainDispatch(t);
    const items = await t.mutation(internal.runner.claimBatch, { testId, max: 3 });
    expect(items).toHaveLength(3);
    const results = items.map((item) => ({ callId: item.callId, leaseId: item.leaseId, outcome: generated(item) }));

    expect(await t.mutation(internal.runner.recordBatch, { results })).toEqual([true, true, true]);
    // The worker did not hear the answer (its action was killed, the connection dropped): again.
    expect(await t.mutation(internal.runner.recordBatch, { results })).toEqual([true, true, true]);
    await t.mutation(internal.runner.endWork, { testId }); // folds every delta

    const { test: row, responses } = await t.run(async (ctx) => ({
      test: (await countedTest(ctx, testId))!,
      responses: await ctx.db
        .query("responses")
        .withIndex("by_test_pair", (q) => q.eq("testId", testId))
        .collect(),
    }));
    expect(responses).toHaveLength(6);
    expect(row.responsesCount).toBe(6);
    expect(row.totalCostUsd).toBeCloseTo(3 * GENERATION_COST, 12);
    expect(row.totalTokens).toBe(3 * 30);
  });
});
