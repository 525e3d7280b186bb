// The compare export says how each test ran (issue 35): when either test was repeated or stopped
// when settled, each model's row adds both tests' repeats with the model's spread between them and
// why a test stopped early, after every column a comparison had; the JSON adds both tests' runs.
// A comparison of two plain tests exports exactly as before.
import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { comparison, PLAIN_RUN, SETTLED_RUN } from "@/test/fixtures/compare";

import { buildCompareCsv, buildCompareJson, COMPARE_CSV_COLUMNS, RUN_CSV_COLUMNS } from "./compare-export";
import type { Comparison } from "./compare-page";

const STOPPED_REASON = SETTLED_RUN.settle!.stoppedReason;
const runs: Comparison["runs"] = {
  a: SETTLED_RUN,
  b: {
    repeats: 3,
    repeatSpread: [
      {
        modelId: "openai/gpt-4o-mini",
        modelName: "GPT-4o Mini",
        repeatSpread: { repeats: 3, pairs: 4, byRepeat: [6.5, 7, 7.5], scoreSd: 0.5, cellSd: 0.75 },
      },
    ],
    settle: null,
  },
};

describe("the compare export of a settled and a repeated test", () => {
  it("appends both tests' repeats, spreads and stop reasons to each model's row", () => {
    const [header, ...rows] = Papa.parse<string[]>(buildCompareCsv(comparison({ runs })), {
      skipEmptyLines: true,
    }).data;
    expect(header).toEqual([...COMPARE_CSV_COLUMNS, ...RUN_CSV_COLUMNS].map((column) => column.header));
    const cell = (row: string[], name: string) => row[header!.indexOf(name)];
    const [mini, haiku] = rows;
    expect(RUN_CSV_COLUMNS.map((column) => cell(mini!, column.header))).toEqual([
      "1",
      "",
      "",
      "38",
      "100",
      STOPPED_REASON,
      "3",
      "0.5",
      "0.75",
      "",
      "",
      "",
    ]);
    // A model without a spread (not judged in two repeats) leaves its cells empty.
    expect(cell(haiku!, "Repeats B")).toBe("3");
    expect(cell(haiku!, "Between-Repeat SD B (Score)")).toBe("");
    const json = JSON.parse(buildCompareJson(comparison({ runs }))) as { runs: Comparison["runs"] };
    expect(json.runs).toEqual(runs);
  });

  it("two plain tests export the columns a comparison always had", () => {
    const header = Papa.parse<string[]>(buildCompareCsv(comparison()), { skipEmptyLines: true }).data[0];
    expect(header).toEqual(COMPARE_CSV_COLUMNS.map((column) => column.header));
    expect(comparison().runs).toEqual({ a: PLAIN_RUN, b: PLAIN_RUN });
  });
});
