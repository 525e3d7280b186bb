// The judge calls of a persona × topic pair as the pipeline creates them: "Judge in both
// orders" and "Judges skip answers from their own family" change which calls a judge gets.
import { describe, expect, test } from "vitest";
import type { Id } from "../../_generated/dataModel";
import { sampleConfiguration } from "../../test.helpers";
import type { TestConfiguration } from "../../validators";
import { judgeCallsOfPair } from "./calls";

const SELF = "google/gemini-2.5-flash";

describe("the judge calls of a persona × topic pair", () => {
  const answers = [
    { _id: "r-google" as Id<"responses">, modelId: "google/gemini-2.5-pro" },
    { _id: "r-openai" as Id<"responses">, modelId: "openai/gpt-4o-mini" },
    { _id: "r-qwen" as Id<"responses">, modelId: "qwen/qwen-2.5-72b-instruct" },
  ];
  const testOf = (scoring: Partial<TestConfiguration["scoringParameters"]>) => ({
    _id: "t1" as Id<"tests">,
    configuration: sampleConfiguration(
      answers.map((answer) => answer.modelId),
      [SELF, "openai/gpt-4o"],
      { scoringParameters: { scale: "rating", includeExplanations: false, ...scoring } },
    ),
  });

  test("rating with the guard: no rating call of a judge for its own family's answers", () => {
    const calls = judgeCallsOfPair(testOf({ skipOwnFamily: true }), "p1", "t1", answers);
    expect(calls.filter((call) => call.modelId === SELF).map((call) => call.responseIds[0])).toEqual([
      "r-openai",
      "r-qwen",
    ]);
    expect(calls.filter((call) => call.modelId === "openai/gpt-4o").map((call) => call.responseIds[0])).toEqual([
      "r-google",
      "r-qwen",
    ]);
    expect(judgeCallsOfPair(testOf({}), "p1", "t1", answers)).toHaveLength(6);
  });

  test("ranking: both orders add a reversed twin with its own key; the guard drops a call left with one answer", () => {
    const both = judgeCallsOfPair(testOf({ scale: "ranking", bothOrders: true }), "p1", "t1", answers);
    expect(both.map((call) => call.key)).toEqual([
      `t1:rank:${SELF}:p1:t1`,
      `t1:rank:${SELF}:p1:t1:reverse`,
      "t1:rank:openai/gpt-4o:p1:t1",
      "t1:rank:openai/gpt-4o:p1:t1:reverse",
    ]);
    const two = answers.slice(0, 2);
    const guarded = judgeCallsOfPair(testOf({ scale: "ranking", skipOwnFamily: true }), "p1", "t1", two);
    expect(guarded).toEqual([]);
  });
});
