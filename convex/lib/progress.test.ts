// @vitest-environment node
import { describe, expect, it, it as test } from "vitest";
import {
  type CallPace,
  type CallsInSight,
  forecastTimeRemaining,
  steadyEndsAt,
  callsInSightOf,
  durationRangeLabel,
  estimateTimeRange,
  callRates,
  estimateTimeRemaining,
  timeRangeLabel,
} from "./timeEstimates";
import {
  callsPerMonitorWrite,
  callsPerProgressWrite,
  MONITOR_PROGRESS,
  monitorSizeOf,
  monitorWriteDue,
  progressWriteDue,
} from "./progressWrites";
import {
  computeProgress,
  deliveredShare,
  deliveryShortfall,
  expectedCallsOf,
  expectedEvaluationsOf,
  expectedResponsesOf,
  initialProgress,
  missingWorkSummary,
} from "./progress";
import { formatTimeRemaining } from "./format";

// 2 generators × 3 topics × 2 personas × 2 responses = 24 answers; × 3 evaluators = 72 evaluations.
const config = {
  generatorModels: ["g1", "g2"],
  evaluatorModels: ["e1", "e2", "e3"],
  personas: [{}, {}],
  topics: [{}, {}, {}],
  responsesPerTopic: 2,
};

describe("expected counts", () => {
  it("follows the spec's formulas", () => {
    expect(expectedResponsesOf(config)).toBe(24);
    expect(expectedEvaluationsOf(config)).toBe(72);
    expect(expectedResponsesOf({ ...config, responsesPerTopic: undefined })).toBe(12);
  });

  it("treats an older models list as generators with no evaluators", () => {
    const legacy = { models: ["g1", "g2"], personas: [{}], topics: [{}], responsesPerTopic: 1 };
    expect(expectedResponsesOf(legacy)).toBe(2);
    expect(expectedEvaluationsOf(legacy)).toBe(0);
  });
});

describe("computeProgress", () => {
  it("is Unknown without a configuration", () => {
    expect(computeProgress(null, { actualResponses: 3, actualEvaluations: 1 })).toEqual({
      phase: "Unknown",
      progress: 0,
      details: "Test configuration not available",
      expectedResponses: 0,
      actualResponses: 3,
      expectedEvaluations: 0,
      actualEvaluations: 1,
      responseProgress: 0,
      evaluationProgress: 0,
    });
  });

  it("starts response generation", () => {
    expect(computeProgress(config, { actualResponses: 0, actualEvaluations: 0 })).toEqual({
      phase: "Starting Response Generation",
      progress: 0,
      details: "Expected 24 responses, found 0",
      expectedResponses: 24,
      actualResponses: 0,
      expectedEvaluations: 72,
      actualEvaluations: 0,
      responseProgress: 0,
      evaluationProgress: 0,
    });
  });

  it("reports the response percentage while generating", () => {
    const info = computeProgress(config, { actualResponses: 6, actualEvaluations: 0 });
    expect(info.phase).toBe("Generating Responses");
    expect(info.progress).toBe(25);
    expect(info.responseProgress).toBe(25);
    expect(info.details).toBe("6 of 24 responses generated");
    // evaluations may already arrive for finished persona × topic pairs
    expect(computeProgress(config, { actualResponses: 23, actualEvaluations: 40 }).progress).toBe(95);
    expect(computeProgress(config, { actualResponses: 8, actualEvaluations: 0 }).progress).toBe(33);
  });

  it("maps evaluations to 50 + 40% of their percentage", () => {
    const info = computeProgress(config, { actualResponses: 24, actualEvaluations: 36 });
    expect(info.phase).toBe("Collecting Evaluations");
    expect(info.progress).toBe(70);
    expect(info.evaluationProgress).toBe(50);
    expect(info.responseProgress).toBe(100);
    expect(computeProgress(config, { actualResponses: 24, actualEvaluations: 0 }).progress).toBe(50);
    expect(computeProgress(config, { actualResponses: 24, actualEvaluations: 71 }).progress).toBe(89);
  });

  it("finalizes at 95% once everything is in", () => {
    const info = computeProgress(config, { actualResponses: 24, actualEvaluations: 72 });
    expect(info).toMatchObject({
      phase: "Finalizing Results",
      progress: 95,
      details: "All responses and evaluations completed",
    });
  });

  it("counts answers recorded as missing as done, and expects no evaluations for them", () => {
    const counts = { actualResponses: 22, missingResponses: 2, actualEvaluations: 60 };
    const info = computeProgress(config, counts);
    expect(info.phase).toBe("Collecting Evaluations");
    expect(info.expectedEvaluations).toBe(66);
    expect(info.evaluationProgress).toBe(90);
    expect(computeProgress(config, { ...counts, actualEvaluations: 63, missingEvaluations: 3 }).phase).toBe(
      "Finalizing Results",
    );
  });

  it("skips evaluation when there are no evaluators", () => {
    const noJudges = { ...config, evaluatorModels: [] };
    expect(computeProgress(noJudges, { actualResponses: 24, actualEvaluations: 0 }).phase).toBe("Finalizing Results");
  });

  it("has an initial label", () => {
    expect(initialProgress(config)).toMatchObject({
      phase: "Initializing",
      progress: 0,
      expectedResponses: 24,
      expectedEvaluations: 72,
    });
    expect(initialProgress(null).expectedResponses).toBe(0);
  });
});

