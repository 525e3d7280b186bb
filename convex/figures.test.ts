// @vitest-environment node
// Figures that add up: the results page's cost splits into generation and
// judging and rebuilds History's cost from the evaluations it lists; the latency figures are the
// answers' own (not histogram estimates); each judge call's labels say which answer was which;
// the monitor's percentage never falls back. The calls are driven by hand (no workers) so every
// latency and cost is exactly the one described.
import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { percentile } from "./lib/scoring";
import { createUser, createBackend, sampleConfiguration, seedCatalog, type TestBackend } from "./test.helpers";
import type { TestConfiguration, WorkItem } from "./validators";
import { claimOne } from "./poolWorker.fixture";
import { countedTest } from "./core/pipeline/counterRow";

const A = "openai/gpt-4o-mini";
const B = "anthropic/claude-3.5-haiku";
const JUDGE = "google/gemini-2.0-flash-001";
const TOPICS = 6;
// One answer per topic. A histogram put A's 95th percentile at 7.25 s though its slowest answer
// took 5.7 s, and above B's (6.75 s), whose p95 is really the higher one (5.925 s against 5.675 s).
const LATENCY: Record<string, number[]> = {
  [A]: [5700, 5600, 5200, 900, 800, 700],
  [B]: [7400, 1500, 1500, 1500, 1500, 1500],
};
const GENERATION_COST = 0.001;
const JUDGE_COST = 0.0005;

async function setup(overrides: Partial<TestConfiguration> = {}) {
  const t = createBackend();
  await seedCatalog(t, [A, B, JUDGE]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 })); // this test is the worker
  const ada = await createUser(t, "ada@example.com");
  const configuration = sampleConfiguration([A, B], [JUDGE], {
    topics: Array.from({ length: TOPICS }, (_, index) => ({
      id: `t${index}`,
      title: `Topic ${index}`,
      description: `Product line ${index}`,
      prompt: `Product ${index}.`,
    })),
    responsesPerTopic: 1,
    ...overrides,
  });
  const { testId } = await ada.as.mutation(api.tests.create, { configuration });
  await t.mutation(internal.runner.dispatch, {});
  return { t, ada, testId };
}

async function topicIndexOf(t: TestBackend, callId: Id<"calls">): Promise<number> {
  const call = await t.run(async (ctx) => (await ctx.db.get("calls", callId))!);
  return Number(call.topicId.slice(1));
}

/** Answers every call: each answer at its planted latency; each judge ranks in label order. */
async function runByHand(t: TestBackend, testId: Id<"tests">): Promise<number[]> {
  const percentages: number[] = [];
  let item = await claimOne(t, testId);
  while (item) {
    const outcome =
      item.kind === "generate"
        ? {
            kind: "generated" as const,
            answers: [`${item.modelId} on topic ${await topicIndexOf(t, item.callId)}`],
            promptTokens: 10,
            completionTokens: 20,
            latencyMs: LATENCY[item.modelId]![await topicIndexOf(t, item.callId)]!,
            costUsd: GENERATION_COST,
          }
        : {
            kind: "ranked" as const,
            ranking: item.labels.map((entry) => entry.responseId),
            explanation: `${item.labels[0]!.label} is the most specific.`,
            promptTokens: 10,
            completionTokens: 20,
            latencyMs: 300,
            costUsd: JUDGE_COST,
          };
    await t.mutation(internal.runner.record, { callId: item.callId, leaseId: item.leaseId, outcome });
    item = await claimOne(t, testId);
    percentages.push(await t.run(async (ctx) => (await countedTest(ctx, testId))!.progress.percentage));
  }
  return percentages;
}

