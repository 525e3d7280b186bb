import { afterEach, describe, expect, test, vi } from "vitest";
import { internal } from "./_generated/api";
import { CLEANUP_BATCH, CLIENT_BUCKET_IDLE_MS } from "./cleanup";
import { admit, CLIENT_ATTEMPTS, THROTTLE_MESSAGES } from "./core/authThrottle";
import { catalogLatencies, RUNS_AVERAGED } from "./core/modelLatencies";
import { createBackend } from "./test.helpers";

afterEach(() => {
  vi.useRealTimers();
});

const HOUR_MS = 60 * 60_000;

describe("the cleanup crons", () => {
  test("client buckets idle for a day and refilled are deleted, in batches; a bucket still spent stays and still throttles", async () => {
    vi.useFakeTimers();
    const t = createBackend();
    const now = Date.now();
    const idle = CLEANUP_BATCH + 50;
    await t.run(async (ctx) => {
      for (let i = 0; i < idle; i++)
        await ctx.db.insert("authClientBuckets", {
          clientHash: `idle-${i}`,
          tokens: 2,
          updatedAt: now - CLIENT_BUCKET_IDLE_MS - HOUR_MS - i,
        });
      // Spent a minute ago, and spent so far below zero two days ago that it has not refilled.
      await ctx.db.insert("authClientBuckets", { clientHash: "recent", tokens: 0, updatedAt: now - 60_000 });
      await ctx.db.insert("authClientBuckets", {
        clientHash: "hammered",
        tokens: -100_000,
        updatedAt: now - 2 * CLIENT_BUCKET_IDLE_MS,
      });
    });

    await t.mutation(internal.cleanup.sweepClientBuckets, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    const left = await t.run(async (ctx) => await ctx.db.query("authClientBuckets").collect());
    expect(left.map((bucket) => bucket.clientHash).sort()).toEqual(["hammered", "recent"]);
    // The kept buckets still limit their addresses: "hammered" has no token to give.
    const attempt = { email: "ada@example.com", kind: "signIn", deviceHash: null, clientHash: "hammered" } as const;
    const refusal = await t.run(async (ctx) => await admit(ctx, attempt, Date.now()));
    expect(refusal).toMatch(/^Too many sign-in attempts from your network\./);
    // A swept address starts again with a full bucket, as it would with its refilled row.
    const swept = await t.run(async (ctx) => {
      const answers: (string | null)[] = [];
      for (let i = 0; i < CLIENT_ATTEMPTS.capacity + 1; i++)
        answers.push(await admit(ctx, { ...attempt, clientHash: "idle-0" }, now));
      return answers;
    });
    expect(swept.slice(0, CLIENT_ATTEMPTS.capacity)).toEqual(Array(CLIENT_ATTEMPTS.capacity).fill(null));
    expect(swept.at(-1)).toBe(THROTTLE_MESSAGES.client(6));
  });

  test("model latencies keep each model and kind's newest rows, across batches, and the estimates read the same", async () => {
    vi.useFakeTimers();
    const t = createBackend();
    const groups = [
      { modelId: "openai/gpt-4o-mini", kind: "generate", runs: 8 },
      { modelId: "openai/gpt-4o-mini", kind: "evaluate", runs: 3 },
      { modelId: "anthropic/claude-3.5-haiku", kind: "generate", runs: 12 },
      // More rows than one batch reads: the group goes on into the next batch.
      { modelId: "mistralai/mistral-large", kind: "generate", runs: CLEANUP_BATCH + 40 },
    ] as const;
    await t.run(async (ctx) => {
      for (const { modelId, kind, runs } of groups)
        for (let run = 1; run <= runs; run++)
          await ctx.db.insert("modelLatencies", { modelId, kind, latencyMs: 1_000 * run, at: 1_000_000 + run });
    });
    const models = {
      generators: ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "mistralai/mistral-large"],
      judges: ["openai/gpt-4o-mini"],
    };
    const estimatesBefore = await t.run(async (ctx) => await catalogLatencies(ctx, models));

    await t.mutation(internal.cleanup.pruneModelLatencies, {});
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    const left = await t.run(async (ctx) => await ctx.db.query("modelLatencies").collect());
    for (const { modelId, kind, runs } of groups) {
      const kept = left.filter((row) => row.modelId === modelId && row.kind === kind).map((row) => row.latencyMs);
      const newest = Array.from({ length: Math.min(runs, RUNS_AVERAGED) }, (_, i) => 1_000 * (runs - i));
      expect(kept.sort((a, b) => b - a)).toEqual(newest);
    }
    expect(await t.run(async (ctx) => await catalogLatencies(ctx, models))).toEqual(estimatesBefore);
  });
});