describe("time estimates", () => {
  it("shows ceil(queries/10) to ceil(queries/5) minutes", () => {
    expect(estimateTimeRange(25)).toEqual({ minMinutes: 3, maxMinutes: 5 });
    expect(estimateTimeRange(10)).toEqual({ minMinutes: 1, maxMinutes: 2 });
    expect(estimateTimeRange(1)).toEqual({ minMinutes: 1, maxMinutes: 1 });
    expect(timeRangeLabel(estimateTimeRange(25))).toBe("3-5 minutes");
    expect(timeRangeLabel(estimateTimeRange(10))).toBe("1-2 minutes");
    expect(timeRangeLabel(estimateTimeRange(1))).toBe("1 minute");
    expect(timeRangeLabel({ minMinutes: 4, maxMinutes: 4 })).toBe("4 minutes");
    expect(timeRangeLabel(estimateTimeRange(0))).toBe("Under a minute");
  });

  it("counts the calls left at the rate measured for each kind: ~600 judge calls at 4.6/s is about 2 minutes", () => {
    // 8 workers: 200 answers at 8 s a call in the first 200 s, then 460 judge calls in 100 s.
    const pace = {
      startedAt: 0,
      now: 300_000,
      generation: { done: 200, expected: 200, busyMs: 200 * 8_000 },
      judging: { done: 460, expected: 1060, busyMs: 100_000 * 8 },
    };
    expect(callRates(pace).judging).toBeCloseTo(4.6, 10);
    expect(callRates(pace).generation).toBeCloseTo(1, 10);
    const remaining = estimateTimeRemaining(pace);
    expect(remaining).toBe(Math.round((600 / 4.6) * 1000));
    // 130 s, rounded up: never shorter than what is left.
    expect(formatTimeRemaining(remaining)).toBe("About 3 min");
  });

  it("adds the calls of each kind that are left, judge calls at the generation rate until one has ended", () => {
    // One worker, 1 s per answer: 50 generation calls and 100 judge calls left at 1 a second.
    const generating = {
      startedAt: 0,
      now: 50_000,
      generation: { done: 50, expected: 100, busyMs: 50_000 },
      judging: { done: 0, expected: 100, busyMs: 0 },
    };
    expect(estimateTimeRemaining(generating)).toBe(150_000);
    // Both kinds under way on one worker: 20 answers at 1/s, 30 judge calls at 5/s (0.2 s each).
    const both = {
      startedAt: 0,
      now: 90_000,
      generation: { done: 80, expected: 100, busyMs: 80_000 },
      judging: { done: 50, expected: 80, busyMs: 10_000 },
    };
    expect(callRates(both)).toEqual({ generation: 1, judging: 5 });
    expect(estimateTimeRemaining(both)).toBe(26_000);
  });

  it("is never shorter than the calls left take: the last answer of 65 s is 65 s, not 'Less than a minute'", () => {
    // 8 workers busy all along, 65 s an answer: 79 of 80 answers in, 8 judge calls of 5 s left.
    const lastAnswer = {
      startedAt: 0,
      now: 650_000,
      generation: { done: 79, expected: 80, busyMs: 79 * 65_000 },
      judging: { done: 0, expected: 0, busyMs: 0 },
    };
    const busy = lastAnswer.generation.busyMs / lastAnswer.now;
    expect(busy).toBeGreaterThan(7);
    expect(estimateTimeRemaining(lastAnswer)).toBe(65_000);
    expect(formatTimeRemaining(estimateTimeRemaining(lastAnswer))).toBe("About 2 min");
    // Three judge calls of 5 s left with 8 workers: they run side by side, one call's time.
    const lastJudges = {
      ...lastAnswer,
      generation: { done: 80, expected: 80, busyMs: 80 * 65_000 },
      judging: { done: 77, expected: 80, busyMs: 77 * 5_000 },
    };
    expect(estimateTimeRemaining(lastJudges)).toBe(5_000);
    // More calls left than workers: they queue, at the measured concurrency.
    const many = { ...lastJudges, judging: { done: 40, expected: 80, busyMs: 40 * 5_000 } };
    const concurrency = (80 * 65_000 + 40 * 5_000) / 650_000;
    expect(estimateTimeRemaining(many)).toBe(Math.round((40 * 5_000) / concurrency));
    expect(estimateTimeRemaining(many)!).toBeGreaterThanOrEqual(5_000);
  });

  it("has no estimate before a call has ended, and none left when all have", () => {
    const pace = {
      startedAt: 0,
      now: 10_000,
      generation: { done: 0, expected: 10, busyMs: 0 },
      judging: { done: 0, expected: 10, busyMs: 0 },
    };
    expect(estimateTimeRemaining(pace)).toBeNull();
    expect(formatTimeRemaining(estimateTimeRemaining(pace))).toBe("Calculating...");
    const done = {
      ...pace,
      generation: { done: 10, expected: 10, busyMs: 9_000 },
      judging: { done: 10, expected: 10, busyMs: 1_000 },
    };
    expect(estimateTimeRemaining(done)).toBe(0);
  });
});

