// @vitest-environment node
// A worker host killed with gateway calls in flight (as a deploy or a restart kills every running
// action: dev/backend/faults.ts killRunningActions) closes their connections at the kill, so the
// gateway stops those generations (cancelled, billed for the prompt only) and the replacement
// host's calls are the only ones completed: every call is completed at the gateway exactly once
// (paid once) and recorded once. Before, the killed host's calls ran on, answered to nobody and
// paid for, and were made again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { faultCounts, killRunningActions } from "../dev/backend/faults";
import { api } from "./_generated/api";
import {
  createUser,
  readTestRows,
  sampleConfiguration,
  seedCatalog,
  startLocalBackend,
  useDevGateway,
  waitFor,
  type LocalBackend,
} from "./test.helpers";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "mistralai/mistral-large", "x-ai/grok-3-mini"];
const JUDGES = ["google/gemini-2.0-flash-001", "deepseek/deepseek-chat"];
const PRICE_PER_TOKEN = 1e-6;

// Every call takes 2 s: the first calls are all still out when the host is killed.
const devGateway = useDevGateway({ fixedLatencyMs: 2_000 });

/**
 * Runs a test whose host is killed while its first calls are out and none has come back (once
 * `readyToKill` agrees too), to its end; then checks that each of its 54 calls was completed at
 * the gateway exactly once, recorded once, and that its cost is what the gateway billed.
 * Returns the calls out at the kill and the gateway's cancellations since the start.
 */
async function killHostMidRun(readyToKill: (t: LocalBackend["t"]) => Promise<boolean>) {
  const keysDir = mkdtempSync(join(tmpdir(), "mj-killed-calls-"));
  const backend = await startLocalBackend(join(keysDir, "keys.json"));
  try {
    const { t } = backend;
    await seedCatalog(t, [...GENERATORS, ...JUDGES], PRICE_PER_TOKEN);
    const user = await createUser(t, "ada@example.com");
    const personas = ["p1", "p2", "p3"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
    const topics = ["t1", "t2", "t3"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
    const stats = devGateway().stats;
    const before = {
      completed: stats.completed,
      cancelled: stats.cancelled,
      killed: faultCounts.killedActions,
      billed: stats.billed.completed.promptTokens + stats.billed.completed.completionTokens,
    };
    const { testId } = await user.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics, responsesPerTopic: 2 }),
    });
    const firstHost = await waitFor(
      () => t.run(async (ctx) => await ctx.db.query("workerHosts").first()),
      (row) => row !== null,
      30_000,
    );
    // Killed while its first calls are out and none has come back: nothing answered waits to be
    // recorded, so whatever the gateway completes from here on is the replacement's or the killed
    // host's generations. (The gateway runs in this process: the look and the kill happen with
    // nothing in between.)
    let inFlightAtKill = 0;
    await waitFor(
      async () => {
        if (stats.inFlight >= 4 && stats.completed === before.completed && (await readyToKill(t))) {
          inFlightAtKill = stats.inFlight;
          killRunningActions();
        }
        return faultCounts.killedActions;
      },
      (killed) => killed > before.killed,
      30_000,
    );
    const killedAt = Date.now();
    await waitFor(
      () => t.run(async (ctx) => await ctx.db.query("workerHosts").first()),
      (row) => row !== null && row.epoch > firstHost!.epoch && row.seenAt > killedAt,
      90_000,
    );
    expect(Date.now() - killedAt).toBeLessThanOrEqual(60_000);

    const done = await waitFor(
      () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!),
      (row) => row.status === "completed" || row.status === "failed",
      90_000,
    );
    const { calls, responses, evaluations } = await t.run((ctx) => readTestRows(ctx, testId));
    // 36 generation calls (4 generators × 9 pairs, 2 answers each), 18 judge calls (2 judges × 9 pairs, 8 answers each).
    expect(done).toMatchObject({ status: "completed", responsesCount: 72, evaluationsCount: 144, totalCalls: 54 });
    expect(calls.every((call) => call.status === "succeeded")).toBe(true);
    expect(new Set(calls.map((call) => call.key)).size).toBe(54);
    expect(responses).toHaveLength(72);
    expect(evaluations).toHaveLength(144);

    // At the gateway: each of the 54 calls was completed (paid in full) exactly once.
    expect(stats.completed - before.completed).toBe(54);
    // What the test recorded is what the gateway billed for the completed calls, to the token.
    const billed = stats.billed.completed.promptTokens + stats.billed.completed.completionTokens - before.billed;
    const rowsCost = [...responses, ...evaluations].reduce((sum, row) => sum + row.costUsd, 0);
    expect(done.totalCostUsd).toBeCloseTo(rowsCost, 9);
    expect(done.totalCostUsd).toBeCloseTo(billed * PRICE_PER_TOKEN, 9);
    return { inFlightAtKill, cancelled: stats.cancelled - before.cancelled };
  } finally {
    await backend.close();
    rmSync(keysDir, { recursive: true, force: true });
  }
}

test(
  "a host killed with calls in flight: each call completed at the gateway once, recorded once, cost exact",
  { timeout: 150_000 },
  async () => {
    const { inFlightAtKill, cancelled } = await killHostMidRun(async () => true);
    // The calls out at the kill were cancelled there (those being answered, and those whose
    // requests were still on their way in).
    expect(cancelled).toBeGreaterThanOrEqual(inFlightAtKill);
  },
);

test(
  "at a provider that does not stop a generation whose client went, the killed host's results are taken, not paid for again",
  { timeout: 150_000 },
  async () => {
    const settings = devGateway().settings;
    settings.stopsOnDisconnect = false;
    // Long enough for the worker's report to keep its calls' generation ids before the kill.
    settings.fixedLatencyMs = 6_000;
    try {
      const { inFlightAtKill, cancelled } = await killHostMidRun(async (t) => {
        const kept = await t.run(async (ctx) => await ctx.db.query("callGenerations").collect());
        return kept.length >= 4;
      });
      expect(inFlightAtKill).toBeGreaterThanOrEqual(4);
      // Nothing was stopped: the killed host's generations ran to their end, and their results
      // were recorded from the gateway (each call completed once, above).
      expect(cancelled).toBe(0);
    } finally {
      settings.stopsOnDisconnect = true;
      settings.fixedLatencyMs = 2_000;
    }
  },
);
