// Checks on every answer: plain facts about an answer (contains, matches a pattern, is valid JSON,
// fits a JSON Schema, stays within a length, a latency or a cost), tested when the answer is
// recorded and before any judge reads it. User patterns run on re2js (RE2: linear time, no
// backtracking) and schemas on @cfworker/json-schema (interpreted, no code generated), so no
// check can stall the backend. Patterns inside a schema would run on the JavaScript engine's
// backtracking RegExp, so a schema that uses them is refused.
import { Validator, type Schema } from "@cfworker/json-schema";
import { RE2JS } from "re2js";
import type { AnswerCheck, TemplateCheck } from "../validators";
import { CHECK_LIMITS } from "./limits";
import type { Problem } from "./types";

export type { AnswerCheck, TemplateCheck } from "../validators";
export type CheckKind = AnswerCheck["kind"];

/** The kinds in the order the setup offers them, with their labels. */
export const CHECK_KINDS: readonly { kind: CheckKind; label: string }[] = [
  { kind: "contains", label: "Contains" },
  { kind: "notContains", label: "Does not contain" },
  { kind: "regex", label: "Matches a regular expression" },
  { kind: "startsWith", label: "Starts with" },
  { kind: "json", label: "Is valid JSON" },
  { kind: "jsonSchema", label: "Matches a JSON Schema" },
  { kind: "length", label: "Length within a range" },
  { kind: "latency", label: "Latency at most" },
  { kind: "cost", label: "Cost at most" },
];

const TEXT_KINDS: readonly CheckKind[] = ["contains", "notContains", "startsWith"];

/** Kinds whose `value` the user writes. */
export function takesValue(kind: CheckKind): boolean {
  return TEXT_KINDS.includes(kind) || kind === "regex" || kind === "jsonSchema";
}

/** Kinds with a case option. */
export function takesCase(kind: CheckKind): boolean {
  return TEXT_KINDS.includes(kind);
}

/** What an answer brings to its checks. */
export interface CheckedAnswer {
  readonly content: string;
  readonly topicId: string;
  readonly latencyMs: number;
  readonly costUsd: number;
}

export type CheckOutcome = { readonly pass: true } | { readonly pass: false; readonly reason: string };

export interface CheckFailure {
  readonly checkId: string;
  readonly reason: string;
}

function quoted(text: string, max = 40): string {
  return `"${text.length > max ? `${text.slice(0, max)}…` : text}"`;
}

function trimNumber(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

export function formatSeconds(ms: number): string {
  return `${trimNumber(ms / 1000, 2)} s`;
}

export function formatDollars(usd: number): string {
  return `$${trimNumber(usd, 6)}`;
}

/** Words: runs of characters between whitespace. */
export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/u).length;
}

/** A short name for a check, for the results, the exports and the setup list. */
export function checkLabel(check: AnswerCheck, topicName?: (topicId: string) => string | undefined): string {
  const value = check.value ?? "";
  const caseNote = takesCase(check.kind) && check.caseSensitive ? " (case-sensitive)" : "";
  let label: string;
  switch (check.kind) {
    case "contains":
      label = `contains ${quoted(value)}${caseNote}`;
      break;
    case "notContains":
      label = `does not contain ${quoted(value)}${caseNote}`;
      break;
    case "startsWith":
      label = `starts with ${quoted(value)}${caseNote}`;
      break;
    case "regex":
      label = `matches /${value.length > 40 ? `${value.slice(0, 40)}…` : value}/`;
      break;
    case "json":
      label = "is valid JSON";
      break;
    case "jsonSchema":
      label = "matches the JSON Schema";
      break;
    case "length": {
      const unit = check.unit ?? "words";
      if (check.min !== undefined && check.max !== undefined) label = `${check.min}–${check.max} ${unit}`;
      else if (check.min !== undefined) label = `at least ${check.min} ${unit}`;
      else label = `at most ${check.max ?? 0} ${unit}`;
      break;
    }
    case "latency":
      label = `latency at most ${formatSeconds(check.max ?? 0)}`;
      break;
    case "cost":
      label = `cost at most ${formatDollars(check.max ?? 0)}`;
      break;
  }
  if (check.topicId !== undefined) label += ` (topic: ${topicName?.(check.topicId) ?? check.topicId})`;
  return label;
}

