// @vitest-environment node
// The live monitor while a test runs, subscribed as the monitor page subscribes, on the local
// backend (concurrent transactions, subscriptions that re-run a query only when a commit touches
// what it read, a meter that counts the re-runs). It reads the test's small monitor row, written
// about once per 10 ended calls, so 30 recorded calls re-run it a few times, not once per answer
// and per fold; its percentage never falls; and the time remaining follows the concurrency the
// worker reports. The functions' clock is the test's (Date faked, timers and sockets real): a fold
// is due after so much time, and the test moves the clock instead of waiting for it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvexClient } from "convex/browser";
import type { FunctionReturnType } from "convex/server";
import { afterEach, describe, expect, test, vi } from "vitest";
import { meterDifference } from "../dev/backend/meter";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  codeOf,
  createBackend,
  createUser,
  createUserSession,
  drainDispatch,
  sampleConfiguration,
  seedCatalog,
  signedInClient,
  startLocalBackend,
} from "./test.helpers";
import { formatTimeRemaining } from "./lib/format";
import type { Outcome, WorkItem } from "./validators";
import { countedTest } from "./core/pipeline/counterRow";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "mistralai/mistral-large", "x-ai/grok-3-mini"];
const JUDGES = ["google/gemini-2.0-flash-001"];

/** Moves the clock the backend's functions read (and date their rows by) `ms` on. */
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

/** An answer whose call took a minute of gateway time (what the time remaining measures). */
const ANSWERED: Outcome = {
  kind: "generated",
  answers: ["An answer."],
  promptTokens: 10,
  completionTokens: 20,
  latencyMs: 60_000,
  costUsd: 0.001,
};

type Monitor = FunctionReturnType<typeof api.tests.monitor>;

describe("the live monitor of a running test", () => {
  test(
    "30 recorded calls re-run it at most 4 times (about once per 10), its percentage never falls, its time remaining follows the reported concurrency, and it ends at 100%",
    { timeout: 120_000 },
    async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now());
      const keysDir = mkdtempSync(join(tmpdir(), "mj-monitor-progress-"));
      const backend = await startLocalBackend(join(keysDir, "keys.json"));
      let client: ConvexClient | null = null;
      try {
        const { t } = backend;
        await seedCatalog(t, [...GENERATORS, ...JUDGES]);
        await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
        const { userId, sessionId } = await createUserSession(t, "ada@example.com");
        const as = t.withIdentity({ subject: `${userId}|${sessionId}` });
        // 4 generators × 3 personas × 4 topics: 48 answer calls, and 12 ranking calls after them.
        const personas = ["p1", "p2", "p3"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
        const topics = ["t1", "t2", "t3", "t4"].map((id) => ({
          id,
          title: id,
          description: id,
          prompt: `About ${id}.`,
        }));
        const { testId } = await as.mutation(api.tests.create, {
          configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics, responsesPerTopic: 1 }),
        });
        await drainDispatch(t);
        // The backend's scheduler creates the calls (a batch at a time), at its own pace.
        await vi.waitFor(
          async () => {
            const test = await t.run(async (ctx) => (await countedTest(ctx, testId))!);
            const { status, callCursor = null, totalCalls } = test;
            expect({ status, callCursor, totalCalls }).toEqual({ status: "running", callCursor: null, totalCalls: 48 });
          },
          { timeout: 60_000, interval: 100 },
        );
        /** The worker's report, which folds the counters when due (and writes the monitor's row when due). */
        const beat = (inFlight: number, generated: Id<"calls">[] = []) =>
          t.mutation(internal.runner.beat, {
            testId,
            level: Math.max(1, inFlight),
            backedOff: false,
            inFlight,
            exchanges: 0,
            rateLimited: 0,
            timeouts: 0,
            serverErrors: 0,
            judged: false,
            generated,
          });
        const record = (item: WorkItem, outcome: Outcome) =>
          t.mutation(internal.runner.record, {
            callId: item.callId,
            leaseId: item.leaseId,
            outcome,
            concurrency: 2,
          });

        const watcher = await signedInClient(backend, `${userId}|${sessionId}`);
        client = watcher;
        const seen: Monitor[] = [];
        watcher.onUpdate(api.tests.monitor, { testId }, (monitor) => seen.push(monitor));
        /**
         * Every update the backend pushed has reached the client: pushed (settle), then a one-shot
         * query on the same socket, answered after them.
         */
        const delivered = async () => {
          await backend.settle();
          await watcher.query(api.users.viewer, {});
        };
        await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 60_000, interval: 25 });
        expect(seen[0]!.test).toMatchObject({ status: "running", responsesCount: 0 });
        // The first fold (its figures 10 s old) writes the monitor's row.
        advance(10_100);
        await beat(2);
        await delivered();
        const before = backend.meter.read();
        const updatesBefore = seen.length;

        // 30 answer calls land, one every 100 ms, the worker (2 calls in flight) reporting after
        // each: its reports fold the counters every 1-3 s. Each fold re-ran the monitor, and so did
        // each answer.
        const answers: WorkItem[] = await t.mutation(internal.runner.claimBatch, { testId, max: 30 });
        expect(answers).toHaveLength(30);
        for (const item of answers) {
          await record(item, ANSWERED);
          await beat(2);
          advance(100);
        }
        // The last answers settle (a fold takes deltas older than 3 s); a tail of fewer than 10
        // is shown after the slow fallback.
        advance(3_200);
        for (let waited = 0; waited < 15; waited++) {
          await beat(2);
          await delivered();
          if (seen.at(-1)!.test.responsesCount === 30) break;
          advance(1_000);
        }

        const reruns = meterDifference(backend.meter.read(), before)["tests:monitor"]?.subscriptionReruns ?? 0;
        expect(reruns).toBeLessThanOrEqual(4);
        expect(seen.length - updatesBefore).toBeLessThanOrEqual(4);
        // What it shows moved with the answers: all 30, the newest of them in Recent Activity.
        const shown = seen.at(-1)!;
        expect(shown.test.responsesCount).toBe(30);
        expect(shown.latestResponses).toHaveLength(10);
        expect(shown.test.size).toEqual({
          models: 4,
          judges: 1,
          personas: 3,
          topics: 4,
          generationCalls: 48,
          judgingCalls: 12,
        });
        // The time remaining follows the 2 calls in flight the worker reports: 18 answer calls and
        // 12 judge calls left at a minute each, 2 at a time (15 minutes), not at the average
        // concurrency so far (minutes of gateway time in seconds: as many at once as are left).
        expect(shown.test.progress.estimatedTimeRemaining).toBe(formatTimeRemaining(((18 + 12) * 60_000) / 2));

        // The last answers, the judges' rankings, and the end: the monitor reads the ended test.
        const rest: WorkItem[] = await t.mutation(internal.runner.claimBatch, { testId, max: 18 });
        for (const item of rest) await record(item, ANSWERED);
        await beat(
          0,
          [...answers, ...rest].map((item) => item.callId),
        ); // the pairs' judge calls
        const judged: WorkItem[] = await t.mutation(internal.runner.claimBatch, { testId, max: 20 });
        expect(judged).toHaveLength(12);
        for (const item of judged) {
          if (item.kind !== "evaluate" || item.scale !== "ranking") throw new Error("a ranking call was expected");
          await record(item, {
            kind: "ranked",
            ranking: item.labels.map((entry) => entry.responseId),
            explanation: "In label order.",
            promptTokens: 10,
            completionTokens: 20,
            latencyMs: 5_000,
            costUsd: 0.0005,
          });
        }
        await t.mutation(internal.runner.endWork, { testId });
        await vi.waitFor(() => expect(seen.at(-1)!.test.status).not.toBe("running"), { timeout: 60_000, interval: 25 });
        expect(seen.at(-1)!.test).toMatchObject({
          status: "completed",
          responsesCount: 48,
          progress: { currentPhase: "Completed", percentage: 100 },
        });
        // Its percentage never fell from one update to the next, the end included.
        const percentages = seen.map((monitor) => monitor.test.progress.percentage);
        expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
      } finally {
        await client?.close();
        await backend.close();
        rmSync(keysDir, { recursive: true, force: true });
        vi.useRealTimers();
      }
    },
  );
});