describe("progress in calls", () => {
  // 5 generators × 4 personas × 5 topics: 100 generation calls; ranking by 5 judges: 100 judge calls.
  const ranking = {
    generatorModels: ["g1", "g2", "g3", "g4", "g5"],
    evaluatorModels: ["e1", "e2", "e3", "e4", "e5"],
    personas: [{}, {}, {}, {}],
    topics: [{}, {}, {}, {}, {}],
    responsesPerTopic: 1,
    scoringParameters: { scale: "ranking" as const },
  };

  it("knows every call of the run from the configuration, judge calls included", () => {
    expect(expectedCallsOf(ranking)).toEqual({ generation: 100, judging: 100 });
    expect(expectedCallsOf({ ...ranking, scoringParameters: { scale: "ranking", bothOrders: true } })).toEqual({
      generation: 100,
      judging: 200,
    });
    // Rating: one judge call per answer and judge, none for an answer recorded as missing.
    expect(expectedCallsOf({ ...config, scoringParameters: { scale: "rating" } }, 4)).toEqual({
      generation: 12,
      judging: 60,
    });
  });

  it("leaves out the answers a judge of the same family skips", () => {
    const families = {
      generatorModels: ["openai/a", "openai/b", "google/c"],
      evaluatorModels: ["openai/judge", "google/judge", "meta/judge"],
      personas: [{}],
      topics: [{}, {}],
      responsesPerTopic: 1,
    };
    // Rating: the OpenAI judge rates 1 answer per pair, the Google judge 2, the Meta judge 3.
    expect(expectedCallsOf({ ...families, scoringParameters: { scale: "rating", skipOwnFamily: true } })).toEqual({
      generation: 6,
      judging: 12,
    });
    // Ranking: the OpenAI judge is left one answer per pair and ranks none.
    expect(
      expectedCallsOf({ ...families, scoringParameters: { scale: "ranking", skipOwnFamily: true, bothOrders: true } }),
    ).toEqual({ generation: 6, judging: 8 });
  });

  it("never goes backwards when judging starts (the spec's formula fell from 91% to 51%)", () => {
    const specBefore = { actualResponses: 91, actualEvaluations: 0 };
    const specJudging = { actualResponses: 100, actualEvaluations: 15 };
    // What the spec's percentages showed: 91%, then 51% once the first three judge calls were in.
    expect(computeProgress(ranking, specBefore).progress).toBe(91);
    expect(computeProgress(ranking, specJudging).progress).toBe(51);
    const before = { ...specBefore, finishedCalls: 91, createdCalls: 100 };
    const judging = { ...specJudging, finishedCalls: 103, createdCalls: 200 };
    // Counted in calls against all 200 from the start: 43%, then 48%.
    expect(computeProgress(ranking, before)).toMatchObject({ phase: "Generating Responses", progress: 43 });
    expect(computeProgress(ranking, judging)).toMatchObject({ phase: "Collecting Evaluations", progress: 48 });
  });

  it("rises with every call of a whole run, to 95% when all is in", () => {
    let finishedCalls = 0;
    let createdCalls = 0;
    let last = 0;
    const seen: number[] = [];
    const check = (counts: Omit<Parameters<typeof computeProgress>[1], "finishedCalls" | "createdCalls">) => {
      const info = computeProgress(ranking, { ...counts, finishedCalls, createdCalls });
      expect(info.progress).toBeGreaterThanOrEqual(last);
      last = info.progress;
      seen.push(info.progress);
    };
    createdCalls = 100;
    // Pairs finish one by one; each finished pair's 5 judge calls are created and some end early.
    let responses = 0;
    let evaluations = 0;
    for (let pair = 0; pair < 20; pair++) {
      for (let model = 0; model < 5; model++) {
        finishedCalls++;
        responses++;
        check({ actualResponses: responses, actualEvaluations: evaluations });
      }
      createdCalls += 5;
      if (pair % 2 === 0) {
        finishedCalls += 3;
        evaluations += 15;
        check({ actualResponses: responses, actualEvaluations: evaluations });
      }
    }
    while (evaluations < 500) {
      finishedCalls++;
      evaluations += 5;
      check({ actualResponses: responses, actualEvaluations: evaluations });
    }
    expect(finishedCalls).toBe(200);
    expect(last).toBe(95);
    expect(seen.filter((value) => value === 95)).toHaveLength(1);
  });

  it("counts an answer recorded as missing as done, and needs no judge call for it on the rating scale", () => {
    const rating = { ...config, scoringParameters: { scale: "rating" as const } };
    // 12 generation calls + 72 rating calls; 2 answers missing leaves 66 rating calls.
    const counts = {
      actualResponses: 22,
      missingResponses: 2,
      actualEvaluations: 30,
      finishedCalls: 42,
      createdCalls: 78,
    };
    expect(computeProgress(rating, counts).progress).toBe(Math.floor((95 * 42) / 78));
  });
});

