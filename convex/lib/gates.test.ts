// Gate decisions on hand-made evidence: a gate passes only when the 95% intervals settle it, and a
// gate resting on too little evidence fails saying so unless thin evidence is allowed.
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "./checkFigures";
import { decideGates, gateVerdicts, type GateEvidence } from "./gates";

const models = [
  { modelId: "m/a", modelName: "Alpha", rank: { best: 1, worst: 1 } },
  { modelId: "m/b", modelName: "Beta", rank: { best: 2, worst: 3 } },
  { modelId: "m/c", modelName: "Gamma", rank: { best: 2, worst: 3 } },
];

const clear: GateEvidence = { verdict: { kind: "best", leaders: ["m/a"] }, units: 12, models, checks: null };

/** One model's overall pass rate with its Wilson interval. */
function passRate(passed: number, answers: number) {
  return { answers, passed, rate: passed / answers, interval: wilsonInterval(passed, answers) };
}

describe("is best", () => {
  it("passes for the model the jury names best, fails for another with the jury's words", () => {
    expect(decideGates(clear, { topGroup: [], minPassRate: {}, best: ["m/a", "m/b"] })).toEqual([
      {
        gate: "m/a is best",
        outcome: "passed",
        reason: "Alpha is best: its 95% interval is above every other model's.",
      },
      { gate: "m/b is best", outcome: "failed", reason: "Alpha is best" },
    ]);
  });

  it("fails on a tie, even for the leader: too close to call", () => {
    const tied: GateEvidence = { ...clear, verdict: { kind: "tied", leaders: ["m/a", "m/b"] } };
    expect(decideGates(tied, { topGroup: [], minPassRate: {}, best: ["m/a"] })).toEqual([
      { gate: "m/a is best", outcome: "failed", reason: "Too close to call: Alpha and Beta" },
    ]);
  });
});

describe("too little evidence", () => {
  // The README's ci.yaml: one topic, one judge. Its zero-width intervals gave rank 1–1, so "is best"
  // and "in the top group" passed; now every jury gate rests on too little evidence.
  const thin: GateEvidence = { ...clear, verdict: { kind: "thin", leaders: [] }, units: 1 };
  const gates = { best: ["m/a"], topGroup: ["m/a"], maxRank: { "m/a": 1 }, minPassRate: {} };

  it("every jury gate is thin, with the reason", () => {
    const decisions = decideGates(thin, gates);
    expect(decisions.map((decision) => decision.outcome)).toEqual(["thin", "thin", "thin"]);
    expect(decisions[0]!.reason).toBe(
      "too little evidence: the jury judged only 1 persona × topic pair; it needs at least 4, with each answer judged at least twice",
    );
  });

  it("fails unless thin evidence is allowed, then passes with a warning", () => {
    expect(gateVerdicts(decideGates(thin, gates)).map(({ passed, warning }) => [passed, warning])).toEqual([
      [false, false],
      [false, false],
      [false, false],
    ]);
    expect(
      gateVerdicts(decideGates(thin, gates), { allowThinEvidence: true }).map(({ passed, warning }) => [
        passed,
        warning,
      ]),
    ).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
    // Allowing thin evidence never turns a settled failure into a pass.
    expect(
      gateVerdicts(decideGates(clear, { topGroup: [], minPassRate: {}, best: ["m/b"] }), {
        allowThinEvidence: true,
      })[0],
    ).toMatchObject({ passed: false, warning: false });
  });
});

describe("rank", () => {
  it("passes when the worst rank the intervals allow is within the limit, fails when it is not settled", () => {
    expect(decideGates(clear, { topGroup: [], minPassRate: {}, maxRank: { "m/a": 1, "m/b": 2, "m/c": 3 } })).toEqual([
      { gate: "m/a ranks 1 or better", outcome: "passed", reason: "Alpha ranks 1–1" },
      {
        gate: "m/b ranks 2 or better",
        outcome: "failed",
        reason: "Beta ranks 2–3: the 95% intervals do not settle rank 2 or better",
      },
      { gate: "m/c ranks 3 or better", outcome: "passed", reason: "Gamma ranks 2–3" },
    ]);
  });

  it("the top group takes a best possible rank of 1", () => {
    expect(decideGates(clear, { topGroup: ["m/a", "m/b"], minPassRate: {} }).map((d) => d.outcome)).toEqual([
      "passed",
      "failed",
    ]);
  });
});

describe("pass rate", () => {
  it("reads the lower bound of the Wilson interval: 2 of 2 (lower bound 34.2%) does not settle 90%", () => {
    expect(wilsonInterval(2, 2)!.low).toBeCloseTo(0.3424, 4);
    const evidence: GateEvidence = {
      ...clear,
      checks: {
        models: [
          { modelId: "m/a", overall: passRate(2, 2) },
          { modelId: "m/b", overall: passRate(60, 60) },
          { modelId: "m/c", overall: passRate(40, 60) },
        ],
      },
    };
    const decisions = decideGates(evidence, { topGroup: [], minPassRate: { "m/a": 0.9, "m/b": 0.9, "m/c": 0.9 } });
    expect(decisions).toEqual([
      {
        gate: "m/a check pass rate ≥ 90.0%",
        outcome: "thin",
        reason:
          "too little evidence: Alpha passed 2 of 2 checked answers (100.0%; 95% interval 34.2%–100.0%), whose lower bound is below 90.0%",
      },
      {
        gate: "m/b check pass rate ≥ 90.0%",
        outcome: "passed",
        reason: "Beta passed 60 of 60 checked answers (100.0%; 95% interval 94.0%–100.0%)",
      },
      {
        gate: "m/c check pass rate ≥ 90.0%",
        outcome: "failed",
        reason: "Gamma passed 40 of 60 checked answers (66.7%; 95% interval 54.1%–77.3%)",
      },
    ]);
    expect(gateVerdicts(decisions)[0]).toMatchObject({ passed: false });
  });
});
