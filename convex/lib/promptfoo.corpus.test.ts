// Real promptfoo configs, from promptfoo's own examples/ folder (promptfoo.fixtures/examples/,
// with the files each reads), imported as the CLI imports them. For each: the test cases and
// assertions promptfoo would run (its loader: CSV/JSONL rows, vars lists and file globs expanded,
// defaultTest's assertions joined to each test's; × each prompt), the topics' rendered prompts,
// the checks and rubrics, and the reasons a config is refused before anything is paid.
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { filesFromRecord, importPromptfoo, type PromptfooImport } from "./promptfoo";

const fixtures = import.meta.glob("./promptfoo.fixtures/examples/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const ROOT = "./promptfoo.fixtures/examples/";

/** An example imported with no catalog (as `modeljury import --dry-run` without a server). */
function importExample(name: string): PromptfooImport {
  const prefix = `${ROOT}${name}/`;
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(fixtures))
    if (path.startsWith(prefix)) files[path.slice(prefix.length)] = text;
  const configText = files["promptfooconfig.yaml"];
  if (configText === undefined) throw new Error(`no example ${name}`);
  return importPromptfoo(parse(configText), {
    catalogIds: null,
    files: filesFromRecord(files, { byBaseName: false }),
    configFile: "promptfooconfig.yaml",
    configText,
  });
}

const prompts = (result: PromptfooImport) => result.configuration.topics.map((topic) => topic.prompt);
const reasons = (result: PromptfooImport) => result.problems.map((problem) => problem.reason);
const checksOf = (result: PromptfooImport) => result.configuration.checks.map(({ id: _id, ...check }) => check);

