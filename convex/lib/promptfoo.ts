// promptfoo configurations (promptfooconfig.yaml, already parsed) turned into a ModelJury test
// configuration, for the command-line runner and the setup page's upload. Pure: files a config
// names (`file://` prompts and variables) are passed in by the caller, read from disk or from the
// files the user picked.
//
// The mapping:
// - prompts × test cases → topics: each test case (a `vars` list expands into every combination,
//   as promptfoo does) renders each prompt's {{variables}}; the topic's prompt is the rendered text;
// - a chat prompt's system message → the persona; otherwise one plain assistant persona;
// - providers → generator models, by their catalog id (`openrouter:vendor/model`, `openai:gpt-4o`,
//   `anthropic:messages:claude-…`, `google:`/`vertex:gemini-…`); unknown ones are reported;
// - `defaultTest.options.provider` (the grader) → the evaluator model;
// - assertions ModelJury's checks express → checks (defaultTest's for every topic, a test's for
//   its topics); `llm-rubric` / `select-best` → the evaluation prompt;
// - everything else is listed as not imported, with the reason. Nothing is dropped silently.
import { CHECK_LIMITS, TEST_LIMITS, TOPIC_LIMITS } from "./limits";
import { DEFAULT_RANKING_PROMPT } from "./prompts";

/** A check as the test configuration stores it (validators.ts answerCheck). */
export interface ImportedCheck {
  id: string;
  kind: "contains" | "notContains" | "regex" | "startsWith" | "json" | "jsonSchema" | "length" | "latency" | "cost";
  value?: string;
  caseSensitive?: boolean;
  unit?: "words" | "characters";
  min?: number;
  max?: number;
  topicId?: string;
}

export interface ImportedConfiguration {
  name: string;
  userPrompt: string;
  personas: { id: string; name: string; description: string; systemPrompt: string }[];
  topics: { id: string; title: string; description: string; prompt: string }[];
  generatorModels: string[];
  evaluatorModels: string[];
  responsesPerTopic: number;
  rankingPrompt: string;
  checks: ImportedCheck[];
}

export interface NotImported {
  /** What was left out, as the config names it ("assert javascript", "provider bedrock:…"). */
  item: string;
  reason: string;
}

export interface PromptfooImport {
  configuration: ImportedConfiguration;
  /** What was imported, one plain line each, for the summary shown before anything is saved. */
  imported: string[];
  notImported: NotImported[];
}

