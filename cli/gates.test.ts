// Gates read from a configuration and flags, and refused before anything is created when they
// name a model the test does not run, a check it does not have, or a rate out of range; a
// per-check gate's verdict on hand-made results.
import { describe, expect, test } from "vitest";
import { checkGateVerdicts, gateProblems, readGates } from "./gates";
import type { ApiResults } from "./report";

const CONFIGURATION = {
  generatorModels: ["a/one", "b/two"],
  checks: [{ id: "c1", kind: "contains", value: "coffee" }],
};

describe("gates before payment", () => {
  test("a gate on a model the test does not run, on a check it lacks, or out of range is a problem", () => {
    const read = readGates(
      { topGroup: ["z/none"], minPassRate: { "a/one": 0.9, "b/two": { c9: 0.5, c1: "80%" } }, maxCostUsd: -1 },
      { best: [], topGroup: [], maxRank: [], minPassRate: ["a/one=150", "x/other=0.5", "bad"] },
      "ci.yaml",
    );
    expect(read.gates).toEqual({
      best: [],
      topGroup: ["z/none"],
      maxRank: {},
      minPassRate: { "a/one": 0.9, "x/other": 0.5 },
    });
    expect(read.checkGates).toEqual([
      { modelId: "b/two", checkId: "c9", rate: 0.5 },
      { modelId: "b/two", checkId: "c1", rate: 0.8 },
    ]);
    expect(read.problems.map((problem) => problem.reason)).toEqual([
      '--min-pass-rate a/one=150: the pass rate "150" is out of range',
      '--min-pass-rate takes MODEL=RATE or MODEL@CHECK=RATE, got "bad"',
      'the cost gate "-1" is not an amount of dollars',
    ]);
    expect(gateProblems(read, CONFIGURATION, ["a/one", "b/two"], "ci.yaml").map((problem) => problem.reason)).toEqual([
      'the gate "z/none in the top group" names z/none, which is not one of the test\'s generator models (a/one, b/two)',
      'the gate "x/other check pass rate" names x/other, which is not one of the test\'s generator models (a/one, b/two)',
      'the gate "b/two@c9" names the check c9, which the test does not have',
    ]);
  });

  test("a pass-rate gate on a test without checks is refused; gates that fit the test are not", () => {
    const read = readGates(
      undefined,
      { best: [], topGroup: ["a/one"], maxRank: [], minPassRate: ["a/one=90%"], maxCost: "2.5" },
      "ci.yaml",
    );
    expect(read.problems).toEqual([]);
    expect(read.gates).toEqual({
      best: [],
      topGroup: ["a/one"],
      maxRank: {},
      minPassRate: { "a/one": 0.9 },
      maxCostUsd: 2.5,
    });
    expect(gateProblems(read, CONFIGURATION, ["a/one", "b/two"], "ci.yaml")).toEqual([]);
    expect(gateProblems(read, { generatorModels: ["a/one"] }, ["a/one"], "ci.yaml")).toEqual([
      {
        file: "ci.yaml",
        reason: "a pass-rate gate is set, but the test has no checks",
        fix: "Add checks to the configuration (or assertions ModelJury checks, for a promptfoo config), or drop the gate.",
      },
    ]);
  });

  test("a per-check gate passes on that check's pass rate only", () => {
    // 95% Wilson intervals: 4 of 4 is 51.0–100%, 2 of 4 is 15.0–85.0%, 60 of 60 is 94.0–100%.
    const WILSON: Record<string, { low: number; high: number }> = {
      "4/4": { low: 0.51, high: 1 },
      "2/4": { low: 0.15, high: 0.85 },
      "60/60": { low: 0.94, high: 1 },
    };
    const rate = (answers: number, passed: number) => ({
      answers,
      passed,
      rate: passed / answers,
      interval: WILSON[`${passed}/${answers}`]!,
    });
    const results = {
      checks: {
        checks: [
          { id: "c1", label: "c1" },
          { id: "c2", label: "c2" },
        ],
        models: [
          {
            modelId: "a/one",
            modelName: "One",
            overall: rate(8, 6),
            byCheck: [
              { checkId: "c1", ...rate(4, 4) },
              { checkId: "c2", ...rate(4, 2) },
              { checkId: "c3", ...rate(60, 60) },
            ],
          },
        ],
      },
    } as unknown as ApiResults;
    const gates = [
      { modelId: "a/one", checkId: "c1", rate: 0.9 },
      { modelId: "a/one", checkId: "c2", rate: 0.9 },
      { modelId: "a/one", checkId: "c3", rate: 0.9 },
      { modelId: "b/two", checkId: "c1", rate: 0.1 },
    ];
    // 4 of 4 is 100%, but its interval reaches down to 51%: too little evidence for a 90% gate.
    expect(checkGateVerdicts(results, gates)).toEqual([
      {
        gate: "a/one check c1 pass rate ≥ 90.0%",
        passed: false,
        warning: false,
        reason:
          "too little evidence: One passed 4 of 4 checked answers (100.0%; 95% interval 51.0%–100.0%), whose lower bound is below 90.0%",
      },
      {
        gate: "a/one check c2 pass rate ≥ 90.0%",
        passed: false,
        warning: false,
        reason: "One passed 2 of 4 checked answers (50.0%; 95% interval 15.0%–85.0%)",
      },
      {
        gate: "a/one check c3 pass rate ≥ 90.0%",
        passed: true,
        warning: false,
        reason: "One passed 60 of 60 checked answers (100.0%; 95% interval 94.0%–100.0%)",
      },
      {
        gate: "b/two check c1 pass rate ≥ 10.0%",
        passed: false,
        warning: false,
        reason: "no answer of b/two was checked",
      },
    ]);
    // --allow-thin-evidence: the thin gate passes with a warning; a settled failure still fails.
    const allowed = checkGateVerdicts(results, gates, { allowThinEvidence: true });
    expect(allowed.map((verdict) => [verdict.passed, verdict.warning])).toEqual([
      [true, true],
      [false, false],
      [true, false],
      [false, false],
    ]);
  });
});
