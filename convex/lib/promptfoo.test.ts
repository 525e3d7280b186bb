// promptfoo configurations of different shapes (promptfoo.fixtures/, written for this test after
// promptfoo's documented examples) imported into a ModelJury configuration, each with the list of
// what was not imported.
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { DEFAULT_RANKING_PROMPT } from "./prompts";
import { catalogIdOf, DEFAULT_PERSONA, importPromptfoo } from "./promptfoo";

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
        { id: "check-2", kind: "length", unit: "characters", max: 199, topicId: "topic-1" },
        { id: "check-3", kind: "contains", value: "bonjour", caseSensitive: false, topicId: "topic-2" },
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
        { id: "check-4", kind: "cost", max: 0.002, topicId: "topic-1" },
        { id: "check-5", kind: "regex", value: "(?i)refund", topicId: "topic-2" },
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

  test("a prompt function and a tests file that is not there stop the import, naming file and fix", () => {
    const text = fixture("extract.yaml");
    const result = importPromptfoo(parse(text), {
      catalogIds: CATALOG,
      files: FILES,
      configFile: "extract.yaml",
      configText: text,
    });
    expect(result.problems).toEqual([
      {
        file: "extract.yaml",
        line: 6,
        reason:
          "the prompt file://prompts/extract.py:make_prompt is a function (JavaScript or Python), which ModelJury does not run",
        fix: "Write the prompt it returns as text or chat messages in a .txt, .json or .yaml file.",
      },
      {
        file: "extract.yaml",
        line: 28,
        reason: "the tests file cases.csv was not found",
        fix: "Put cases.csv next to extract.yaml, or fix the path (relative to the config's folder).",
      },
    ]);
    expect(result.configuration.generatorModels).toEqual(["anthropic/claude-3.5-haiku", "openai/gpt-4.1"]);
    expect(result.configuration.responsesPerTopic).toBe(3);
  });

  test("a prompt file that was not provided stops the import; nothing is sent as a topic", () => {
    const result = importFixture("translate.yaml", {});
    expect(result.problems).toContainEqual({
      file: "promptfooconfig.yaml",
      reason: "the prompt file prompts/translate.txt was not found",
      fix: "Put prompts/translate.txt next to promptfooconfig.yaml, or fix the path (relative to the config's folder).",
    });
  });

  test("prompts as a map (path → label), file://./ paths, the grader's object form, CSV tests with their lines", () => {
    const config = {
      prompts: { "file://./ask.txt": "Ask", "Say {{ topic | upper }} twice": "Shout" },
      providers: ["openai:gpt-4o"],
      defaultTest: {
        options: { provider: { text: { id: "openai:gpt-4.1" }, embedding: "openai:text-embedding-3-small" } },
      },
      tests: "file://./cases/topics.csv",
    };
    const result = importPromptfoo(config, {
      catalogIds: CATALOG,
      files: {
        "ask.txt": "Tell me about {{topic}}.",
        "cases/topics.csv": `topic,__expected\ntea,contains:tea\n"two\nlines",llm-rubric:mentions {{topic}}\n`,
      },
    });
    expect(result.problems).toEqual([]);
    expect(result.configuration.topics.map((topic) => [topic.title, topic.prompt])).toEqual([
      ["Ask · Row #1 (topic=tea)", "Tell me about tea."],
      ["Shout · Row #1 (topic=tea)", "Say TEA twice"],
      ["Ask · Row #2 (topic=two lines)", "Tell me about two\nlines."],
      ["Shout · Row #2 (topic=two lines)", "Say TWO\nLINES twice"],
    ]);
    expect(result.configuration.evaluatorModels).toEqual(["openai/gpt-4.1"]);
    expect(result.rubrics).toEqual([{ text: "mentions two\nlines", topicIds: ["topic-3", "topic-4"] }]);
  });

  test("a variable no test defines is never sent as {{…}}: a file var that is missing stops the import at its CSV line", () => {
    const result = importPromptfoo(
      { prompts: ["Summarise {{ article }}"], providers: ["openai:gpt-4o"], tests: "file://rows.csv" },
      { catalogIds: CATALOG, files: { "rows.csv": "article\nfile://missing.txt\nplain text\n" } },
    );
    expect(result.problems).toEqual([
      {
        file: "rows.csv",
        line: 2,
        reason: "the file missing.txt of the variable article was not found",
        fix: "Put missing.txt next to promptfooconfig.yaml, or fix the path (relative to the config's folder).",
      },
    ]);
    expect(result.configuration.topics.map((topic) => topic.prompt)).toEqual(["Summarise plain text"]);
  });

  test("a var holding braces that survive rendering is refused, not sent", () => {
    const result = importPromptfoo(
      {
        prompts: ["Fill in: {{ template }}"],
        providers: ["openai:gpt-4o"],
        tests: [{ vars: { template: "{% raw %}{{ name }}{% endraw %}" } }],
      },
      { catalogIds: CATALOG },
    );
    expect(result.problems.map((problem) => problem.reason)).toEqual([
      expect.stringMatching(/^the topic of "template=.*" still holds (\{\{|\{%) after rendering/),
    ]);
  });

  test("provider ids map to catalog ids, unknown ones to none", () => {
    expect(catalogIdOf("openrouter:anthropic/claude-sonnet-4", CATALOG)).toBe("anthropic/claude-sonnet-4");
    expect(catalogIdOf("openai:responses:gpt-4.1", CATALOG)).toBe("openai/gpt-4.1");
    expect(catalogIdOf("google:gemini-2.0-flash", CATALOG)).toBe("google/gemini-2.0-flash-001");
    expect(catalogIdOf("openai:gpt-5", CATALOG)).toBeNull();
    expect(catalogIdOf("echo", CATALOG)).toBeNull();
  });
});
