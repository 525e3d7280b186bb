// The runner's verdicts on hand-made results: each gate passes and fails with its reason, and the
// CSV and Markdown carry the figures.
import { describe, expect, test } from "vitest";
import {
  checkGates,
  costOf,
  progressBar,
  resultsCsv,
  resultsMarkdown,
  type ApiResults,
  type ApiStatus,
} from "./report";

const status: ApiStatus = {
  testId: "t1",
  name: "Taglines | CI",
  status: "completed",
  awaitingPayment: false,
  progress: { phase: "Completed", percentage: 100 },
  responses: { done: 8, expected: 8, missing: 0 },
  evaluations: { done: 4, expected: 4, missing: 0 },
  priceCents: 200,
  chargedCents: 0,
  usesOwnKey: true,
  gatewayCostUsd: 0.0123,
};

/** A model's ranking row: 4 answers, 2 judgements each, its score and interval, its ranks. */
function ranking(
  modelId: string,
  modelName: string,
  score: number,
  [low, high]: [number, number],
  [best, worst]: [number, number],
): ApiResults["rankings"][number] {
  return {
    modelId,
    modelName,
    averageScore: score,
    responses: 4,
    evaluations: 2,
    meanScore: score,
    scoreInterval: { low, high },
    rank: { best, worst },
  };
}

const results: ApiResults = {
  test: status,
  rankings: [
    ranking("a/one", "One", 8.5, [7.9, 9.1], [1, 2]),
    ranking("b/two", "Two", 7.2, [6.8, 8.0], [1, 2]),
    ranking("c/three", "Three", 3.1, [2.5, 3.6], [3, 3]),
  ],
  topGroup: ["a/one", "b/two"],
  verdict: {
    kind: "tied",
    text: "Too close to call: One and Two are statistically tied; run more topics or judges to separate them.",
    leaders: ["a/one", "b/two"],
  },
  jury: { units: 12 },
  checks: {
    checks: [{ id: "c1", label: 'Contains "coffee"' }],
    models: [
      {
        modelId: "a/one",
        modelName: "One",
        overall: { answers: 4, passed: 4, rate: 1, interval: { low: 0.51, high: 1 } },
        byCheck: [],
      },
      {
        modelId: "b/two",
        modelName: "Two",
        overall: { answers: 4, passed: 3, rate: 0.75, interval: { low: 0.3, high: 0.95 } },
        byCheck: [],
      },
    ],
  },
};

describe("gates", () => {
  test("top group: a model that can rank first passes; one that cannot fails naming the group", () => {
    expect(checkGates(results, { topGroup: ["b/two", "c/three", "d/none"], minPassRate: {} })).toEqual([
      { gate: "b/two in the top group", passed: true, warning: false, reason: "Two can rank first (ranks 1–2)" },
      {
        gate: "c/three in the top group",
        passed: false,
        warning: false,
        reason: "Three ranks 3–3; the top group is One, Two",
      },
      {
        gate: "d/none in the top group",
        passed: false,
        warning: false,
        reason: "d/none is not one of the test's models",
      },
    ]);
  });

  test("pass rate: the interval's lower bound must reach the value; 4 of 4 is too little evidence for 90%", () => {
    // 4 of 4 passed once (the rate alone); its Wilson interval starts at 51%, which does not settle 90%.
    const verdicts = checkGates(results, { topGroup: [], minPassRate: { "a/one": 0.9, "b/two": 0.9, "c/three": 0.5 } });
    expect(verdicts.map((verdict) => [verdict.passed, verdict.reason])).toEqual([
      [
        false,
        "too little evidence: One passed 4 of 4 checked answers (100.0%; 95% interval 51.0%–100.0%), whose lower bound is below 90.0%",
      ],
      [false, "Two passed 3 of 4 checked answers (75.0%; 95% interval 30.0%–95.0%)"],
      [false, "no answer of c/three was checked"],
    ]);
    expect(checkGates(results, { topGroup: [], minPassRate: { "a/one": 0.5 } })[0]).toMatchObject({
      passed: true,
      warning: false,
    });
    expect(
      checkGates(results, { topGroup: [], minPassRate: { "a/one": 0.9 } }, { allowThinEvidence: true })[0],
    ).toMatchObject({ passed: true, warning: true });
    expect(checkGates({ ...results, checks: null }, { topGroup: [], minPassRate: { "a/one": 0.5 } })[0]).toMatchObject({
      passed: false,
      reason: "the test has no checks",
    });
  });

  test("cost: the gateway's cost on the user's own key, the charge otherwise", () => {
    expect(costOf(status)).toBe(0.0123);
    expect(checkGates(results, { topGroup: [], minPassRate: {}, maxCostUsd: 0.01 })).toEqual([
      { gate: "cost ≤ $0.0100", passed: false, warning: false, reason: "the test cost $0.0123 (gateway)" },
    ]);
    const charged = { ...results, test: { ...status, chargedCents: 250 } };
    expect(checkGates(charged, { topGroup: [], minPassRate: {}, maxCostUsd: 3 })).toEqual([
      { gate: "cost ≤ $3.00", passed: true, warning: false, reason: "the test cost $2.50 (charged)" },
    ]);
  });
});

describe("outputs", () => {
  test("the CSV has one row per model with its interval, rank range, group and pass rate", () => {
    const lines = resultsCsv(results).trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe("a/one,One,8.5,8.5,7.9,9.1,1,2,yes,4,2,1,0.51,1");
    expect(lines[3]).toBe("c/three,Three,3.1,3.1,2.5,3.6,3,3,no,4,2,,,");
  });

  test("the Markdown summary is a readable table with the verdict and the gates", () => {
    const markdown = resultsMarkdown(results, checkGates(results, { topGroup: ["c/three"], minPassRate: {} }));
    expect(markdown).toContain("## ModelJury: Taglines \\| CI");
    expect(markdown).toContain("> Too close to call: One and Two are statistically tied;");
    expect(markdown).toContain("| 1 | One | 8.50 | 7.90–9.10 | 1–2 | ✅ | 4/4 (100.0%) |");
    expect(markdown).toContain("| 3 | Three | 3.10 | 2.50–3.60 | 3–3 |  | – |");
    expect(markdown).toContain("- ❌ failed: c/three in the top group — Three ranks 3–3; the top group is One, Two");
    const thin = checkGates(results, { topGroup: [], minPassRate: { "a/one": 0.9 } }, { allowThinEvidence: true });
    expect(resultsMarkdown(results, thin)).toContain(
      "- ⚠️ passed on thin evidence: a/one check pass rate ≥ 90.0% — too little evidence: One passed 4 of 4",
    );
  });

  test("the Markdown summary says why a settled test stopped early; a test that ran every pair says nothing", () => {
    const stoppedReason =
      "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.";
    expect(resultsMarkdown({ ...results, settle: { stoppedReason } }, [])).toContain(
      `**Stopped early:** ${stoppedReason}`,
    );
    expect(resultsMarkdown({ ...results, settle: { stoppedReason: null } }, [])).not.toContain("Stopped early");
    expect(resultsMarkdown(results, [])).not.toContain("Stopped early");
  });

  test("the progress bar fills with the percentage", () => {
    expect(progressBar({ ...status, progress: { phase: "Generating responses", percentage: 50 } }, 10)).toBe(
      "[#####-----]  50% Generating responses (8/8 answers, 4/4 judgements)",
    );
  });
});
