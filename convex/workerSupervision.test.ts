// @vitest-environment node
// A worker host killed mid-run (dev/backend/faults.ts: its calls into the deployment fail from
// then on, as after a deploy or an out-of-memory kill) is replaced by the supervisor within 60 s,
// and the test completes with exact counts and costs: the calls it had leased are handed back
// and made again, none is recorded twice. Without supervision the test waited for its leases'
// 11 minutes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { faultCounts, faults } from "../dev/backend/faults";
import { startGateway } from "../dev/gateway/server";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { createUser, readTestRows, sampleConfiguration, seedCatalog, startLocalBackend, waitFor } from "./test.helpers";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "mistralai/mistral-large", "x-ai/grok-3-mini"];
const JUDGES = ["google/gemini-2.0-flash-001", "deepseek/deepseek-chat"];

let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
beforeAll(async () => {
  // Calls of a few hundred milliseconds: the host is killed with calls out.
  gateway = await startGateway({ port: 0, latencyScale: 0.3 });
  process.env.GATEWAY_BASE_URL = gateway.url;
  process.env.OPENROUTER_API_KEY = "dev-gateway-key";
  process.env.GATEWAY_BACKOFF_SCALE = "0";
  delete process.env.STRIPE_SECRET_KEY;
});
afterAll(async () => {
  await gateway?.close();
  Object.assign(faults, { killActions: 0 });
});

describe("a worker host killed mid-run", () => {
  test("is replaced within 60 s and the test completes with exact counts and costs", { timeout: 150_000 }, async () => {
    const keysDir = mkdtempSync(join(tmpdir(), "mj-supervision-"));
    const backend = await startLocalBackend(join(keysDir, "keys.json"));
    try {
      const { t } = backend;
      await seedCatalog(t, [...GENERATORS, ...JUDGES]);
      const user = await createUser(t, "ada@example.com");
      const personas = ["p1", "p2", "p3"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
      const topics = ["t1", "t2", "t3"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
      // The first action started (the host) dies after about a second (a kill a second); none after it.
      // Its lifetime is drawn when it starts, so the run must outlast it: at full latency the calls
      // take over 6 s (at 0.3 a fast machine could end the run, and the host, first: e^-2 of runs).
      gateway!.settings.latencyScale = 1;
      Object.assign(faults, { killActions: 1 });
      const killedBefore = faultCounts.killedActions;
      const { testId } = await user.as.mutation(api.tests.create, {
        configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics, responsesPerTopic: 2 }),
      });
      const firstHost = await waitFor(
        () => t.run(async (ctx) => await ctx.db.query("workerHosts").first()),
        (row) => row !== null,
        30_000,
      );
      await waitFor(
        async () => faultCounts.killedActions,
        (killed) => killed > killedBefore,
        30_000,
      );
      Object.assign(faults, { killActions: 0 });
      const killedAt = Date.now();
      // A new host (a new epoch) beats.
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
      expect(new Set(calls.map((call) => call.key)).size).toBe(calls.length);
      expect(responses).toHaveLength(72);
      expect(evaluations).toHaveLength(144);
      const rowsCost = [...responses, ...evaluations].reduce((sum, row) => sum + row.costUsd, 0);
      expect(done.totalCostUsd).toBeCloseTo(rowsCost, 9);
    } finally {
      Object.assign(faults, { killActions: 0 });
      gateway!.settings.latencyScale = 0.3;
      await backend.close();
      rmSync(keysDir, { recursive: true, force: true });
    }
  });
});

describe("ten tests at once on Starter", () => {
  test(
    "one host serves them all within the plan's mutation slots: none of its calls is refused, all complete exactly",
    { timeout: 150_000 },
    async () => {
      const keysDir = mkdtempSync(join(tmpdir(), "mj-ten-"));
      // Starter's 16 mutation slots, with a short wait for one: ten workers' claims, recordings
      // and reports sent at once queue past it and are refused (the host's heartbeat among them).
      const backend = await startLocalBackend(join(keysDir, "keys.json"), {
        plan: "starter",
        slotWaits: { queries: 5_000, mutations: 300, actions: 10_000 },
      });
      try {
        const { t } = backend;
        await seedCatalog(t, [...GENERATORS, ...JUDGES]);
        const user = await createUser(t, "ada@example.com");
        await t.run(async (ctx) => {
          await ctx.db.insert("settings", { key: "maxProcessingJobs", value: 10 });
        });
        const personas = ["p1", "p2"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
        const topics = ["t1", "t2"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
        const testIds: Id<"tests">[] = [];
        for (let index = 0; index < 10; index++) {
          const { testId } = await user.as.mutation(api.tests.create, {
            configuration: sampleConfiguration(GENERATORS, JUDGES, {
              name: `Test ${index}`,
              personas,
              topics,
              responsesPerTopic: 2,
            }),
          });
          testIds.push(testId);
        }
        const ended = await waitFor(
          () => t.run(async (ctx) => await Promise.all(testIds.map(async (id) => (await ctx.db.get("tests", id))!))),
          (rows) => rows.every((row) => ["completed", "failed", "cancelled"].includes(row.status)),
          120_000,
        );
        // 16 generation calls (4 generators × 4 pairs, 2 answers each), 8 judge calls (2 judges × 4 pairs, 8 answers each).
        for (const row of ended)
          expect(row).toMatchObject({ status: "completed", responsesCount: 32, evaluationsCount: 64, totalCalls: 24 });
        // The host was never replaced: its heartbeat was never refused.
        const host = await t.run(async (ctx) => await ctx.db.query("workerHosts").first());
        expect(host?.epoch).toBe(1);
      } finally {
        await backend.close();
        rmSync(keysDir, { recursive: true, force: true });
      }
    },
  );
});
