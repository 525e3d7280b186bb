// The console's ranking table, the JSON a pipeline reads and the JUnit XML CI systems show, on
// hand-made results.
import { describe, expect, test } from "vitest";
import type { ApiResults, GateVerdict } from "./report";
import { jsonReport, junitXml, rankingTable } from "./reporters";

const results = {
  test: {
    testId: "t1",
    name: "Taglines <CI> & co",
    status: "completed",
    final: true,
    chargedCents: 0,
    gatewayCostUsd: 0.0123,
  },
  final: true,
  rankings: [
    {
      modelId: "a/one",
      modelName: "One",
      averageScore: 8.5,
      meanScore: 8.5,
      scoreInterval: { low: 7.9, high: 9.1 },
      rank: { best: 1, worst: 2 },
    },
    {
      modelId: "b/two",
      modelName: "Two long name",
      averageScore: 7.25,
      meanScore: null,
      scoreInterval: null,
      rank: null,
    },
  ],
  topGroup: ["a/one"],
  checks: {
    checks: [],
    models: [{ modelId: "a/one", overall: { answers: 4, passed: 3, rate: 0.75, interval: null }, byCheck: [] }],
  },
} as unknown as ApiResults;

const verdicts: GateVerdict[] = [
  { gate: "a/one in the top group", passed: true, warning: false, reason: "One can rank first" },
  { gate: "cost ≤ $0.0010", passed: false, warning: false, reason: 'the test cost $0.0123 "gateway"' },
];

describe("reporters", () => {
  test("the ranking table: aligned columns, rank ranges, the top group and check pass rates", () => {
    expect(rankingTable(results)).toBe(
      [
        "#  Model          Score  95% interval  Ranks  Top  Checks passed",
        "-  -------------  -----  ------------  -----  ---  -------------",
        "1  One             8.50  7.90–9.10     1–2    yes  3/4 (75.0%)",
        "2  Two long name   7.25  –             –           –",
        "",
      ].join("\n"),
    );
  });

  test("JUnit: one test case per gate, a failure with its reason, names escaped", () => {
    const xml = junitXml(results, verdicts);
    expect(xml).toContain('<testsuites name="modeljury" tests="2" failures="1" errors="0">');
    expect(xml).toContain(
      '<testsuite name="ModelJury: Taglines &lt;CI&gt; &amp; co" tests="2" failures="1" errors="0">',
    );
    expect(xml).toContain('<testcase classname="modeljury.gates" name="a/one in the top group">');
    expect(xml).toContain(
      '<failure message="the test cost $0.0123 &quot;gateway&quot;" type="gate">the test cost $0.0123 &quot;gateway&quot;</failure>',
    );
    const failed = junitXml(
      { ...results, test: { ...results.test, status: "failed", error: "No judge answered" } },
      [],
    );
    expect(failed).toContain('tests="1" failures="0" errors="1"');
    expect(failed).toContain('<error message="The test failed: No judge answered"/>');
  });

  test("JSON: the results with the gates and whether all passed", () => {
    const report = JSON.parse(jsonReport(results, verdicts)) as Record<string, unknown>;
    expect(report).toMatchObject({ testId: "t1", status: "completed", final: true, costUsd: 0.0123, passed: false });
    expect(report.gates).toEqual(verdicts);
    expect(JSON.parse(jsonReport(results, [verdicts[0]])).passed).toBe(true);
  });
});
