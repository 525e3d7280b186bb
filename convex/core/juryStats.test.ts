// The stored jury statistics: recomputed once per burst of results, from bounded page reads, out
// of the rows the pipeline writes (ranking calls, evaluations with ranks), with the dev gateway's
// planted position-biased judge in the panel.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findCatalogModel } from "../../dev/gateway/catalog";
import { generateAnswers } from "../../dev/gateway/answerWriting";
import { rankingContent } from "../../dev/gateway/judgeReplies";
import { judgeProfileFor } from "../../dev/gateway/settings";
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { labelFor, reverseRankingKey, seededShuffle } from "../lib/prompts";
import { rankingScore } from "../lib/scoring";
import { seedConfiguration } from "../finishedTests.fixture";
import { createUser, createBackend, type TestBackend } from "../test.helpers";
import { JURY_STATS_POLL_MS, JURY_STATS_STALE_MS, requestJuryStats } from "./jury/poll";
import { finishJuryStats } from "./jury/finalRun";
import type { ActionCtx } from "../_generated/server";
import { workerLooks } from "./pipeline/workerLook";
import { JURY_STATS_CURSOR_MARGIN_MS, JURY_STATS_PAGE_SIZE } from "./jury/recompute";
import { decodeJuryState } from "./jury/state";
import { EMPTY_RUN_COUNTERS } from "./pipeline/runCounters";

const GENERATORS = [
  "anthropic/claude-opus-4",
  "openai/gpt-4o-mini",
  "google/gemini-2.0-flash-001",
  "qwen/qwen-2.5-72b-instruct",
  "cohere/command-r7b-12-2024",
  "meta-llama/llama-3.2-3b-instruct:free",
];
const JUDGES = [
  "meta-llama/llama-3.1-8b-instruct",
  "anthropic/claude-sonnet-4",
  "openai/gpt-4o",
  "deepseek/deepseek-chat",
  "x-ai/grok-3",
];
const planted = { plantedJudges: true, judgeProfiles: {} };

/** A finished ranking test whose rows look like the pipeline's: answers from the dev gateway, judged by its judges in the order the pipeline shows them. */
async function seedRankingTest(t: TestBackend, topics: number): Promise<{ testId: Id<"tests">; evaluations: number }> {
  const { userId } = await createUser(t, "jury@example.com");
  const base = seedConfiguration();
  const configuration = {
    ...base,
    topics: Array.from({ length: topics }, (_, index) => ({
      id: `t${index}`,
      title: `Topic ${index}`,
      description: "",
      prompt: `Write a launch email for product line ${index}.`,
    })),
    generatorModels: GENERATORS.map((id) => ({ id, name: findCatalogModel(id)!.name })),
    evaluatorModels: JUDGES.map((id) => ({ id, name: findCatalogModel(id)!.name })),
    responsesPerTopic: 1,
    scoringParameters: { scale: "ranking" as const, includeExplanations: false },
  };
  return await t.run(async (ctx) => {
    const testId = await ctx.db.insert("tests", {
      userId,
      name: configuration.name,
      taskType: configuration.taskType,
      configuration,
      status: "running",
      progress: { currentPhase: "Evaluating", percentage: 80 },
      estimate: {
        generationCost: 0.01,
        evaluationCost: 0.02,
        totalCost: 0.03,
        totalQueries: 10,
        estimatedTokens: 1000,
      },
      priceCents: 200,
      usesOwnKey: false,
      expectedResponses: 0,
      expectedEvaluations: 0,
      ...EMPTY_RUN_COUNTERS,
      lastProgressAt: Date.now(),
    });
    let evaluations = 0;
    for (const persona of configuration.personas) {
      for (const topic of configuration.topics) {
        const unit: { id: Id<"responses">; content: string }[] = [];
        for (const modelId of GENERATORS) {
          const [content] = generateAnswers(
            findCatalogModel(modelId)!,
            { system: persona.systemPrompt, user: topic.prompt },
            1,
            3,
          );
          const id = await ctx.db.insert("responses", {
            testId,
            modelId,
            personaId: persona.id,
            topicId: topic.id,
            content: content!,
            promptTokens: 10,
            completionTokens: 50,
            tokens: 60,
            latencyMs: 900,
            costUsd: 0.0002,
            scoreSum: 0,
            scoreCount: 0,
          });
          unit.push({ id, content: content! });
        }
        for (const judge of JUDGES) {
          const key = `${testId}:rank:${judge}:${persona.id}:${topic.id}`;
          const responseIds = unit.map((answer) => answer.id);
          await ctx.db.insert("calls", {
            testId,
            kind: "evaluate",
            key,
            status: "succeeded",
            attempts: 1,
            modelId: judge,
            personaId: persona.id,
            topicId: topic.id,
            responseIds,
          });
          const shown = seededShuffle(unit, key);
          const reply = rankingContent(
            findCatalogModel(judge)!,
            shown.map((answer, index) => ({ label: labelFor(index), text: answer.content })),
            3,
            judgeProfileFor(judge, planted),
          );
          const { ranking } = JSON.parse(reply) as { ranking: string[] };
          for (const [rank, label] of ranking.entries()) {
            const answer = shown[label.charCodeAt(0) - 65]!;
            await ctx.db.insert("evaluations", {
              testId,
              responseId: answer.id,
              evaluatorModelId: judge,
              scores: { overall: rankingScore(rank, ranking.length) },
              explanation: "",
              rank: rank + 1,
              costUsd: 0.0001,
            });
            evaluations++;
          }
        }
      }
    }
    return { testId, evaluations };
  });
}

