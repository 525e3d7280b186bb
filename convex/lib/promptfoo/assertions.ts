// promptfoo assertions as ModelJury checks or rubrics, and the rubrics as the evaluation prompt.
import { parse as parseYaml } from "yaml";
import { DEFAULT_RANKING_PROMPT } from "../prompts";
import { asList, clip, type Context, isObject, type Json, oneLine, refuse, type Where } from "./context";
import { SCRIPT, splitFunction } from "./files";
import { renderText, type Vars } from "./render";
import { type ImportedCheck, type ImportedRubric } from "./types";

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

export type CheckBody = Omit<ImportedCheck, "id" | "topicId">;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const RUBRIC_TYPES = ["llm-rubric", "g-eval", "model-graded-closedqa", "select-best"];

/** What an assertion (its value rendered) is for ModelJury: checks, a rubric, or why it is left out. */
export function assertionOf(
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
export function flatAssertions(asserts: unknown[]): unknown[] {
  return asserts.flatMap((assertion) =>
    isObject(assertion) && assertion.type === "assert-set" ? flatAssertions(asList(assertion.assert)) : [assertion],
  );
}

/** An assertion's value: rendered with the test's vars (promptfoo renders text values), a file:// value read. */
export function assertionValue(
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

/** The evaluation prompt: the default, the rubrics every topic shares, then each topic's own, named with it. */
export function rankingPromptOf(rubrics: ImportedRubric[], topics: readonly { id: string; prompt: string }[]): string {
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
