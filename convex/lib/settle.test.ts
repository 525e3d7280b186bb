import { describe, expect, it } from "vitest";
import { fewestSettlingPairs, judgedPrefix, pairOrder, settleStatus, type SettlePair } from "./settle";
import { bettingInterval } from "./stats/sequential";
import { settledAfterText, settleLine, settleQuestionText, stoppedReasonText } from "./settleWords";

const pair = (a: number, b: number, passA = 1, passB = 1): SettlePair => ({
  means: new Map([
    ["a", a],
    ["b", b],
  ]),
  passShares: new Map([
    ["a", passA],
    ["b", passB],
  ]),
});

describe("which model is best", () => {
  // A − B alternates 1 and 2 points: mean 1.5, s = 0.522; at the 12th pair, the first look with an
  // interval, the 95% sequence is 1.5 ± 0.514 (worked in stats/sequential.test.ts; two models: α/(K − 1) = 0.05).
  const steady = Array.from({ length: 12 }, (_, i) => pair(6 + (i % 2), 5));

  it("is not settled before the 12th pair, however clear the gap", () => {
    const status = settleStatus({ question: "best", confidence: 0.95 }, ["a", "b"], steady.slice(0, 11), 48);
    expect(status).toMatchObject({ settled: false, modelId: "a", otherModelId: "b", pairsDone: 11, pairsTotal: 48 });
  });

  it("settles on A at the 12th pair when the gap's sequence is above 0", () => {
    const status = settleStatus({ question: "best", confidence: 0.95 }, ["a", "b"], steady, 48);
    expect(status).toMatchObject({ settled: true, outcome: "best", modelId: "a", otherModelId: "b", pairsDone: 12 });
    // Only the lower bound decides "best": one-sided, at α / max(2, K − 1) = 0.025. ρ² tuned for
    // 12 pairs at 0.025: (−2 ln 0.025 + ln(1 − 2 ln 0.025)) / 12 = 0.791945, g = 12ρ² + 1 =
    // 10.503339; x solves exp(x²/2) · Φ(x) = √g / (2 · 0.025) = 64.817712: x = 2.889122;
    // half = s · x · √g / (ρ · 12) with the studentized s = 0.586453: 0.514202.
    expect(status.interval!.low).toBeCloseTo(1.5 - 0.514202, 5);
  });

  it("stays open while the gap's sequence includes 0", () => {
    // A − B alternates +3 and −2: mean 0.5, s ≈ 2.6, half-width ≈ 2.6 at 12 pairs.
    const noisy = Array.from({ length: 12 }, (_, i) => pair(i % 2 === 0 ? 8 : 3, 5));
    const status = settleStatus({ question: "best", confidence: 0.95 }, ["a", "b"], noisy, 48);
    expect(status.settled).toBe(false);
    expect(status.interval!.low).toBeLessThan(0);
    expect(status.interval!.high).toBeGreaterThan(0);
  });
});

describe("is a model within δ of the best", () => {
  it("settles 'within' when every gap's sequence is above −δ, 'outside' when one is below", () => {
    const close = Array.from({ length: 12 }, (_, i) => pair(5 + (i % 2) * 0.2, 5.1));
    expect(
      settleStatus({ question: "withinDelta", confidence: 0.95, modelId: "a", delta: 0.5 }, ["a", "b"], close, 40),
    ).toMatchObject({ settled: true, outcome: "within", threshold: -0.5 });
    const behind = Array.from({ length: 12 }, (_, i) => pair(3 + (i % 2) * 0.2, 5));
    expect(
      settleStatus({ question: "withinDelta", confidence: 0.95, modelId: "a", delta: 0.5 }, ["a", "b"], behind, 40),
    ).toMatchObject({ settled: true, outcome: "outside", otherModelId: "b" });
  });
});

describe("does each model pass its checks at a rate ≥ p", () => {
  it("settles once every model's rate is decided: one fails, one passes", () => {
    const pairs = Array.from({ length: 100 }, () => pair(5, 5, 1, 0));
    const status = settleStatus({ question: "passRate", confidence: 0.95, minPassRate: 0.9 }, ["a", "b"], pairs, 100);
    expect(status).toMatchObject({ settled: true, outcome: "fail", failing: ["b"] });
  });

  it("is open after a few pairs that all passed", () => {
    const pairs = Array.from({ length: 5 }, () => pair(5, 5, 1, 1));
    const status = settleStatus({ question: "passRate", confidence: 0.95, minPassRate: 0.9 }, ["a", "b"], pairs, 100);
    expect(status.settled).toBe(false);
  });
});

