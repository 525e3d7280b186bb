// promptfoo configurations (promptfooconfig.yaml, already parsed) turned into a ModelJury test
// configuration, for the command-line runner and the setup page's upload. Pure: the files a
// config names are read through a PromptfooFiles the caller gives (the disk for the CLI, the
// picked files for the upload), by their path relative to the config's folder.
//
// It renders what promptfoo renders, following promptfoo's own loader (src/util/testCaseReader.ts,
// src/csv.ts, src/prompts/, src/evaluatorHelpers.ts renderPrompt):
// - tests: inline test cases, files (CSV rows, JSON, JSONL, YAML) and globs of them, each row a
//   test case; a test's `vars` lists expand into every combination, a `file://` var glob into one
//   case per file; defaultTest's vars under each test's;
// - prompts: text (a .txt file split on "---" lines), chat messages (a JSON or YAML file), a
//   list, labelled objects or the map form { path: label }; rendered with Nunjucks (the
//   `nunjucks` package, as promptfoo configures it: no autoescape, undefined renders empty, the
//   `load` filter); a chat prompt's system message is the persona, its user message the topic;
// - prompts × test cases → topics; defaultTest's assertions join each test's; what ModelJury's
//   checks express → checks (per topic when the test's), `llm-rubric` and the other model-graded
//   assertions → the evaluation prompt, each test's rubric named with its topic;
// - providers → generator models; the grader (`defaultTest.options.provider`, an id, `{ id }` or
//   `{ text, embedding }`) → the evaluator model.
// Anything that would change what runs (a prompt function, a missing file, too many topics, a
// text still holding `{{`, `{%` or `file://`) is a problem: the import refuses, naming the file,
// line, reason and fix. What only narrows the judging (an assertion kind ModelJury has no check
// for, a provider not in the catalog) is left out and listed with its reason.
import nunjucks from "nunjucks";
import Papa from "papaparse";
import picomatch from "picomatch";
import { LineCounter, parseDocument, parse as parseYaml } from "yaml";
import { CHECK_LIMITS, PERSONA_LIMITS, TEST_LIMITS, TOPIC_LIMITS } from "./limits";
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

/** Why the config cannot be imported as promptfoo would run it: the import stops on any. */
export interface ImportProblem {
  /** The file, relative to the config's folder (the config's own name for the config). */
  file: string;
  /** 1-based line in that file, when known. */
  line?: number;
  reason: string;
  fix: string;
}

/** A rubric the judges apply, with the topics it belongs to (none: every topic). */
export interface ImportedRubric {
  text: string;
  topicIds: string[];
}

export interface PromptfooImport {
  configuration: ImportedConfiguration;
  /** What was imported, one plain line each, for the summary shown before anything is saved. */
  imported: string[];
  notImported: NotImported[];
  problems: ImportProblem[];
  rubrics: ImportedRubric[];
  /** How many test cases promptfoo would run (after vars expansion), before × prompts. */
  testCaseCount: number;
  /** How many assertions promptfoo would evaluate: each topic's (prompt × test case) defaultTest and test assertions. */
  assertionCount: number;
}

/** The files a config names, by their path relative to the config's folder. */
export interface PromptfooFiles {
  /** The file's text, or undefined when there is no such file. */
  read(path: string): string | undefined;
  /** The files matching a glob, relative to the config's folder, sorted. */
  glob(pattern: string): string[];
}

