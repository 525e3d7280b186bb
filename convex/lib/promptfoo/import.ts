// The top-level import: root keys, models, topics (prompts × test cases), checks, rubrics, limits.
import { CHECK_LIMITS, PERSONA_LIMITS, TEST_LIMITS, TOPIC_LIMITS } from "../limits";
import { assertionOf, assertionValue, type CheckBody, flatAssertions, rankingPromptOf } from "./assertions";
import {
  asList,
  clip,
  type Context,
  inConfig,
  isObject,
  type Json,
  locator,
  oneLine,
  refuse,
  type Where,
} from "./context";
import { filesFromRecord, parsedFile, splitFunction } from "./files";
import { graderEntries, mapModels, providerEntries } from "./models";
import { readPrompts } from "./prompts";
import { newEnvironment, renderPromptFor, UNRENDERED, type Vars } from "./render";
import { loadedVars, type TestCase, testCases, varCombinations, varText } from "./testCases";
import {
  type ImportedCheck,
  type ImportedConfiguration,
  type ImportedRubric,
  type NotImported,
  type PromptfooFiles,
  type PromptfooImport,
  type PromptfooImportOptions,
} from "./types";

export const DEFAULT_PERSONA = {
  id: "persona-1",
  name: "Assistant",
  description: "The prompt as written, with no persona",
  systemPrompt: "You are a helpful assistant.",
} as const;

const ROOT_KEYS = ["description", "prompts", "providers", "tests", "defaultTest", "evaluateOptions"];
/** Keys that change what promptfoo runs in ways ModelJury cannot follow. */
const REFUSED_ROOT_KEYS: Record<string, string> = {
  scenarios: "scenarios multiply the test cases by data sets; list the combined test cases under tests:",
  nunjucksFilters: "custom Nunjucks filters are JavaScript, which ModelJury does not run; render the values into vars",
  redteam:
    "red-team configs generate their test cases with promptfoo; run `promptfoo redteam generate` and import the generated config",
};

interface Topic {
  id: string;
  title: string;
  description: string;
  prompt: string;
  system?: string;
  testCase: TestCase;
  vars: Vars;
  where: Where;
  /** Where the topic's prompt was written. */
  promptWhere: Where;
  label: string;
}

/** The config with its local `$ref`s (`#/assertionTemplates/…`) replaced by what they point to, as promptfoo dereferences it. */
function dereferenced(value: unknown, root: Json, depth = 0): unknown {
  if (depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => dereferenced(item, root, depth + 1));
  if (!isObject(value)) return value;
  if (typeof value.$ref === "string" && value.$ref.startsWith("#/")) {
    const target = value.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (node, key) => (isObject(node) ? node[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined),
        root,
      );
    if (target !== undefined) return dereferenced(target, root, depth + 1);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, dereferenced(item, root, depth + 1)]));
}

