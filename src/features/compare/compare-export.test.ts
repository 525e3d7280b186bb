// The compare export rebuilds its figures (issue 22): a comparison worked by lib/compare on
// hand-made per-pair scores, exported, read back; each difference is score B less score A, the
// rank correlation comes back from the exported ranks, and the pass rates' Wilson intervals from
// passed of total.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { PLAIN_RUN } from "@/test/fixtures/compare";
import { makeResults } from "@/test/fixtures/results";

import type { Id } from "../../../convex/_generated/dataModel";
import { compareCheckRates, passRateDifference, type TestCheckRates } from "../../../convex/lib/checkCompare";
import { wilsonInterval } from "../../../convex/lib/checkFigures";
import { compareRuns, type RunScores, stabilityReading, type UnitScores } from "../../../convex/lib/compare";
import { spearman } from "../../../convex/lib/stats/basics";
import { buildCompareCsv, buildCompareJson, COMPARE_CSV_COLUMNS } from "./compare-export";
import type { Comparison } from "./compare-page";

const MODELS = [
  { id: "m1", name: "Model One" },
  { id: "m2", name: "Model Two" },
  { id: "m3", name: "Model Three" },
  { id: "m4", name: "Model Four" },
];

/** Six persona × topic pairs, each model's mean score there given per pair. */
function run(models: typeof MODELS, scores: Record<string, number[]>): RunScores {
  const units: UnitScores[] = [];
  for (let index = 0; index < 6; index++) {
    const personaId = `p${index % 3}`;
    const topicId = `t${Math.floor(index / 3)}`;
    units.push({
      personaId,
      topicId,
      key: `${personaId}|${topicId}`,
      means: new Map(Object.entries(scores).map(([modelId, values]) => [modelId, values[index]!])),
    });
  }
  return { models, units };
}

// In B m2 leads, m1 gains a lot, m3 falls to last; m4 is only in B.
const RUN_A = run(MODELS.slice(0, 3), {
  m1: [5, 5.5, 4.5, 6, 5, 5.25],
  m2: [7, 7.5, 6.5, 7, 7.25, 6.75],
  m3: [8, 8.5, 7.5, 8.25, 7.75, 8],
});
const RUN_B = run(MODELS, {
  m1: [8.5, 9, 8, 8.75, 9.25, 8.5],
  m2: [9.5, 9.75, 9.25, 9.5, 9.75, 9.5],
  m3: [6, 6.5, 5.5, 6.25, 5.75, 6.5],
  m4: [3, 4, 3.5, 4, 3, 3.5],
});

const PASS_RATES: Record<string, [number, number] | null> = { m1: [3, 4], m2: [6, 6], m3: [0, 5] };

/** One check in both tests (a rerun: new ids, the same label): m1's answers fell from 12 of 12 passing to 0 of 12. */
function checkRates(passed: number): TestCheckRates {
  const total = 12;
  const rate = { answers: total, passed, rate: passed / total, interval: wilsonInterval(passed, total) };
  return {
    checks: [{ id: `json-${passed}`, label: "Valid JSON" }],
    models: [{ modelId: "m1", overall: rate, byCheck: [{ checkId: `json-${passed}`, ...rate }] }],
  };
}
const CHECKS_A = checkRates(12);
const CHECKS_B = checkRates(0);

function comparisonOf(a: RunScores, b: RunScores): Comparison {
  const { test } = makeResults();
  const worked = compareRuns(a, b, { seed: "a|b", resamples: 200 });
  const rate = (passed: number, total: number) => ({
    answers: total,
    passed,
    rate: passed / total,
    interval: wilsonInterval(passed, total),
  });
  return {
    a: test,
    b: { ...test, _id: "k57testid0000000000000000000002" as Id<"tests">, name: "Coffee taglines (Rerun)" },
    verdicts: { a: { kind: "best", leaders: ["Model Three"] }, b: { kind: "thin", leaders: [] } },
    runs: { a: PLAIN_RUN, b: PLAIN_RUN },
    models: worked.models.map((model) => ({ ...model, a: { ...model.a }, b: { ...model.b } })),
    onlyInA: [...worked.onlyInA],
    onlyInB: [...worked.onlyInB],
    rankCorrelation: {
      method: "spearman",
      value: worked.rankCorrelation,
      reading: stabilityReading(worked.rankCorrelation),
    },
    checks: {
      a: true,
      b: false,
      models: worked.models.map((model) => {
        const tally = PASS_RATES[model.modelId];
        return { modelId: model.modelId, modelName: model.modelName, a: tally ? rate(...tally) : null, b: null };
      }),
      byCheck: compareCheckRates(CHECKS_A, CHECKS_B, worked.models),
    },
    differences: ["The prompt differs.", "Models only in B: Model Four."],
    resampled: "pair",
    pairs: [],
  };
}

type CsvRow = Record<string, string>;