export interface PromptfooImportOptions {
  /** Gateway ids of the catalog's models; null when there is no catalog to match (providers map to their likely id). */
  catalogIds: readonly string[] | null;
  /** The files the config names; a record is matched by path or, failing that, base name. */
  files?: PromptfooFiles | Readonly<Record<string, string>>;
  /** The config's file name, for problems' locations. */
  configFile?: string;
  /** The config's text, for problems' line numbers. */
  configText?: string;
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

function normalPath(path: string): string {
  return path
    .replace(/^file:\/\//, "")
    .replace(/\\/g, "/")
    .split("/")
    .filter((part) => part !== ".")
    .join("/");
}

/** Files from a record (the setup page's picked files): by path, else by base name; globs by picomatch. */
export function filesFromRecord(
  record: Readonly<Record<string, string>>,
  options: { byBaseName?: boolean } = {},
): PromptfooFiles {
  const byBaseName = options.byBaseName ?? true;
  const names = Object.keys(record).map(normalPath);
  const byName = new Map(Object.entries(record).map(([name, text]) => [normalPath(name), text]));
  return {
    read(path) {
      const clean = normalPath(path);
      if (byName.has(clean)) return byName.get(clean);
      if (!byBaseName) return undefined;
      const base = clean.split("/").pop() ?? clean;
      const matches = names.filter((name) => (name.split("/").pop() ?? name) === base);
      return matches.length === 1 ? byName.get(matches[0]) : undefined;
    },
    glob(pattern) {
      const isMatch = picomatch(normalPath(pattern));
      const baseMatch = picomatch(normalPath(pattern).split("/").pop() ?? pattern);
      const found = names.filter((name) => isMatch(name));
      if (!byBaseName) return found.sort();
      return (found.length > 0 ? found : names.filter((name) => baseMatch(name.split("/").pop() ?? name))).sort();
    },
  };
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
  catalogIds: readonly string[] | null,
  role: string,
  imported: string[],
  notImported: NotImported[],
): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    // Without a catalog (a preview with no server), the most exact candidate id.
    const id = catalogIds === null ? (candidateIds(entry.id.trim())?.[0] ?? null) : catalogIdOf(entry.id, catalogIds);
    if (id === null) {
      notImported.push({
        item: `${role} ${entry.id}`,
        reason:
          catalogIds === null ? "not a provider ModelJury runs" : "no model with this id in the ModelJury catalog",
      });
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

// ── Where things are ──

type NodePath = (string | number)[];

/** 1-based line of a node of a YAML or JSON text, by its path; undefined when not found. */
function locator(text: string | undefined): (path: NodePath) => number | undefined {
  if (text === undefined) return () => undefined;
  const lineCounter = new LineCounter();
  let document: ReturnType<typeof parseDocument> | null = null;
  try {
    document = parseDocument(text, { lineCounter });
  } catch {
    document = null;
  }
  return (path) => {
    if (document === null) return undefined;
    for (let length = path.length; length >= 0; length--) {
      const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
      if (node && Array.isArray(node.range)) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
}

interface Where {
  file: string;
  line?: number;
}

interface Context {
  files: PromptfooFiles;
  configFile: string;
  configLine: (path: NodePath) => number | undefined;
  problems: ImportProblem[];
  notImported: NotImported[];
  imported: string[];
  env: nunjucks.Environment;
}

function inConfig(ctx: Context, path: NodePath): Where {
  const line = ctx.configLine(path);
  return { file: ctx.configFile, ...(line === undefined ? {} : { line }) };
}

function refuse(ctx: Context, where: Where, reason: string, fix: string): void {
  const duplicate = ctx.problems.some(
    (problem) => problem.file === where.file && problem.line === where.line && problem.reason === reason,
  );
  if (!duplicate) ctx.problems.push({ ...where, reason, fix });
}

// ── Files ──

const SCRIPT = /\.(js|cjs|mjs|ts|cts|mts|py)$/i;
const MEDIA = /\.(jpe?g|png|gif|bmp|webp|svg|mp4|webm|ogg|mov|avi|wmv|mkv|m4v|pdf|xlsx?)$/i;

/** A path of a `file://` reference without its `:functionName` suffix, and the suffix. */
function splitFunction(reference: string): { path: string; functionName?: string } {
  const path = normalPath(reference);
  const colon = path.lastIndexOf(":");
  if (colon > 1) return { path: path.slice(0, colon), functionName: path.slice(colon + 1) };
  return { path };
}

function extensionOf(path: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(path);
  return match ? match[1].toLowerCase() : "";
}

function isGlob(path: string): boolean {
  return /[*?[\]{}]/.test(path);
}

/** Whether a prompt string names a file, as promptfoo's maybeFilePath decides for one-line strings. */
function namesFile(text: string): boolean {
  if (text.includes("\n")) return false;
  if (text.startsWith("file://")) return true;
  return !/\s/.test(text) && (/\.[A-Za-z0-9]{2,5}(:\w+)?$/.test(text) || text.includes("*"));
}

function parsedFile(ctx: Context, path: string, where: Where): unknown {
  const text = ctx.files.read(path);
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
    );
    return undefined;
  }
  try {
    return extensionOf(path) === "json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    refuse(
      ctx,
      { file: path },
      `${path} is not valid ${extensionOf(path) === "json" ? "JSON" : "YAML"}: ${error instanceof Error ? error.message : String(error)}`,
      `Fix the syntax of ${path}.`,
    );
    return undefined;
  }
}

// ── Prompts ──

interface PromptSource {
  label: string;
  raw: string;
  where: Where;
  /** Set for prompts from a file (the file's name for titles). */
  file?: string;
}

function promptEntries(raw: unknown): { raw: unknown; label?: string; path: NodePath }[] {
  if (typeof raw === "string") return [{ raw, path: ["prompts"] }];
  if (Array.isArray(raw)) {
    return raw.map((entry, index) => {
      if (isObject(entry) && Array.isArray(entry.messages)) {
        return {
          raw: entry.messages,
          ...(typeof entry.label === "string" ? { label: entry.label } : {}),
          path: ["prompts", index],
        };
      }
      if (isObject(entry) && !("role" in entry)) {
        return {
          raw: entry.raw ?? entry.id,
          ...(typeof entry.label === "string" ? { label: entry.label } : {}),
          path: ["prompts", index],
        };
      }
      return { raw: entry, path: ["prompts", index] };
    });
  }
  // The map form, { "file://prompt.txt": "label" }: promptfoo's normalizeInput reads keys as prompts.
  if (isObject(raw)) {
    return Object.entries(raw).map(([prompt, label]) => ({
      raw: prompt,
      ...(typeof label === "string" ? { label } : {}),
      path: ["prompts", prompt],
    }));
  }
  return [];
}

function promptsOfFile(ctx: Context, path: string, label: string | undefined, where: Where): PromptSource[] {
  const extension = extensionOf(path);
  const text = ctx.files.read(path);
  const base = path.split("/").pop() ?? path;
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `the prompt file ${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
    );
    return [];
  }
  const one = (raw: string, suffix = ""): PromptSource => ({
    label: `${label ?? base}${suffix}`,
    raw,
    where: { file: path },
    file: path,
  });
  switch (extension) {
    case "txt": {
      const parts = text
        .split(/\r?\n/)
        .reduce<string[][]>(
          (groups, line) => {
            if (line.trim() === "---") groups.push([]);
            else groups[groups.length - 1].push(line);
            return groups;
          },
          [[]],
        )
        .map((lines) => lines.join("\n").trim())
        .filter(Boolean);
      return parts.map((raw, index) => one(raw, parts.length > 1 ? ` #${index + 1}` : ""));
    }
    case "json":
    case "md":
    case "j2":
      return [one(text)];
    case "jsonl":
      return text
        .split("\n")
        .filter((line) => line.trim())
        .map((line, index, all) => one(line, all.length > 1 ? ` #${index + 1}` : ""));
    case "yaml":
    case "yml": {
      const parsed = parsedFile(ctx, path, where);
      return parsed === undefined ? [] : [one(JSON.stringify(parsed))];
    }
    default:
      refuse(
        ctx,
        where,
        `prompts from ${extension ? `.${extension}` : "this kind of"} file (${path}) are not read`,
        "Write the prompt as text (.txt), Markdown, or chat messages (.json, .yaml).",
      );
      return [];
  }
}

