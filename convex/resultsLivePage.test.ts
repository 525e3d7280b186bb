// @vitest-environment node
// The results page's responses list, subscribed while the test runs (as the page does from the
// moment it opens): on the local backend, whose subscriptions re-run a query only when a commit
// touches what it read, and whose meter counts what each run read. A first page subscribed while
// the test had no answer must stay the 20 answers it shows: answers arriving after it neither
// grow it nor re-run it (a `.paginate` page first run at empty keeps its end where the list ended
// then, as on a Convex deployment, and would grow to every answer, each re-run reading them all).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvexClient } from "convex/browser";
import type { FunctionReturnType } from "convex/server";
import { describe, expect, test } from "vitest";
import { meterDifference } from "../dev/backend/meter";
import { api } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { seedFinishedTest } from "./finishedTests.fixture";
import { type LocalBackend, createUserSession, signedInClient, startLocalBackend } from "./test.helpers";

const until = async (done: () => boolean, what: string) => {
  for (let waited = 0; waited < 1800; waited++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
};

type RunningTest = { testId: Id<"tests">; configuration: Doc<"tests">["configuration"] };

/** A running test with no answer yet, and a client signed in as its owner (a user with a session). */
async function runningTestOfSignedInUser(backend: LocalBackend): Promise<RunningTest & { client: ConvexClient }> {
  const { userId, sessionId } = await createUserSession(backend.t, "ada@example.com");
  const testId = await seedFinishedTest(backend.t, { userId, responses: 0, status: "running" });
  const configuration = await backend.t.run(async (ctx) => (await ctx.db.get("tests", testId))!.configuration);
  return { testId, configuration, client: await signedInClient(backend, `${userId}|${sessionId}`) };
}

/**
 * 200 answers of the test's first model, persona and topic landing while a page is open: ten per
 * recording, each pushed to the subscribers before the next; `fails(index)` (from 0) says whether answer index + 1 fails a check.
 */
async function land200Answers(backend: LocalBackend, running: RunningTest, fails: (index: number) => boolean) {
  const { testId, configuration } = running;
  const [model] = configuration.generatorModels;
  const [persona] = configuration.personas;
  const [topic] = configuration.topics;
  for (let batch = 0; batch < 20; batch++) {
    await backend.t.run(async (ctx) => {
      for (let index = batch * 10; index < batch * 10 + 10; index++)
        await ctx.db.insert("responses", {
          testId,
          modelId: model!.id,
          personaId: persona!.id,
          topicId: topic!.id,
          content: `Answer ${index + 1}: ${"a fine tagline ".repeat(60)}`,
          promptTokens: 10,
          completionTokens: 90,
          tokens: 100,
          latencyMs: 800,
          costUsd: 0.0001,
          scoreSum: 0,
          scoreCount: 0,
          ...(fails(index) ? { checkFailures: [{ checkId: "short", reason: "Too long" }], failedCheck: true } : {}),
        });
    });
    // Each recording's query updates are pushed before the next lands, so each could re-run the
    // page on its own (a timed gap may merge several on a busy machine and hide re-runs).
    await backend.settle();
  }
}

type Page = FunctionReturnType<typeof api.results.responses>;

describe("the results page's live responses list", () => {
  test(
    "a first page subscribed before any answer stays the first 20: 200 answers arriving after it re-run it only until it is full, and each run reads about what it shows",
    { timeout: 120_000 },
    async () => {
      const keysDir = mkdtempSync(join(tmpdir(), "mj-live-responses-"));
      const backend = await startLocalBackend(join(keysDir, "keys.json"));
      let client: ConvexClient | null = null;
      try {
        const running = await runningTestOfSignedInUser(backend);
        const { testId } = running;
        client = running.client;

        let latest: Page | null = null;
        client.onUpdate(api.results.responses, { testId, paginationOpts: { numItems: 20, cursor: null } }, (page) => {
          latest = page;
        });
        await until(() => latest !== null, "the first (empty) page");
        expect(latest!.page).toEqual([]);
        expect(latest!.isDone).toBe(true);

        const before = backend.meter.read();
        // 200 answers land, ten per recording, while the page is open.
        await land200Answers(backend, running, () => false);
        await until(() => latest?.isDone === false, "the first page to fill");
        // Every update is pushed: any later re-run would be counted now.
        await backend.settle();

        // What the user sees: the first 20 answers in arrival order, and more to load.
        const first = latest as Page | null;
        expect(first!.page.map((answer) => answer.content.split(":")[0])).toEqual(
          Array.from({ length: 20 }, (_, index) => `Answer ${index + 1}`),
        );
        expect(first!.isDone).toBe(false);
        const figures = meterDifference(backend.meter.read(), before)["results:responses"]!;
        // Re-runs only while the page had fewer than 21 answers (10, 20, then 30 arrived): not one
        // per arrival of the 200.
        expect(figures.subscriptionReruns).toBeLessThanOrEqual(3);
        // Each run reads the test, its 20 answers and the next one (and their score rows): not
        // every answer that arrived.
        expect(figures.documentsRead / figures.calls).toBeLessThanOrEqual(45);

        // "Load more": the next 20 from where the first page ends, then the rest to the last.
        const second = await client.query(api.results.responses, {
          testId,
          paginationOpts: { numItems: 20, cursor: first!.continueCursor },
        });
        expect(second.page.map((answer) => answer.content.split(":")[0])).toEqual(
          Array.from({ length: 20 }, (_, index) => `Answer ${index + 21}`),
        );
        const rest = await client.query(api.results.responses, {
          testId,
          paginationOpts: { numItems: 100, cursor: second.continueCursor },
        });
        const last = await client.query(api.results.responses, {
          testId,
          paginationOpts: { numItems: 100, cursor: rest.continueCursor },
        });
        expect([...rest.page, ...last.page].map((answer) => answer.content.split(":")[0])).toEqual(
          Array.from({ length: 160 }, (_, index) => `Answer ${index + 41}`),
        );
        expect(last.isDone).toBe(true);
      } finally {
        await client?.close();
        await backend.close();
        rmSync(keysDir, { recursive: true, force: true });
      }
    },
  );

  test(
    "the 'only answers that failed a check' list subscribed at empty stays its first 20 failures while 200 answers arrive",
    { timeout: 120_000 },
    async () => {
      const keysDir = mkdtempSync(join(tmpdir(), "mj-live-failed-"));
      const backend = await startLocalBackend(join(keysDir, "keys.json"));
      let client: ConvexClient | null = null;
      try {
        const running = await runningTestOfSignedInUser(backend);
        const { testId } = running;
        client = running.client;

        let latest: FunctionReturnType<typeof api.checks.failedResponses> | null = null;
        client.onUpdate(
          api.checks.failedResponses,
          { testId, paginationOpts: { numItems: 20, cursor: null } },
          (page) => {
            latest = page;
          },
        );
        await until(() => latest !== null, "the first (empty) page");
        expect(latest!.page).toEqual([]);

        const before = backend.meter.read();
        // 200 answers land, ten per recording; every second one fails a check.
        await land200Answers(backend, running, (index) => index % 2 === 1);
        await until(() => latest?.isDone === false, "the first page of failures to fill");
        await backend.settle();

        const first = latest as FunctionReturnType<typeof api.checks.failedResponses> | null;
        expect(first!.page.map((answer) => answer.content.split(":")[0])).toEqual(
          Array.from({ length: 20 }, (_, index) => `Answer ${2 * index + 2}`),
        );
        const figures = meterDifference(backend.meter.read(), before)["checks:failedResponses"]!;
        // A `.paginate` page first run at empty would re-run on each of the 20 commits, reading
        // every failure so far each time.
        expect(figures.subscriptionReruns).toBeLessThanOrEqual(5);
        expect(figures.documentsRead / figures.calls).toBeLessThanOrEqual(45);

        const rest = await client.query(api.checks.failedResponses, {
          testId,
          paginationOpts: { numItems: 100, cursor: first!.continueCursor },
        });
        expect(rest.page.map((answer) => answer.content.split(":")[0])).toEqual(
          Array.from({ length: 80 }, (_, index) => `Answer ${2 * index + 42}`),
        );
        expect(rest.isDone).toBe(true);
      } finally {
        await client?.close();
        await backend.close();
        rmSync(keysDir, { recursive: true, force: true });
      }
    },
  );
});
