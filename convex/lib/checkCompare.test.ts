// The compare page's per-check pass rates: Newcombe's hybrid score interval against the published
// examples, and a check that collapsed between two runs showing on its own row.
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "./checkFigures";
import { ALL_CHECKS, compareCheckRates, passRateDifference, type TestCheckRates } from "./checkCompare";

/** p_1 − p_2 as Newcombe writes it is B − A here: B = the first proportion, A = the second. */
function newcombe(x1: number, n1: number, x2: number, n2: number) {
  const interval = passRateDifference({ passed: x2, answers: n2 }, { passed: x1, answers: n1 })!;
  return [Number(interval.low.toFixed(4)), Number(interval.high.toFixed(4))];
}

describe("passRateDifference (Newcombe 1998, method 10)", () => {
  it("matches the published examples of Table II", () => {
    // (a) 56/70 − 48/80, worked by hand: Wilson 0.6919–0.8770 and 0.4905–0.7004;
    // 0.2 − √(0.1081² + 0.1004²) = 0.0524 and 0.2 + √(0.0770² + 0.1095²) = 0.3339.
    expect(newcombe(56, 70, 48, 80)).toEqual([0.0524, 0.3339]);
    expect(newcombe(9, 10, 3, 10)).toEqual([0.1705, 0.809]);
    expect(newcombe(5, 56, 0, 29)).toEqual([-0.0381, 0.1926]);
    expect(newcombe(0, 10, 0, 20)).toEqual([-0.1611, 0.2775]);
    expect(newcombe(0, 10, 0, 10)).toEqual([-0.2775, 0.2775]);
    expect(newcombe(10, 10, 0, 20)).toEqual([0.6791, 1]);
    expect(newcombe(10, 10, 0, 10)).toEqual([0.6075, 1]);
  });

  it("has no interval without answers on both sides", () => {
    expect(passRateDifference({ passed: 0, answers: 0 }, { passed: 3, answers: 4 })).toBeNull();
  });
});

function rate(passed: number, answers: number) {
  return { answers, passed, rate: answers > 0 ? passed / answers : null, interval: wilsonInterval(passed, answers) };
}

describe("compareCheckRates", () => {
  // Two checks; between the runs "Valid JSON" collapsed from 12/12 to 0/12 while "Contains" held,
  // so "All checks" (answers passing every check) moves less than the collapsed check.
  const a: TestCheckRates = {
    checks: [
      { id: "c1", label: 'Contains "coffee"' },
      { id: "c2", label: "Valid JSON" },
    ],
    models: [
      {
        modelId: "m/a",
        overall: rate(11, 12),
        byCheck: [
          { checkId: "c1", ...rate(11, 12) },
          { checkId: "c2", ...rate(12, 12) },
        ],
      },
    ],
  };
  const b: TestCheckRates = {
    // A rerun: new ids, the same labels; and a check only B has.
    checks: [
      { id: "x2", label: "Valid JSON" },
      { id: "x1", label: 'Contains "coffee"' },
      { id: "x3", label: "At most 50 words" },
    ],
    models: [
      {
        modelId: "m/a",
        overall: rate(0, 12),
        byCheck: [
          { checkId: "x1", ...rate(11, 12) },
          { checkId: "x2", ...rate(0, 12) },
          { checkId: "x3", ...rate(12, 12) },
        ],
      },
    ],
  };
  const models = [
    { modelId: "m/a", modelName: "Alpha" },
    { modelId: "m/z", modelName: "Zeta" },
  ];

  it("shows every check side by side with the difference's interval, matched by label", () => {
    const groups = compareCheckRates(a, b, models);
    expect(groups.map((group) => group.label)).toEqual([
      ALL_CHECKS,
      'Contains "coffee"',
      "Valid JSON",
      "At most 50 words",
    ]);
    const collapsed = groups[2]!.models[0]!;
    expect(collapsed).toMatchObject({ modelName: "Alpha", difference: -1, largerThanChance: true });
    expect(collapsed.a).toMatchObject({ passed: 12, answers: 12 });
    expect(collapsed.b).toMatchObject({ passed: 0, answers: 12 });
    // 0/12 − 12/12: Wilson 0–0.2425 and 0.7575–1, so −1 − 0 … −1 + √(0.2425² + 0.2425²) = −0.657.
    expect(collapsed.interval!.low).toBeCloseTo(-1, 10);
    expect(collapsed.interval!.high).toBeCloseTo(-1 + Math.SQRT2 * wilsonInterval(0, 12)!.high, 10);
    const held = groups[1]!.models[0]!;
    expect(held).toMatchObject({ difference: 0, largerThanChance: false });
    // A check only B has, and a model only one side scored: no difference.
    expect(groups[3]!.models[0]).toMatchObject({ a: null, difference: null, interval: null, largerThanChance: false });
    expect(groups[0]!.models[1]).toMatchObject({ modelName: "Zeta", a: null, b: null, difference: null });
  });

  it("a test without checks leaves its side empty", () => {
    const groups = compareCheckRates(a, null, models.slice(0, 1));
    expect(groups.map((group) => group.label)).toEqual([ALL_CHECKS, 'Contains "coffee"', "Valid JSON"]);
    expect(groups[0]!.models[0]).toMatchObject({ b: null, difference: null });
  });
});
