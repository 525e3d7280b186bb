import { describe, expect, test } from "vitest";
import type { Problem } from "./types";
import {
  checkWholeNumber,
  configurationLimitProblems,
  formatBytes,
  MAX_STORED_BYTES,
  storedBytes,
  templateDataLimitProblems,
} from "./limits";

describe("limits", () => {
  test("stored size counts UTF-8 bytes of the JSON, so wide characters count more", () => {
    expect(storedBytes({ a: "x" })).toBe(9);
    expect(storedBytes({ a: "語" })).toBe(11);
    expect(formatBytes(MAX_STORED_BYTES)).toBe("256 KB");
    expect(formatBytes(27_002_062)).toBe("25.8 MB");
  });

  test("whole numbers only, within the range", () => {
    const problems: Problem[] = [];
    for (const value of [Number.NaN, Infinity, -Infinity, -1, 0, 2.5, 11, 1e9])
      checkWholeNumber(problems, "n", "N", value, 1, 10);
    expect(problems).toHaveLength(8);
    checkWholeNumber(problems, "n", "N", 1, 1, 10);
    checkWholeNumber(problems, "n", "N", 10, 1, 10);
    expect(problems).toHaveLength(8);
    expect(problems[0]).toEqual({ field: "n", message: "N must be a whole number from 1 to 10." });
  });

  test("a draft's configuration: repeated or empty persona and topic ids are problems", () => {
    const base = { taskType: "general", generatorModels: ["a/b"], evaluatorModels: ["c/d"] };
    const persona = { id: "p1", name: "P", description: "D", systemPrompt: "S" };
    const topic = { id: "t1", title: "T", description: "D", prompt: "P" };
    expect(configurationLimitProblems({ ...base, personas: [persona], topics: [topic] })).toEqual([]);
    expect(
      configurationLimitProblems({ ...base, personas: [persona, persona], topics: [topic] }).map((p) => p.field),
    ).toEqual(["personas"]);
    expect(configurationLimitProblems({ ...base, personas: [persona], topics: [{ ...topic, id: " " }] })).toEqual([
      { field: "topics", message: "Every topic needs an id." },
    ]);
  });

  test("template data: the first problem names its field", () => {
    const data = {
      userPrompt: "",
      personas: [],
      topics: [],
      evaluationConfig: { rankingPrompt: "" },
      suggestedModels: { generators: ["a/b", "a/b"], evaluators: [] },
    };
    expect(templateDataLimitProblems(data)).toEqual([
      {
        field: "templateData.suggestedModels.generators",
        message: "Suggested generator models: each model can only be listed once.",
      },
    ]);
  });
});