async function scheduledCount(t: TestBackend): Promise<number> {
  return await t.run(
    async (ctx) =>
      (await ctx.db.system.query("_scheduled_functions").collect()).filter((job) => job.state.kind === "pending")
        .length,
  );
}

async function statsRow(t: TestBackend, testId: Id<"tests">) {
  return await t.run((ctx) =>
    ctx.db
      .query("testStats")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique(),
  );
}

describe("jury statistics of a test", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a burst of results schedules one recomputation, which reads the test in pages and stores what it finds", async () => {
    const t = createBackend();
    const { testId, evaluations } = await seedRankingTest(t, 10);
    expect(evaluations).toBeGreaterThan(JURY_STATS_PAGE_SIZE);

    for (let i = 0; i < 5; i++) await t.run((ctx) => requestJuryStats(ctx, testId));
    expect(await scheduledCount(t)).toBe(1);

    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const row = await statsRow(t, testId);
    expect(row).toMatchObject({ pending: false, dirty: false, evaluationsSeen: evaluations });
    const stats = row!.stats!;
    expect(stats.units).toBe(20);
    expect(stats.models.map((model) => model.modelId)[0]).toBe("anthropic/claude-opus-4");
    expect(stats.models[0]!.scoreInterval!.low).toBeLessThan(stats.models[0]!.meanScore!);
    const positionJudge = stats.judges.find((judge) => judge.judgeModelId === "meta-llama/llama-3.1-8b-instruct")!;
    expect(positionJudge.position!.flagged).toBe(true);
    expect(
      stats.judges
        .filter((judge) => judge.judgeModelId !== positionJudge.judgeModelId)
        .every((judge) => !judge.position!.flagged),
    ).toBe(true);
    expect(stats.costs.judgingUsd).toBeCloseTo(evaluations * 0.0001, 9);
    expect(await scheduledCount(t)).toBe(0);
  });

  it("results that arrive during a recomputation make it run once more, not once per result", async () => {
    const t = createBackend();
    const { testId } = await seedRankingTest(t, 2);
    await t.run((ctx) => requestJuryStats(ctx, testId));
    await t.mutation(internal.juryStats.begin, { testId });
    await t.run((ctx) => requestJuryStats(ctx, testId));
    await t.run((ctx) => requestJuryStats(ctx, testId));
    expect(await statsRow(t, testId)).toMatchObject({ pending: true, dirty: true });
    // The first run (scheduled above) ends: one more is scheduled for the late results.
    await t.mutation(internal.juryStats.store, { testId, stats: null, evaluationsSeen: 0 });
    expect(await statsRow(t, testId)).toMatchObject({ pending: true, dirty: false });
    expect(await scheduledCount(t)).toBe(2);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const row = await statsRow(t, testId);
    expect(row).toMatchObject({ pending: false, dirty: false });
    expect(row!.stats!.units).toBe(4);
  });

  it("gives the same figures for the same test every time", async () => {
    const t = createBackend();
    const { testId } = await seedRankingTest(t, 3);
    await t.run((ctx) => requestJuryStats(ctx, testId));
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const first = (await statsRow(t, testId))!.stats;
    await t.run((ctx) => requestJuryStats(ctx, testId));
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect((await statsRow(t, testId))!.stats).toEqual(first);
  });
});

