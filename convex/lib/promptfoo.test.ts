// promptfoo configurations of different shapes (promptfoo.fixtures/, written for this test after
// promptfoo's documented examples) imported into a ModelJury configuration, each with the list of
// what was not imported.
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { DEFAULT_RANKING_PROMPT } from "./prompts";
import { catalogIdOf, DEFAULT_PERSONA, importPromptfoo, renderPrompt } from "./promptfoo";

const fixtures = import.meta.glob("./promptfoo.fixtures/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

function fixture(path: string): string {
  const text = fixtures[`./promptfoo.fixtures/${path}`];
  if (text === undefined) throw new Error(`no fixture ${path}`);
  return text;
}

/** The files a runner reads next to the config (`file://prompts/…`). */
const FILES = {
  "prompts/translate.txt": fixture("prompts/translate.txt"),
  "prompts/support.json": fixture("prompts/support.json"),
};

const CATALOG = [
  "openai/gpt-4o-mini",
  "openai/gpt-4o",
  "openai/gpt-4.1",
  "google/gemini-2.0-flash-001",
  "anthropic/claude-3.5-haiku",
  "anthropic/claude-sonnet-4",
];

function importFixture(name: string, files: Record<string, string> = FILES) {
  return importPromptfoo(parse(fixture(name)), { catalogIds: CATALOG, files });
}

describe("promptfoo import", () => {
  test("prompts from a file and inline × test cases become topics; provider strings map to the catalog", () => {
    const result = importFixture("translate.yaml");
    expect(result.configuration).toEqual({
      name: "Translation quality",
      userPrompt: "",
      personas: [DEFAULT_PERSONA],
      topics: [
        {
          id: "topic-1",
          title: "translate.txt · language=French, input=Hello world",
          description: "promptfoo test 1: language=French, input=Hello world",
          prompt: "You are a translator. Translate the following text into French:\n\nHello world",
        },
        {
          id: "topic-2",
          title: "Prompt 2 · language=French, input=Hello world",
          description: "promptfoo test 1: language=French, input=Hello world",
          prompt: "Translate to French, keep it short: Hello world",
        },
        {
          id: "topic-3",
          title: "translate.txt · German greeting",
          description: "promptfoo test 2: language=German, input=How's it going?",
          prompt: "You are a translator. Translate the following text into German:\n\nHow's it going?",
        },
        {
          id: "topic-4",
          title: "Prompt 2 · German greeting",
          description: "promptfoo test 2: language=German, input=How's it going?",
          prompt: "Translate to German, keep it short: How's it going?",
        },
      ],
      generatorModels: ["openai/gpt-4o-mini", "google/gemini-2.0-flash-001"],
      evaluatorModels: [],
      responsesPerTopic: 1,
      rankingPrompt: DEFAULT_RANKING_PROMPT,
      checks: [
        { id: "check-1", kind: "contains", value: "bonjour", caseSensitive: false, topicId: "topic-1" },
        { id: "check-2", kind: "contains", value: "bonjour", caseSensitive: false, topicId: "topic-2" },
        { id: "check-3", kind: "length", unit: "characters", max: 199, topicId: "topic-1" },
        { id: "check-4", kind: "length", unit: "characters", max: 199, topicId: "topic-2" },
        { id: "check-5", kind: "json", topicId: "topic-3" },
        { id: "check-6", kind: "json", topicId: "topic-4" },
      ],
    });
    expect(result.notImported).toEqual([
      { item: "provider vertex:gemini-2.0-flash-exp", reason: "no model with this id in the ModelJury catalog" },
      { item: "test 2 assert javascript", reason: "JavaScript is not run; only output.length bounds are imported" },
    ]);
    expect(result.imported).toContain("2 prompts × 2 test cases → 4 topics");
  });

  test("a chat prompt's system message is the persona; provider objects, a grader, a rubric and a vars list", () => {
    const result = importFixture("support.yaml");
    expect(result.configuration).toEqual({
      name: "Support replies",
      userPrompt: "",
      personas: [
        {
          id: "persona-1",
          name: "System prompt",
          description: "The system message of the promptfoo prompt",
          systemPrompt: "You are a friendly support agent for Acme. Never promise dates.",
        },
      ],
      topics: [
        {
          id: "topic-1",
          title: "Refund (question=Where is my refund?)",
          description: "promptfoo test 1: question=Where is my refund?",
          prompt: "Customer question: Where is my refund?",
        },
        {
          id: "topic-2",
          title: "Refund (question=I was charged twice)",
          description: "promptfoo test 1: question=I was charged twice",
          prompt: "Customer question: I was charged twice",
        },
        {
          id: "topic-3",
          title: "question=Can I change my delivery address?",
          description: "promptfoo test 2: question=Can I change my delivery address?",
          prompt: "Customer question: Can I change my delivery address?",
        },
      ],
      generatorModels: ["openai/gpt-4o", "anthropic/claude-3.5-haiku"],
      evaluatorModels: ["openai/gpt-4.1"],
      responsesPerTopic: 1,
      rankingPrompt: `${DEFAULT_RANKING_PROMPT}\n\nJudge the answers against this rubric:\n- Is polite and solves the customer's problem`,
      checks: [
        { id: "check-1", kind: "notContains", value: "As an AI", caseSensitive: true },
        { id: "check-2", kind: "latency", max: 5000 },
        { id: "check-3", kind: "regex", value: "(?i)refund", topicId: "topic-1" },
        { id: "check-4", kind: "regex", value: "(?i)refund", topicId: "topic-2" },
        { id: "check-5", kind: "cost", max: 0.002, topicId: "topic-1" },
        { id: "check-6", kind: "cost", max: 0.002, topicId: "topic-2" },
      ],
    });
    expect(result.notImported).toEqual([
      { item: "provider openai:chat:gpt-4o config", reason: "ModelJury calls every model with the same settings" },
      { item: "provider bedrock:anthropic.claude-3-sonnet", reason: "no model with this id in the ModelJury catalog" },
      { item: "test 1 assert similar", reason: "ModelJury has no check of this kind" },
      { item: "test 2 assert python", reason: "ModelJury has no check of this kind" },
    ]);
    expect(result.imported).toEqual(
      expect.arrayContaining([
        "Provider anthropic:messages:claude-3-5-haiku-20241022 → anthropic/claude-3.5-haiku",
        "Grader openai:gpt-4.1 → openai/gpt-4.1",
        "1 prompt × 3 test cases → 3 topics",
      ]),
    );
  });

  test("record-form providers, defaultTest vars, a JSON Schema, select-best and repeats; files and functions are reported", () => {
    const result = importFixture("extract.yaml");
    expect(result.configuration).toEqual({
      name: "Invoice extraction",
      userPrompt: "",
      personas: [DEFAULT_PERSONA],
      topics: [
        {
          id: "topic-1",
          title: "document=Invoice 42 from Acme, total 99.50 EUR",
          description: "promptfoo test 1: document=Invoice 42 from Acme, total 99.50 EUR",
          prompt: "Extract the invoice fields from: Invoice 42 from Acme, total 99.50 EUR",
        },
      ],
      generatorModels: ["anthropic/claude-3.5-haiku", "openai/gpt-4.1"],
      evaluatorModels: [],
      responsesPerTopic: 3,
      rankingPrompt: `${DEFAULT_RANKING_PROMPT}\n\nJudge the answers against this rubric:\n- choose the most complete extraction`,
      checks: [
        {
          id: "check-1",
          kind: "jsonSchema",
          value: JSON.stringify({
            type: "object",
            required: ["number", "total"],
            properties: { number: { type: "string" }, total: { type: "number" } },
          }),
        },
        { id: "check-2", kind: "startsWith", value: "{", caseSensitive: true },
      ],
    });
    expect(result.notImported).toEqual([
      { item: "sharing", reason: "not used by ModelJury" },
      {
        item: "provider anthropic:messages:claude-3-5-haiku-20241022 config",
        reason: "ModelJury calls every model with the same settings",
      },
      {
        item: "prompt file://prompts/extract.py:make_prompt",
        reason: "prompt functions (JavaScript, Python) are not run",
      },
      { item: "tests file://cases.csv", reason: "test cases from files (CSV, JSON, scripts) are not read" },
      { item: "defaultTest assert starts-with weight", reason: "checks pass or fail, without weights or scores" },
      { item: "evaluateOptions maxConcurrency", reason: "ModelJury runs the test on its servers" },
    ]);
  });

  test("a prompt file that was not provided is reported, never dropped", () => {
    const result = importFixture("translate.yaml", {});
    expect(result.notImported).toContainEqual({
      item: "prompt file://prompts/translate.txt",
      reason: "the file was not provided",
    });
    expect(result.configuration.topics.map((topic) => topic.title)).toEqual([
      "language=French, input=Hello world",
      "German greeting",
    ]);
  });

  test("provider ids map to catalog ids, unknown ones to none", () => {
    expect(catalogIdOf("openrouter:anthropic/claude-sonnet-4", CATALOG)).toBe("anthropic/claude-sonnet-4");
    expect(catalogIdOf("openai:responses:gpt-4.1", CATALOG)).toBe("openai/gpt-4.1");
    expect(catalogIdOf("google:gemini-2.0-flash", CATALOG)).toBe("google/gemini-2.0-flash-001");
    expect(catalogIdOf("openai:gpt-5", CATALOG)).toBeNull();
    expect(catalogIdOf("echo", CATALOG)).toBeNull();
    expect(renderPrompt("Hi {{ name }}, {{unknown}}", { name: "Ada" })).toBe("Hi Ada, {{unknown}}");
  });
});
