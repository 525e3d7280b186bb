// @vitest-environment node
// The adaptive concurrency against a real (dev) gateway that allows a few calls at once and
// answers 429 with Retry-After beyond them: the test's worker grows from its safe start to the
// gateway's limit, stays at it with few refusals, and every call still ends with its answer.
import { afterEach, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import {
  createBackend,
  createUser,
  readTestRows,
  sampleConfiguration,
  seedCatalog,
  useDevGateway,
  waitFor,
} from "./test.helpers";

const gateway = useDevGateway();
const LIMIT = 6;

afterEach(() => {
  const settings = gateway().settings;
  settings.maxConcurrent = null;
  settings.fixedLatencyMs = null;
  settings.retryAfterSeconds = 1;
  process.env.GATEWAY_BACKOFF_SCALE = "0";
});

describe("adaptive concurrency against a gateway limited to 6 calls at once", () => {
  test(
    "grows from 2 to the limit, stays under it, and every call ends with its answer",
    { timeout: 120_000 },
    async () => {
      Object.assign(gateway().settings, { maxConcurrent: LIMIT, fixedLatencyMs: 300, retryAfterSeconds: 0.2 });
      process.env.GATEWAY_BACKOFF_SCALE = "0.1"; // a refused call waits 0.2 s, as Retry-After says
      const before = { ...gateway().stats };
      const t = createBackend();
      const generators = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
      const judge = "google/gemini-2.0-flash-001";
      await seedCatalog(t, [...generators, judge]);
      await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 2 }));
      const user = await createUser(t, "ada@example.com");
      const personas = ["p1", "p2", "p3", "p4"].map((id) => ({ id, name: id, description: id, systemPrompt: id }));
      const topics = ["t1", "t2", "t3", "t4", "t5"].map((id) => ({ id, title: id, description: id, prompt: id }));
      const { testId } = await user.as.mutation(api.tests.create, {
        configuration: sampleConfiguration(generators, [judge], {
          personas,
          topics,
          responsesPerTopic: 1,
          scoringParameters: { scale: "rating", includeExplanations: false },
        }),
      });
      await waitFor(
        () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status),
        (status) => status === "completed" || status === "failed",
        110_000,
      );
      await t.finishInProgressScheduledFunctions();
      const { test: done, calls, responses } = await t.run((ctx) => readTestRows(ctx, testId));
      const stats = gateway().stats;
      const chatCalls = stats.chatCalls - before.chatCalls;
      const refused = stats.overLimit - before.overLimit;

      // 40 answers and 40 ratings, none lost to the refusals.
      expect(done).toMatchObject({ status: "completed", responsesCount: 40, evaluationsCount: 40, failedCalls: 0 });
      expect(calls).toHaveLength(80);
      expect(responses).toHaveLength(40);
      // It reached the gateway's limit (from 2), which the gateway never let it pass...
      expect(stats.maxInFlight).toBe(LIMIT);
      // ...and stayed under it: few calls were refused for it.
      expect(refused / chatCalls).toBeLessThanOrEqual(0.1);
      const row = await t.run((ctx) =>
        ctx.db
          .query("testConcurrency")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .unique(),
      );
      // The worker counted every exchange and every 429 it was given.
      expect(row).toMatchObject({ exchanges: chatCalls, rateLimited: refused });
      expect(row!.ceiling ?? LIMIT).toBeLessThanOrEqual(LIMIT + 1);
    },
  );
});