describe("the monitor's row of a running test", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A running test whose first fold wrote its monitor row, its owner and a stranger. */
  async function runningWithRow() {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 0, 15, 12, 0, 0));
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...JUDGES]);
    await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 }));
    const owner = await createUser(t, "ada@example.com");
    const stranger = await createUser(t, "eve@example.com");
    const { testId } = await owner.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, JUDGES),
    });
    await drainDispatch(t);
    vi.setSystemTime(Date.now() + 11_000); // the figures are 10 s old: the report folds them
    await t.mutation(internal.runner.beat, {
      testId,
      level: 4,
      backedOff: false,
      inFlight: 4,
      exchanges: 0,
      rateLimited: 0,
      timeouts: 0,
      serverErrors: 0,
      judged: false,
    });
    const rows = await t.run((ctx) =>
      ctx.db
        .query("testProgress")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .collect(),
    );
    expect(rows).toHaveLength(1);
    return { t, owner, stranger, testId };
  }

  test("is the owner's to read, as the test is: a stranger is refused", async () => {
    const { owner, stranger, testId } = await runningWithRow();
    expect((await owner.as.query(api.tests.monitor, { testId })).test).toMatchObject({
      _id: testId,
      status: "running",
      awaitingPayment: false,
    });
    expect(await codeOf(stranger.as.query(api.tests.monitor, { testId }))).toBe("NOT_FOUND");
  });

  test("goes with the run: a stopped test shows Cancelled, a deleted one is gone", async () => {
    const { t, owner, testId } = await runningWithRow();
    await owner.as.mutation(api.tests.cancel, { testId });
    expect((await owner.as.query(api.tests.monitor, { testId })).test).toMatchObject({
      status: "cancelled",
      progress: { currentPhase: "Cancelled" },
    });
    const again = await runningWithRow();
    await again.owner.as.mutation(api.tests.remove, { testId: again.testId });
    expect(await codeOf(again.owner.as.query(api.tests.monitor, { testId: again.testId }))).toBe("NOT_FOUND");
    for (const backend of [t, again.t])
      expect(await backend.run((ctx) => ctx.db.query("testProgress").collect())).toEqual([]);
  });
});