describe("the pairs' order", () => {
  it("is a seeded permutation: the same seed gives the same order", () => {
    const pairs = Array.from({ length: 20 }, (_, i) => i);
    const order = pairOrder(pairs, "seed-1");
    expect(order).toEqual(pairOrder(pairs, "seed-1"));
    expect([...order].sort((x, y) => x - y)).toEqual(pairs);
    expect(order).not.toEqual(pairs);
    expect(pairOrder(pairs, "seed-2")).not.toEqual(order);
  });

  it("reads only the judged start of the order", () => {
    expect(judgedPrefix([1, 2, 3, 4], (n) => n !== 3)).toEqual([1, 2]);
  });
});

describe("the words (lib/settleWords.ts)", () => {
  const names = new Map([
    ["a", "GPT-4.1"],
    ["b", "Claude"],
  ]);
  const steady = Array.from({ length: 12 }, (_, i) => pair(6 + (i % 2), 5));

  it("says what settled, what is still open, and why a test stopped", () => {
    const settled = settleStatus({ question: "best", confidence: 0.95 }, ["a", "b"], steady, 100);
    expect(settleLine(settled, names)).toBe("Settled at 95%: GPT-4.1 is best");
    const early = settleStatus({ question: "best", confidence: 0.95 }, ["a", "b"], steady.slice(0, 5), 100);
    expect(settleLine(early, names)).toBe(
      "Not settled yet: 5 of 100 pairs judged; its 95% sequences need at least 12 judged pairs",
    );
    expect(settledAfterText({ pairsDone: 38, pairsTotal: 100 })).toBe("Settled after 38 of 100 pairs");
    expect(stoppedReasonText({ pairsDone: 38, pairsTotal: 100 })).toBe(
      "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.",
    );
  });

  it("words the δ and pass-rate questions", () => {
    expect(settleQuestionText({ question: "withinDelta", modelId: "a", delta: 0.5 }, names)).toBe(
      "Is GPT-4.1 within 0.5 points of the best?",
    );
    expect(settleQuestionText({ question: "passRate", minPassRate: 0.9 }, names)).toBe(
      "Does each model pass its checks at 90% or more?",
    );
    const failing = settleStatus(
      { question: "passRate", confidence: 0.95, minPassRate: 0.9 },
      ["a", "b"],
      Array.from({ length: 100 }, () => pair(5, 5, 1, 0)),
      100,
    );
    expect(settleLine(failing, names)).toBe("Settled at 95%: Claude passes its checks less than 90% of the time");
  });
});

describe("fewestSettlingPairs", () => {
  it("a score gap cannot settle before the sequence has its 12 pairs, nor after every pair", () => {
    expect(fewestSettlingPairs({ question: "best", confidence: 0.95 }, 3, 100)).toBe(12);
    expect(fewestSettlingPairs({ question: "withinDelta", confidence: 0.95, modelId: "a", delta: 0.5 }, 3, 8)).toBe(8);
  });

  it("a pass rate settles soonest when every answer passes: the first n whose all-pass sequence clears p", () => {
    const question = { question: "passRate", confidence: 0.95, minPassRate: 0.5 } as const;
    const fewest = fewestSettlingPairs(question, 2, 200);
    const each = 0.05 / 2;
    const bounds = { low: 0, high: 1 };
    expect(fewest).toBeGreaterThan(1);
    expect(fewest).toBeLessThan(200);
    expect(bettingInterval(Array<number>(fewest).fill(1), each, bounds).low).toBeGreaterThanOrEqual(0.5);
    expect(bettingInterval(Array<number>(fewest - 1).fill(1), each, bounds).low).toBeLessThan(0.5);
    expect(bettingInterval(Array<number>(fewest - 1).fill(0), each, bounds).high).toBeGreaterThanOrEqual(0.5);
  });
});