/** The compiled pattern, or the reason it does not compile. */
export function compilePattern(pattern: string): { ok: true; regex: RE2JS } | { ok: false; message: string } {
  try {
    return { ok: true, regex: RE2JS.compile(pattern) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

const SCHEMA_TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);
/** Keywords whose value is data, not a schema: not walked. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
const COUNT_KEYWORDS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/** The first problem with a schema's keywords, or null. */
function schemaShapeProblem(schema: unknown, path: string): string | null {
  if (typeof schema === "boolean") return null;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return `${path || "The schema"} must be an object or true/false.`;
  }
  const record = schema as Record<string, unknown>;
  const at = (key: string) => (path ? `${path}/${key}` : key);
  if ("pattern" in record && typeof record.pattern === "string") {
    return `'${at("pattern")}': patterns inside a schema are not supported; add a "Matches a regular expression" check instead.`;
  }
  if ("patternProperties" in record) {
    return `'${at("patternProperties")}': patterns inside a schema are not supported.`;
  }
  if ("type" in record) {
    const types = Array.isArray(record.type) ? record.type : [record.type];
    if (types.length === 0 || !types.every((type) => typeof type === "string" && SCHEMA_TYPES.has(type))) {
      return `'${at("type")}' must be one of ${[...SCHEMA_TYPES].join(", ")}.`;
    }
  }
  if ("required" in record) {
    if (!Array.isArray(record.required) || !record.required.every((name) => typeof name === "string")) {
      return `'${at("required")}' must be a list of property names.`;
    }
  }
  for (const key of COUNT_KEYWORDS) {
    if (key in record && !(Number.isInteger(record[key]) && (record[key] as number) >= 0)) {
      return `'${at(key)}' must be a whole number.`;
    }
  }
  for (const key of NUMBER_KEYWORDS) {
    if (key in record && typeof record[key] !== "number" && typeof record[key] !== "boolean") {
      return `'${at(key)}' must be a number.`;
    }
  }
  if ("enum" in record && !Array.isArray(record.enum)) return `'${at("enum")}' must be a list.`;
  for (const [key, value] of Object.entries(record)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (["properties", "$defs", "definitions", "dependentSchemas"].includes(key)) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return `'${at(key)}' must be an object.`;
      for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
        const problem = schemaShapeProblem(sub, `${at(key)}/${name}`);
        if (problem) return problem;
      }
    } else if (["allOf", "anyOf", "oneOf", "prefixItems"].includes(key)) {
      if (!Array.isArray(value)) return `'${at(key)}' must be a list of schemas.`;
      for (const [index, sub] of value.entries()) {
        const problem = schemaShapeProblem(sub, `${at(key)}/${index}`);
        if (problem) return problem;
      }
    } else if (
      [
        "items",
        "additionalItems",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
      ].includes(key)
    ) {
      const subs = Array.isArray(value) ? value : [value];
      for (const [index, sub] of subs.entries()) {
        const problem = schemaShapeProblem(sub, Array.isArray(value) ? `${at(key)}/${index}` : at(key));
        if (problem) return problem;
      }
    }
  }
  return null;
}

/** The first "$ref" that does not point inside the schema, or null. */
function unresolvedRef(root: unknown, node: unknown = root): string | null {
  if (typeof node !== "object" || node === null) return null;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === "$ref" && typeof value === "string") {
      if (!value.startsWith("#")) return `'${value}': only references inside the schema ("#/…") are supported.`;
      if (value.startsWith("#/") || value === "#") {
        let target: unknown = root;
        for (const part of value.slice(2).split("/").filter(Boolean)) {
          const name = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
          target =
            typeof target === "object" && target !== null ? (target as Record<string, unknown>)[name] : undefined;
        }
        if (target === undefined) return `'${value}' points to nothing in the schema.`;
      }
    } else {
      const problem = unresolvedRef(root, value);
      if (problem) return problem;
    }
  }
  return null;
}

