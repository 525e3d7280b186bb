import { describe, expect, it } from "vitest";

import { fewestSettlingPairs } from "./settle";
import { aboutLabel, makespan, settleTimeRange, settleTimeWords } from "./settleTimeEstimate";
import { setupTimeRange } from "./timeEstimates";

const generators = ["a/g1", "b/g2", "c/g3"].map((id) => ({ id, name: id }));
const judges = ["d/j1", "e/j2"].map((id) => ({ id, name: id }));
/** 3 generators, 2 judges rating every answer: 3 answers and 6 verdicts a pair. */
function configOf(personas: number, topics: number, repeats?: number) {
  return {
    generatorModels: generators,
    evaluatorModels: judges,
    personas: Array.from({ length: personas }, () => ({})),
    topics: Array.from({ length: topics }, () => ({})),
    responsesPerTopic: 1,
    scoringParameters: { scale: "rating" as const },
    ...(repeats === undefined ? {} : { repeats }),
  };
}
/** The bench's latencies (bench/adaptiveEngine.ts): 4 s answers, 2 s verdicts. */
const latencies = {
  "generate:a/g1": 4_000,
  "generate:b/g2": 4_000,
  "generate:c/g3": 4_000,
  "evaluate:d/j1": 2_000,
  "evaluate:e/j2": 2_000,
};

describe("makespan", () => {
  it("puts each call on the first slot free", () => {
    expect(makespan([3, 3, 6], 2)).toBe(9); // 3 | 3, then 6 after the first: 3 + 6
    expect(makespan([6, 3, 3], 2)).toBe(6); // 6 | 3 + 3
    expect(makespan([4, 4, 4], 8)).toBe(4);
    expect(makespan([], 4)).toBe(0);
  });
});

describe("settleTimeRange", () => {
  it("runs a 60-pair test a pair at a time: ~7 minutes for every pair, under a minute settling after 12", () => {
    // 60 pairs, 9 calls each: the in-flight cap is max(9, 5% × 60 × 9 = 27) = 27, under the plan's 64.
    // Every pair slow (× 1.6): answers 6.4 s, verdicts 3.2 s. The first answers alone (6.4 s), then
    // 59 steps of a pair's 6 verdicts beside the next pair's 3 answers (the answers' 6.4 s), the
    // last verdicts alone (3.2 s), and 60 gaps of 0.3 s: 6.4 + 377.6 + 3.2 + 18 = 405.2 s.
    // Settling after the fewest pairs ("which is best": 12), fast (× 0.8): answers 3.2 s, verdicts
    // 1.6 s: 3.2 + 11 × 3.2 + 1.6 + 12 × 0.3 = 43.6 s.
    const config = configOf(3, 20);
    const fewest = fewestSettlingPairs({ question: "best", confidence: 0.95 }, 3, 60);
    expect(fewest).toBe(12);
    const range = settleTimeRange(config, latencies, 64, fewest);
    expect(range).toEqual({ minMs: 43_600, maxMs: 405_200 });
    // The same test without stopping runs its calls side by side: well under a minute.
    expect(setupTimeRange(config, latencies, 64).maxMs).toBeLessThan(60_000);
  });

  it("takes ~22 minutes for 200 pairs that never settle (the bench's 21-23)", () => {
    // 200 pairs: the cap is 5% × 200 × 9 = 90, so the plan's 64 calls at once; 9 a step fit.
    // 6.4 + 199 × 6.4 + 3.2 + 200 × 0.3 = 1,343.2 s.
    expect(settleTimeRange(configOf(10, 20), latencies, 64, 12).maxMs).toBe(1_343_200);
  });

  it("queues a step's calls when the plan allows fewer at once", () => {
    // 2 calls at once, slow: the first answers 6.4 | 6.4, then 6.4 → 12.8 s. A step: six 3.2 s
    // verdicts on two slots (end 9.6 s each), then the answers at 16, 16 and 22.4 s → 22.4 s.
    // The last verdicts alone: 9.6 s. 12.8 + 59 × 22.4 + 9.6 + 18 = 1,362 s.
    expect(settleTimeRange(configOf(3, 20), latencies, 2, 12).maxMs).toBe(1_362_000);
  });

  it("runs each repeat of a pair as a step of its own", () => {
    // 2 repeats: 120 steps of 3 answers and 6 verdicts: 6.4 + 119 × 6.4 + 3.2 + 120 × 0.3 = 807.2 s;
    // settling after 12 pairs is 24 steps: 3.2 + 23 × 3.2 + 1.6 + 24 × 0.3 = 85.6 s.
    expect(settleTimeRange(configOf(3, 20, 2), latencies, 64, 12)).toEqual({ minMs: 85_600, maxMs: 807_200 });
  });

  it("is nothing without pairs", () => {
    expect(settleTimeRange(configOf(0, 20), latencies, 64, 12)).toEqual({ minMs: 0, maxMs: 0 });
  });
});

describe("settleTimeWords", () => {
  it("says the range and why it is longer", () => {
    expect(settleTimeWords({ minMs: 43_600, maxMs: 405_200 })).toEqual({
      label: "Under 7 minutes",
      note: "Stop when settled runs pairs one after another to look between them: under a minute if it settles early, about 7 minutes if it runs every pair.",
    });
    expect(settleTimeWords({ minMs: 85_600, maxMs: 807_200 }).label).toBe("1-14 minutes");
    expect(aboutLabel(1_343_200)).toBe("about 22 minutes");
    expect(aboutLabel(60_000)).toBe("about 1 minute");
    expect(aboutLabel(3 * 3_600_000)).toBe("about 3 hours");
  });
});