/** Chat messages whose `file://` contents are read (text as written); null when one cannot be. */
function messagesWithFiles(ctx: Context, messages: unknown[], where: Where): unknown[] | null {
  const read: unknown[] = [];
  for (const message of messages) {
    if (!isObject(message) || typeof message.content !== "string" || !message.content.startsWith("file://")) {
      read.push(message);
      continue;
    }
    const { path, functionName } = splitFunction(message.content);
    if (SCRIPT.test(path) || functionName !== undefined) {
      refuse(
        ctx,
        where,
        `a chat message's content ${message.content} is a function (JavaScript or Python), which ModelJury does not run`,
        "Write the message as text or in a text file.",
      );
      return null;
    }
    const text = ctx.files.read(path);
    if (text === undefined) {
      refuse(
        ctx,
        where,
        `the message file ${path} was not found`,
        `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
      );
      return null;
    }
    read.push({ ...message, content: text });
  }
  return read;
}

function readPrompts(ctx: Context, raw: unknown): PromptSource[] {
  const entries = promptEntries(raw);
  if (entries.length === 0) {
    refuse(ctx, inConfig(ctx, ["prompts"]), "the config has no prompts", "Add a prompt under prompts:.");
    return [];
  }
  return entries.flatMap(({ raw: source, label, path }, index): PromptSource[] => {
    const where = inConfig(ctx, path);
    if (Array.isArray(source)) {
      // Chat messages written in the config itself (`messages:`), a content may be a file.
      const messages = messagesWithFiles(ctx, source, where);
      return messages === null ? [] : [{ label: label ?? `Prompt ${index + 1}`, raw: JSON.stringify(messages), where }];
    }
    if (typeof source !== "string" || !source.trim()) {
      refuse(
        ctx,
        where,
        `prompt ${index + 1} is neither text nor a file`,
        "Give the prompt as text, a file:// path, or { raw, label }.",
      );
      return [];
    }
    if (source.startsWith("exec:") || !namesFile(source)) {
      return [{ label: label ?? (entries.length > 1 ? `Prompt ${index + 1}` : "Prompt"), raw: source, where }];
    }
    const { path: file, functionName } = splitFunction(source);
    if (SCRIPT.test(file) || functionName !== undefined) {
      refuse(
        ctx,
        where,
        `the prompt ${source} is a function (JavaScript or Python), which ModelJury does not run`,
        "Write the prompt it returns as text or chat messages in a .txt, .json or .yaml file.",
      );
      return [];
    }
    if (isGlob(file)) {
      const matches = ctx.files.glob(file);
      if (matches.length === 0) {
        refuse(
          ctx,
          where,
          `no file matches the prompt glob ${source}`,
          "Fix the pattern (relative to the config's folder) or add the files.",
        );
        return [];
      }
      return matches.flatMap((match) => promptsOfFile(ctx, match, label ? `${label}: ${match}` : undefined, where));
    }
    return promptsOfFile(ctx, file, label, where);
  });
}

// ── Rendering ──

function newEnvironment(): nunjucks.Environment {
  // As promptfoo's getNunjucksEngine: no autoescape, undefined renders empty, the `load` filter.
  const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
  env.addFilter("load", (text: string) => JSON.parse(text) as unknown);
  return env;
}

type Vars = Record<string, unknown>;

function renderText(
  ctx: Context,
  template: string,
  vars: Vars,
): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: ctx.env.renderString(template, vars) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? oneLine(error.message) : String(error) };
  }
}

function renderInObject(ctx: Context, value: unknown, vars: Vars): unknown {
  if (typeof value === "string") {
    const rendered = renderText(ctx, value, vars);
    if (!rendered.ok) throw new Error(rendered.reason);
    return rendered.text;
  }
  if (Array.isArray(value)) return value.map((item) => renderInObject(ctx, item, vars));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderInObject(ctx, item, vars)]));
  return value;
}

interface RenderedPrompt {
  system?: string;
  user: string;
}

/** A prompt rendered for one test case's vars, as promptfoo's renderPrompt does; chat messages split. */
function renderPromptFor(
  ctx: Context,
  prompt: PromptSource,
  vars: Vars,
): { ok: true; value: RenderedPrompt } | { ok: false; reason: string; fix: string } {
  let parsed: unknown;
  let isJson: boolean;
  try {
    parsed = JSON.parse(prompt.raw);
    isJson = true;
  } catch {
    isJson = false;
  }
  if (!isJson) {
    const rendered = renderText(ctx, prompt.raw, vars);
    if (!rendered.ok)
      return {
        ok: false,
        reason: `the prompt is not a valid Nunjucks template: ${rendered.reason}`,
        fix: "Fix the template syntax.",
      };
    return { ok: true, value: { user: rendered.text } };
  }
  let rendered: unknown;
  try {
    rendered = renderInObject(ctx, parsed, vars);
  } catch (error) {
    return {
      ok: false,
      reason: `the prompt is not a valid Nunjucks template: ${String(error instanceof Error ? error.message : error)}`,
      fix: "Fix the template syntax.",
    };
  }
  const isChat =
    Array.isArray(rendered) &&
    rendered.length > 0 &&
    rendered.every((message) => isObject(message) && typeof message.role === "string");
  if (!isChat)
    return { ok: true, value: { user: typeof rendered === "string" ? rendered : JSON.stringify(rendered, null, 2) } };
  const messages = rendered as { role: string; content?: unknown }[];
  if (messages.some((message) => typeof message.content !== "string")) {
    return {
      ok: false,
      reason: "a chat message's content is not text (images or parts)",
      fix: "Give each message's content as text.",
    };
  }
  const system = messages.filter((message) => message.role === "system").map((message) => message.content as string);
  const user = messages.filter((message) => message.role === "user").map((message) => message.content as string);
  const others = messages.filter((message) => message.role !== "system" && message.role !== "user");
  if (user.length !== 1 || others.length > 0) {
    return {
      ok: false,
      reason: `the chat prompt has ${user.length} user and ${others.length} other message(s); a ModelJury topic is one user message (with an optional system message)`,
      fix: "Keep one system and one user message, or put the earlier turns into the user message.",
    };
  }
  return { ok: true, value: { ...(system.length > 0 ? { system: system.join("\n\n") } : {}), user: user[0] } };
}

const UNRENDERED = /\{\{|\{%|file:\/\//;

// ── Test cases ──

interface TestCase {
  /** 1-based, in promptfoo's order (before vars expansion). */
  number: number;
  description?: string;
  vars: Vars;
  asserts: unknown[];
  options: Json;
  where: Where;
  /** Keys of the test ModelJury does not use. */
  unused: string[];
}

const ASSERTION_TYPES = [
  "answer-relevance bleu classifier contains-all contains-any contains-json contains-sql",
  "contains-xml contains context-faithfulness context-recall context-relevance cost equals",
  "factuality finish-reason g-eval gleu guardrails icontains-all icontains-any icontains is-html",
  "is-json is-refusal is-sql is-valid-function-call is-valid-openai-function-call",
  "is-valid-openai-tools-call is-xml javascript latency levenshtein llm-rubric meteor",
  "model-graded-closedqa model-graded-factuality moderation perplexity-score perplexity pi python",
  "regex rouge-n ruby select-best similar starts-with trace-error-spans trace-span-count",
  "trace-span-duration webhook word-count",
]
  .join(" ")
  .split(" ");

/** An assertion written in a CSV cell (`__expected`), as promptfoo's assertionFromString reads it. */
export function assertionFromString(expected: string): Json {
  for (const prefix of ["javascript:", "fn:", "eval:"]) {
    if (expected.startsWith(prefix)) return { type: "javascript", value: expected.slice(prefix.length).trim() };
  }
  if (expected.startsWith("grade:")) return { type: "llm-rubric", value: expected.slice(6) };
  if (expected.startsWith("llm-rubric:")) return { type: "llm-rubric", value: expected.slice(11) };
  if (expected.startsWith("python:")) return { type: "python", value: expected.slice(7).trim() };
  if (expected.startsWith("file://") && /\.py(:|$)/.test(expected))
    return { type: "python", value: expected.slice(7).trim() };
  if (expected.startsWith("file://") && /\.(js|ts)(:|$)/.test(expected))
    return { type: "javascript", value: expected.slice(7).trim() };
  const pattern = new RegExp(`^(not-)?(${ASSERTION_TYPES.join("|")})(?:\\((\\d+(?:\\.\\d+)?)\\))?(?::([\\s\\S]*))?$`);
  const match = pattern.exec(expected);
  if (match) {
    const [, not, type, thresholdText, value] = match;
    const fullType = `${not ?? ""}${type}`;
    if (["contains-all", "contains-any", "icontains-all", "icontains-any"].includes(type)) {
      return { type: fullType, value: (value ?? "").split(",").map((part) => part.trim()) };
    }
    const threshold = Number.parseFloat(thresholdText ?? "");
    if (
      [
        "answer-relevance",
        "classifier",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "cost",
        "latency",
        "levenshtein",
        "perplexity-score",
        "perplexity",
        "rouge-n",
        "similar",
        "starts-with",
      ].includes(type)
    ) {
      return { type: fullType, value, threshold: threshold || (type === "similar" ? 0.8 : 0.75) };
    }
    return { type: fullType, value };
  }
  return { type: "equals", value: expected };
}

/** A CSV row (or a YAML row of a standalone file) as promptfoo's testCaseFromCsvRow reads it. */
function testCaseOfRow(row: Record<string, string>): Json {
  const vars: Record<string, string> = {};
  const asserts: Json[] = [];
  const options: Json = {};
  let description: string | undefined;
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith("__expected")) {
      if (String(value).trim() !== "") asserts.push(assertionFromString(String(value)));
    } else if (key === "__prefix") options.prefix = value;
    else if (key === "__suffix") options.suffix = value;
    else if (key === "__description") description = value;
    else if (!["__providerOutput", "__metric", "__threshold"].includes(key) && !/^__(metadata|config):/.test(key)) {
      vars[key] = value;
    }
  }
  return { vars, assert: asserts, options, ...(description ? { description } : {}) };
}

function withRowDescriptions(cases: { test: Json; where: Where }[]): { test: Json; where: Where }[] {
  return cases.map((entry, index) => ({
    ...entry,
    test: { ...entry.test, description: (entry.test.description as string | undefined) || `Row #${index + 1}` },
  }));
}