/**
 * A running ranking test judged in both orders, whose judges skip their own family's answers and
 * where some answers are missing (their generator failed): `addResults(batch)` writes the
 * answers and judge results of the batch's topics as the pipeline does (a call per judge and
 * order, its scores naming it).
 */
async function seedRunningRankingTest(t: TestBackend, topics: number, scale: "ranking" | "rating" = "ranking") {
  const { userId } = await createUser(t, "incremental@example.com");
  const base = seedConfiguration();
  const generators = [
    "openai/gpt-4o-mini",
    "anthropic/claude-opus-4",
    "google/gemini-2.0-flash-001",
    "qwen/qwen-2.5-72b-instruct",
  ];
  const judges = ["openai/gpt-4o", "anthropic/claude-sonnet-4", "deepseek/deepseek-chat"];
  const configuration = {
    ...base,
    topics: Array.from({ length: topics }, (_, index) => ({
      id: `t${index}`,
      title: `Topic ${index}`,
      description: "",
      prompt: `Prompt ${index}`,
    })),
    generatorModels: generators.map((id) => ({ id, name: id })),
    evaluatorModels: judges.map((id) => ({ id, name: id })),
    responsesPerTopic: 1,
    scoringParameters:
      scale === "ranking"
        ? { scale, includeExplanations: false, bothOrders: true }
        : { scale, includeExplanations: false },
  };
  const testId = await t.run(
    async (ctx) =>
      await ctx.db.insert("tests", {
        userId,
        name: configuration.name,
        taskType: configuration.taskType,
        configuration,
        status: "running",
        progress: { currentPhase: "Evaluating", percentage: 50 },
        estimate: {
          generationCost: 0.01,
          evaluationCost: 0.02,
          totalCost: 0.03,
          totalQueries: 10,
          estimatedTokens: 1000,
        },
        priceCents: 200,
        usesOwnKey: false,
        expectedResponses: 0,
        expectedEvaluations: 0,
        ...EMPTY_RUN_COUNTERS,
        lastProgressAt: Date.now(),
      }),
  );
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const addResults = async (topicIds: number[]) => {
    await t.run(async (ctx) => {
      for (const persona of configuration.personas) {
        for (const topic of topicIds) {
          const answers: { id: Id<"responses">; modelId: string; quality: number }[] = [];
          for (const [index, modelId] of generators.entries()) {
            // Missing answers: the fourth generator fails on every third topic.
            if (index === 3 && topic % 3 === 0) continue;
            const id = await ctx.db.insert("responses", {
              testId,
              modelId,
              personaId: persona.id,
              topicId: `t${topic}`,
              content: "x".repeat(100 + Math.floor(random() * 400)),
              promptTokens: 10,
              completionTokens: 50,
              tokens: 60,
              latencyMs: 900,
              costUsd: 0.0002,
              scoreSum: 0,
              scoreCount: 0,
            });
            answers.push({ id, modelId, quality: index + random() * 2 });
          }
          for (const judge of judges) {
            // Judges skip their own family's answers.
            const shownTo = answers.filter((answer) => answer.modelId.split("/")[0] !== judge.split("/")[0]);
            if (scale === "rating") {
              // One call per answer; 1–10 scores on two criteria.
              for (const answer of shownTo) {
                const callId = await ctx.db.insert("calls", {
                  testId,
                  kind: "evaluate",
                  key: `${testId}:rate:${judge}:${answer.id}`,
                  status: "succeeded",
                  attempts: 1,
                  modelId: judge,
                  personaId: persona.id,
                  topicId: `t${topic}`,
                  responseIds: [answer.id],
                });
                const score = () => Math.max(1, Math.min(10, Math.round(3 + answer.quality + random() * 3)));
                await ctx.db.insert("evaluations", {
                  testId,
                  responseId: answer.id,
                  evaluatorModelId: judge,
                  scores: { accuracy: score(), creativity: score() },
                  explanation: "",
                  costUsd: 0.0001,
                  callId,
                });
              }
              continue;
            }
            const forward = `${testId}:rank:${judge}:${persona.id}:t${topic}`;
            for (const key of [forward, reverseRankingKey(forward)]) {
              const callId = await ctx.db.insert("calls", {
                testId,
                kind: "evaluate",
                key,
                status: "succeeded",
                attempts: 1,
                modelId: judge,
                personaId: persona.id,
                topicId: `t${topic}`,
                responseIds: shownTo.map((answer) => answer.id),
              });
              const ranked = [...shownTo].sort((a, b) => b.quality + random() - (a.quality + random()));
              for (const [rank, answer] of ranked.entries()) {
                await ctx.db.insert("evaluations", {
                  testId,
                  responseId: answer.id,
                  evaluatorModelId: judge,
                  scores: { overall: rankingScore(rank, ranked.length) },
                  explanation: "",
                  rank: rank + 1,
                  costUsd: 0.0001,
                  callId,
                });
              }
            }
          }
        }
      }
    });
  };
  return { testId, addResults };
}