describe("missing work", () => {
  it("says how many answers and judgements are missing and why instead of 'All ... completed'", () => {
    const info = computeProgress(config, {
      actualResponses: 22,
      missingResponses: 2,
      actualEvaluations: 63,
      missingEvaluations: 3,
      lastCallError: "HTTP 429: Too Many Requests",
    });
    expect(info).toMatchObject({
      phase: "Finalizing Results",
      details: "2 answers and 3 judgements are missing. Last gateway error: HTTP 429: Too Many Requests",
    });
    expect(missingWorkSummary({ missingResponses: 1, missingEvaluations: 0 })).toBe("1 answer is missing.");
    expect(missingWorkSummary({ missingResponses: 0, missingEvaluations: 0, lastCallError: "ignored" })).toBeNull();
  });

  it("states the shortfall of a test that delivered less than it was quoted for", () => {
    const full = { expectedResponses: 8, responsesCount: 8, expectedEvaluations: 16, evaluationsCount: 16 };
    expect(deliveredShare(full)).toBe(1);
    expect(deliveryShortfall(full)).toBeNull();
    const short = { ...full, responsesCount: 6, evaluationsCount: 10 };
    expect(deliveredShare(short)).toBeCloseTo(16 / 24, 10);
    expect(deliveryShortfall(short)).toBe("Delivered 6 of 8 answers and 10 of 16 judgements (66%).");
  });
});