export interface PromptfooImportOptions {
  /** Gateway ids of the catalog's models. */
  catalogIds: readonly string[];
  /** Contents of the files the config names, by the path written after `file://` (or its base name). */
  files?: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;

export const DEFAULT_PERSONA = {
  id: "persona-1",
  name: "Assistant",
  description: "The prompt as written, with no persona",
  systemPrompt: "You are a helpful assistant.",
} as const;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function fileOf(files: Readonly<Record<string, string>>, path: string): string | undefined {
  const clean = path.replace(/^file:\/\//, "").replace(/^\.\//, "");
  if (files[clean] !== undefined) return files[clean];
  const base = clean.split("/").pop() ?? clean;
  return files[base];
}

// ── Models ──

/** Candidate catalog ids for a promptfoo provider id, most exact first; null when the provider is not a model id. */
function candidateIds(provider: string): string[] | null {
  const [prefix, ...rest] = provider.split(":");
  const name = rest.join(":");
  if (!name) return null;
  const variants = (vendor: string, model: string) => {
    const undated = model.replace(/-(\d{8}|latest)$/, "");
    const dotted = undated.replace(/(\d)-(\d)(?=\D|$)/g, "$1.$2");
    return [...new Set([`${vendor}/${model}`, `${vendor}/${undated}`, `${vendor}/${dotted}`])];
  };
  switch (prefix) {
    case "openrouter":
      return [name];
    case "openai": {
      const model = name.replace(/^(chat|completion|responses):/, "");
      return variants("openai", model);
    }
    case "anthropic":
      return variants("anthropic", name.replace(/^(messages|completion):/, ""));
    case "google":
    case "vertex":
    case "gemini":
      return variants("google", name.replace(/^(chat|generateContent):/, ""));
    case "mistral":
      return variants("mistralai", name.replace(/^chat:/, ""));
    default:
      return null;
  }
}

/** The catalog id of a promptfoo provider id, or null. A unique catalog id starting with a candidate also matches ("gemini-2.0-flash" → "gemini-2.0-flash-001"). */
export function catalogIdOf(provider: string, catalogIds: readonly string[]): string | null {
  const candidates = candidateIds(provider.trim());
  if (candidates === null) return null;
  for (const candidate of candidates) if (catalogIds.includes(candidate)) return candidate;
  for (const candidate of candidates) {
    const starting = catalogIds.filter((id) => id.startsWith(`${candidate}-`) || id.startsWith(`${candidate}:`));
    if (starting.length === 1) return starting[0];
  }
  return null;
}

interface ProviderEntry {
  id: string;
  label?: string;
  extras: string[];
}

function providerEntries(raw: unknown, notImported: NotImported[]): ProviderEntry[] {
  return asList(raw).flatMap((entry): ProviderEntry[] => {
    if (typeof entry === "string") return [{ id: entry, extras: [] }];
    if (isObject(entry)) {
      if (typeof entry.id === "string") {
        const extras = Object.keys(entry).filter((key) => key !== "id" && key !== "label");
        return [{ id: entry.id, ...(typeof entry.label === "string" ? { label: entry.label } : {}), extras }];
      }
      // The record form: { "openai:gpt-4o": { config: … } }.
      const keys = Object.keys(entry);
      if (keys.length === 1 && isObject(entry[keys[0]])) {
        const options = entry[keys[0]] as Json;
        const extras = Object.keys(options).filter((key) => key !== "id" && key !== "label");
        return [{ id: keys[0], ...(typeof options.label === "string" ? { label: options.label } : {}), extras }];
      }
    }
    notImported.push({
      item: `provider ${oneLine(JSON.stringify(entry) ?? String(entry))}`,
      reason: "not a provider id",
    });
    return [];
  });
}

function mapModels(
  entries: ProviderEntry[],
  catalogIds: readonly string[],
  role: string,
  imported: string[],
  notImported: NotImported[],
): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    const id = catalogIdOf(entry.id, catalogIds);
    if (id === null) {
      notImported.push({ item: `${role} ${entry.id}`, reason: "no model with this id in the ModelJury catalog" });
      continue;
    }
    if (entry.extras.length > 0) {
      notImported.push({
        item: `${role} ${entry.id} ${entry.extras.join(", ")}`,
        reason: "ModelJury calls every model with the same settings",
      });
    }
    if (ids.includes(id)) continue;
    ids.push(id);
    imported.push(`${role[0].toUpperCase()}${role.slice(1)} ${entry.id} → ${id}`);
  }
  return ids;
}

// ── Prompts ──

interface PromptText {
  label: string;
  system?: string;
  text: string;
}

/** A prompt file's prompts: a chat JSON (system and user messages) or text, several separated by "---" lines. */
function promptsOfText(content: string, label: string, notImported: NotImported[]): PromptText[] {
  const trimmed = content.trim();
  if (trimmed.startsWith("[")) {
    try {
      const messages = JSON.parse(trimmed) as { role?: string; content?: unknown }[];
      const system = messages.filter((message) => message.role === "system").map((message) => String(message.content));
      const user = messages.filter((message) => message.role === "user").map((message) => String(message.content));
      const others = messages.filter((message) => message.role !== "system" && message.role !== "user");
      if (others.length > 0) {
        notImported.push({
          item: `prompt ${label} ${others.length} assistant message(s)`,
          reason: "ModelJury prompts have one system and one user message",
        });
      }
      return [{ label, ...(system.length > 0 ? { system: system.join("\n\n") } : {}), text: user.join("\n\n") }];
    } catch {
      // Not a chat: plain text below.
    }
  }
  return content
    .split(/^---$/m)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((text, index, all) => ({ label: all.length > 1 ? `${label} #${index + 1}` : label, text }));
}

function promptTexts(raw: unknown, files: Readonly<Record<string, string>>, notImported: NotImported[]): PromptText[] {
  return asList(raw).flatMap((entry, index): PromptText[] => {
    const source = typeof entry === "string" ? entry : isObject(entry) ? (entry.raw ?? entry.id) : undefined;
    const label = isObject(entry) && typeof entry.label === "string" ? entry.label : undefined;
    if (typeof source !== "string") {
      notImported.push({ item: `prompt ${index + 1}`, reason: "not a text prompt" });
      return [];
    }
    if (!source.startsWith("file://")) return promptsOfText(source, label ?? `Prompt ${index + 1}`, notImported);
    const path = source.slice("file://".length);
    if (/\.(js|cjs|mjs|ts|py)(:\w+)?$/.test(path)) {
      notImported.push({ item: `prompt ${source}`, reason: "prompt functions (JavaScript, Python) are not run" });
      return [];
    }
    const content = fileOf(files, path);
    if (content === undefined) {
      notImported.push({ item: `prompt ${source}`, reason: "the file was not provided" });
      return [];
    }
    return promptsOfText(content, label ?? path.split("/").pop() ?? path, notImported);
  });
}

