// @vitest-environment node
// The pages of a running test, subscribed as the pages subscribe them (the results page, the
// monitor, the shared page: convex/pageSubscriptions.fixture.ts), on the local backend, whose
// subscriptions re-run a query only when a commit touches what it read and whose meter counts
// the re-runs. Once the first pages of answers are full, while 30 of its 64 answer calls are recorded, the
// worker reporting after each, no query re-runs with every recorded call: each re-runs with the
// folds of the counters (about once per 10 calls) at most, and those that show nothing the folds
// write (notes, the refund, the monitor's choice of test, the test's configuration and status,
// the full first pages of answers and judgements) not at all. Then a finished test's pages, open
// while the first test runs on, do not re-run at all. The functions' clock is the test's (Date
// faked; timers and sockets real): folds are due after so much time, and the test moves the clock
// instead of waiting for it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConvexClient } from "convex/browser";
import { expect, test, vi } from "vitest";
import { meterDifference } from "../dev/backend/meter";
import { WebSocket } from "ws";
import { api, internal } from "./_generated/api";
import { seedFinishedTest } from "./finishedTests.fixture";
import { PAGE_QUERIES, subscribePages } from "./pageSubscriptions.fixture";
import { foldCounters } from "./core/pipeline/runCounters";
import {
  createUserSession,
  drainDispatch,
  sampleConfiguration,
  seedCatalog,
  signedInClient,
  startLocalBackend,
} from "./test.helpers";
import type { Outcome, WorkItem } from "./validators";
import { countedTest, counterRowOf } from "./core/pipeline/counterRow";
import { resultsViewOf, sharedViewOf } from "./lib/resultsFigures";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "mistralai/mistral-large", "x-ai/grok-3-mini"];
const JUDGES = ["google/gemini-2.0-flash-001"];
/** Answer calls recorded before the count: the first pages of answers (20) and samples (10) fill. */
const WARM_UP = 22;
/** Answer calls recorded while the re-runs are counted. */
const CALLS = 30;
/** Answer calls recorded while a finished test's pages are open (the test keeps running: 2 of its 64 stay out). */
const LATER_CALLS = 10;

/**
 * What the folds never write, nor the recordings once the first pages are full: the access rows,
 * notes, payments, the test's configuration and status (its counters have a row of their own: the
 * results and shared pages read the test as stored apart from it),
 * the first pages of answers and judgements, the jury statistics (no judge call lands here).
 */
