// @vitest-environment node
import { describe, expect, it } from "vitest";
import { parseGenerationReply, parseRankingReply, parseRatingReply } from "./replies";

describe("parseGenerationReply", () => {
  it("reads a JSON array of strings", () => {
    expect(parseGenerationReply('["First answer.", "Second answer."]', 2)).toEqual({
      answers: ["First answer.", "Second answer."],
      missing: 0,
      malformed: false,
    });
  });

  it("tolerates fences, leading prose, raw newlines and trailing commas", () => {
    const reply =
      'Sure! Here are your responses:\n```json\n[\n  "Line one\nline two",\n  "Another",\n]\n```\nHope that helps.';
    expect(parseGenerationReply(reply, 2)).toEqual({
      answers: ["Line one\nline two", "Another"],
      missing: 0,
      malformed: false,
    });
    expect(parseGenerationReply('Here are [2] answers: ["a [bracketed] one", "b"]', 2).answers).toEqual([
      "a [bracketed] one",
      "b",
    ]);
  });

  it("accepts a wrapper object and answer objects", () => {
    expect(parseGenerationReply('{"responses": ["x", "y"]}', 2).answers).toEqual(["x", "y"]);
    expect(parseGenerationReply('[{"response": "x"}, {"text": "y"}]', 2).answers).toEqual(["x", "y"]);
  });

  it("reports missing answers without padding them", () => {
    expect(parseGenerationReply('["only one", "", 42]', 3)).toEqual({
      answers: ["only one"],
      missing: 2,
      malformed: false,
    });
  });

  it("keeps at most the number asked for", () => {
    expect(parseGenerationReply('["a", "b", "c"]', 2)).toEqual({ answers: ["a", "b"], missing: 0, malformed: false });
  });

  it("takes a plain-text reply as the single answer asked for", () => {
    expect(parseGenerationReply("  Just the answer, no JSON.  ", 1)).toEqual({
      answers: ["Just the answer, no JSON."],
      missing: 0,
      malformed: true,
    });
  });

  it("is malformed when several answers were asked for and none came as JSON", () => {
    expect(parseGenerationReply("1. First answer here\n2. Second answer here", 2)).toEqual({
      answers: [],
      missing: 2,
      malformed: true,
    });
    expect(parseGenerationReply("", 1)).toEqual({ answers: [], missing: 1, malformed: true });
  });
});

describe("parseRankingReply", () => {
  const labels = ["A", "B", "C"];

  it("reads a ranking with every label once", () => {
    expect(parseRankingReply('{"ranking":["B","A","C"],"explanation":"B is clearest."}', labels)).toEqual({
      malformed: false,
      ranking: ["B", "A", "C"],
      explanation: "B is clearest.",
    });
  });

  it("tolerates fences, prose, bracketed or lowercase labels and no explanation", () => {
    const reply = 'My verdict:\n```json\n{"ranking": ["[c]", "a", "Answer B"]}\n```';
    expect(parseRankingReply(reply, labels)).toEqual({ malformed: false, ranking: ["C", "A", "B"], explanation: "" });
  });

  it("rejects duplicates, missing and unknown labels", () => {
    expect(parseRankingReply('{"ranking":["A","A","C"]}', labels)).toEqual({
      malformed: true,
      reason: "The ranking must list each of A, B, C exactly once, best first. A appears more than once.",
    });
    expect(parseRankingReply('{"ranking":["A","C"]}', labels)).toEqual({
      malformed: true,
      reason: "The ranking must list each of A, B, C exactly once, best first. Missing: B.",
    });
    expect(parseRankingReply('{"ranking":["A","B","C","D"]}', labels)).toEqual({
      malformed: true,
      reason: "The ranking must list each of A, B, C exactly once, best first. Unknown label: D.",
    });
  });

  it("is malformed without a ranking object", () => {
    expect(parseRankingReply("B is better than A, then C.", labels)).toEqual({
      malformed: true,
      reason: 'No JSON object with a "ranking" list was found.',
    });
    expect(parseRankingReply('{"order":["A","B","C"]}', labels).malformed).toBe(true);
  });
});

describe("parseRatingReply", () => {
  const criteria = ["accuracy", "clarity"];

  it("reads scores for exactly the criteria", () => {
    expect(parseRatingReply('{"scores":{"accuracy":8,"clarity":7},"explanation":"Solid."}', criteria)).toEqual({
      malformed: false,
      scores: { accuracy: 8, clarity: 7 },
      explanation: "Solid.",
    });
  });

  it("tolerates numeric strings, key case, fences and a missing wrapper", () => {
    expect(parseRatingReply('```json\n{"scores":{"Accuracy":"9","clarity":6.5}}\n```', criteria)).toEqual({
      malformed: false,
      scores: { accuracy: 9, clarity: 6.5 },
      explanation: "",
    });
    expect(parseRatingReply('{"accuracy": 10, "clarity": 1, "explanation": "ok"}', criteria)).toEqual({
      malformed: false,
      scores: { accuracy: 10, clarity: 1 },
      explanation: "ok",
    });
  });

  it("rejects scores outside 1-10, missing and extra criteria", () => {
    const rule = '"scores" must have exactly accuracy, clarity, each a number from 1 to 10.';
    expect(parseRatingReply('{"scores":{"accuracy":11,"clarity":7}}', criteria)).toEqual({
      malformed: true,
      reason: `${rule} accuracy is 11.`,
    });
    expect(parseRatingReply('{"scores":{"accuracy":0,"clarity":7}}', criteria).malformed).toBe(true);
    expect(parseRatingReply('{"scores":{"accuracy":"great","clarity":7}}', criteria)).toEqual({
      malformed: true,
      reason: `${rule} accuracy is "great".`,
    });
    expect(parseRatingReply('{"scores":{"accuracy":8}}', criteria)).toEqual({
      malformed: true,
      reason: `${rule} Missing: clarity.`,
    });
    expect(parseRatingReply('{"scores":{"accuracy":8,"clarity":7,"style":9}}', criteria)).toEqual({
      malformed: true,
      reason: `${rule} Unexpected key: style.`,
    });
  });

  it("is malformed without JSON", () => {
    expect(parseRatingReply("Accuracy 8/10, clarity 7/10", criteria)).toEqual({
      malformed: true,
      reason: 'No JSON object with "scores" was found.',
    });
  });
});