/** The compiled schema, or the reason it does not compile. */
export function compileSchema(text: string): { ok: true; validator: Validator } | { ok: false; message: string } {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return { ok: false, message: "This schema is not valid JSON." };
  }
  const problem = schemaShapeProblem(schema, "") ?? unresolvedRef(schema);
  if (problem) return { ok: false, message: `This schema does not compile: ${problem}` };
  try {
    const validator = new Validator(schema as Schema | boolean, "2020-12", false);
    // Unresolvable references surface on use: try the schema once on a few values.
    for (const sample of [null, {}, [], "", 0]) validator.validate(sample);
    return { ok: true, validator };
  } catch (error) {
    return {
      ok: false,
      message: `This schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function isWhole(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value);
}

/**
 * Everything wrong with a test's checks, field by field ("checks.2.value"); empty when they can
 * run. `topicIds` are the test's topics: a check scoped to a topic must name one of them.
 */
export function checkProblems(
  checks: readonly AnswerCheck[] | undefined,
  topicIds: readonly (string | undefined)[],
  fieldPrefix = "checks",
): Problem[] {
  const problems: Problem[] = [];
  if (!checks || checks.length === 0) return problems;
  if (checks.length > CHECK_LIMITS.maxChecks) {
    problems.push({ field: fieldPrefix, message: `Add at most ${CHECK_LIMITS.maxChecks} checks.` });
    return problems;
  }
  const ids = checks.map((check) => check.id);
  if (ids.some((id) => !id.trim() || id.length > 100) || new Set(ids).size !== ids.length) {
    problems.push({ field: fieldPrefix, message: "Each check needs its own id." });
  }
  checks.forEach((check, index) => {
    const field = (name: string) => `${fieldPrefix}.${index}.${name}`;
    const push = (name: string, message: string) =>
      problems.push({ field: field(name), message: `Check ${index + 1}: ${message}` });
    const value = check.value ?? "";
    if (takesValue(check.kind)) {
      const max = check.kind === "jsonSchema" ? CHECK_LIMITS.maxSchemaLength : CHECK_LIMITS.maxTextLength;
      if (value === "") {
        push(
          "value",
          check.kind === "regex"
            ? "Enter a pattern."
            : check.kind === "jsonSchema"
              ? "Enter a JSON Schema."
              : "Enter the text to look for.",
        );
      } else if (value.length > max) {
        push("value", `must be at most ${max.toLocaleString("en-US")} characters.`);
      } else if (check.kind === "regex") {
        const compiled = compilePattern(value);
        if (!compiled.ok) push("value", `This pattern does not compile: ${compiled.message}`);
      } else if (check.kind === "jsonSchema") {
        const compiled = compileSchema(value);
        if (!compiled.ok) push("value", compiled.message);
      }
    }
    if (check.kind === "length") {
      if (check.min === undefined && check.max === undefined) push("min", "Enter a minimum, a maximum or both.");
      for (const bound of ["min", "max"] as const) {
        const number = check[bound];
        if (number !== undefined && !(isWhole(number) && number >= 0 && number <= CHECK_LIMITS.maxLength)) {
          push(
            bound,
            `The ${bound === "min" ? "minimum" : "maximum"} must be a whole number from 0 to ${CHECK_LIMITS.maxLength.toLocaleString("en-US")}.`,
          );
        }
      }
      if (isWhole(check.min) && isWhole(check.max) && check.min > check.max) {
        push("max", "The maximum must not be below the minimum.");
      }
    }
    if (check.kind === "latency" || check.kind === "cost") {
      const limit = check.kind === "latency" ? CHECK_LIMITS.maxLatencyMs : CHECK_LIMITS.maxCostUsd;
      const number = check.max;
      if (number === undefined || !Number.isFinite(number) || number <= 0 || number > limit) {
        push(
          "max",
          check.kind === "latency"
            ? `The latency must be above 0 and at most ${formatSeconds(limit)}.`
            : `The cost must be above $0 and at most ${formatDollars(limit)}.`,
        );
      }
    }
    if (check.topicId !== undefined && !topicIds.includes(check.topicId)) {
      push("topicId", "its topic is not part of this test.");
    }
  });
  return problems;
}

/** A template's checks: the same rules, a topic named by its place in the template's topics. */
export function templateCheckProblems(checks: readonly TemplateCheck[] | undefined, topicCount: number): Problem[] {
  if (!checks) return [];
  const asTestChecks = checks.map(({ topicIndex, ...check }) =>
    topicIndex === undefined ? check : { ...check, topicId: String(topicIndex) },
  );
  const topicIds = Array.from({ length: topicCount }, (_, index) => String(index));
  return checkProblems(asTestChecks, topicIds, "templateData.checks");
}

/** A test's checks as a template stores them (topic by place), and back. */
export function checksToTemplate(
  checks: readonly AnswerCheck[] | undefined,
  topicIds: readonly (string | undefined)[],
): TemplateCheck[] {
  return (checks ?? []).flatMap(({ topicId, ...check }) => {
    if (topicId === undefined) return [check];
    const topicIndex = topicIds.indexOf(topicId);
    return topicIndex < 0 ? [] : [{ ...check, topicIndex }];
  });
}

export function checksFromTemplate(
  checks: readonly TemplateCheck[] | undefined,
  topicIds: readonly string[],
): AnswerCheck[] {
  return (checks ?? []).flatMap(({ topicIndex, ...check }) => {
    if (topicIndex === undefined) return [check];
    const topicId = topicIds[topicIndex];
    return topicId === undefined ? [] : [{ ...check, topicId }];
  });
}

/** Whether a check applies to an answer on this topic. */
export function appliesTo(check: AnswerCheck, topicId: string): boolean {
  return check.topicId === undefined || check.topicId === topicId;
}

function includes(content: string, text: string, caseSensitive: boolean): boolean {
  return caseSensitive ? content.includes(text) : content.toLowerCase().includes(text.toLowerCase());
}

function startsWith(content: string, text: string, caseSensitive: boolean): boolean {
  const start = content.trimStart();
  return caseSensitive ? start.startsWith(text) : start.toLowerCase().startsWith(text.toLowerCase());
}

function parseJson(content: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(content.trim()) };
  } catch {
    return { ok: false };
  }
}

const REQUIRED_PROPERTY = /required property "([^"]*)"/u;

/** The first schema error in plain words ("missing property 'title'"). */
function schemaReason(errors: readonly { keyword: string; instanceLocation: string; error: string }[]): string {
  const leaf =
    errors.find((error) => error.keyword === "required") ??
    errors.find((error) => !["properties", "items", "allOf", "anyOf", "oneOf", "$ref"].includes(error.keyword)) ??
    errors[0];
  if (!leaf) return "does not match the schema";
  const location = leaf.instanceLocation.replace(/^#/u, "") || "";
  if (leaf.keyword === "required") {
    const name = REQUIRED_PROPERTY.exec(leaf.error)?.[1] ?? "?";
    return `missing property '${name}'${location ? ` in ${location}` : ""}`;
  }
  return `${location ? `${location}: ` : ""}${leaf.error.replace(/\.$/u, "")}`;
}

/** A check's compiled form, made once per check and reused for every answer. */
type Compiled = { check: AnswerCheck; regex?: RE2JS; validator?: Validator; invalid?: string };

function compile(check: AnswerCheck): Compiled {
  if (check.kind === "regex") {
    const result = compilePattern(check.value ?? "");
    return result.ok ? { check, regex: result.regex } : { check, invalid: result.message };
  }
  if (check.kind === "jsonSchema") {
    const result = compileSchema(check.value ?? "");
    return result.ok ? { check, validator: result.validator } : { check, invalid: result.message };
  }
  return { check };
}

function run(compiled: Compiled, answer: CheckedAnswer): CheckOutcome {
  const { check } = compiled;
  const value = check.value ?? "";
  const caseSensitive = check.caseSensitive === true;
  const fail = (reason: string): CheckOutcome => ({ pass: false, reason });
  const ok: CheckOutcome = { pass: true };
  if (compiled.invalid !== undefined) return fail(compiled.invalid);
  switch (check.kind) {
    case "contains":
      return includes(answer.content, value, caseSensitive) ? ok : fail(`does not contain ${quoted(value)}`);
    case "notContains":
      return includes(answer.content, value, caseSensitive) ? fail(`contains ${quoted(value)}`) : ok;
    case "startsWith":
      return startsWith(answer.content, value, caseSensitive) ? ok : fail(`does not start with ${quoted(value)}`);
    case "regex":
      return compiled.regex?.matcher(answer.content).find() ? ok : fail(`no match for /${value}/`);
    case "json":
      return parseJson(answer.content).ok ? ok : fail("not valid JSON");
    case "jsonSchema": {
      const parsed = parseJson(answer.content);
      if (!parsed.ok) return fail("not valid JSON");
      const result = compiled.validator?.validate(parsed.value);
      return !result || result.valid ? ok : fail(schemaReason(result.errors));
    }
    case "length": {
      const unit = check.unit ?? "words";
      const size = unit === "words" ? wordCount(answer.content) : [...answer.content].length;
      if (check.min !== undefined && size < check.min) return fail(`${size} ${unit}, fewer than ${check.min}`);
      if (check.max !== undefined && size > check.max) return fail(`${size} ${unit}, more than ${check.max}`);
      return ok;
    }
    case "latency":
      return answer.latencyMs <= (check.max ?? 0)
        ? ok
        : fail(`took ${formatSeconds(answer.latencyMs)}, more than ${formatSeconds(check.max ?? 0)}`);
    case "cost":
      return answer.costUsd <= (check.max ?? 0)
        ? ok
        : fail(`cost ${formatDollars(answer.costUsd)}, more than ${formatDollars(check.max ?? 0)}`);
  }
}

/** One check on one answer. */
export function evaluateCheck(check: AnswerCheck, answer: CheckedAnswer): CheckOutcome {
  return run(compile(check), answer);
}

/** What checking an answer found: the checks that applied to it and why each failed one failed. */
export interface AnswerCheckResult {
  readonly applied: readonly string[];
  readonly failures: readonly CheckFailure[];
}

/**
 * Runs a test's checks on answers (one gateway call's answers share the compiled checks): each
 * answer gets the ids of the checks that applied to its topic and the reasons of those it failed.
 */
export function checkAnswers(
  checks: readonly AnswerCheck[] | undefined,
  answers: readonly CheckedAnswer[],
): AnswerCheckResult[] {
  if (!checks || checks.length === 0) return answers.map(() => ({ applied: [], failures: [] }));
  const compiled = checks.map(compile);
  return answers.map((answer) => {
    const applied: string[] = [];
    const failures: CheckFailure[] = [];
    for (const entry of compiled) {
      if (!appliesTo(entry.check, answer.topicId)) continue;
      applied.push(entry.check.id);
      const outcome = run(entry, answer);
      if (!outcome.pass) failures.push({ checkId: entry.check.id, reason: outcome.reason });
    }
    return { applied, failures };
  });
}

/** The lowest score a judge can give on the rating scale (1–10). */
export const LOWEST_RATING = 1;

/**
 * "An answer that fails a check ranks last", applied to the jury's verdicts before the statistics:
 * in each judge's ranking the failing answers move below every passing one (keeping the judge's
 * order among themselves), and in rating every score of a failing answer becomes the lowest, 1.
 * Everything else (the order answers were shown in, costs) stays as the judge returned it.
 */
export function failedChecksLast<
  Input extends {
    readonly rankings: readonly { readonly ranking: readonly string[] }[];
    readonly ratings: readonly { readonly responseId: string; readonly scores: Readonly<Record<string, number>> }[];
  },
>(input: Input, failing: ReadonlySet<string>): Input {
  if (failing.size === 0) return input;
  return {
    ...input,
    rankings: input.rankings.map((ranking) => ({
      ...ranking,
      ranking: [
        ...ranking.ranking.filter((id) => !failing.has(id)),
        ...ranking.ranking.filter((id) => failing.has(id)),
      ],
    })),
    ratings: input.ratings.map((rating) =>
      failing.has(rating.responseId)
        ? {
            ...rating,
            scores: Object.fromEntries(Object.keys(rating.scores).map((criterion) => [criterion, LOWEST_RATING])),
          }
        : rating,
    ),
  };
}