function csvRows(comparison: Comparison): CsvRow[] {
  const parsed = Papa.parse<CsvRow>(buildCompareCsv(comparison), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual(COMPARE_CSV_COLUMNS.map((column) => column.header));
  return parsed.data;
}

describe("compare export", () => {
  const comparison = comparisonOf(RUN_A, RUN_B);

  it("has one row per model both tests tested, with its figures as the page shows them", () => {
    const rows = csvRows(comparison);
    expect(rows.map((row) => row.Model)).toEqual(["Model One", "Model Two", "Model Three"]);
    // m1 rose from last to second, clearly; m3 fell from first to last.
    expect(rows.map((row) => [row["Rank A"], row["Rank B"]])).toEqual([
      ["3", "2"],
      ["2", "1"],
      ["1", "3"],
    ]);
    expect(rows[0]!["Larger Than Chance"]).toBe("yes");
    expect(rows[2]!["Larger Than Chance"]).toBe("yes");
    expect(Number(rows[2]!["Difference (B - A)"])).toBeLessThan(0);
    expect(rows.every((row) => row["Units Resampled"] === "persona × topic pairs")).toBe(true);
    for (const row of rows) {
      const difference = Number(row["Difference (B - A)"]);
      expect(Number(row["95% Low"])).toBeLessThanOrEqual(difference);
      expect(Number(row["95% High"])).toBeGreaterThanOrEqual(difference);
    }
  });

  it("each exported difference is the exported score B less score A", () => {
    for (const row of csvRows(comparison)) {
      expect(Number(row["Difference (B - A)"])).toBe(Number(row["Score B"]) - Number(row["Score A"]));
    }
  });

  it("the rank correlation comes back from the exported ranks", () => {
    const rows = csvRows(comparison);
    const exported = JSON.parse(buildCompareJson(comparison)) as { rankCorrelation: { value: number } };
    const rebuilt = spearman(
      rows.map((row) => Number(row["Rank A"])),
      rows.map((row) => Number(row["Rank B"])),
    );
    expect(exported.rankCorrelation.value).toBe(-0.5);
    expect(rebuilt).toBeCloseTo(exported.rankCorrelation.value, 10);
  });

  it("the JSON carries the pass rates as passed of total (their Wilson intervals rebuild) and what differs", () => {
    const exported = JSON.parse(buildCompareJson(comparison)) as {
      checkPassRates: {
        modelId: string;
        a: { passed: number; total: number; low: number; high: number } | null;
        b: null;
      }[];
      configurationDifferences: string[];
      onlyInB: string[];
    };
    expect(exported.checkPassRates.map((model) => [model.modelId, model.a?.passed, model.a?.total])).toEqual([
      ["m1", 3, 4],
      ["m2", 6, 6],
      ["m3", 0, 5],
    ]);
    for (const { a, b } of exported.checkPassRates) {
      expect(b).toBeNull();
      expect(wilsonInterval(a!.passed, a!.total)).toEqual({ low: a!.low, high: a!.high });
    }
    expect(exported.configurationDifferences).toEqual(["The prompt differs.", "Models only in B: Model Four."]);
    expect(exported.onlyInB).toEqual(["Model Four"]);
  });

  it("the JSON carries each check side by side; its difference and interval rebuild from passed of total, and each verdict", () => {
    const exported = JSON.parse(buildCompareJson(comparison)) as {
      checkComparison: {
        check: string;
        models: {
          modelId: string;
          a: { passed: number; total: number } | null;
          b: { passed: number; total: number } | null;
          difference: number | null;
          interval: { low: number; high: number } | null;
          largerThanChance: boolean;
        }[];
      }[];
      verdicts: { a: string | null; b: string | null };
    };
    expect(exported.checkComparison.map((group) => group.check)).toEqual(["All checks", "Valid JSON"]);
    const collapsed = exported.checkComparison[1]!.models.find((model) => model.modelId === "m1")!;
    expect(collapsed).toMatchObject({ a: { passed: 12, total: 12 }, b: { passed: 0, total: 12 }, difference: -1 });
    expect(collapsed.largerThanChance).toBe(true);
    expect(collapsed.interval).toEqual(passRateDifference({ passed: 12, answers: 12 }, { passed: 0, answers: 12 }));
    expect(exported.verdicts).toEqual({ a: "Model Three is best", b: "Too little evidence" });
  });

  it("leaves a model's cells empty where it has no score in one test", () => {
    const withoutScore = comparisonOf(
      RUN_A,
      run(MODELS.slice(0, 3), { m1: [8, 8, 8, 8, 8, 8], m2: [7, 7, 7, 7, 7, 7] }),
    );
    const row = csvRows(withoutScore)[2]!;
    expect(row).toMatchObject({
      Model: "Model Three",
      "Score B": "",
      "Rank B": "",
      "Difference (B - A)": "",
      "95% Low": "",
      "Larger Than Chance": "",
    });
  });
});
