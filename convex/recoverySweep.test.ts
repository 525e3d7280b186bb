// @vitest-environment node
// A worker that dies between recording a pair's last answer and its next claim (which gives the
// pair its judge calls) leaves the pair without them; its replacement's first claim sweeps. The
// sweep reads only the generation calls still awaiting their pair's judge calls, not every
// pair's answers: on the local backend's meter it reads less than one pair's answers, where
// reading every pair's (as it did) cost each death ten tests' answers (issue 32: bytes read
// ≤ 3 × bytes written with kills).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { meterDifference } from "../dev/backend/meter";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import {
  createUser,
  drainDispatch,
  sampleConfiguration,
  seedCatalog,
  startLocalBackend,
  type LocalBackend,
} from "./test.helpers";
import type { Outcome, WorkItem } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "mistralai/mistral-large", "x-ai/grok-3-mini"];
const JUDGES = ["google/gemini-2.0-flash-001"];
/** Long answers, so reading a pair's answers shows on the meter beside the calls' small rows. */
const ANSWER = `An answer worth reading. ${"It says a great deal. ".repeat(400)}`;

function answered(): Outcome {
  return {
    kind: "generated",
    answers: [ANSWER, ANSWER],
    promptTokens: 10,
    completionTokens: 20,
    latencyMs: 700,
    costUsd: 0.001,
  };
}

/**
 * A running test of 12 pairs whose answers are all recorded: the worker's claims gave 11 pairs
 * their judge calls, and it died before giving the 12th theirs.
 */
async function pairLeftWithoutJudgeCalls(t: LocalBackend["t"]) {
  await seedCatalog(t, [...GENERATORS, ...JUDGES]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // the test plays the worker
  const user = await createUser(t, "ada@example.com");
  const personas = ["p1", "p2", "p3"].map((id) => ({ id, name: id, description: id, systemPrompt: `Be ${id}.` }));
  const topics = ["t1", "t2", "t3", "t4"].map((id) => ({ id, title: id, description: id, prompt: `About ${id}.` }));
  // 12 pairs × 4 generators = 48 generation calls, 12 judge calls: a test whose pairs get
  // their judge calls from the worker's claims (more than FOLD_EVERY_CALL_UP_TO calls).
  const { testId } = await user.as.mutation(api.tests.create, {
    configuration: sampleConfiguration(GENERATORS, JUDGES, { personas, topics, responsesPerTopic: 2 }),
  });
  await drainDispatch(t);

  // Every answer lands and is recorded.
  const generation: WorkItem[] = [];
  for (let claim = 0; claim < 2; claim++)
    generation.push(...(await t.mutation(internal.runner.claimBatch, { testId, max: 32 })));
  expect(generation.map((item) => item.kind)).toEqual(Array(48).fill("generate"));
  const results = generation.map((item) => ({ callId: item.callId, leaseId: item.leaseId, outcome: answered() }));
  for (let from = 0; from < results.length; from += 16)
    expect(await t.mutation(internal.runner.recordBatch, { results: results.slice(from, from + 16) })).toEqual(
      Array(16).fill(true),
    );

  // The worker's claims give 11 pairs their judge calls; it dies before giving the 12th.
  const lastPair = generation.at(-1)!.pair;
  const others = generation.filter((item) => item.pair !== lastPair).map((item) => item.callId);
  expect(await t.mutation(internal.runner.claimBatch, { testId, max: 0, pairsDone: others })).toEqual([]);
  const judgeCalls = () =>
    t.run(async (ctx) =>
      (
        await ctx.db
          .query("calls")
          .withIndex("by_test_kind_status", (q) => q.eq("testId", testId).eq("kind", "evaluate"))
          .collect()
      ).map((call) => `${call.personaId}\u0000${call.topicId}`),
    );
  const before = await judgeCalls();
  expect(before).toHaveLength(11);
  expect(before).not.toContain(lastPair);

  return { testId, lastPair, judgeCalls };
}

let keysDir: string;
let backend: LocalBackend;
beforeEach(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-recovery-sweep-"));
  backend = await startLocalBackend(join(keysDir, "keys.json"));
}, 60_000);
afterEach(async () => {
  await backend.close();
  rmSync(keysDir, { recursive: true, force: true });
});

test(
  "the replacement's sweep gives a pair left without judge calls its calls, reading less than one pair's answers",
  { timeout: 120_000 },
  async () => {
    const { t } = backend;
    const { testId, lastPair, judgeCalls } = await pairLeftWithoutJudgeCalls(t);

    // The replacement's first claim sweeps (max 0: the sweep alone, on the meter).
    const meterBefore = backend.meter.read();
    expect(await t.mutation(internal.runner.claimBatch, { testId, max: 0, sweep: true })).toEqual([]);
    const sweep = meterDifference(backend.meter.read(), meterBefore)["runner:claimBatch"]!;
    const after = await judgeCalls();
    expect(after).toHaveLength(12);
    expect(after).toContain(lastPair);

    // It read the 4 calls awaiting judges and the one pair's 8 answers it needed (~70 KB), not
    // the 96 answers of all 12 pairs (~850 KB).
    const onePairsAnswers = 8 * ANSWER.length;
    expect(sweep.bytesRead).toBeLessThan(1.5 * onePairsAnswers);

    // A sweep with nothing awaiting reads next to nothing, and creates nothing.
    const again = backend.meter.read();
    await t.mutation(internal.runner.claimBatch, { testId, max: 0, sweep: true });
    expect(meterDifference(backend.meter.read(), again)["runner:claimBatch"]!.bytesRead).toBeLessThan(ANSWER.length);
    expect(await judgeCalls()).toHaveLength(12);

    // The judge calls are claimed and the test runs to its end with every pair judged.
    const judging = await t.mutation(internal.runner.claimBatch, { testId, max: 32 });
    expect(judging).toHaveLength(12);
    await t.mutation(internal.runner.recordBatch, {
      results: judging.map((item) => ({
        callId: item.callId,
        leaseId: item.leaseId,
        outcome: {
          kind: "ranked",
          ranking: item.labels.map((entry) => entry.responseId),
          explanation: "In label order.",
          promptTokens: 10,
          completionTokens: 20,
          latencyMs: 900,
          costUsd: 0.0005,
        } satisfies Outcome,
      })),
    });
    await t.mutation(internal.runner.endWork, { testId });
    const ended = await t.run(async (ctx) => await ctx.db.get("tests", testId as Id<"tests">));
    expect(ended).toMatchObject({ status: "completed", responsesCount: 96, evaluationsCount: 96 });
  },
);

test(
  "a run opened before recordings marked their calls is swept pair by pair: its pair gets its judge calls",
  { timeout: 120_000 },
  async () => {
    const { t } = backend;
    const { testId, lastPair, judgeCalls } = await pairLeftWithoutJudgeCalls(t);
    // As the code before the marks left it (a deploy of this code kills the host mid-run).
    await t.run(async (ctx) => {
      const run = await ctx.db
        .query("testRuns")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique();
      await ctx.db.patch("testRuns", run!._id, { marksAwaitingJudges: undefined });
      for (const call of await ctx.db
        .query("calls")
        .withIndex("by_test_status", (q) => q.eq("testId", testId))
        .collect())
        await ctx.db.patch("calls", call._id, { awaitingJudges: undefined });
    });
    await t.mutation(internal.runner.claimBatch, { testId, max: 0, sweep: true });
    const after = await judgeCalls();
    expect(after).toHaveLength(12);
    expect(after).toContain(lastPair);
  },
);
