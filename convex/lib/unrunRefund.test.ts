import { describe, expect, test } from "vitest";
import { formatPriceRange } from "./pricing";
import type { EstimateInput } from "./pricing";
import { settledPriceRange, unrunRefund, workDoneOf, type WorkDone } from "./unrunRefund";

// A $5.40 test: raw cost $0.90 to generate (10 calls) and $0.327 to judge (20 calls);
// $1.227 × 1.1 × 4 = $5.3988, rounded up to the cent: $5.40.
const TEST_540 = { generationCost: 0.9, evaluationCost: 0.327, generationCalls: 10, judgeCalls: 20 };
const made = (generationCallsMade: number, judgeCallsMade: number): WorkDone => ({
  ...TEST_540,
  generationCallsMade,
  judgeCallsMade,
});

describe("the refund of the calls not made (hand-worked)", () => {
  test("a $5.40 test stopped with 30% of its calls made refunds $3.40: the calls made cost $1.62, under the $2.00 minimum", () => {
    // 3/10 × 0.90 + 6/20 × 0.327 = 0.3681; × 4.4 = 1.61964 → 162 cents; the minimum keeps 200.
    expect(unrunRefund(540, made(3, 6))).toEqual({ paidCents: 540, ranCents: 162, keptCents: 200, refundCents: 340 });
  });

  test("with 70% made it refunds $1.62: the calls made cost $3.78 (rounded up), which stays charged", () => {
    // 7/10 × 0.90 + 14/20 × 0.327 = 0.8589; × 4.4 = 3.77916 → 378 cents kept; 540 − 378 = 162.
    expect(unrunRefund(540, made(7, 14))).toEqual({ paidCents: 540, ranCents: 378, keptCents: 378, refundCents: 162 });
  });

  test("each kind counts at its own cost: every generation made but a quarter of the judging refunds $1.08", () => {
    // 10/10 × 0.90 + 5/20 × 0.327 = 0.98175; × 4.4 = 4.3197 → 432 kept; 540 − 432 = 108.
    expect(unrunRefund(540, made(10, 5))).toMatchObject({ ranCents: 432, keptCents: 432, refundCents: 108 });
    // The other way round: no generation, all judging: 0.327 × 4.4 = 1.4388 → 144, under the minimum.
    expect(unrunRefund(540, made(0, 20))).toMatchObject({ ranCents: 144, keptCents: 200, refundCents: 340 });
  });

  test("the price kept rounds up and the refund down, and they add up to what was paid", () => {
    // $2.00 raw over 3 generation calls is priced $8.80; one made: 2/3 × 4.4 = $2.9333… → 294 kept, 586 back.
    const third = { generationCost: 2, evaluationCost: 0, generationCalls: 3, judgeCalls: 0 };
    const refund = unrunRefund(880, { ...third, generationCallsMade: 1, judgeCallsMade: 0 });
    expect(refund).toEqual({ paidCents: 880, ranCents: 294, keptCents: 294, refundCents: 586 });
    expect(refund.keptCents + refund.refundCents).toBe(880);
  });

  test("never below the minimum, nothing back when all ran, nothing back on a free or minimum-priced test", () => {
    expect(unrunRefund(540, made(0, 0))).toMatchObject({ keptCents: 200, refundCents: 340 });
    expect(unrunRefund(540, made(10, 20))).toMatchObject({ ranCents: 540, keptCents: 540, refundCents: 0 });
    // More calls ended than the quote counts (a retried call): still all of it, never a negative refund.
    expect(unrunRefund(540, made(12, 25))).toMatchObject({ keptCents: 540, refundCents: 0 });
    expect(unrunRefund(200, made(1, 0))).toMatchObject({ keptCents: 200, refundCents: 0 });
    expect(unrunRefund(0, made(1, 0))).toMatchObject({ keptCents: 0, refundCents: 0 });
  });

  test("never refunds more than is left of the payment", () => {
    expect(unrunRefund(540, made(3, 6), 500).refundCents).toBe(40);
    expect(unrunRefund(540, made(3, 6), 540).refundCents).toBe(0);
  });
});

const CONFIG: EstimateInput = {
  generatorModels: ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"],
  evaluatorModels: ["google/gemini-2.0-flash-001"],
  personas: [{ systemPrompt: "a" }, { systemPrompt: "b" }],
  topics: [{ prompt: "1" }, { prompt: "2" }, { prompt: "3" }, { prompt: "4" }, { prompt: "5" }],
  userPrompt: "Write a tagline.",
  responsesPerTopic: 1,
  scoringParameters: { scale: "ranking" },
};

describe("a test's work done", () => {
  test("splits its ended calls into judging (counted) and generation (the rest), against the quote's call counts", () => {
    // 2 models × 10 pairs = 20 generation calls; 1 judge ranking each pair = 10 judge calls.
    expect(workDoneOf(TEST_540, CONFIG, { finishedCalls: 9, judgeCallsFinished: 3 })).toEqual({
      generationCost: 0.9,
      evaluationCost: 0.327,
      generationCalls: 20,
      judgeCalls: 10,
      generationCallsMade: 6,
      judgeCallsMade: 3,
    });
  });
});

describe("the price range of a test set to stop when settled", () => {
  test("goes from what stays charged if it settles after the fewest pairs to the full price", () => {
    // 4 of 10 pairs: 0.4 × 1.227 = 0.4908; × 4.4 = 2.15952 → $2.16.
    const range = settledPriceRange(CONFIG, TEST_540, 540, 4);
    expect(range).toEqual({ minCents: 216, maxCents: 540 });
    expect(formatPriceRange(range)).toBe("$2.16-5.40");
    // One pair costs less than the minimum: the low end is $2.00.
    expect(formatPriceRange(settledPriceRange(CONFIG, TEST_540, 540, 1))).toBe("$2.00-5.40");
    // When it cannot settle before the last pair, there is no range.
    expect(formatPriceRange(settledPriceRange(CONFIG, TEST_540, 540, 10))).toBe("$5.40");
  });
});
