// Repeats (issue 35, item 4): the count as the run uses it, what is refused, and every count the
// price, the limits and the monitor read growing with the repeats.
import { describe, expect, it } from "vitest";
import { countCalls, validateTestConfig } from "./pricing";
import { expectedCallsOf, expectedResponsesOf } from "./progress";
import { REPEATS_MESSAGE, repeatKeySuffix, repeatProblems, repeatsOf } from "./repeats";
import { settleStatusOf } from "./settleInput";
import type { TestConfig } from "./types";

const config: TestConfig = {
  name: "Taglines",
  userPrompt: "Write a tagline.",
  personas: [0, 1].map((index) => ({ id: `p${index}`, name: `P${index}`, description: "", systemPrompt: "Hi." })),
  topics: [0, 1, 2].map((index) => ({ id: `t${index}`, title: `T${index}`, description: "", prompt: "Coffee." })),
  generatorModels: ["a/one", "b/two"],
  evaluatorModels: ["c/judge"],
  responsesPerTopic: 2,
  evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
  scoringParameters: { scale: "ranking", includeExplanations: false },
};

describe("repeats", () => {
  it("reads a missing or broken count as one run", () => {
    expect([undefined, 0, Number.NaN, 1, 3.7].map(repeatsOf)).toEqual([1, 1, 1, 1, 3]);
    expect([undefined, 0, 1, 4].map(repeatKeySuffix)).toEqual(["", "", ":r1", ":r4"]);
  });

  it("accepts a whole number from 1 to 10, and says so otherwise", () => {
    for (const ok of [undefined, 1, 10]) expect(repeatProblems(ok)).toEqual([]);
    for (const bad of [0, 11, 2.5, Number.NaN])
      expect(repeatProblems(bad)).toEqual([{ field: "repeats", message: REPEATS_MESSAGE }]);
    expect(validateTestConfig({ ...config, repeats: 11 }).map((problem) => problem.message)).toContain(REPEATS_MESSAGE);
  });

  it("multiplies the calls, answers and judgements, the monitor's expected calls included", () => {
    const once = countCalls(config);
    expect(once).toMatchObject({ generationCalls: 12, evaluationCalls: 6, expectedResponses: 24 });
    expect(countCalls({ ...config, repeats: 3 })).toEqual({
      generationCalls: 36,
      evaluationCalls: 18,
      expectedResponses: 72,
      expectedEvaluations: 3 * once.expectedEvaluations,
      total: 54,
    });
    expect(expectedCallsOf({ ...config, repeats: 3 })).toEqual({ generation: 36, judging: 18 });
    expect(expectedResponsesOf({ ...config, repeats: 3 })).toBe(72);
  });

  it("counts the repeats against the 2,000-call limit", () => {
    const big = {
      ...config,
      repeats: 10,
      personas: Array(10).fill(config.personas[0]),
      topics: Array(10).fill(config.topics[0]),
    };
    const messages = validateTestConfig(big).map((problem) => problem.message);
    expect(messages.some((message) => message.includes("the limit is 2,000") && message.includes("repeats"))).toBe(
      true,
    );
  });

  it("stop when settled counts a pair judged only once every repeat's answers are", () => {
    const settling = {
      personas: [{ id: "p0" }],
      topics: [{ id: "t0" }],
      generatorModels: [{ id: "a/one" }, { id: "b/two" }],
      evaluatorModels: [{ id: "c/judge" }],
      responsesPerTopic: 1,
      scoringParameters: { scale: "rating" as const },
      stopWhenSettled: { question: "best" as const, confidence: 0.95 },
      repeats: 2,
    };
    const answer = (modelId: string, repeat: number) => ({
      id: `${modelId}-${repeat}`,
      modelId,
      personaId: "p0",
      topicId: "t0",
      length: 10,
      repeat,
    });
    const rated = (responses: ReturnType<typeof answer>[]) => ({
      responses,
      ratings: responses.map((response) => ({
        judgeModelId: "c/judge",
        responseId: response.id,
        scores: { accuracy: 7 },
      })),
    });
    const firstRepeat = [answer("a/one", 0), answer("b/two", 0)];
    expect(settleStatusOf(settling, rated(firstRepeat), new Set())?.pairsDone).toBe(0);
    const both = [...firstRepeat, answer("a/one", 1), answer("b/two", 1)];
    expect(settleStatusOf(settling, rated(both), new Set())?.pairsDone).toBe(1);
  });
});