describe("incremental jury statistics", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const recompute = async (t: TestBackend, testId: Id<"tests">) => {
    await t.run((ctx) => requestJuryStats(ctx, testId));
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    return (await statsRow(t, testId))!;
  };

  it("equal a full recomputation, with both orders, skipped families and missing answers", async () => {
    const t = createBackend();
    const { testId, addResults } = await seedRunningRankingTest(t, 9);
    await addResults([0, 1]);
    await recompute(t, testId);
    for (const batch of [[2, 3], [4], [5, 6, 7], [8]]) {
      // Results arrive later: the kept rows' cursor lies behind them, past the margin.
      vi.advanceTimersByTime(JURY_STATS_CURSOR_MARGIN_MS * 2);
      await addResults(batch);
      const incremental = await recompute(t, testId);
      expect(incremental.exact).toBeFalsy();
      // The same rows read in full from scratch give the same figures, to the last digit.
      const kept = await t.run(async (ctx) => await ctx.db.query("juryStateChunks").collect());
      await t.run(async (ctx) => {
        for (const chunk of kept) await ctx.db.delete("juryStateChunks", chunk._id);
        await ctx.db.patch("testStats", incremental._id, { cursor: undefined });
      });
      const full = await recompute(t, testId);
      expect(full.stats).toEqual(incremental.stats);
      expect(full.evaluationsSeen).toBe(incremental.evaluationsSeen);
    }
    const stats = (await statsRow(t, testId))!.stats!;
    expect(stats.units).toBe(18);
    // Every judge ranked in both orders, and skipped its own family.
    expect(stats.judges.every((judge) => judge.positionConsistency !== null)).toBe(true);
    const openai = stats.models.find((model) => model.modelId === "openai/gpt-4o-mini")!;
    expect(openai.byJudge.find((entry) => entry.judgeModelId === "openai/gpt-4o")!.mean).toBeNull();
    expect(stats.models.find((model) => model.modelId === "qwen/qwen-2.5-72b-instruct")!.units).toBe(12);
  });

  it("equal a full recomputation on the rating scale, with skipped families and missing answers", async () => {
    const t = createBackend();
    const { testId, addResults } = await seedRunningRankingTest(t, 6, "rating");
    await addResults([0, 1]);
    await recompute(t, testId);
    for (const batch of [
      [2, 3],
      [4, 5],
    ]) {
      vi.advanceTimersByTime(JURY_STATS_CURSOR_MARGIN_MS * 2);
      await addResults(batch);
      const incremental = await recompute(t, testId);
      const kept = await t.run(async (ctx) => await ctx.db.query("juryStateChunks").collect());
      await t.run(async (ctx) => {
        for (const chunk of kept) await ctx.db.delete("juryStateChunks", chunk._id);
        await ctx.db.patch("testStats", incremental._id, { cursor: undefined });
      });
      const full = await recompute(t, testId);
      expect(full.stats).toEqual(incremental.stats);
    }
    const stats = (await statsRow(t, testId))!.stats!;
    expect(stats.scale).toBe("rating");
    expect(stats.criteria).toEqual(["accuracy", "creativity"]);
    expect(stats.units).toBe(12);
  });

  it("a running test's worker looks after its reports: recomputes in proportion to what arrived, catches up when stale, schedules nothing, and the end is exact", async () => {
    const t = createBackend();
    const { testId, addResults } = await seedRunningRankingTest(t, 13);
    await t.run(async (ctx) => {
      const test = (await ctx.db.get("tests", testId))!;
      const { responsesPerTopic, scoringParameters, evaluatorModels } = test.configuration;
      await ctx.db.insert("testRuns", {
        testId,
        running: true,
        foldEveryCall: false,
        configuration: { responsesPerTopic, scoringParameters, evaluatorModels },
      });
      await ctx.db.insert("testConcurrency", {
        testId,
        level: 8,
        backedOff: false,
        inFlight: 0,
        exchanges: 0,
        rateLimited: 0,
        timeouts: 0,
        serverErrors: 0,
        updatedAt: Date.now(),
        judgedReports: 0,
      });
    });
    // The worker's action, as its host runs it: queries and mutations of the backend.
    const looks = workerLooks({ runQuery: t.query, runMutation: t.mutation } as unknown as ActionCtx, testId, false);
    const runs = new Set<number>();
    let judged = false;
    const tick = async () => {
      vi.advanceTimersByTime(JURY_STATS_POLL_MS);
      looks.reported(judged, Date.now());
      judged = false;
      await looks.idle();
      // Nothing is scheduled while the run goes on: the looks are the worker's.
      expect(await scheduledCount(t)).toBe(0);
      const row = (await statsRow(t, testId))!;
      if (row.computedAt !== undefined) runs.add(row.computedAt);
      return row;
    };
    // The worker reports judge results every second, a topic's each time (13 reports).
    for (let topic = 0; topic < 13; topic++) {
      await addResults([topic]);
      await t.run(async (ctx) => {
        const row = await ctx.db
          .query("testConcurrency")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .unique();
        await ctx.db.patch("testConcurrency", row!._id, {
          judgedReports: topic + 1,
          updatedAt: Date.now(),
        });
      });
      judged = true;
      await tick();
    }
    // Each run reads every kept row again: a run per report would be 13; in proportion, 6
    // (after reports 1, 2, 3, 5, 8 and 12), and the 13th waits.
    expect(runs.size).toBeLessThanOrEqual(6);
    const waiting = (await statsRow(t, testId))!;
    expect(waiting.judgedSeen).toBeLessThan(13);
    // No more reports: the waiting results are shown once the figures are stale.
    let row = waiting;
    for (let waited = 0; waited <= JURY_STATS_STALE_MS && row.judgedSeen !== 13; waited += JURY_STATS_POLL_MS)
      row = await tick();
    expect(row.judgedSeen).toBe(13);
    expect(row.evaluationsSeen).toBeGreaterThan(waiting.evaluationsSeen);
    // The run ends: one full run, scheduled by the end, with the same figures.
    await t.run(async (ctx) => {
      const run = await ctx.db
        .query("testRuns")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique();
      await ctx.db.patch("testRuns", run!._id, { running: false });
      await ctx.db.patch("tests", testId, { status: "completed" });
      await finishJuryStats(ctx, testId);
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const ended = (await statsRow(t, testId))!;
    expect(ended.exact).toBe(true);
    expect(ended.stats).toEqual(row.stats);
    expect(ended.evaluationsSeen).toBe(row.evaluationsSeen);
  });

  it("reads only what arrived since the last run, and once in full when the test ends", async () => {
    const t = createBackend();
    const { testId, addResults } = await seedRunningRankingTest(t, 6);
    await addResults([0, 1, 2]);
    const first = await recompute(t, testId);
    vi.advanceTimersByTime(JURY_STATS_CURSOR_MARGIN_MS * 2);
    await addResults([3, 4, 5]);
    // An incremental run reads the kept rows plus the new ones: the old answers' rows are not
    // read again (the kept rows are what it started from).
    const before = await t.run(async (ctx) => await ctx.db.query("juryStateChunks").collect());
    const second = await recompute(t, testId);
    const after = await t.run(async (ctx) => await ctx.db.query("juryStateChunks").collect());
    expect(second.cursor!.evaluations).toBeGreaterThan(first.cursor!.evaluations);
    expect(after.length).toBeGreaterThanOrEqual(before.length);
    const keptRows = (chunks: typeof after) =>
      chunks.reduce((sum, chunk) => sum + decodeJuryState(chunk.data).evaluations.length, 0);
    expect(keptRows(after)).toBe(second.evaluationsSeen);

    // The test ends: one full recomputation, exact, with the same figures.
    await t.run(async (ctx) => {
      await ctx.db.patch("tests", testId, { status: "completed" });
      await finishJuryStats(ctx, testId);
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const ended = (await statsRow(t, testId))!;
    expect(ended.exact).toBe(true);
    expect(ended.stats).toEqual(second.stats);
    // A later verdict or request recomputes from the kept rows; the end is not run again.
    await t.run((ctx) => finishJuryStats(ctx, testId));
    expect(await scheduledCount(t)).toBe(0);
  });
});
