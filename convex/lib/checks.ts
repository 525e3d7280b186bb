// Checks on every answer: plain facts about an answer (contains, matches a pattern, is valid JSON,
// fits a JSON Schema, stays within a length, a latency or a cost), tested when the answer is
// recorded and before any judge reads it. User patterns run on re2js (RE2: linear time, no
// backtracking) and schemas on @cfworker/json-schema (interpreted, no code generated), so no
// check can stall the backend. Patterns inside a schema would run on the JavaScript engine's
// backtracking RegExp, so a schema that uses them is refused.
import { Validator } from "@cfworker/json-schema";
import { RE2JS } from "re2js";
import type { AnswerCheck } from "../validators";
import { compilePattern, compileSchema } from "./checkCompile";

export type { AnswerCheck } from "../validators";
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
