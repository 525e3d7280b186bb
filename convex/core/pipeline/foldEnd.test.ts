// A test whose answers are at most FOLD_EVERY_CALL_UP_TO but whose answers and judge calls are
// more is not small: its judge calls come from its worker's report, so a report that folds before
// the worker has reported the last pairs must not find every call ended and complete it unjudged
// (the layout journey's 32 answers and 8 judge calls did, beside a busy loop).
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api, internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import { createBackend, createUser, sampleConfiguration, seedCatalog, type TestBackend } from "../../test.helpers";
import { claimBatch } from "./claim";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001", "x-ai/grok-3"];
const JUDGES = ["deepseek/deepseek-chat"];

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Leases every pending call and records an answer for each, as a pool worker does. */
async function answerAll(t: TestBackend, testId: Id<"tests">): Promise<Id<"calls">[]> {
  const items = await t.run((ctx) => claimBatch(ctx, testId, 100));
  for (const item of items)
    await t.mutation(internal.runner.record, {
      callId: item.callId,
      leaseId: item.leaseId,
      outcome: {
        kind: "generated",
        answers: ["An answer."],
        promptTokens: 10,
        completionTokens: 20,
        latencyMs: 5,
        costUsd: 0.001,
      },
    });
  return items.map((item) => item.callId);
}

async function beat(t: TestBackend, testId: Id<"tests">, settledBefore: number, generated: Id<"calls">[]) {
  return await t.mutation(internal.runner.beat, {
    testId,
    level: 8,
    backedOff: false,
    inFlight: 0,
    exchanges: generated.length,
    rateLimited: 0,
    timeouts: 0,
    serverErrors: 0,
    judged: false,
    generated,
    settledBefore,
  });
}

test("32 answers and 8 judge calls: a report folding before the last pairs are reported leaves the test running, and their judge calls come", async () => {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...JUDGES]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
  const user = await createUser(t, "ada@example.com");
  const { testId } = await user.as.mutation(api.tests.create, {
    configuration: sampleConfiguration(GENERATORS, JUDGES, {
      personas: ["p1", "p2"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` })),
      topics: ["t1", "t2", "t3", "t4"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` })),
      responsesPerTopic: 1,
    }),
  });
  await t.mutation(internal.runner.dispatch, {});
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  vi.advanceTimersByTime(2_000);

  // The worker sent its recordings at `sent`; they committed, but it has not heard back yet.
  const sent = Date.now();
  vi.advanceTimersByTime(1_000);
  const generated = await answerAll(t, testId);
  expect(generated).toHaveLength(32);
  vi.advanceTimersByTime(2_000);
  await beat(t, testId, sent, []);
  const status = async () => await t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status);
  expect(await status()).toBe("running");

  // Heard back: its report gives the 8 pairs their judge calls, and the test still runs.
  vi.advanceTimersByTime(2_000);
  await beat(t, testId, Date.now(), generated);
  const judgeCalls = await t.run(async (ctx) =>
    (
      await ctx.db
        .query("calls")
        .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
        .collect()
    ).filter((call) => call.kind === "evaluate"),
  );
  expect(judgeCalls).toHaveLength(8);
  expect(await status()).toBe("running");
});

test("a claim gives finished pairs their judge calls and leases them at once; a report never ends the test, the worker's end does", async () => {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...JUDGES]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
  const user = await createUser(t, "ada@example.com");
  const { testId } = await user.as.mutation(api.tests.create, {
    configuration: sampleConfiguration(GENERATORS, JUDGES, {
      personas: ["p1", "p2"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` })),
      topics: ["t1", "t2", "t3", "t4"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` })),
      responsesPerTopic: 1,
    }),
  });
  await t.mutation(internal.runner.dispatch, {});
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  const generated = await answerAll(t, testId);

  // No report came: the claim that names the finished pairs makes their 8 judge calls and leases them first.
  const judging = await t.mutation(internal.runner.claimBatch, { testId, max: 32, pairsDone: generated });
  expect(judging.map((item) => item.kind)).toEqual(Array(8).fill("evaluate"));
  for (const item of judging)
    await t.mutation(internal.runner.record, {
      callId: item.callId,
      leaseId: item.leaseId,
      outcome: {
        kind: "ranked",
        ranking: item.kind === "evaluate" ? item.labels.map((entry) => entry.responseId) : [],
        explanation: "",
        ...(item.answerModels ? { answerModels: item.answerModels } : {}),
        promptTokens: 10,
        completionTokens: 20,
        latencyMs: 5,
        costUsd: 0.001,
      },
    });

  // Every call has ended and the report folds them all: it still leaves the ending to the worker
  // (an ending writes the owner's figures, which every test's end writes: reports conflicted with them).
  vi.advanceTimersByTime(20_000);
  expect(await beat(t, testId, Date.now(), [])).toEqual({ running: true });
  const test_ = async () => (await t.run(async (ctx) => await ctx.db.get("tests", testId)))!;
  expect((await test_()).status).toBe("running");
  await t.mutation(internal.runner.endWork, { testId });
  const ended = await test_();
  expect(ended.status).toBe("completed");
  expect(ended.evaluationsCount).toBe(32);
});