const SHOWING_NO_COUNTER = [
  "results:test",
  "shares:test",
  "notes:list",
  "notes:canAdd",
  "payments:testRefund",
  "tests:current",
  "results:responses",
  "results:evaluations",
  "results:juryStats",
  "shares:juryStats",
  "settle:status",
  "sharedExtras:settleStatus",
  "sharedExtras:juryAdvice",
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Moves the clock the backend's functions read (and date their rows by) `ms` on. */
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

/** An answer that passes one check of two ("brew" is in it; it is short). */
const ANSWERED: Outcome = {
  kind: "generated",
  answers: ["A cold brew answer."],
  promptTokens: 10,
  completionTokens: 20,
  latencyMs: 2_000,
  costUsd: 0.001,
};

test(
  `${CALLS} recorded calls re-run no subscribed query of the test's pages with every call`,
  { timeout: 120_000 },
  async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const keysDir = mkdtempSync(join(tmpdir(), "mj-page-subscriptions-"));
    const backend = await startLocalBackend(join(keysDir, "keys.json"));
    const clients: ConvexClient[] = [];
    try {
      const { t } = backend;
      await seedCatalog(t, [...GENERATORS, ...JUDGES]);
      await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
      const { userId, sessionId } = await createUserSession(t, "ada@example.com");
      const as = t.withIdentity({ subject: `${userId}|${sessionId}` });
      // 4 generators × 4 personas × 4 topics: 64 answer calls, each answer checked twice.
      const personas = ["p1", "p2", "p3", "p4"].map((id) => ({
        id,
        name: id,
        description: id,
        // Long prompts: the test's row (its configuration) is over 80 KB, as a real test's may be.
        systemPrompt: `Be ${id}. ${"Speak plainly. ".repeat(650)}`,
      }));
      const topics = ["t1", "t2", "t3", "t4"].map((id) => ({
        id,
        title: id,
        description: id,
        prompt: `About ${id}. ${"Say why it matters. ".repeat(490)}`,
      }));
      const { testId } = await as.mutation(api.tests.create, {
        configuration: sampleConfiguration(GENERATORS, JUDGES, {
          userPrompt: `Write one answer. ${"Keep to the point. ".repeat(500)}`,
          personas,
          topics,
          responsesPerTopic: 1,
          checks: [
            { id: "brew", kind: "contains", value: "brew" },
            { id: "short", kind: "length", unit: "words", max: 2 },
          ],
        }),
      });
      const { shareId } = await as.mutation(api.shares.enable, { testId });
      await drainDispatch(t);
      for (let waited = 0; waited < 100; waited++) {
        const test = await t.run(async (ctx) => (await countedTest(ctx, testId))!);
        if (test.status === "running" && test.callCursor === undefined && test.totalCalls === 64) break;
        await sleep(100);
      }
      /**
       * The worker's report, as the pool worker sends it: the gateway exchanges since the last and
       * (no recording being out) now as the bound of the settled deltas; it folds the counters once
       * about 10 exchanges came in since the last fold.
       */
      const beat = (exchanges = 0) =>
        t.mutation(internal.runner.beat, {
          testId,
          level: 2,
          backedOff: false,
          inFlight: 2,
          exchanges,
          rateLimited: 0,
          timeouts: 0,
          serverErrors: 0,
          judged: false,
          settledBefore: Date.now(),
        });

      const owner = await signedInClient(backend, `${userId}|${sessionId}`);
      clients.push(owner);
      const anonymous = new ConvexClient(backend.url, {
        webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
        logger: false,
        unsavedChangesWarning: false,
      });
      clients.push(anonymous);
      const pages = subscribePages(owner, anonymous, testId, shareId);
      for (let waited = 0; pages.updates.size < PAGE_QUERIES.length && waited < 400; waited++) await sleep(25);
      expect([...pages.updates.keys()].sort()).toEqual(PAGE_QUERIES.map((entry) => entry.query).sort());
      /**
       * Answer calls land, one every 100 ms, the worker reporting after each: its reports fold the
       * counters about once per 10. Each call's query updates run before the next lands, so each
       * could re-run the pages on its own.
       */
      const answer = async (calls: number) => {
        const items: WorkItem[] = [];
        while (items.length < calls) {
          const claimed: WorkItem[] = await t.mutation(internal.runner.claimBatch, {
            testId,
            max: calls - items.length,
          });
          expect(claimed.length).toBeGreaterThan(0);
          items.push(...claimed);
        }
        for (const item of items) {
          await t.mutation(internal.runner.record, {
            callId: item.callId,
            leaseId: item.leaseId,
            outcome: ANSWERED,
            concurrency: 2,
          });
          await beat(1);
          await backend.settle();
          advance(100);
        }
      };
      // The first pages of answers fill (they show each answer until then); a fold (its figures
      // 10 s old) writes the rows the folds keep.
      const warmStart = backend.meter.read();
      await answer(WARM_UP);
      advance(10_100);
      await beat();
      await backend.settle();
      const before = backend.meter.read();
      // While they fill, the first pages re-run with each answer: like every re-run of a page
      // query, each reads less than the test's row alone (its configuration here over 80 KB),
      // never the test with its configuration.
      const testRowBytes = await t.run(async (ctx) => JSON.stringify(await ctx.db.get("tests", testId)).length);
      expect(testRowBytes).toBeGreaterThan(80_000);
      const warming = meterDifference(before, warmStart);
      const warmPerRerun = Object.fromEntries(
        PAGE_QUERIES.filter(({ query }) => (warming[query]?.subscriptionReruns ?? 0) > 0).map(({ query }) => [
          query,
          Math.round(warming[query]!.bytesRead / warming[query]!.subscriptionReruns),
        ]),
      );
      console.log(`bytes read per re-run while the first pages fill: ${JSON.stringify(warmPerRerun)}`);
      expect(warmPerRerun["results:responses"]).toBeDefined();
      for (const [query, bytes] of Object.entries(warmPerRerun))
        expect({ query, small: bytes < testRowBytes }).toEqual({ query, small: true });

      await answer(CALLS);
      advance(3_200);
      await beat(); // the last report: the folds took the calls by tens, the last few wait
      await backend.settle();

      const reading = meterDifference(backend.meter.read(), before);
      const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
      console.log(
        `bytes read per query over ${CALLS} recorded calls: ` +
          PAGE_QUERIES.map(({ query }) => `${query} ${kib(reading[query]?.bytesRead ?? 0)}`).join(", "),
      );
      const reruns = Object.fromEntries(
        PAGE_QUERIES.map(({ query, subscriptions }) => [
          query,
          (reading[query]?.subscriptionReruns ?? 0) / subscriptions,
        ]),
      );
      console.log(`re-runs per subscription over ${CALLS} recorded calls: ${JSON.stringify(reruns)}`);
      // With the folds at most (about one per 10 calls, and the tail's), never one per call.
      for (const { query } of PAGE_QUERIES)
        expect({ query, reruns: reruns[query]! <= CALLS / 10 + 1 }).toEqual({ query, reruns: true });
      // Nothing they show is written by the folds or the recordings: they do not re-run at all.
      for (const query of SHOWING_NO_COUNTER) expect({ query, reruns: reruns[query] }).toEqual({ query, reruns: 0 });
      // Those that show the counters re-run with the folds, which write them (not with each call).
      const FOLDED = ["results:live", "shares:live", "checks:summary", "checks:sharedSummary", "tests:monitor"];
      for (const query of FOLDED) expect({ query, reruns: reruns[query]! > 0 }).toEqual({ query, reruns: true });
      // Re-running with every fold, they read small rows: each re-run reads less than the test's row alone.
      const bytesPerRerun = Object.fromEntries(
        FOLDED.map((query) => [
          query,
          Math.round((reading[query]?.bytesRead ?? 0) / (reading[query]?.subscriptionReruns ?? 1)),
        ]),
      );
      console.log(`bytes read per re-run: ${JSON.stringify(bytesPerRerun)} (the test's row: ${testRowBytes})`);
      for (const query of FOLDED)
        expect({ query, small: bytesPerRerun[query]! < testRowBytes }).toEqual({ query, small: true });
      // The pages add the two halves up to the one-call views, figure for figure, while counters are on the counter row.
      expect(await t.run((ctx) => counterRowOf(ctx, testId))).not.toBeNull();
      expect(
        resultsViewOf(await as.query(api.results.test, { testId }), await as.query(api.results.live, { testId })),
      ).toEqual(await as.query(api.results.get, { testId }));
      expect(
        sharedViewOf((await t.query(api.shares.test, { shareId }))!, (await t.query(api.shares.live, { shareId }))!),
      ).toEqual(await t.query(api.shares.view, { shareId }));
      // The checks section moves with the folded tallies: once the last few are folded (as the
      // worker's next reports or the run's end would), every answer in, each passing "brew", none short enough.
      await t.run(async (ctx) => {
        await foldCounters(ctx, testId);
      });
      const summary = (await as.query(api.checks.summary, { testId }))!;
      const sum = (count: (model: (typeof summary.models)[number]) => number) =>
        summary.models.reduce((total, model) => total + count(model), 0);
      expect(sum((model) => model.overall.answers)).toBe(WARM_UP + CALLS);
      expect(sum((model) => model.overall.passed)).toBe(0);
      expect(sum((model) => model.byCheck.find((check) => check.checkId === "brew")!.passed)).toBe(WARM_UP + CALLS);
      pages.unsubscribe();

      // A finished test's pages (results, answers, judgements, notes, checks, the monitor, the
      // shared page), open while this test runs on: nothing they show changes, none re-runs.
      const finishedId = await seedFinishedTest(t, { userId, responses: 8, evaluationsPerResponse: 2 });
      const finishedShare = "finished-test-share";
      await t.run((ctx) =>
        ctx.db.insert("shares", { testId: finishedId, userId, shareId: finishedShare, isActive: true }),
      );
      const finishedPages = subscribePages(owner, anonymous, finishedId, finishedShare);
      for (let waited = 0; finishedPages.updates.size < PAGE_QUERIES.length && waited < 400; waited++) await sleep(25);
      expect([...finishedPages.updates.keys()].sort()).toEqual(PAGE_QUERIES.map((entry) => entry.query).sort());
      await backend.settle();
      const quiet = backend.meter.read();
      await answer(LATER_CALLS); // with its fold after the 10th
      await backend.settle();
      const later = meterDifference(backend.meter.read(), quiet);
      const finishedReruns = Object.fromEntries(
        PAGE_QUERIES.map(({ query }) => [query, later[query]?.subscriptionReruns ?? 0]),
      );
      console.log(
        `re-runs of a finished test's pages over ${LATER_CALLS} calls of another: ${JSON.stringify(finishedReruns)}`,
      );
      expect(finishedReruns).toEqual(Object.fromEntries(PAGE_QUERIES.map(({ query }) => [query, 0])));
      expect((await t.run((ctx) => countedTest(ctx, testId)))!.status).toBe("running");
      finishedPages.unsubscribe();
    } finally {
      for (const client of clients) await client.close();
      await backend.close();
      rmSync(keysDir, { recursive: true, force: true });
      vi.useRealTimers();
    }
  },
);