/** Rows of a CSV file, with each row's first line. */
function csvCases(ctx: Context, path: string, where: Where): { test: Json; where: Where }[] {
  const text = ctx.files.read(path);
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `the tests file ${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
    );
    return [];
  }
  const body = text.replace(/^\uFEFF/, "");
  const parsed = Papa.parse<Record<string, string>>(body, { header: true, skipEmptyLines: true, delimiter: "," });
  const fatal = parsed.errors.find((error) => error.type !== "FieldMismatch");
  if (fatal) {
    refuse(
      ctx,
      { file: path, ...(fatal.row === undefined ? {} : { line: fatal.row + 2 }) },
      `${path} is not valid CSV: ${fatal.message}`,
      `Fix the CSV syntax of ${path}.`,
    );
    return [];
  }
  // Each row's first line: after the header line, counting the line breaks inside quoted cells.
  const lines: number[] = [];
  let line = 2;
  for (const row of parsed.data) {
    lines.push(line);
    line += 1 + Object.values(row).reduce((sum, cell) => sum + (String(cell ?? "").match(/\n/g)?.length ?? 0), 0);
  }
  return parsed.data.map((row, index) => ({ test: testCaseOfRow(row), where: { file: path, line: lines[index] } }));
}

/** A standalone tests file (`tests: file://tests.csv`, `{ path }`), as readStandaloneTestsFile reads it. */
function standaloneCases(ctx: Context, reference: string, where: Where): { test: Json; where: Where }[] {
  const { path, functionName } = splitFunction(reference);
  const extension = extensionOf(path);
  if (SCRIPT.test(path) || functionName !== undefined) {
    refuse(
      ctx,
      where,
      `the tests in ${reference} come from a script (JavaScript or Python), which ModelJury does not run`,
      "Write the test cases it returns into a CSV, JSON, JSONL or YAML file and name that file.",
    );
    return [];
  }
  if (/^(https?|huggingface|langfuse|az):\/\//.test(reference)) {
    refuse(
      ctx,
      where,
      `the tests at ${reference} are not read (only local files are)`,
      "Download the test cases into a CSV, JSON, JSONL or YAML file next to the config.",
    );
    return [];
  }
  if (extension === "csv") return withRowDescriptions(csvCases(ctx, path, where));
  if (extension === "jsonl") return jsonlCases(ctx, path, where, true);
  if (extension === "json" || extension === "yaml" || extension === "yml") {
    const parsed = parsedFile(ctx, path, where);
    if (parsed === undefined) return [];
    const lineOf = locator(ctx.files.read(path));
    const rows = asList(parsed).map((test, index) => ({
      test:
        extension === "json"
          ? isObject(test)
            ? test
            : {}
          : testCaseOfRow(isObject(test) ? (test as Record<string, string>) : {}),
      where: { file: path, ...(lineOf([index]) === undefined ? {} : { line: lineOf([index]) }) },
    }));
    return withRowDescriptions(rows);
  }
  refuse(
    ctx,
    where,
    `tests from ${extension ? `.${extension}` : "this kind of"} file (${reference}) are not read`,
    "Use a CSV, JSON, JSONL or YAML tests file.",
  );
  return [];
}

function jsonlCases(ctx: Context, path: string, where: Where, numbered: boolean): { test: Json; where: Where }[] {
  const text = ctx.files.read(path);
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `the tests file ${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path.`,
    );
    return [];
  }
  const cases: { test: Json; where: Where }[] = [];
  text.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    try {
      const test = JSON.parse(line) as unknown;
      cases.push({
        test: { ...(isObject(test) ? test : {}), ...(numbered ? { description: `Row #${cases.length + 1}` } : {}) },
        where: { file: path, line: index + 1 },
      });
    } catch (error) {
      refuse(
        ctx,
        { file: path, line: index + 1 },
        `this line is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        "Write one JSON object per line.",
      );
    }
  });
  return cases;
}

/** A glob of test files (`tests: [file://cases/*.yaml]`), as loadTestsFromGlob reads them. */
function globCases(ctx: Context, reference: string, where: Where): { test: Json; where: Where }[] {
  const path = normalPath(reference);
  const matches = isGlob(path) ? ctx.files.glob(path) : ctx.files.read(path) === undefined ? [] : [path];
  if (matches.length === 0) {
    refuse(
      ctx,
      where,
      `no tests file matches ${reference}`,
      "Fix the path or pattern (relative to the config's folder) or add the files.",
    );
    return [];
  }
  return matches.flatMap((file) => {
    const extension = extensionOf(file);
    if (extension === "csv") return withRowDescriptions(csvCases(ctx, file, where));
    if (extension === "jsonl") return jsonlCases(ctx, file, where, false);
    if (extension === "yaml" || extension === "yml" || extension === "json") {
      const parsed = parsedFile(ctx, file, where);
      if (parsed === undefined) return [];
      const lineOf = locator(ctx.files.read(file));
      const list = Array.isArray(parsed) ? parsed : [parsed];
      return list.map((test, index) => {
        const line = lineOf(Array.isArray(parsed) ? [index] : []);
        return { test: isObject(test) ? test : {}, where: { file, ...(line === undefined ? {} : { line }) } };
      });
    }
    refuse(ctx, where, `tests from ${file} are not read`, "Use CSV, JSON, JSONL or YAML tests files.");
    return [];
  });
}

/** The config's test cases, before vars expansion, as promptfoo's readTests lists them. */
function readTests(ctx: Context, raw: unknown): { test: Json; where: Where }[] {
  if (raw === undefined || raw === null) return [{ test: {}, where: inConfig(ctx, ["prompts"]) }];
  if (typeof raw === "string") {
    const where = inConfig(ctx, ["tests"]);
    return /ya?ml$/.test(raw) ? globCases(ctx, raw, where) : standaloneCases(ctx, raw, where);
  }
  if (isObject(raw) && typeof raw.path === "string")
    return standaloneCases(ctx, raw.path, inConfig(ctx, ["tests", "path"]));
  if (!Array.isArray(raw)) {
    refuse(
      ctx,
      inConfig(ctx, ["tests"]),
      "tests: is neither a list, a file nor { path }",
      "Give the test cases as a list or a file://tests.csv path.",
    );
    return [];
  }
  const cases = raw.flatMap((entry, index): { test: Json; where: Where }[] => {
    const where = inConfig(ctx, ["tests", index]);
    if (typeof entry === "string") {
      const { path, functionName } = splitFunction(entry);
      if (SCRIPT.test(path) || functionName !== undefined || /\.xlsx?$/i.test(path))
        return standaloneCases(ctx, entry, where);
      return globCases(ctx, entry, where);
    }
    if (isObject(entry) && typeof entry.path === "string") return standaloneCases(ctx, entry.path, where);
    if (!isObject(entry)) {
      refuse(ctx, where, `test ${index + 1} is not a test case`, "Write each test as { vars, assert } or a file path.");
      return [];
    }
    return [{ test: entry, where }];
  });
  return cases.length > 0 ? cases : [{ test: {}, where: inConfig(ctx, ["tests"]) }];
}

/** A test's `vars: file://vars.yaml` (or a list of them): the files' objects merged, as readTestFiles does. */
function varsOfTest(ctx: Context, vars: unknown, where: Where): Vars {
  if (isObject(vars)) return vars;
  if (vars === undefined || vars === null) return {};
  const merged: Vars = {};
  for (const reference of asList(vars)) {
    if (typeof reference !== "string") continue;
    for (const file of isGlob(normalPath(reference))
      ? ctx.files.glob(normalPath(reference))
      : [normalPath(reference)]) {
      const parsed = parsedFile(ctx, file, where);
      if (isObject(parsed)) Object.assign(merged, parsed);
    }
  }
  return merged;
}

const TEST_KEYS = ["description", "vars", "assert", "options"];

function testCases(ctx: Context, raw: unknown, defaults: Json): TestCase[] {
  return readTests(ctx, raw).map(({ test, where }, index) => ({
    number: index + 1,
    ...(typeof test.description === "string" && test.description ? { description: test.description } : {}),
    vars: { ...(isObject(defaults.vars) ? defaults.vars : {}), ...varsOfTest(ctx, test.vars, where) },
    asserts: asList(test.assert),
    options: isObject(test.options) ? test.options : {},
    where,
    unused: Object.keys(test).filter((key) => !TEST_KEYS.includes(key)),
  }));
}

/** Every combination of a test's vars, as promptfoo's generateVarCombinations makes them. */
function varCombinations(ctx: Context, vars: Vars, where: Where): Vars[] {
  let combinations: Vars[] = [{}];
  for (const [name, value] of Object.entries(vars)) {
    let values: unknown[];
    if (typeof value === "string" && value.startsWith("file://")) {
      const path = normalPath(value);
      const matches = isGlob(path) ? ctx.files.glob(path) : [path];
      if (matches.length === 0) {
        refuse(
          ctx,
          where,
          `no file matches the variable ${name} (${value})`,
          "Fix the pattern (relative to the config's folder) or add the files.",
        );
        return [];
      }
      values = matches.map((match) => `file://${match}`);
    } else if (Array.isArray(value) && typeof value[0] !== "string") {
      values = [value];
    } else {
      values = Array.isArray(value) ? value : [value];
    }
    combinations = combinations.flatMap((combination) => values.map((one) => ({ ...combination, [name]: one })));
  }
  return combinations;
}

/** A combination's `file://` vars read (text trimmed, YAML as JSON), as promptfoo's renderPrompt loads them. */
function loadedVars(ctx: Context, vars: Vars, where: Where): Vars | null {
  const loaded: Vars = {};
  for (const [name, value] of Object.entries(vars)) {
    if (typeof value !== "string" || !value.startsWith("file://")) {
      loaded[name] = value;
      continue;
    }
    const path = normalPath(value);
    if (SCRIPT.test(splitFunction(value).path)) {
      refuse(
        ctx,
        where,
        `the variable ${name} comes from a script (${value}), which ModelJury does not run`,
        `Write the value of ${name} into a text file, or inline.`,
      );
      return null;
    }
    if (MEDIA.test(path)) {
      refuse(
        ctx,
        where,
        `the variable ${name} is an image, video, PDF or spreadsheet (${value}); ModelJury sends text only`,
        `Give ${name} as text.`,
      );
      return null;
    }
    const text = ctx.files.read(path);
    if (text === undefined) {
      refuse(
        ctx,
        where,
        `the file ${path} of the variable ${name} was not found`,
        `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
      );
      return null;
    }
    if (/\.ya?ml$/i.test(path)) {
      try {
        loaded[name] = JSON.stringify(parseYaml(text));
      } catch (error) {
        refuse(ctx, { file: path }, `${path} is not valid YAML: ${String(error)}`, `Fix the syntax of ${path}.`);
        return null;
      }
    } else {
      loaded[name] = text.trim();
    }
  }
  // promptfoo drops one trailing newline of each text var, then resolves {{var}} inside vars.
  for (const [name, value] of Object.entries(loaded))
    if (typeof value === "string") loaded[name] = value.replace(/\n$/, "");
  for (let round = 0; round < 5; round++) {
    let changed = false;
    for (const [name, value] of Object.entries(loaded)) {
      if (typeof value !== "string") continue;
      const match = /\{\{\s*(\w+)\s*\}\}/.exec(value);
      if (match && loaded[match[1]] !== undefined) {
        loaded[name] = value.replace(match[0], String(loaded[match[1]]));
        changed = true;
      }
    }
    if (!changed) break;
  }
  return loaded;
}

function varText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
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

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const RUBRIC_TYPES = ["llm-rubric", "g-eval", "model-graded-closedqa", "select-best"];

/** What an assertion (its value rendered) is for ModelJury: checks, a rubric, or why it is left out. */
function assertionOf(
  assertion: Json,
  value: unknown,
): { checks: CheckBody[] } | { rubric: string } | { reason: string } {
  const type = String(assertion.type);
  const threshold = assertion.threshold;
  const text = typeof value === "string" ? value : undefined;
  const texts =
    Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : undefined;
  switch (type) {
    case "contains":
    case "icontains":
    case "not-contains":
    case "not-icontains":
    case "starts-with": {
      if (text === undefined) return { reason: "only a single text value can be checked" };
      const kind = type === "starts-with" ? "startsWith" : type.startsWith("not-") ? "notContains" : "contains";
      return { checks: [{ kind, value: text, caseSensitive: !type.includes("icontains") }] };
    }
    case "contains-all":
    case "icontains-all":
    case "not-contains-any":
    case "not-icontains-any":
      if (texts === undefined) return { reason: "the values must be a list of texts" };
      return {
        checks: texts.map((one) => ({
          kind: type.startsWith("not-") ? ("notContains" as const) : ("contains" as const),
          value: one,
          caseSensitive: !type.includes("icontains"),
        })),
      };
    case "contains-any":
    case "icontains-any":
      if (texts === undefined) return { reason: "the values must be a list of texts" };
      return {
        checks: [
          { kind: "regex", value: `${type === "icontains-any" ? "(?i)" : ""}(?:${texts.map(escapeRegex).join("|")})` },
        ],
      };
    case "equals":
      return text === undefined
        ? { reason: "only text can be compared" }
        : { checks: [{ kind: "regex", value: `^${escapeRegex(text)}$` }] };
    case "regex":
      return text === undefined ? { reason: "the pattern must be text" } : { checks: [{ kind: "regex", value: text }] };
    case "is-json":
    case "contains-json": {
      if (value === undefined || value === null || value === "") return { checks: [{ kind: "json" }] };
      let schema: unknown = value;
      if (typeof value === "string") {
        try {
          schema = parseYaml(value) as unknown;
        } catch {
          return { reason: "the schema is not JSON or YAML" };
        }
      }
      return isObject(schema)
        ? { checks: [{ kind: "jsonSchema", value: JSON.stringify(schema) }] }
        : { reason: "the schema is not an object" };
    }
    case "latency":
      return typeof threshold === "number"
        ? { checks: [{ kind: "latency", max: threshold }] }
        : { reason: "needs a threshold" };
    case "cost":
      return typeof threshold === "number"
        ? { checks: [{ kind: "cost", max: threshold }] }
        : { reason: "needs a threshold" };
    case "javascript": {
      const range = text === undefined ? null : lengthRange(text);
      if (range === null) return { reason: "JavaScript is not run; only output.length bounds are imported" };
      return { checks: [{ kind: "length", unit: "characters", ...range }] };
    }
    case "factuality":
    case "model-graded-factuality":
      return text === undefined
        ? { reason: "the fact must be text" }
        : { rubric: `Is consistent with this fact: ${text}` };
    default:
      if (RUBRIC_TYPES.includes(type)) {
        if (text !== undefined) return { rubric: text };
        if (texts !== undefined) return { rubric: texts.join("; ") };
        return { reason: "the rubric must be text" };
      }
      return { reason: "ModelJury has no check of this kind" };
  }
}

/** assert-set's assertions in place of the set. */
function flatAssertions(asserts: unknown[]): unknown[] {
  return asserts.flatMap((assertion) =>
    isObject(assertion) && assertion.type === "assert-set" ? flatAssertions(asList(assertion.assert)) : [assertion],
  );
}

/** An assertion's value: rendered with the test's vars (promptfoo renders text values), a file:// value read. */
function assertionValue(
  ctx: Context,
  assertion: Json,
  vars: Vars,
  where: Where,
): { ok: true; value: unknown } | { ok: false } {
  let value = assertion.value;
  if (typeof value === "string" && value.startsWith("file://")) {
    const { path } = splitFunction(value);
    if (SCRIPT.test(path)) return { ok: true, value };
    const text = ctx.files.read(path);
    if (text === undefined) {
      refuse(
        ctx,
        where,
        `the file ${path} of an assertion was not found`,
        `Put ${path} next to ${ctx.configFile}, or fix the path.`,
      );
      return { ok: false };
    }
    if (/\.(json|ya?ml)$/i.test(path)) {
      try {
        value = parseYaml(text) as unknown;
      } catch {
        value = text;
      }
    } else value = text.trim();
  }
  if (typeof value === "string") {
    const rendered = renderText(ctx, value, vars);
    if (!rendered.ok) {
      refuse(
        ctx,
        where,
        `the ${String(assertion.type)} assertion's value is not a valid Nunjucks template: ${rendered.reason}`,
        "Fix the template syntax.",
      );
      return { ok: false };
    }
    value = rendered.text;
  }
  return { ok: true, value };
}

// ── The import ──

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

function graderEntries(raw: unknown): unknown {
  // The object form { text: …, embedding: … }: the text grader judges; embeddings are for `similar`.
  if (isObject(raw) && raw.id === undefined && ("text" in raw || "embedding" in raw)) return raw.text;
  return raw;
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

/** The evaluation prompt: the default, the rubrics every topic shares, then each topic's own, named with it. */
function rankingPromptOf(rubrics: ImportedRubric[], topics: Topic[]): string {
  if (rubrics.length === 0) return DEFAULT_RANKING_PROMPT;
  const shared = rubrics.filter((rubric) => rubric.topicIds.length === 0);
  const own = rubrics.filter((rubric) => rubric.topicIds.length > 0);
  const parts = [DEFAULT_RANKING_PROMPT];
  if (shared.length > 0) {
    parts.push(
      `Judge the answers against ${shared.length === 1 ? "this rubric" : "these rubrics"}:\n${shared.map((rubric) => `- ${oneLine(rubric.text)}`).join("\n")}`,
    );
  }
  if (own.length > 0) {
    const lines = own.flatMap((rubric) =>
      rubric.topicIds.map((topicId) => {
        const topic = topics.find((one) => one.id === topicId)!;
        return `- The question starting "${clip(oneLine(topic.prompt), 60)}": ${oneLine(rubric.text)}`;
      }),
    );
    parts.push(`For these questions, also judge the answers against the question's own rubric:\n${lines.join("\n")}`);
  }
  return parts.join("\n\n");
}

/** Whether a parsed file looks like a promptfoo configuration rather than a ModelJury one. */
export function isPromptfooConfig(config: unknown): boolean {
  return isObject(config) && "prompts" in config && "providers" in config;
}
