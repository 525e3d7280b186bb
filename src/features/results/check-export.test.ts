// The CSV export carries the checks: per-answer pass/fail columns, the reasons, and each model's
// overall pass rate; every figure of the Checks section is rebuilt from the exported rows alone.
import Papa from "papaparse";
import { describe, expect, test } from "vitest";

import { checkFigures, tallyOf } from "../../../convex/lib/checkFigures";
import { checkAnswers, type AnswerCheck } from "../../../convex/lib/checks";
import type { Id } from "../../../convex/_generated/dataModel";
import { buildCsv, type ExportResponse } from "./export";
import { CHECK_FAILURES_COLUMN, rebuildCheckFigures } from "@/components/results/check-export";

const CHECKS: AnswerCheck[] = [
  { id: "json", kind: "json" },
  { id: "short", kind: "length", unit: "words", max: 3 },
  { id: "brew", kind: "contains", value: "brew", topicId: "t1" },
];

const ANSWERS = [
  { modelId: "m1", personaId: "p1", topicId: "t1", content: '{"a": "brew"}' },
  { modelId: "m1", personaId: "p2", topicId: "t2", content: "not json at all here" },
  { modelId: "m1", personaId: "p1", topicId: "t2", content: "[1, 2]" },
  { modelId: "m2", personaId: "p1", topicId: "t1", content: '{"a": 1}' },
  { modelId: "m2", personaId: "p2", topicId: "t1", content: "brew brew" },
];

function exported(): ExportResponse[] {
  const results = checkAnswers(
    CHECKS,
    ANSWERS.map((answer) => ({ ...answer, latencyMs: 100, costUsd: 0.001 })),
  );
  return ANSWERS.map((answer, index) => ({
    id: `r${index}` as Id<"responses">,
    modelId: answer.modelId,
    modelName: answer.modelId.toUpperCase(),
    personaId: answer.personaId,
    personaName: answer.personaId,
    topicId: answer.topicId,
    topicTitle: answer.topicId === "t1" ? "Coffee" : "Bikes",
    content: answer.content,
    timestamp: 0,
    tokens: 10,
    latencyMs: 100,
    costUsd: 0.001,
    averageScore: null,
    checkFailures: [...results[index].failures],
  }));
}

describe("checks in the CSV export", () => {
  test("each figure is rebuilt from the exported rows", () => {
    const csv = buildCsv(exported(), [], null, CHECKS);
    const rows = Papa.parse<Record<string, string>>(csv, { header: true }).data;
    const results = checkAnswers(
      CHECKS,
      ANSWERS.map((answer) => ({ ...answer, latencyMs: 100, costUsd: 0.001 })),
    );
    const expected = checkFigures(
      ANSWERS.map((answer, index) => tallyOf(answer.modelId, answer.personaId, [results[index]])),
      CHECKS,
      ["m1", "m2"],
      ["p1", "p2"],
    );
    const topics = { t1: "Coffee", t2: "Bikes" } as Record<string, string>;
    expect(rebuildCheckFigures(rows, CHECKS, (id) => topics[id])).toEqual(expected);
    // m1: two of three pass all (the second is not JSON and too long); m2: neither ('{"a": 1}' lacks
    // "brew" on its coffee topic, "brew brew" is not JSON).
    expect(expected.models.map((model) => [model.overall.passed, model.overall.answers])).toEqual([
      [2, 3],
      [0, 2],
    ]);
    expect(rows[0]["Model Check Pass Rate"]).toBe((2 / 3).toFixed(4));
    expect(Number(rows[0]["Model Check Pass 95% Low"])).toBeCloseTo(expected.models[0].overall.interval!.low, 4);
    expect(rows[1][CHECK_FAILURES_COLUMN]).toBe("not valid JSON; 5 words, more than 3");
    expect(rows[1]['Check 3: contains "brew" (topic: Coffee)']).toBe("");
    expect(rows[0]['Check 3: contains "brew" (topic: Coffee)']).toBe("pass");
  });

  test("an answer failing an is-JSON check and a JSON Schema check gives the reason once", () => {
    const checks: AnswerCheck[] = [
      { id: "json", kind: "json" },
      { id: "schema", kind: "jsonSchema", value: '{"type": "object", "required": ["title"]}' },
    ];
    const answer = { modelId: "m1", personaId: "p1", topicId: "t1", content: "Here you go: title" };
    const [result] = checkAnswers(checks, [{ ...answer, latencyMs: 100, costUsd: 0.001 }]);
    expect(result!.failures.map((failure) => failure.checkId)).toEqual(["json", "schema"]);
    const row = { ...exported()[0]!, content: answer.content, checkFailures: [...result!.failures] };
    const rows = Papa.parse<Record<string, string>>(buildCsv([row], [], null, checks), { header: true }).data;
    expect(rows[0]![CHECK_FAILURES_COLUMN]).toBe("not valid JSON");
  });

  test("a test without checks exports no check columns", () => {
    const csv = buildCsv(exported(), [], null);
    expect(csv.split("\n")[0]).not.toContain("Check");
  });
});