export function importPromptfoo(config: unknown, options: PromptfooImportOptions): PromptfooImport {
  const files =
    options.files === undefined
      ? filesFromRecord({})
      : typeof (options.files as PromptfooFiles).read === "function"
        ? (options.files as PromptfooFiles)
        : filesFromRecord(options.files as Record<string, string>);
  const ctx: Context = {
    files,
    configFile: options.configFile ?? "promptfooconfig.yaml",
    configLine: locator(options.configText),
    problems: [],
    notImported: [],
    imported: [],
    env: newEnvironment(),
  };
  const { imported, notImported } = ctx;
  const root = isObject(config) ? (dereferenced(config, config) as Json) : {};
  if (!isObject(config))
    refuse(
      ctx,
      { file: ctx.configFile },
      "not a promptfoo configuration",
      "Give a YAML or JSON file with prompts and providers.",
    );
  for (const key of Object.keys(root)) {
    if (REFUSED_ROOT_KEYS[key]) refuse(ctx, inConfig(ctx, [key]), `${key}: is not imported`, REFUSED_ROOT_KEYS[key]);
    else if (!ROOT_KEYS.includes(key)) notImported.push({ item: key, reason: "not used by ModelJury" });
  }
  let defaults: Json = isObject(root.defaultTest) ? root.defaultTest : {};
  if (typeof root.defaultTest === "string") {
    const parsed = parsedFile(ctx, splitFunction(root.defaultTest).path, inConfig(ctx, ["defaultTest"]));
    defaults = isObject(parsed) ? parsed : {};
  }

  // Models.
  const generatorModels = mapModels(
    providerEntries(root.providers, notImported),
    options.catalogIds,
    "provider",
    imported,
    notImported,
  );
  const defaultOptions = isObject(defaults.options) ? defaults.options : {};
  const graders = providerEntries(graderEntries(defaultOptions.provider), notImported);
  const evaluatorModels = mapModels(graders, options.catalogIds, "grader", imported, notImported);
  for (const key of Object.keys(defaultOptions)) {
    if (!["provider", "prefix", "suffix"].includes(key))
      notImported.push({ item: `defaultTest options ${key}`, reason: "not used by ModelJury" });
  }
  for (const key of Object.keys(defaults)) {
    if (!["vars", "assert", "options"].includes(key))
      notImported.push({ item: `defaultTest ${key}`, reason: "not used by ModelJury" });
  }

  // Topics: prompts × test cases, rendered.
  const prompts = readPrompts(ctx, root.prompts);
  const cases = testCases(ctx, root.tests, defaults);
  let testCaseCount = 0;
  const topics: Topic[] = [];
  const expandedCount = new Map<number, number>();
  for (const testCase of cases) {
    for (const key of testCase.unused)
      notImported.push({ item: `test ${testCase.number} ${key}`, reason: "not used by ModelJury" });
    const testOptions = { ...defaultOptions, ...testCase.options };
    for (const key of Object.keys(testCase.options)) {
      if (key === "transformVars")
        refuse(
          ctx,
          testCase.where,
          `test ${testCase.number}'s transformVars is JavaScript, which ModelJury does not run`,
          "Write the transformed values into vars.",
        );
      else if (!["prefix", "suffix", "disableDefaultAsserts"].includes(key))
        notImported.push({ item: `test ${testCase.number} options ${key}`, reason: "not used by ModelJury" });
    }
    const combinations = varCombinations(ctx, testCase.vars, testCase.where);
    testCaseCount += combinations.length;
    expandedCount.set(testCase.number, combinations.length);
    for (const combination of combinations) {
      const vars = loadedVars(ctx, combination, testCase.where);
      if (vars === null) continue;
      for (const prompt of prompts) {
        const rendered = renderPromptFor(ctx, prompt, { ...vars });
        if (!rendered.ok) {
          refuse(
            ctx,
            prompt.where,
            `prompt "${prompt.label}" for test ${testCase.number}: ${rendered.reason}`,
            rendered.fix,
          );
          continue;
        }
        const prefix = typeof testOptions.prefix === "string" ? testOptions.prefix : "";
        const suffix = typeof testOptions.suffix === "string" ? testOptions.suffix : "";
        topics.push({
          id: `topic-${topics.length + 1}`,
          title: "",
          description: "",
          prompt: `${prefix}${rendered.value.user}${suffix}`,
          ...(rendered.value.system === undefined ? {} : { system: rendered.value.system }),
          testCase,
          vars,
          where: testCase.where,
          promptWhere: prompt.where,
          label: prompt.label,
        });
      }
    }
  }
  for (const topic of topics) {
    const varsText = Object.entries(topic.vars)
      .map(([name, value]) => `${name}=${oneLine(varText(value))}`)
      .join(", ");
    const expanded = (expandedCount.get(topic.testCase.number) ?? 1) > 1;
    // A file's row is named "Row #n" (as promptfoo names it): its vars tell the rows apart.
    const rowName = /^Row #\d+$/.test(topic.testCase.description ?? "");
    const caseName = topic.testCase.description
      ? `${topic.testCase.description}${(expanded || rowName) && varsText ? ` (${varsText})` : ""}`
      : varsText || `Test ${topic.testCase.number}`;
    topic.title = clip(
      oneLine(prompts.length > 1 ? `${topic.label} · ${caseName}` : caseName),
      TOPIC_LIMITS.maxTitleLength,
    );
    topic.description = clip(
      oneLine(`promptfoo test ${topic.testCase.number}${varsText ? `: ${varsText}` : ""}`),
      TOPIC_LIMITS.maxDescriptionLength,
    );
  }
  if (topics.length > TEST_LIMITS.maxTopics) {
    refuse(
      ctx,
      inConfig(ctx, ["tests"]),
      `the config makes ${topics.length} topics (${prompts.length} prompt${prompts.length === 1 ? "" : "s"} × ${testCaseCount} test case${testCaseCount === 1 ? "" : "s"}); a ModelJury test has at most ${TEST_LIMITS.maxTopics}`,
      `Split the test cases into configs of at most ${Math.max(1, Math.floor(TEST_LIMITS.maxTopics / Math.max(1, prompts.length)))} test cases each, and import each.`,
    );
  }
  if (prompts.length > 0 && cases.length > 0) {
    imported.push(
      `${prompts.length} prompt${prompts.length === 1 ? "" : "s"} × ${testCaseCount} test case${testCaseCount === 1 ? "" : "s"} → ${topics.length} topic${topics.length === 1 ? "" : "s"}`,
    );
  }

  // Persona: the chat prompts' system message (one for every topic), else a plain assistant.
  const systems = [...new Set(topics.map((topic) => topic.system ?? null))];
  let personas: ImportedConfiguration["personas"] = [{ ...DEFAULT_PERSONA }];
  if (systems.length > 1) {
    refuse(
      ctx,
      topics.find((topic) => topic.system !== topics[0].system)?.promptWhere ?? inConfig(ctx, ["prompts"]),
      `the topics have ${systems.length} different system messages; ModelJury runs every topic with every persona`,
      "Use one system message for every prompt and test (keep vars in the user message), or import each system message as its own config.",
    );
  } else if (systems[0]) {
    personas = [
      {
        id: "persona-1",
        name: "System prompt",
        description: "The system message of the promptfoo prompt",
        systemPrompt: systems[0],
      },
    ];
    imported.push("The chat prompt's system message → the persona");
    if (systems[0].length > PERSONA_LIMITS.maxSystemPromptLength) {
      refuse(
        ctx,
        inConfig(ctx, ["prompts"]),
        `the system message is ${systems[0].length} characters; at most ${PERSONA_LIMITS.maxSystemPromptLength}`,
        "Shorten the system message.",
      );
    }
  }

  // Checks and rubrics, per topic: defaultTest's assertions, then the test's.
  const bodiesOfTopic = new Map<string, { key: string; body: CheckBody; name: string }[]>();
  const rubricsOfTopic = new Map<string, string[]>();
  const leftOut = new Set<string>();
  let assertionCount = 0;
  for (const topic of topics) {
    const { testCase } = topic;
    const disableDefaults = testCase.options.disableDefaultAsserts === true;
    const sources: [string, unknown[]][] = [
      ["defaultTest", disableDefaults ? [] : flatAssertions(asList(defaults.assert))],
      [`test ${testCase.number}`, flatAssertions(testCase.asserts)],
    ];
    const bodies: { key: string; body: CheckBody; name: string }[] = [];
    const rubrics: string[] = [];
    assertionCount += sources.reduce((sum, [, asserts]) => sum + asserts.length, 0);
    for (const [where, asserts] of sources) {
      for (const assertion of asserts) {
        if (!isObject(assertion) || typeof assertion.type !== "string") {
          leftOut.add(JSON.stringify({ item: `${where} assert`, reason: "not an assertion" }));
          continue;
        }
        const name = `${where} assert ${assertion.type}`;
        const value = assertionValue(
          ctx,
          assertion,
          topic.vars,
          where === "defaultTest" ? inConfig(ctx, ["defaultTest", "assert"]) : testCase.where,
        );
        if (!value.ok) continue;
        const outcome = assertionOf(assertion, value.value);
        if ("reason" in outcome) {
          leftOut.add(JSON.stringify({ item: name, reason: outcome.reason }));
          continue;
        }
        if ("rubric" in outcome) {
          if (!rubrics.includes(outcome.rubric)) rubrics.push(outcome.rubric);
          continue;
        }
        for (const key of Object.keys(assertion)) {
          if (
            !["type", "value", "threshold"].includes(key) ||
            (key === "threshold" && !["latency", "cost"].includes(assertion.type))
          ) {
            leftOut.add(
              JSON.stringify({ item: `${name} ${key}`, reason: "checks pass or fail, without weights or scores" }),
            );
          }
        }
        for (const body of outcome.checks) bodies.push({ key: JSON.stringify(body), body, name });
      }
    }
    bodiesOfTopic.set(topic.id, bodies);
    rubricsOfTopic.set(topic.id, rubrics);
  }
  for (const entry of leftOut) notImported.push(JSON.parse(entry) as NotImported);

  const everyTopic = <T>(map: Map<string, T[]>, has: (items: T[]) => boolean) =>
    topics.length > 0 && topics.every((topic) => has(map.get(topic.id) ?? []));
  const checks: ImportedCheck[] = [];
  const addCheck = (body: CheckBody, name: string, topicId?: string) => {
    if (checks.length >= CHECK_LIMITS.maxChecks) {
      notImported.push({ item: name, reason: `a test has at most ${CHECK_LIMITS.maxChecks} checks` });
      return;
    }
    checks.push({ id: `check-${checks.length + 1}`, ...body, ...(topicId ? { topicId } : {}) });
  };
  const globalKeys = new Set<string>();
  for (const { key, body, name } of topics.length > 0 ? (bodiesOfTopic.get(topics[0].id) ?? []) : []) {
    if (globalKeys.has(key) || !everyTopic(bodiesOfTopic, (bodies) => bodies.some((other) => other.key === key)))
      continue;
    globalKeys.add(key);
    addCheck(body, name);
  }
  for (const topic of topics) {
    const seen = new Set<string>();
    for (const { key, body, name } of bodiesOfTopic.get(topic.id) ?? []) {
      if (globalKeys.has(key) || seen.has(key)) continue;
      seen.add(key);
      addCheck(body, name, topic.id);
    }
  }
  if (checks.length > 0) imported.push(`${checks.length} assertion${checks.length === 1 ? "" : "s"} → checks`);

  const rubrics: ImportedRubric[] = [];
  for (const topic of topics) {
    for (const text of rubricsOfTopic.get(topic.id) ?? []) {
      const shared = everyTopic(rubricsOfTopic, (items) => items.includes(text));
      const existing = rubrics.find(
        (rubric) => rubric.text === text && (shared ? rubric.topicIds.length === 0 : rubric.topicIds.length > 0),
      );
      if (shared) {
        if (!existing) rubrics.push({ text, topicIds: [] });
      } else if (existing) existing.topicIds.push(topic.id);
      else rubrics.push({ text, topicIds: [topic.id] });
    }
  }
  const rankingPrompt = rankingPromptOf(rubrics, topics);
  if (rubrics.length > 0) {
    imported.push(
      `${rubrics.length} rubric${rubrics.length === 1 ? "" : "s"} (llm-rubric, select-best, …) → the evaluation prompt`,
    );
    if (rankingPrompt.length > TEST_LIMITS.maxRankingPromptLength) {
      refuse(
        ctx,
        inConfig(ctx, ["tests"]),
        `the rubrics make an evaluation prompt of ${rankingPrompt.length} characters; at most ${TEST_LIMITS.maxRankingPromptLength}`,
        "Shorten the rubrics, or import fewer test cases at once.",
      );
    }
  }

  // Nothing unrendered is ever sent.
  for (const topic of topics) {
    const texts: [string, string][] = [
      ["topic", topic.prompt],
      ["system message", topic.system ?? ""],
      ...(rubricsOfTopic.get(topic.id) ?? []).map((text): [string, string] => ["rubric", text]),
    ];
    for (const [kind, text] of texts) {
      const match = UNRENDERED.exec(text);
      if (!match) continue;
      const around = oneLine(text.slice(Math.max(0, match.index - 20), match.index + 40));
      refuse(
        ctx,
        topic.where,
        `the ${kind} of "${topic.title}" still holds ${match[0]} after rendering: …${around}…`,
        match[0] === "file://"
          ? "Name a file that exists (relative to the config's folder), or give the value inline."
          : "Define every variable the template uses, or write the braces as {{ '{{' }}.",
      );
    }
    if (topic.prompt.length > TOPIC_LIMITS.maxPromptLength) {
      refuse(
        ctx,
        topic.where,
        `the topic "${topic.title}" is ${topic.prompt.length} characters; at most ${TOPIC_LIMITS.maxPromptLength}`,
        "Shorten the prompt or its variables.",
      );
    }
  }

  // Repeats.
  const evaluateOptions = isObject(root.evaluateOptions) ? root.evaluateOptions : {};
  let responsesPerTopic = 1;
  for (const [key, value] of Object.entries(evaluateOptions)) {
    if (key === "repeat" && typeof value === "number" && Number.isInteger(value) && value >= 1) {
      responsesPerTopic = Math.min(TEST_LIMITS.maxResponsesPerTopic, value);
      imported.push(`evaluateOptions.repeat ${value} → ${responsesPerTopic} responses per topic`);
    } else {
      notImported.push({ item: `evaluateOptions ${key}`, reason: "ModelJury runs the test on its servers" });
    }
  }

  const description = typeof root.description === "string" ? oneLine(root.description) : "";
  return {
    configuration: {
      name: clip(description || "Imported from promptfoo", TEST_LIMITS.maxTestNameLength),
      userPrompt: "",
      personas,
      topics: topics.map(({ id, title, description: topicDescription, prompt }) => ({
        id,
        title,
        description: topicDescription,
        prompt,
      })),
      generatorModels,
      evaluatorModels,
      responsesPerTopic,
      rankingPrompt,
      checks,
    },
    imported,
    notImported,
    problems: ctx.problems,
    rubrics,
    testCaseCount,
    assertionCount,
  };
}

/** Whether a parsed file looks like a promptfoo configuration rather than a ModelJury one. */
export function isPromptfooConfig(config: unknown): boolean {
  return isObject(config) && "prompts" in config && "providers" in config;
}