describe("promptfoo's examples, imported as promptfoo runs them", () => {
  test("the corpus holds at least 15 examples", () => {
    const names = new Set(Object.keys(fixtures).map((path) => path.slice(ROOT.length).split("/")[0]));
    names.delete("README.md");
    expect(names.size).toBeGreaterThanOrEqual(15);
  });

  test("simple-csv: a CSV of 4 rows × a prompts.txt of 2 prompts; the load filter; __expected icontains", () => {
    const result = importExample("simple-csv");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(4);
    expect(result.assertionCount).toBe(8);
    expect(prompts(result)).toHaveLength(8);
    expect(prompts(result)[0]).toBe(
      'You are a skilled translator and language expert. Follow these style requirements:\n- Tone: formal\n- Length: brief\n\nTask: Rephrase the following text in French:\n"Hello world"\n\nEnsure your response matches the specified style.',
    );
    expect(prompts(result)[1]).toBe(
      'You are a conversational language assistant. Follow the style configuration: {"tone":"formal","length":"brief"}.\n\nTask: Translate this text to French in a natural, conversational way:\n"Hello world"\n\nMake sure to maintain the intended tone while keeping it casual and friendly.',
    );
    expect(prompts(result)[7]).toContain(
      "- Tone: authentic".length
        ? 'Translate this text to Pirate in a natural, conversational way:\n"I\'m hungry"'
        : "",
    );
    expect(checksOf(result)).toEqual(
      ["bonjour", "bonjour", "faim", "faim", "Ahoy", "Ahoy", "grub", "grub"].map((value, index) => ({
        kind: "contains",
        value,
        caseSensitive: false,
        topicId: `topic-${index + 1}`,
      })),
    );
    expect(result.rubrics).toEqual([]);
    expect(result.configuration.generatorModels).toEqual(["openai/gpt-3.5-turbo"]);
  });

  test("csv-metadata and config-csv-metadata: __expected contains and llm-rubric with vars; metadata columns are not vars", () => {
    for (const name of ["csv-metadata", "config-csv-metadata"]) {
      const result = importExample(name);
      expect(result.problems).toEqual([]);
      expect(result.testCaseCount).toBe(3);
      expect(result.assertionCount).toBe(6);
      expect(prompts(result)).toEqual([
        "Tell me about machine learning",
        "Tell me about quantum physics",
        "Tell me about climate change",
      ]);
      // promptfoo keeps everything after the colon, the space too.
      expect(checksOf(result)).toEqual(
        [" algorithm", " quantum", " temperature"].map((value, index) => ({
          kind: "contains",
          value,
          caseSensitive: true,
          topicId: `topic-${index + 1}`,
        })),
      );
      expect(result.rubrics.map((rubric) => rubric.topicIds)).toEqual([["topic-1"], ["topic-2"], ["topic-3"]]);
      expect(result.rubrics[0].text).toBe("Does this describe machine learning accurately?");
      expect(result.configuration.rankingPrompt).toContain(
        'The question starting "Tell me about quantum physics": Does this describe quantum physics accurately',
      );
      expect(result.configuration.topics[0].title).toBe("Row #1 (topic=machine learning)");
    }
    expect(importExample("config-csv-metadata").rubrics[2].text).toBe(
      "Does this describe climate change inaccurately?",
    );
  });

  test("eval-customer-support-rubric: five rubrics per CSV row, rendered per row, do not fit the evaluation prompt", () => {
    const result = importExample("eval-customer-support-rubric");
    expect(result.testCaseCount).toBe(8);
    expect(result.assertionCount).toBe(40);
    expect(prompts(result)[0]).toMatch(/^Hola, lamento el doble cobro\./);
    expect(result.configuration.topics[0].title).toBe("ES refund ticket answered in Spanish");
    expect(result.configuration.evaluatorModels).toEqual(["openai/gpt-4.1-mini"]);
    expect(result.configuration.generatorModels).toEqual([]);
    // Four rubrics name the row's message (8 × 4 texts); the language one only the language (es, en).
    expect(result.rubrics).toHaveLength(34);
    expect(result.rubrics.filter((rubric) => rubric.text.includes("(es)"))[0].topicIds).toEqual([
      "topic-1",
      "topic-2",
      "topic-4",
      "topic-7",
    ]);
    expect(result.rubrics[0].text).toContain(
      '"Me cobraron dos veces mi factura de octubre, quiero mi dinero de vuelta" (account context: Prepago mensual',
    );
    expect(reasons(result)).toEqual([
      expect.stringMatching(/^the rubrics make an evaluation prompt of \d+ characters; at most 5000$/),
    ]);
  });

  test("eval-self-grading: 2 prompts × 2 tests; the defaultTest rubric is every topic's; scoring JavaScript is left out", () => {
    const result = importExample("eval-self-grading");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(2);
    expect(result.assertionCount).toBe(8);
    expect(prompts(result)).toEqual([
      "You're an ecommerce chat assistant for a shoe company.\nAnswer this user's question: Bob: \"Can you help me find a specific product on your website?\"",
      "You're a smart, bubbly customer service rep for a shoe company.\nAnswer this user's question concisely: Bob: \"Can you help me find a specific product on your website?\"",
      "You're an ecommerce chat assistant for a shoe company.\nAnswer this user's question: Jane: \"Do you have any promotions or discounts currently available?\"",
      "You're a smart, bubbly customer service rep for a shoe company.\nAnswer this user's question concisely: Jane: \"Do you have any promotions or discounts currently available?\"",
    ]);
    expect(result.rubrics).toEqual([{ text: "Do not mention that you are an AI or chat assistant", topicIds: [] }]);
    expect(result.configuration.checks).toEqual([]);
    expect(result.notImported).toContainEqual({
      item: "defaultTest assert javascript",
      reason: "JavaScript is not run; only output.length bounds are imported",
    });
  });

  test("simple-test: 5 tests × 2 prompts; equals, icontains, is-json, a $ref'd template; a per-test rubric", () => {
    const result = importExample("simple-test");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(5);
    expect(result.assertionCount).toBe(16);
    expect(prompts(result).slice(0, 2)).toEqual([
      "Rephrase this from English to Pirate: Yes",
      "Pretend you're a pirate and speak these words: Yes",
    ]);
    expect(checksOf(result)).toEqual([
      { kind: "regex", value: "^Yarr$", topicId: "topic-1" },
      { kind: "regex", value: "^Yarr$", topicId: "topic-2" },
      { kind: "contains", value: "grub", caseSensitive: false, topicId: "topic-3" },
      { kind: "contains", value: "grub", caseSensitive: false, topicId: "topic-4" },
      { kind: "json", topicId: "topic-5" },
      { kind: "json", topicId: "topic-6" },
      { kind: "contains", value: "arrr", caseSensitive: false, topicId: "topic-9" },
      { kind: "contains", value: "arrr", caseSensitive: false, topicId: "topic-10" },
    ]);
    expect(result.rubrics).toEqual([{ text: "Is spoken like a pirate", topicIds: ["topic-9", "topic-10"] }]);
    expect(result.notImported.map((item) => item.item)).toEqual(
      expect.arrayContaining(["outputPath", "assertionTemplates", "test 4 assert python", "test 4 assert similar"]),
    );
  });

  test("getting-started: inline prompts, two providers, contains and icontains per test", () => {
    const result = importExample("getting-started");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(2);
    expect(result.assertionCount).toBe(4);
    expect(prompts(result)).toEqual([
      "Convert this English to French: Hello world",
      "Translate to French: Hello world",
      "Convert this English to Spanish: Where is the library?",
      "Translate to Spanish: Where is the library?",
    ]);
    expect(checksOf(result)).toEqual([
      { kind: "contains", value: "Bonjour le monde", caseSensitive: true, topicId: "topic-1" },
      { kind: "contains", value: "Bonjour le monde", caseSensitive: true, topicId: "topic-2" },
      { kind: "contains", value: "Dónde está la biblioteca", caseSensitive: false, topicId: "topic-3" },
      { kind: "contains", value: "Dónde está la biblioteca", caseSensitive: false, topicId: "topic-4" },
    ]);
    expect(result.configuration.generatorModels).toEqual(["openai/gpt-4.1", "openai/o4-mini"]);
  });

  test("jsonl-test-cases: JSONL rows with equals assertions", () => {
    const result = importExample("jsonl-test-cases");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(2);
    expect(result.assertionCount).toBe(2);
    expect(prompts(result)).toEqual([
      "Translate the following text to French: Hello, world!",
      "Translate the following text to Spanish: Hello, world!",
    ]);
    expect(checksOf(result)).toEqual([
      { kind: "regex", value: "^Translate the following text to French: Hello, world!$", topicId: "topic-1" },
      { kind: "regex", value: "^Translate the following text to Spanish: Hello, world!$", topicId: "topic-2" },
    ]);
    expect(result.notImported).toContainEqual({ item: "provider echo", reason: "not a provider ModelJury runs" });
  });

  test("eval-summarization: a var glob (file://articles/*) makes one test case per file, read and trimmed", () => {
    const result = importExample("eval-summarization");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(1);
    expect(result.assertionCount).toBe(3);
    expect(prompts(result)).toHaveLength(1);
    expect(prompts(result)[0]).toMatch(/^Summarize this article concisely: Text-Only Version Go To Full Site\n/);
    expect(prompts(result)[0]).toMatch(/© NPR$/);
    expect(checksOf(result)).toEqual([
      { kind: "notContains", value: "AI language model", caseSensitive: true },
      { kind: "length", unit: "characters", max: 999 },
    ]);
    expect(result.notImported).toContainEqual({
      item: "test 1 assert not-starts-with",
      reason: "ModelJury has no check of this kind",
    });
  });

  test("custom-grading-prompt: an llm-rubric with no value and a rubricPrompt are left out, with reasons", () => {
    const result = importExample("custom-grading-prompt");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(1);
    expect(result.assertionCount).toBe(1);
    expect(prompts(result)).toEqual(["Talk about the economy"]);
    expect(result.notImported).toEqual(
      expect.arrayContaining([
        { item: "defaultTest options rubricPrompt", reason: "not used by ModelJury" },
        { item: "test 1 assert llm-rubric", reason: "the rubric must be text" },
      ]),
    );
  });

  test("eval-custom-grader-csv: a custom grader in a CSV cell is JavaScript, left out; the topics render", () => {
    const result = importExample("eval-custom-grader-csv");
    expect(result.problems).toEqual([]);
    expect(result.testCaseCount).toBe(4);
    expect(result.assertionCount).toBe(8);
    expect(prompts(result).slice(0, 2)).toEqual([
      "Rephrase this in French: Hello world",
      "Rephrase this like a pirate: Hello world",
    ]);
    expect(result.configuration.checks).toEqual([]);
  });

  test("refused before payment: too many topics (assistant-cli, gpt-3.5-vs-4, config-multiple-translations)", () => {
    const cases: [string, number, string][] = [
      ["assistant-cli", 10, "the config makes 20 topics (2 prompts × 10 test cases); a ModelJury test has at most 10"],
      ["gpt-3.5-vs-4", 15, "the config makes 15 topics (1 prompt × 15 test cases); a ModelJury test has at most 10"],
      [
        "config-multiple-translations",
        25,
        "the config makes 50 topics (2 prompts × 25 test cases); a ModelJury test has at most 10",
      ],
    ];
    for (const [name, testCases, reason] of cases) {
      const result = importExample(name);
      expect(result.testCaseCount).toBe(testCases);
      expect(reasons(result)).toContain(reason);
      expect(result.problems.find((problem) => problem.reason === reason)).toMatchObject({
        file: "promptfooconfig.yaml",
        line: expect.any(Number),
        fix: expect.stringMatching(/^Split the test cases/),
      });
    }
    // gpt-3.5-vs-4: defaultTest's cost and latency join each test's assertions.
    expect(importExample("gpt-3.5-vs-4").assertionCount).toBe(15 * 2 + 4);
  });

  test("refused before payment: a custom Nunjucks filter (nunjucks-custom-filters)", () => {
    const result = importExample("nunjucks-custom-filters");
    expect(result.testCaseCount).toBe(2);
    expect(result.problems[0]).toMatchObject({
      file: "prompts.txt",
      reason: expect.stringContaining("filter not found: allcaps"),
    });
    expect(result.notImported).toContainEqual({ item: "filters", reason: "not used by ModelJury" });
  });

  test("refused before payment: chat messages with a prompt function and differing system messages (chat-messages-format)", () => {
    const result = importExample("chat-messages-format");
    expect(result.testCaseCount).toBe(2);
    expect(reasons(result)).toEqual(
      expect.arrayContaining([
        "a chat message's content file://prompt.js is a function (JavaScript or Python), which ModelJury does not run",
        "the topics have 3 different system messages; ModelJury runs every topic with every persona",
      ]),
    );
    const chat = result.configuration.topics.find(
      (topic) => topic.prompt === "Explain neural networks in simple terms.",
    );
    expect(chat).toBeDefined();
  });

  test("no topic, system message or rubric holds {{, {% or file:// in any example", () => {
    const names = new Set(Object.keys(fixtures).map((path) => path.slice(ROOT.length).split("/")[0]));
    names.delete("README.md");
    for (const name of names) {
      const result = importExample(name);
      if (result.problems.length > 0) continue;
      const texts = [
        ...prompts(result),
        ...result.configuration.personas.map((persona) => persona.systemPrompt),
        ...result.rubrics.map((rubric) => rubric.text),
      ];
      for (const text of texts) expect(text, name).not.toMatch(/\{\{|\{%|file:\/\//);
    }
  });
});