describe("figures that add up", () => {
  test("the latency chart is the data: exact median and p95 per model, never above the slowest answer", async () => {
    const { t, ada, testId } = await setup();
    await runByHand(t, testId);
    const results = await ada.as.query(api.results.get, { testId });
    const byModel = new Map(results.models.map((model) => [model.modelId, model]));
    for (const modelId of [A, B]) {
      expect(byModel.get(modelId)).toMatchObject({
        medianLatencyMs: percentile(LATENCY[modelId]!, 50),
        p95LatencyMs: percentile(LATENCY[modelId]!, 95),
        maxLatencyMs: Math.max(...LATENCY[modelId]!),
        latencyExact: true,
      });
    }
    expect(byModel.get(A)!.p95LatencyMs).toBe(5675); // a histogram said 7,250 ms
    expect(byModel.get(B)!.p95LatencyMs).toBe(5925); // and 6,750 ms, the wrong way round
    expect(byModel.get(B)!.p95LatencyMs!).toBeGreaterThan(byModel.get(A)!.p95LatencyMs!);
  });

  test("the total cost splits into generation and judging, and the evaluations' costs add up to the judging", async () => {
    const { t, ada, testId } = await setup();
    await runByHand(t, testId);
    const results = await ada.as.query(api.results.get, { testId });
    const generationCalls = 2 * TOPICS;
    const judgeCalls = TOPICS;
    expect(results.metrics.totalCostUsd).toBeCloseTo(generationCalls * GENERATION_COST + judgeCalls * JUDGE_COST, 12);
    expect(results.metrics.generationCostUsd).toBeCloseTo(generationCalls * GENERATION_COST, 12);
    expect(results.metrics.judgingCostUsd).toBeCloseTo(judgeCalls * JUDGE_COST, 12);
    // History's figure is the page's total.
    const history = await ada.as.query(api.history.list, {});
    const row = history.tests.find((entry) => entry._id === testId)!;
    expect(row.totalCostUsd).toBeCloseTo(results.metrics.totalCostUsd, 12);
    // ...and the page lists every judge cost item by item, and every answer's cost.
    const evaluations = await ada.as.query(api.results.evaluations, {
      testId,
      paginationOpts: { numItems: 100, cursor: null },
    });
    const responses = await ada.as.query(api.results.responses, {
      testId,
      paginationOpts: { numItems: 100, cursor: null },
    });
    expect(evaluations.page.reduce((sum, row) => sum + row.costUsd, 0)).toBeCloseTo(results.metrics.judgingCostUsd, 12);
    expect(responses.page.reduce((sum, row) => sum + row.costUsd, 0)).toBeCloseTo(
      results.metrics.generationCostUsd,
      12,
    );
  });

  test("each judge call's evaluations say which label showed which answer, listed once per call", async () => {
    const { t, ada, testId } = await setup();
    await runByHand(t, testId);
    const { page } = await ada.as.query(api.results.evaluations, {
      testId,
      paginationOpts: { numItems: 100, cursor: null },
    });
    expect(page).toHaveLength(2 * TOPICS);
    const byCall = new Map<string, typeof page>();
    for (const row of page) byCall.set(row.callId!, [...(byCall.get(row.callId!) ?? []), row]);
    expect(byCall.size).toBe(TOPICS);
    for (const rows of byCall.values()) {
      const withLabels = rows.filter((row) => row.batchLabels !== undefined);
      expect(withLabels).toHaveLength(1); // the mapping comes once per call, not on every row
      const labels = withLabels[0]!.batchLabels!;
      expect(labels.map((entry) => entry.label)).toEqual(["A", "B"]);
      for (const row of rows) {
        const entry = labels.find((candidate) => candidate.label === row.label)!;
        expect(entry.responseId).toBe(row.response!._id);
        expect(entry.modelName).toBe(row.response!.modelName);
        expect(entry.preview).toBe(row.response!.content);
      }
      // "A is the most specific." names the answer ranked first.
      const first = rows.find((row) => row.rank === 1)!;
      expect(first.explanation).toBe(`${first.label} is the most specific.`);
    }
  });

  test("the percentage never falls back when judging starts, and each kind's calls and their time are counted", async () => {
    const { t, testId } = await setup();
    const percentages = await runByHand(t, testId);
    for (let index = 1; index < percentages.length; index++) {
      expect(percentages[index]).toBeGreaterThanOrEqual(percentages[index - 1]!);
    }
    expect(percentages.at(-1)).toBe(100);
    const done = await t.run(async (ctx) => (await countedTest(ctx, testId))!);
    // Each kind's calls and the gateway time they took: the rates the time remaining uses.
    expect(done.judgeCallsFinished).toBe(TOPICS);
    expect(done.judgeCallMs).toBe(TOPICS * 300);
    expect(done.generationCallMs).toBe([...LATENCY[A]!, ...LATENCY[B]!].reduce((sum, ms) => sum + ms, 0));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  test("the monitor's time remaining is the judge calls left at the judges' own rate", async () => {
    // Answers take 1 s a call, judge calls 20 s each: with 6 of 12 judge calls left after two
    // minutes of judging, about 2 minutes remain (a single pace for all work said 'Less than a minute').
    // The answers are claimed all at once (before any pair is done, so before any judge call
    // exists), then the judge calls one at a time: all answers end before the judging starts.
    vi.useFakeTimers({ toFake: ["Date"] });
    let clock = Date.UTC(2026, 0, 15, 12, 0, 0);
    vi.setSystemTime(clock);
    const { t, ada, testId } = await setup({ scoringParameters: { scale: "rating", includeExplanations: true } });
    const answers: WorkItem[] = [];
    for (;;) {
      const batch = await t.mutation(internal.runner.claimBatch, { testId, max: 100 });
      if (batch.length === 0) break;
      answers.push(...batch);
    }
    expect(answers.map((item) => item.kind)).toEqual(Array(2 * TOPICS).fill("generate"));
    for (const item of answers) {
      clock += 1_000;
      vi.setSystemTime(clock);
      await t.mutation(internal.runner.record, {
        callId: item.callId,
        leaseId: item.leaseId,
        outcome: {
          kind: "generated" as const,
          answers: ["An answer."],
          promptTokens: 10,
          completionTokens: 20,
          latencyMs: 1_000,
          costUsd: 0,
        },
      });
    }
    let judged = 0;
    let item = await claimOne(t, testId);
    while (item && judged < 6) {
      expect(item.kind).toBe("evaluate");
      clock += 20_000;
      vi.setSystemTime(clock);
      judged++;
      await t.mutation(internal.runner.record, {
        callId: item.callId,
        leaseId: item.leaseId,
        outcome: {
          kind: "rated" as const,
          scores: { accuracy: 7 },
          explanation: "Fine.",
          promptTokens: 10,
          completionTokens: 20,
          latencyMs: 20_000,
          costUsd: 0,
        },
      });
      item = await claimOne(t, testId);
    }
    const { test: running } = await ada.as.query(api.tests.monitor, { testId });
    expect(running.status).toBe("running");
    expect(running.evaluationsCount).toBe(6);
    expect(running.progress.estimatedTimeRemaining).toBe("About 2 min");
  });
});