describe("when a running test's progress is written", () => {
  it("waits for enough calls: 5% of those left, at least 10, at most all that are left", () => {
    expect(callsPerProgressWrite(650)).toBe(33); // 5% of 650 = 32.5
    expect(callsPerProgressWrite(120)).toBe(10); // 5% would be 6
    expect(callsPerProgressWrite(4)).toBe(4); // every call left
    expect(callsPerProgressWrite(0)).toBe(1);
  });

  it("writes a fast test's progress per batch of calls, a slow one's at least every 10 s, never twice a second", () => {
    // 650 calls left: 2 calls in the last second are not worth a write, 33 are.
    expect(progressWriteDue({ sinceLastWriteMs: 1_200, newCalls: 2, remainingCalls: 650 })).toBe(false);
    expect(progressWriteDue({ sinceLastWriteMs: 1_200, newCalls: 33, remainingCalls: 650 })).toBe(true);
    // Never within a second of the last write, however many landed.
    expect(progressWriteDue({ sinceLastWriteMs: 500, newCalls: 100, remainingCalls: 650 })).toBe(false);
    // A slow test (a call or two a second) is no longer written every 3 s ...
    expect(progressWriteDue({ sinceLastWriteMs: 3_000, newCalls: 4, remainingCalls: 650 })).toBe(false);
    // ... but its figures are never older than 10 s: one call, or none (the time remaining moves).
    expect(progressWriteDue({ sinceLastWriteMs: 10_000, newCalls: 1, remainingCalls: 650 })).toBe(true);
    expect(progressWriteDue({ sinceLastWriteMs: 10_000, newCalls: 0, remainingCalls: 650 })).toBe(true);
    // The last 3 calls of a test: written as soon as they have all landed.
    expect(progressWriteDue({ sinceLastWriteMs: 1_000, newCalls: 3, remainingCalls: 3 })).toBe(true);
    expect(progressWriteDue({ sinceLastWriteMs: 1_000, newCalls: 2, remainingCalls: 3 })).toBe(false);
  });
});

describe("when a running test's monitor row is written", () => {
  const state = { sinceLastWriteMs: 1_500, remainingCalls: 650, totalCalls: 650, changed: true };
  it("waits for about 10 ended calls or more, however often the counters are folded", () => {
    // The counters are folded every 1-3 s; with 650 calls left the monitor waits for 33 of them.
    expect(monitorWriteDue({ ...state, newCalls: 9 })).toBe(false);
    expect(monitorWriteDue({ ...state, newCalls: 32 })).toBe(false);
    expect(monitorWriteDue({ ...state, newCalls: 33 })).toBe(true);
    // 120 calls left: 10 at a time; the last 4: all of them.
    expect(monitorWriteDue({ ...state, remainingCalls: 120, newCalls: 9 })).toBe(false);
    expect(monitorWriteDue({ ...state, remainingCalls: 120, newCalls: 10 })).toBe(true);
    expect(monitorWriteDue({ ...state, remainingCalls: 4, newCalls: 4 })).toBe(true);
  });

  it("moves a small test's monitor in about five steps", () => {
    // 6 calls (4 answer calls, 2 judge calls): every 2 ended calls, so its answers show coming in.
    expect(callsPerMonitorWrite(6, 6)).toBe(2);
    expect(monitorWriteDue({ ...state, totalCalls: 6, remainingCalls: 6, newCalls: 1 })).toBe(false);
    expect(monitorWriteDue({ ...state, totalCalls: 6, remainingCalls: 6, newCalls: 2 })).toBe(true);
    // 45 calls: every 9; from 50 calls on, 10 or more.
    expect(callsPerMonitorWrite(45, 45)).toBe(9);
    expect(callsPerMonitorWrite(50, 50)).toBe(10);
    expect(callsPerMonitorWrite(650, 650)).toBe(33);
  });

  it("moves a slow tail after the slow fallback, and only when a shown figure moved", () => {
    // 3 s-old figures no longer force a write, as they do for the test's row (progressWriteDue).
    expect(monitorWriteDue({ ...state, sinceLastWriteMs: 3_000, newCalls: 1 })).toBe(false);
    expect(monitorWriteDue({ ...state, sinceLastWriteMs: MONITOR_PROGRESS.slowMs, newCalls: 1 })).toBe(true);
    // Nothing new: no write, however long it has been (the time remaining alone does not count).
    expect(
      monitorWriteDue({ ...state, sinceLastWriteMs: 5 * MONITOR_PROGRESS.slowMs, newCalls: 0, changed: false }),
    ).toBe(false);
  });

  it("a test of 650 calls landing 7 a second, folded every second, writes it at most once per 10 calls", () => {
    let written = { at: 0, finished: 0 };
    let writes = 0;
    for (let second = 1; second * 7 <= 650; second++) {
      const finished = second * 7;
      const due = monitorWriteDue({
        sinceLastWriteMs: second * 1_000 - written.at,
        newCalls: finished - written.finished,
        remainingCalls: 650 - written.finished,
        totalCalls: 650,
        changed: finished > written.finished,
      });
      if (due) {
        writes++;
        written = { at: second * 1_000, finished };
      }
    }
    expect(writes).toBeLessThanOrEqual(65);
    expect(writes).toBeGreaterThan(20); // it still moves: 5% of what is left, at least 10
  });

  it("says the test's size as the monitor's header does", () => {
    expect(monitorSizeOf(config)).toEqual({
      models: 2,
      judges: 3,
      personas: 2,
      topics: 3,
      generationCalls: 12,
      judgingCalls: 72,
    });
  });
});

