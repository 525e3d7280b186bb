// The pool worker's report folds a running test's counters when enough calls ended since the
// last fold, counting them on its own testConcurrency row (its gateway exchanges) instead of
// reading the deltas that landed: read on every report until a fold took them, each delta was
// read about 8 times on Starter (bench/deployment.ts --plan starter: runner:beat).
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { createBackend, createUser, sampleConfiguration, seedCatalog, type TestBackend } from "../../test.helpers";
import { claimBatch } from "./claim";
import { storeConcurrency } from "./concurrency";
import { foldIfDue } from "./runCounters";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001", "x-ai/grok-3"];
const JUDGES = ["deepseek/deepseek-chat"];

/** The context with the tables its queries read noted. */
function noteQueries(ctx: MutationCtx, tables: Set<string>): MutationCtx {
  const db = new Proxy(ctx.db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
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

/** Leases up to `count` calls and records an answer for each, as a pool worker does. */
async function answer(t: TestBackend, testId: Id<"tests">, count: number) {
  const items = await t.run((ctx) => claimBatch(ctx, testId, count));
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
  return items.length;
}

/** The worker's report of `exchanges` ended calls: its row, then the fold when due. */
async function report(t: TestBackend, testId: Id<"tests">, exchanges: number, tables: Set<string>) {
  return await t.run(async (ctx) => {
    const report = { level: 8, backedOff: false, inFlight: 0, exchanges, rateLimited: 0, timeouts: 0, serverErrors: 0 };
    await storeConcurrency(ctx, testId, report);
    const test = (await ctx.db.get("tests", testId))!;
    return await foldIfDue(noteQueries(ctx, tables), test, 1, Date.now());
  });
}

describe("the pool worker's report", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test("folds once enough calls ended, without reading the deltas that landed before", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...JUDGES]);
    await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
    const user = await createUser(t, "ada@example.com");
    const ids = (prefix: string) => ["1", "2", "3"].map((id) => `${prefix}${id}`);
    const { testId } = await user.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, JUDGES, {
        personas: ids("p").map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` })),
        topics: ids("t").map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` })),
        responsesPerTopic: 1,
      }),
    });
    await t.mutation(internal.runner.dispatch, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    vi.advanceTimersByTime(2_000);

    // 6 calls ended: fewer than a fold wants (10), so the report reads none of their deltas.
    expect(await answer(t, testId, 6)).toBe(6);
    vi.advanceTimersByTime(2_000);
    const early = new Set<string>();
    expect(await report(t, testId, 6, early)).toBeNull();
    expect(early.has("runDeltas")).toBe(false);

    // 6 more: 12 since the last fold, which folds every settled delta into the test's row.
    expect(await answer(t, testId, 6)).toBe(6);
    vi.advanceTimersByTime(2_000);
    const due = new Set<string>();
    const folded = await report(t, testId, 6, due);
    expect(folded).toMatchObject({ responsesCount: 12, finishedCalls: 12 });
    // The next report counts from that fold on.
    expect(await answer(t, testId, 4)).toBe(4);
    vi.advanceTimersByTime(2_000);
    expect(await report(t, testId, 4, new Set())).toBeNull();
  });
});
