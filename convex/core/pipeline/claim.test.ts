// The pool worker's claims read the test's small run and work rows, never the test's row: the
// worker's report folds the counters into that row about once a second while the run goes on,
// and on a deployment every claim that had read it conflicted with the report and ran again
// (bench/deployment.ts: runner:claimBatch ← tests by runner:beat), each also reading the test's
// counters, estimate and progress with its configuration.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "../../_generated/api";
import type { MutationCtx } from "../../_generated/server";
import { createBackend, createUser, sampleConfiguration, seedCatalog } from "../../test.helpers";
import { orderedPairs } from "../../lib/settleInput";
import type { TestConfiguration, WorkItem } from "../../validators";
import { claimBatch } from "./claim";
import { recordOutcome } from "./record";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const JUDGES = ["google/gemini-2.0-flash-001"];

/** The context with its reads of documents by id and queries noted by table (by id also in `gets`). */
function noteReads(ctx: MutationCtx, tables: Set<string>, gets = new Set<string>()): MutationCtx {
  const db = new Proxy(ctx.db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key === "get")
        return (table: string, ...rest: unknown[]) => {
          tables.add(table);
          gets.add(table);
          return (target.get as (...args: unknown[]) => unknown)(table, ...rest);
        };
      if (key === "query")
        return (table: string) => {
          tables.add(table);
          return target.query(table as never);
        };
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...ctx, db } as MutationCtx;
}

/** A started test of 2 generators, 1 persona, 1 topic (unless given) and 1 judge whose worker the test plays. */
async function startedTest(overrides: Partial<TestConfiguration> = {}) {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...JUDGES]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 }));
  const user = await createUser(t, "ada@example.com");
  const { testId } = await user.as.mutation(api.tests.create, {
    configuration: sampleConfiguration(GENERATORS, JUDGES, { responsesPerTopic: 1, ...overrides }),
  });
  await t.mutation(internal.runner.dispatch, {});
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  return { t, user, testId };
}

describe("a pool worker's claims", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test("build the calls' prompts from the run's rows without reading the test's row, and stop when the run ends", async () => {
    const { t, user, testId } = await startedTest();

    const tables = new Set<string>();
    const items = await t.run((ctx) => claimBatch(noteReads(ctx, tables), testId, 8));
    expect(items).toHaveLength(2);
    expect(tables.has("tests")).toBe(false);
    // Each generation call is asked with its persona's system prompt and its topic's prompt.
    for (const item of items) {
      expect(item.kind).toBe("generate");
      const text = JSON.stringify(item.messages);
      expect(text).toContain("Answer like a pirate.");
      expect(text).toContain("We sell cold brew coffee.");
    }

    // A stopped test hands out nothing more.
    await t.run(async (ctx) => {
      await ctx.db.patch("calls", items[0]!.callId, { status: "pending" });
    });
    await user.as.mutation(api.tests.cancel, { testId });
    expect(await t.run((ctx) => claimBatch(ctx, testId, 8))).toEqual([]);
  });

  test.each([
    ["runs every call: a pair's judge call before the next pairs' answers, pairs in order", undefined],
    [
      "stops when settled: a pair's judge call before the next pairs' answers, pairs in the seeded order",
      { question: "best" as const, confidence: 0.95 },
    ],
  ])("a test that %s", async (_, stopWhenSettled) => {
    const topics = ["t1", "t2", "t3", "t4", "t5", "t6"].map((id) => ({ id, title: id, description: id, prompt: id }));
    const { t, testId } = await startedTest({ topics, ...(stopWhenSettled ? { stopWhenSettled } : {}) });
    const configuration = (await t.run((ctx) => ctx.db.get("tests", testId)))!.configuration;
    const pairs = orderedPairs(configuration).map((pair) => pair.topicId);
    if (stopWhenSettled) expect(pairs).not.toEqual(topics.map((topic) => topic.id)); // this seed reorders them
    const usage = { promptTokens: 10, completionTokens: 10, latencyMs: 100, costUsd: 0.001 };
    // The first pair's answers land: it gets its judge call.
    const topicsOf = (items: WorkItem[]) =>
      t.run(async (ctx) => Promise.all(items.map(async (item) => (await ctx.db.get("calls", item.callId))!.topicId)));
    const first = await t.run((ctx) => claimBatch(ctx, testId, 2));
    expect(first.map((item) => item.kind)).toEqual(["generate", "generate"]);
    expect(await topicsOf(first)).toEqual([pairs[0], pairs[0]]);
    for (const item of first)
      await t.run((ctx) =>
        recordOutcome(ctx, item.callId, item.leaseId, { kind: "generated", answers: [`By ${item.modelId}`], ...usage }),
      );
    const next = await t.run((ctx) => claimBatch(ctx, testId, 3));
    // Judging starts as soon as a pair's answers are in: run after every answer, ten tests at once
    // left their judge calls to the end (bench/deployment.ts --ten).
    expect(next.map((item) => item.kind)).toEqual(["evaluate", "generate", "generate"]);
    expect(await topicsOf(next)).toEqual([pairs[0], pairs[1], pairs[1]]);
  });

  test("hand a judge call its answers' generators, so recording its verdict reads no answer and scores each model", async () => {
    const { t, testId } = await startedTest();
    const usage = { promptTokens: 10, completionTokens: 10, latencyMs: 100, costUsd: 0.001 };
    // Each generator answers; the pair then gets its judge call.
    for (const item of await t.run((ctx) => claimBatch(ctx, testId, 8)))
      await t.run((ctx) =>
        recordOutcome(ctx, item.callId, item.leaseId, { kind: "generated", answers: [`By ${item.modelId}`], ...usage }),
      );
    const [judge] = await t.run((ctx) => claimBatch(ctx, testId, 8));
    expect(judge!.kind).toBe("evaluate");
    const byModel = new Map(judge!.answerModels!.map((answer) => [answer.modelId, answer.responseId]));
    expect([...byModel.keys()].sort()).toEqual([...GENERATORS].sort());

    // The judge ranks the second generator's answer first, handing back what the claim gave it.
    const [tables, gets] = [new Set<string>(), new Set<string>()];
    const ranking = [byModel.get(GENERATORS[1]!)!, byModel.get(GENERATORS[0]!)!];
    await t.run((ctx) =>
      recordOutcome(noteReads(ctx, tables, gets), judge!.callId, judge!.leaseId, {
        kind: "ranked",
        ranking,
        explanation: "",
        answerModels: judge!.answerModels,
        ...usage,
      }),
    );
    // (The monitor's newest answers are read by a small test's fold, not by the recording.)
    expect(gets.has("responses")).toBe(false);
    const scores = await t.run(async (ctx) => {
      const rows = await ctx.db
        .query("modelStats")
        .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
        .collect();
      return Object.fromEntries(rows.filter((row) => row.personaId === "p1").map((row) => [row.modelId, row.scoreSum]));
    });
    // The persona's figures: first of two scores 10, second 5 (lib/scoring), each on its own generator.
    expect(scores).toEqual({ [GENERATORS[1]!]: 10, [GENERATORS[0]!]: 5 });
  });
});