/**
 * A pool run with known latencies, event by event: `slots` calls at a time, taken in creation
 * order; a pair's judge calls are created once its answers are all in. Each model's calls take
 * its latency, a little more or less by a fixed pattern (no randomness).
 */
function simulatedRun(options: {
  generators: number[];
  judges: number[];
  pairs: number;
  perTopic: number;
  slots: number;
}) {
  type SimCall = { kind: "generation" | "judging"; pair: number; latency: number; start?: number; end?: number };
  const calls: SimCall[] = [];
  const pending: SimCall[] = [];
  let jitter = 0;
  const latencyOf = (base: number) => base * (0.85 + 0.3 * (((jitter++ * 7) % 11) / 10));
  for (let pair = 0; pair < options.pairs; pair++)
    for (const base of options.generators)
      for (let r = 0; r < options.perTopic; r++) pending.push({ kind: "generation", pair, latency: latencyOf(base) });
  calls.push(...pending);
  const answersLeft = Array<number>(options.pairs).fill(options.generators.length * options.perTopic);
  const free = Array<number>(options.slots).fill(0);
  const running: SimCall[] = [];
  let now = 0;
  while (pending.length > 0 || running.length > 0) {
    // Fill free slots at `now`.
    for (let slot = 0; slot < free.length && pending.length > 0; slot++) {
      if (free[slot]! > now) continue;
      const call = pending.shift()!;
      call.start = now;
      call.end = now + call.latency;
      free[slot] = call.end;
      running.push(call);
    }
    running.sort((a, b) => a.end! - b.end!);
    const next = running.shift()!;
    now = next.end!;
    if (next.kind === "generation" && --answersLeft[next.pair]! === 0) {
      for (const base of options.judges)
        for (let a = 0; a < options.generators.length * options.perTopic; a++) {
          const judge: SimCall = { kind: "judging", pair: next.pair, latency: latencyOf(base) };
          pending.push(judge);
          calls.push(judge);
        }
    }
  }
  const duration = Math.max(...calls.map((call) => call.end!));
  /** What the worker and the counters know at time `at`. */
  const snapshotAt = (at: number) => {
    const kind = (name: SimCall["kind"]) => {
      const ended = calls.filter((call) => call.kind === name && call.end! <= at);
      return {
        done: ended.length,
        expected: calls.filter((call) => call.kind === name).length,
        busyMs: ended.reduce((sum, call) => sum + call.latency, 0),
      };
    };
    const out = (name: SimCall["kind"], bases: number[]) =>
      calls
        .filter((call) => call.kind === name && call.start! <= at && call.end! > at)
        .map((call) => ({
          outForMs: at - call.start!,
          expectedMs: bases.reduce((best, base) =>
            Math.abs(base - call.latency) < Math.abs(best - call.latency) ? base : best,
          ),
        }));
    const pace: CallPace = {
      startedAt: 0,
      now: at,
      generation: kind("generation"),
      judging: kind("judging"),
      concurrency: options.slots,
    };
    const sight: CallsInSight = {
      out: { generation: out("generation", options.generators), judging: out("judging", options.judges) },
      latencyMs: { generation: options.generators, judging: options.judges },
    };
    return { pace, sight, left: duration - at };
  };
  return { duration, snapshotAt };
}