/** Replaces {{ name }} with the variable's value; names it does not know stay as written. */
export function renderPrompt(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g, (whole, name: string) => vars[name] ?? whole);
}

// ── Test cases ──

interface TestCase {
  number: number;
  description?: string;
  vars: Record<string, string>;
  asserts: unknown[];
}

function varText(
  value: unknown,
  files: Readonly<Record<string, string>>,
  name: string,
  notImported: NotImported[],
): string {
  if (typeof value === "string" && value.startsWith("file://")) {
    const content = fileOf(files, value.slice("file://".length));
    if (content !== undefined) return content;
    notImported.push({ item: `variable ${name} ${value}`, reason: "the file was not provided" });
    return value;
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Every combination of the list-valued variables, as promptfoo expands them. */
function expandVars(
  vars: Json,
  files: Readonly<Record<string, string>>,
  notImported: NotImported[],
): Record<string, string>[] {
  let combinations: Record<string, string>[] = [{}];
  for (const [name, value] of Object.entries(vars)) {
    const values = Array.isArray(value) ? value : [value];
    combinations = combinations.flatMap((combination) =>
      values.map((one) => ({ ...combination, [name]: varText(one, files, name, notImported) })),
    );
  }
  return combinations;
}

function testCases(
  raw: unknown,
  defaults: Json,
  files: Readonly<Record<string, string>>,
  notImported: NotImported[],
): TestCase[] {
  if (typeof raw === "string") {
    notImported.push({ item: `tests ${raw}`, reason: "test cases from files (CSV, JSON, scripts) are not read" });
  }
  const defaultVars = isObject(defaults.vars) ? defaults.vars : {};
  const cases = typeof raw === "string" ? [] : asList(raw);
  if (cases.length === 0)
    return [{ number: 1, vars: expandVars(defaultVars, files, notImported)[0] ?? {}, asserts: [] }];
  return cases.flatMap((entry, index): TestCase[] => {
    if (!isObject(entry)) {
      notImported.push({ item: `test ${index + 1}`, reason: "not a test case" });
      return [];
    }
    for (const key of Object.keys(entry)) {
      if (!["description", "vars", "assert"].includes(key)) {
        notImported.push({ item: `test ${index + 1} ${key}`, reason: "not used by ModelJury" });
      }
    }
    const vars = { ...defaultVars, ...(isObject(entry.vars) ? entry.vars : {}) };
    return expandVars(vars, files, notImported).map((combination) => ({
      number: index + 1,
      ...(typeof entry.description === "string" ? { description: entry.description } : {}),
      vars: combination,
      asserts: asList(entry.assert),
    }));
  });
}

// ── Assertions ──

const LENGTH_PATTERN = /^\s*output\.length\s*(<=|<|>=|>)\s*(\d+)\s*$/;

/** `output.length < 500 && output.length > 10` as a character range, or null. */
function lengthRange(code: string): { min?: number; max?: number } | null {
  const range: { min?: number; max?: number } = {};
  for (const part of code
    .replace(/^return\s+/, "")
    .replace(/;\s*$/, "")
    .split("&&")) {
    const match = LENGTH_PATTERN.exec(part);
    if (!match) return null;
    const bound = Number(match[2]);
    if (match[1] === "<") range.max = bound - 1;
    if (match[1] === "<=") range.max = bound;
    if (match[1] === ">") range.min = bound + 1;
    if (match[1] === ">=") range.min = bound;
  }
  return range;
}

type CheckBody = Omit<ImportedCheck, "id" | "topicId">;

/** The check an assertion is, a rubric for the judges, or why it is not imported. */
function assertionOf(assertion: unknown): { check: CheckBody } | { rubric: string } | { reason: string } {
  if (!isObject(assertion) || typeof assertion.type !== "string") return { reason: "not an assertion" };
  const { type, value, threshold } = assertion;
  const text = typeof value === "string" ? value : undefined;
  switch (type) {
    case "contains":
    case "icontains":
    case "not-contains":
    case "not-icontains":
    case "starts-with": {
      if (text === undefined) return { reason: "only a single text value can be checked" };
      const kind = type === "starts-with" ? "startsWith" : type.startsWith("not-") ? "notContains" : "contains";
      return { check: { kind, value: text, caseSensitive: !type.includes("icontains") } };
    }
    case "regex":
      return text === undefined ? { reason: "the pattern must be text" } : { check: { kind: "regex", value: text } };
    case "is-json":
    case "contains-json":
      if (type === "contains-json" && value === undefined) return { check: { kind: "json" } };
      if (value === undefined) return { check: { kind: "json" } };
      if (isObject(value)) return { check: { kind: "jsonSchema", value: JSON.stringify(value) } };
      return { reason: "a schema from a file is not read" };
    case "latency":
      return typeof threshold === "number"
        ? { check: { kind: "latency", max: threshold } }
        : { reason: "needs a threshold" };
    case "cost":
      return typeof threshold === "number"
        ? { check: { kind: "cost", max: threshold } }
        : { reason: "needs a threshold" };
    case "javascript": {
      const range = text === undefined ? null : lengthRange(text);
      if (range === null) return { reason: "JavaScript is not run; only output.length bounds are imported" };
      return { check: { kind: "length", unit: "characters", ...range } };
    }
    case "llm-rubric":
    case "select-best":
      return text === undefined ? { reason: "the rubric must be text" } : { rubric: text };
    default:
      return { reason: "ModelJury has no check of this kind" };
  }
}

function assertionName(assertion: unknown): string {
  return isObject(assertion) && typeof assertion.type === "string" ? assertion.type : "assertion";
}

// ── The import ──

export function importPromptfoo(config: unknown, options: PromptfooImportOptions): PromptfooImport {
  const files = options.files ?? {};
  const imported: string[] = [];
  const notImported: NotImported[] = [];
  const root = isObject(config) ? config : {};
  if (!isObject(config)) notImported.push({ item: "configuration", reason: "not a promptfoo configuration" });
  const defaults = isObject(root.defaultTest) ? root.defaultTest : {};
  if (typeof root.defaultTest === "string") {
    notImported.push({ item: `defaultTest ${root.defaultTest}`, reason: "a defaultTest file is not read" });
  }
  for (const key of Object.keys(root)) {
    if (!["description", "prompts", "providers", "tests", "defaultTest", "evaluateOptions"].includes(key)) {
      notImported.push({ item: key, reason: "not used by ModelJury" });
    }
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
  const graders = providerEntries(defaultOptions.provider, notImported);
  const evaluatorModels = mapModels(graders, options.catalogIds, "grader", imported, notImported);
  for (const key of Object.keys(defaultOptions)) {
    if (key !== "provider") notImported.push({ item: `defaultTest options ${key}`, reason: "not used by ModelJury" });
  }
  for (const key of Object.keys(defaults)) {
    if (!["vars", "assert", "options"].includes(key)) {
      notImported.push({ item: `defaultTest ${key}`, reason: "not used by ModelJury" });
    }
  }

  // Topics: prompts × test cases.
  const prompts = promptTexts(root.prompts, files, notImported);
  const cases = testCases(root.tests, defaults, files, notImported);
  const systems = [...new Set(prompts.map((prompt) => prompt.system).filter((system): system is string => !!system))];
  const topics: ImportedConfiguration["topics"] = [];
  const topicsOfCase = new Map<TestCase, string[]>();
  let dropped = 0;
  for (const testCase of cases) {
    const ids: string[] = [];
    for (const prompt of prompts) {
      if (topics.length >= TEST_LIMITS.maxTopics) {
        dropped++;
        continue;
      }
      const id = `topic-${topics.length + 1}`;
      const varsText = Object.entries(testCase.vars)
        .map(([name, value]) => `${name}=${oneLine(value)}`)
        .join(", ");
      const expanded = cases.filter((other) => other.number === testCase.number).length > 1;
      const caseName = testCase.description
        ? `${testCase.description}${expanded && varsText ? ` (${varsText})` : ""}`
        : varsText || `Test ${testCase.number}`;
      const title = prompts.length > 1 ? `${prompt.label} · ${caseName}` : caseName;
      topics.push({
        id,
        title: clip(oneLine(title), TOPIC_LIMITS.maxTitleLength),
        description: clip(
          oneLine(`promptfoo test ${testCase.number}${varsText ? `: ${varsText}` : ""}`),
          TOPIC_LIMITS.maxDescriptionLength,
        ),
        prompt: renderPrompt(prompt.text, testCase.vars),
      });
      ids.push(id);
    }
    topicsOfCase.set(testCase, ids);
  }
  if (dropped > 0) {
    notImported.push({
      item: `${dropped} prompt × test case combination${dropped === 1 ? "" : "s"}`,
      reason: `a test has at most ${TEST_LIMITS.maxTopics} topics`,
    });
  }
  if (prompts.length > 0 && cases.length > 0) {
    imported.push(
      `${prompts.length} prompt${prompts.length === 1 ? "" : "s"} × ${cases.length} test case${cases.length === 1 ? "" : "s"} → ${topics.length} topic${topics.length === 1 ? "" : "s"}`,
    );
  }

  // Persona: the chat prompts' system message, else a plain assistant.
  const personas =
    systems.length > 0
      ? systems.map((systemPrompt, index) => ({
          id: `persona-${index + 1}`,
          name: systems.length > 1 ? `System prompt ${index + 1}` : "System prompt",
          description: "The system message of the promptfoo prompt",
          systemPrompt,
        }))
      : [{ ...DEFAULT_PERSONA }];
  if (systems.length > 1) {
    imported.push(`${systems.length} system messages → ${systems.length} personas (each topic runs with each)`);
  }

  // Checks and rubrics.
  const checks: ImportedCheck[] = [];
  const rubrics: string[] = [];
  const addAssertions = (asserts: unknown[], where: string, topicIds: string[] | null) => {
    for (const assertion of asserts) {
      const outcome = assertionOf(assertion);
      const name = `${where} assert ${assertionName(assertion)}`;
      if ("reason" in outcome) {
        notImported.push({ item: name, reason: outcome.reason });
        continue;
      }
      if ("rubric" in outcome) {
        if (!rubrics.includes(outcome.rubric)) rubrics.push(outcome.rubric);
        continue;
      }
      if (isObject(assertion)) {
        for (const key of Object.keys(assertion)) {
          if (
            !["type", "value", "threshold"].includes(key) ||
            (key === "threshold" && !["latency", "cost"].includes(String(assertion.type)))
          ) {
            notImported.push({ item: `${name} ${key}`, reason: "checks pass or fail, without weights or scores" });
          }
        }
      }
      for (const topicId of topicIds ?? [undefined]) {
        if (checks.length >= CHECK_LIMITS.maxChecks) {
          notImported.push({ item: name, reason: `a test has at most ${CHECK_LIMITS.maxChecks} checks` });
          break;
        }
        checks.push({ id: `check-${checks.length + 1}`, ...outcome.check, ...(topicId ? { topicId } : {}) });
      }
    }
  };
  addAssertions(asList(defaults.assert), "defaultTest", null);
  for (const testCase of cases) {
    // A test's assertions once per test case, not once per expanded combination.
    const first = cases.find((other) => other.number === testCase.number) === testCase;
    const topicIds = cases
      .filter((other) => other.number === testCase.number)
      .flatMap((other) => topicsOfCase.get(other) ?? []);
    if (first) addAssertions(testCase.asserts, `test ${testCase.number}`, topicIds);
  }
  if (checks.length > 0) imported.push(`${checks.length} assertion${checks.length === 1 ? "" : "s"} → checks`);

  let rankingPrompt = DEFAULT_RANKING_PROMPT;
  if (rubrics.length > 0) {
    rankingPrompt = clip(
      `${DEFAULT_RANKING_PROMPT}\n\nJudge the answers against ${rubrics.length === 1 ? "this rubric" : "these rubrics"}:\n${rubrics.map((rubric) => `- ${oneLine(rubric)}`).join("\n")}`,
      TEST_LIMITS.maxRankingPromptLength,
    );
    imported.push(
      `${rubrics.length} rubric${rubrics.length === 1 ? "" : "s"} (llm-rubric, select-best) → the evaluation prompt`,
    );
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
      topics,
      generatorModels,
      evaluatorModels,
      responsesPerTopic,
      rankingPrompt,
      checks,
    },
    imported,
    notImported,
  };
}

/** Whether a parsed file looks like a promptfoo configuration rather than a ModelJury one. */
export function isPromptfooConfig(config: unknown): boolean {
  return isObject(config) && "prompts" in config && "providers" in config;
}
