// Runs in the edge runtime, as Convex's default runtime does: re2js and @cfworker/json-schema
// must work there without Node.
import { describe, expect, test } from "vitest";
import { threadCpuMs } from "../../dev/backend/threadCpu";
import { checkFigures, checkColumnsOf, tallyOf, tallyOfExportedAnswer, wilsonInterval } from "./checkFigures";
import { checkAnswers, checkLabel, evaluateCheck, type AnswerCheck } from "./checks";
import { checkProblems, checksFromTemplate, checksToTemplate } from "./checkProblems";

const answer = (content: string, extra: Partial<{ latencyMs: number; costUsd: number; topicId: string }> = {}) => ({
  content,
  topicId: extra.topicId ?? "t1",
  latencyMs: extra.latencyMs ?? 1000,
  costUsd: extra.costUsd ?? 0.001,
});
const check = (fields: Omit<AnswerCheck, "id">): AnswerCheck => ({ id: "c", ...fields });

describe("each check kind on hand-made answers", () => {
  test("contains and does not contain, with the case option", () => {
    expect(evaluateCheck(check({ kind: "contains", value: "Refund" }), answer("we offer a refund"))).toEqual({
      pass: true,
    });
    expect(
      evaluateCheck(check({ kind: "contains", value: "Refund", caseSensitive: true }), answer("we offer a refund")),
    ).toEqual({ pass: false, reason: 'does not contain "Refund"' });
    expect(evaluateCheck(check({ kind: "notContains", value: "sorry" }), answer("Sorry, no."))).toEqual({
      pass: false,
      reason: 'contains "sorry"',
    });
    expect(
      evaluateCheck(check({ kind: "notContains", value: "sorry", caseSensitive: true }), answer("Sorry, no.")),
    ).toEqual({ pass: true });
  });

  test("starts with (after leading whitespace)", () => {
    expect(evaluateCheck(check({ kind: "startsWith", value: "Dear" }), answer("  dear customer"))).toEqual({
      pass: true,
    });
    expect(evaluateCheck(check({ kind: "startsWith", value: "Dear" }), answer("Hello"))).toEqual({
      pass: false,
      reason: 'does not start with "Dear"',
    });
  });

  test("matches a regular expression", () => {
    expect(evaluateCheck(check({ kind: "regex", value: "^\\{" }), answer('{"a":1}'))).toEqual({ pass: true });
    expect(evaluateCheck(check({ kind: "regex", value: "^\\{" }), answer("Here it is: {}"))).toEqual({
      pass: false,
      reason: "no match for /^\\{/",
    });
    expect(evaluateCheck(check({ kind: "regex", value: "(?i)order #\\d+" }), answer("ORDER #42 shipped")).pass).toBe(
      true,
    );
  });

  test("a pathological pattern finishes in bounded time", () => {
    // (a+)+$ on "aaaa…b" takes exponential time on a backtracking engine; RE2 is linear.
    const long = `${"a".repeat(100_000)}b`;
    // CPU time, not wall time: a busy machine makes the wait for a core longer, not the work.
    const started = threadCpuMs();
    const outcome = evaluateCheck(check({ kind: "regex", value: "(a+)+$" }), answer(long));
    const elapsed = threadCpuMs() - started;
    expect(outcome).toEqual({ pass: false, reason: "no match for /(a+)+$/" });
    expect(elapsed).toBeLessThan(2000);
  });

  test("is valid JSON", () => {
    expect(evaluateCheck(check({ kind: "json" }), answer(' {"title": "x"} \n')).pass).toBe(true);
    expect(evaluateCheck(check({ kind: "json" }), answer("{title: x}"))).toEqual({
      pass: false,
      reason: "not valid JSON",
    });
  });

  test("matches a JSON Schema, with the failing property named", () => {
    const schema = JSON.stringify({
      type: "object",
      required: ["title", "tags"],
      properties: { title: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
    });
    const schemaCheck = check({ kind: "jsonSchema", value: schema });
    expect(evaluateCheck(schemaCheck, answer('{"title":"A","tags":["x"]}'))).toEqual({ pass: true });
    expect(evaluateCheck(schemaCheck, answer('{"tags":[]}'))).toEqual({
      pass: false,
      reason: "missing property 'title'",
    });
    expect(evaluateCheck(schemaCheck, answer('{"title":"A","tags":[3]}'))).toMatchObject({ pass: false });
    expect(evaluateCheck(schemaCheck, answer("not json"))).toEqual({ pass: false, reason: "not valid JSON" });
  });

  test("length in words or characters within a range", () => {
    const words = check({ kind: "length", unit: "words", min: 2, max: 4 });
    expect(evaluateCheck(words, answer("one two three")).pass).toBe(true);
    expect(evaluateCheck(words, answer("one"))).toEqual({ pass: false, reason: "1 words, fewer than 2" });
    expect(evaluateCheck(words, answer("a b c d e"))).toEqual({ pass: false, reason: "5 words, more than 4" });
    const characters = check({ kind: "length", unit: "characters", max: 5 });
    expect(evaluateCheck(characters, answer("hello")).pass).toBe(true);
    expect(evaluateCheck(characters, answer("hello!"))).toEqual({ pass: false, reason: "6 characters, more than 5" });
  });

  test("latency and cost at most", () => {
    expect(evaluateCheck(check({ kind: "latency", max: 2000 }), answer("x", { latencyMs: 2000 })).pass).toBe(true);
    expect(evaluateCheck(check({ kind: "latency", max: 2000 }), answer("x", { latencyMs: 3200 }))).toEqual({
      pass: false,
      reason: "took 3.2 s, more than 2 s",
    });
    expect(evaluateCheck(check({ kind: "cost", max: 0.001 }), answer("x", { costUsd: 0.0012 }))).toEqual({
      pass: false,
      reason: "cost $0.0012, more than $0.001",
    });
  });

  test("a check for one topic applies only to that topic's answers", () => {
    const checks: AnswerCheck[] = [
      { id: "all", kind: "contains", value: "x" },
      { id: "t2only", kind: "contains", value: "y", topicId: "t2" },
    ];
    const [first, second] = checkAnswers(checks, [answer("x", { topicId: "t1" }), answer("x", { topicId: "t2" })]);
    expect(first).toEqual({ applied: ["all"], failures: [] });
    expect(second).toEqual({
      applied: ["all", "t2only"],
      failures: [{ checkId: "t2only", reason: 'does not contain "y"' }],
    });
  });
});

describe("checks that cannot run are refused under their field", () => {
  test("a pattern that does not compile", () => {
    const problems = checkProblems([{ id: "a", kind: "regex", value: "(unclosed" }], ["t1"]);
    expect(problems).toHaveLength(1);
    expect(problems[0].field).toBe("checks.0.value");
    expect(problems[0].message).toMatch(/^Check 1: This pattern does not compile/);
  });

  test("an invalid schema, a schema that is not JSON, and patterns inside a schema", () => {
    const field = (value: string) => checkProblems([{ id: "a", kind: "jsonSchema", value }], [])[0];
    expect(field('{"type": "strng"}')).toMatchObject({ field: "checks.0.value" });
    expect(field('{"type": "strng"}').message).toContain("'type' must be one of");
    expect(field('{"required": "title"}').message).toContain("'required' must be a list");
    expect(field('{"properties": {"a": {"$ref": "#/$defs/missing"}}}').message).toContain("does not compile");
    expect(field("{type: object}").message).toBe("Check 1: This schema is not valid JSON.");
    expect(field('{"properties": {"a": {"pattern": "(a+)+$"}}}').message).toContain("patterns inside a schema");
    expect(
      checkProblems([{ id: "a", kind: "jsonSchema", value: '{"type":"object","required":["title"]}' }], []),
    ).toEqual([]);
  });

  test("missing values, bad ranges, unknown topics, too many checks", () => {
    expect(checkProblems([{ id: "a", kind: "contains", value: "" }], [])[0]).toEqual({
      field: "checks.0.value",
      message: "Check 1: Enter the text to look for.",
    });
    expect(checkProblems([{ id: "a", kind: "length", unit: "words", min: 10, max: 2 }], [])[0].field).toBe(
      "checks.0.max",
    );
    expect(checkProblems([{ id: "a", kind: "latency", max: 0 }], [])[0].field).toBe("checks.0.max");
    expect(checkProblems([{ id: "a", kind: "json", topicId: "gone" }], ["t1"])[0].field).toBe("checks.0.topicId");
    const many = Array.from({ length: 11 }, (_, index): AnswerCheck => ({ id: `c${index}`, kind: "json" }));
    expect(checkProblems(many, [])[0].field).toBe("checks");
  });
});

test("templates keep a check's topic by its place among the topics", () => {
  const checks: AnswerCheck[] = [
    { id: "a", kind: "json" },
    { id: "b", kind: "contains", value: "x", topicId: "temp-2" },
  ];
  const stored = checksToTemplate(checks, ["temp-1", "temp-2"]);
  expect(stored).toEqual([
    { id: "a", kind: "json" },
    { id: "b", kind: "contains", value: "x", topicIndex: 1 },
  ]);
  expect(checksFromTemplate(stored, ["new-1", "new-2"])[1].topicId).toBe("new-2");
  expect(checkLabel(checks[1], () => "Refunds")).toBe('contains "x" (topic: Refunds)');
});

describe("pass rates with 95% Wilson intervals", () => {
  test("hand-worked values", () => {
    // 8 of 10: p = 0.8, z = 1.96: (0.8 + 0.19208) / 1.38416 ± 1.96·√(0.016 + 0.0096) / 1.38416
    const eight = wilsonInterval(8, 10);
    expect(eight?.low).toBeCloseTo(0.4902, 4);
    expect(eight?.high).toBeCloseTo(0.9433, 4);
    const none = wilsonInterval(0, 10);
    expect(none?.low).toBe(0);
    expect(none?.high).toBeCloseTo(0.2775, 4);
    const half = wilsonInterval(5, 10);
    expect(half?.low).toBeCloseTo(0.2366, 4);
    expect(half?.high).toBeCloseTo(0.7634, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  test("per model overall, per check and per persona, rebuilt the same from exported answers", () => {
    const checks: AnswerCheck[] = [
      { id: "json", kind: "json" },
      { id: "short", kind: "length", unit: "characters", max: 10 },
    ];
    const answers = [
      { modelId: "m1", personaId: "p1", ...answer('{"a":1}') },
      { modelId: "m1", personaId: "p1", ...answer("not json") },
      { modelId: "m1", personaId: "p2", ...answer('{"long": "xxxxxxxxxxxx"}') },
      { modelId: "m2", personaId: "p1", ...answer("[]") },
    ];
    const results = checkAnswers(checks, answers);
    const tallies = answers.map((item, index) => tallyOf(item.modelId, item.personaId, [results[index]]));
    const figures = checkFigures(tallies, checks, ["m1", "m2"], ["p1", "p2"]);
    const m1 = figures.models[0];
    expect(m1.overall).toMatchObject({ answers: 3, passed: 1, rate: 1 / 3 });
    expect(m1.byCheck.map((entry) => [entry.checkId, entry.passed, entry.answers])).toEqual([
      ["json", 2, 3],
      ["short", 2, 3],
    ]);
    expect(m1.byPersona.map((entry) => [entry.personaId, entry.passed, entry.answers])).toEqual([
      ["p1", 1, 2],
      ["p2", 0, 1],
    ]);
    expect(figures.models[1].overall.rate).toBe(1);

    const exported = answers.map((item, index) => ({
      modelId: item.modelId,
      personaId: item.personaId,
      byCheck: checkColumnsOf(checks, { topicId: item.topicId, checkFailures: results[index].failures }),
    }));
    const rebuilt = checkFigures(
      exported.map((row) => tallyOfExportedAnswer(row, checks)),
      checks,
      ["m1", "m2"],
      ["p1", "p2"],
    );
    expect(rebuilt).toEqual(figures);
  });
});