describe("the monitor's time left against a run with known latencies", () => {
  const runs = {
    // The bench's mix: slow writers, quick judges, 8 at a time.
    "slow writers, quick judges": {
      generators: [2800, 3000, 3200, 3500],
      judges: [650, 750, 900],
      pairs: 6,
      perTopic: 2,
      slots: 8,
    },
    // One writer much slower than the rest: the run's end waits on its last answers.
    "one 21 s writer among 2 s ones": {
      generators: [2000, 2200, 2500, 21000],
      judges: [700, 800],
      pairs: 10,
      perTopic: 1,
      slots: 16,
    },
    // A large run at a high concurrency.
    "650 calls at 64": {
      generators: [2000, 3000, 4000, 6000, 8000],
      judges: [800, 1200],
      pairs: 25,
      perTopic: 2,
      slots: 64,
    },
  };

  for (const [name, options] of Object.entries(runs)) {
    test(`${name}: within 25% of the real time left at 25, 50 and 75% of the run, and never 'Less than a minute' with more left`, () => {
      const run = simulatedRun(options);
      for (const share of [0.25, 0.5, 0.75]) {
        const { pace, sight, left } = run.snapshotAt(run.duration * share);
        const forecast = forecastTimeRemaining(pace, sight)!;
        expect(
          Math.abs(forecast - left) / left,
          `${name} at ${share * 100}%: ${forecast} ms for ${left} ms`,
        ).toBeLessThan(0.25);
        if (left >= 60_000) expect(formatTimeRemaining(forecast)).not.toBe("Less than a minute");
      }
    });
  }

  test("the calls in flight count: a 21 s answer sent a second ago leaves about 20 s, whatever the averages", () => {
    const pace: CallPace = {
      startedAt: 0,
      now: 30_000,
      generation: { done: 30, expected: 31, busyMs: 60_000 },
      judging: { done: 60, expected: 62, busyMs: 42_000 },
      concurrency: 16,
    };
    const sight: CallsInSight = {
      out: { generation: [{ outForMs: 1_000, expectedMs: 21_000 }], judging: [] },
      latencyMs: { generation: [2_000, 21_000], judging: [700] },
    };
    // 20 s for the answer, then its two judgements (0.7 s each, side by side).
    expect(forecastTimeRemaining(pace, sight)).toBe(20_700);
    // The averages alone (2 s a call) said a few seconds.
    expect(estimateTimeRemaining(pace)).toBeLessThan(5_000);
  });

  test("the end shown moves only when a forecast differs by more than the tolerance: no back and forth", () => {
    const now = 1_000_000;
    expect(steadyEndsAt(undefined, now + 120_000, now)).toBe(now + 120_000);
    // 130 s then 110 s forecast for a 120 s end shown: within 15%, the shown end stays.
    expect(steadyEndsAt(now + 120_000, now + 130_000, now)).toBe(now + 120_000);
    expect(steadyEndsAt(now + 120_000, now + 110_000, now)).toBe(now + 120_000);
    // A real change moves it.
    expect(steadyEndsAt(now + 120_000, now + 180_000, now)).toBe(now + 180_000);
  });
});

describe("the worker's view of its calls and the setup estimate's words", () => {
  test("a call out is expected at its model's observed latency, else the catalog's; each model's latency is listed once", () => {
    const sight = callsInSightOf(
      { kinds: { "generate:a/slow": { averageMs: 21_000 } } },
      [
        { key: "generate:a/slow", sentAt: 1_000 },
        { key: "evaluate:b/judge", sentAt: 3_000 },
      ],
      8,
      4_000,
      { "generate:a/slow": 15_000, "generate:c/quick": 2_000, "evaluate:b/judge": 6_000 },
    );
    expect(sight).toEqual({
      out: { generation: [{ outForMs: 3_000, expectedMs: 21_000 }], judging: [{ outForMs: 1_000, expectedMs: 6_000 }] },
      latencyMs: { generation: [21_000, 2_000], judging: [6_000] },
      slots: 8,
    });
  });

  test("durations read as seconds under a minute, minutes under two hours, rounded outwards", () => {
    expect(durationRangeLabel({ minMs: 0, maxMs: 0 })).toBe("Under a minute");
    expect(durationRangeLabel({ minMs: 4_200, maxMs: 8_400 })).toBe("4-9 seconds");
    expect(durationRangeLabel({ minMs: 48_000, maxMs: 96_000 })).toBe("Under 2 minutes");
    expect(durationRangeLabel({ minMs: 65_000, maxMs: 130_000 })).toBe("1-3 minutes");
    expect(durationRangeLabel({ minMs: 8_000_000, maxMs: 16_000_000 })).toBe("2-5 hours");
  });
});
