// Parsing of model replies with zod. Replies are untrusted text: code fences, leading prose,
// raw newlines inside strings and trailing commas are tolerated; anything else is reported as
// malformed with a reason that can be sent back to the model (prompts.buildRetryMessages).
// Missing answers are never padded with filler (ARCHITECTURE §4): callers learn how many are
// missing and ask again.
import { z } from "zod";
import { RATING_MAX, RATING_MIN } from "./prompts";

/** At most this many JSON candidates are tried per reply, to bound the work on huge replies. */
const MAX_CANDIDATES = 20;

/** The inside of a ```json … ``` (or bare ```) fence when the reply has one, else the reply. */
function unfence(text: string): string {
  const fenced = /```[a-zA-Z0-9_-]*[ \t]*\r?\n([\s\S]*?)```/.exec(text);
  return (fenced ? fenced[1] : text).trim();
}

/**
 * Makes common near-JSON valid: escapes raw control characters inside strings and drops
 * trailing commas before a closing bracket.
 */
function repairJson(text: string): string {
  let output = "";
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      else if (char === "\n") {
        output += "\\n";
        continue;
      } else if (char === "\r") {
        output += "\\r";
        continue;
      } else if (char === "\t") {
        output += "\\t";
        continue;
      }
      output += char;
      continue;
    }
    if (char === '"') inString = true;
    if (char === ",") {
      const rest = text.slice(index + 1).trimStart();
      if (rest.startsWith("]") || rest.startsWith("}")) continue;
    }
    output += char;
  }
  return output;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  for (const attempt of [text, repairJson(text)]) {
    try {
      return { ok: true, value: JSON.parse(attempt) as unknown };
    } catch {
      // try the repaired text next
    }
  }
  return { ok: false };
}

/** Balanced `open … close` spans of the text (string-aware), outermost first, in order. */
function jsonSpans(text: string, open: "[" | "{", close: "]" | "}"): string[] {
  const spans: string[] = [];
  let start = text.indexOf(open);
  while (start !== -1 && spans.length < MAX_CANDIDATES) {
    let depth = 0;
    let inString = false;
    let escaped = false;
    let end = -1;
    for (let index = start; index < text.length; index++) {
      const char = text[index];
      if (inString) {
        if (escaped) escaped = false;
        else if (char === "\\") escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '"') inString = true;
      else if (char === open) depth++;
      else if (char === close && --depth === 0) {
        end = index;
        break;
      }
    }
    if (end === -1) {
      // Unbalanced (e.g. a truncated reply): offer the rest of the text as one last candidate.
      spans.push(text.slice(start));
      break;
    }
    spans.push(text.slice(start, end + 1));
    start = text.indexOf(open, end + 1);
  }
  return spans;
}

/** Every JSON value of the given kind found in the reply, in order. */
function jsonValues(reply: string, kind: "array" | "object"): unknown[] {
  const text = unfence(reply);
  const spans = kind === "array" ? jsonSpans(text, "[", "]") : jsonSpans(text, "{", "}");
  const values: unknown[] = [];
  for (const span of spans) {
    const parsed = parseJson(span);
    if (parsed.ok) values.push(parsed.value);
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// Generation: a JSON array of strings.

const answerItemSchema = z.union([
  z.string(),
  z.object({ response: z.string() }).transform((item) => item.response),
  z.object({ text: z.string() }).transform((item) => item.text),
  z.object({ content: z.string() }).transform((item) => item.content),
  z.object({ answer: z.string() }).transform((item) => item.answer),
]);
const generationArraySchema = z.array(z.unknown()).min(1);
const generationWrapperSchema = z.record(z.string(), z.unknown());

export interface GenerationReply {
  /** Usable answers, trimmed, at most the number asked for. */
  readonly answers: string[];
  /** How many of the answers asked for are still missing. */
  readonly missing: number;
  /** The reply was not a JSON array of strings (the answers may still hold a fallback). */
  readonly malformed: boolean;
}

function answersFromArray(items: readonly unknown[]): string[] {
  return items
    .map((item) => answerItemSchema.safeParse(item))
    .filter((result) => result.success)
    .map((result) => result.data.trim())
    .filter((answer) => answer.length > 0);
}

/**
 * Reads a batch generation reply. The answers are the strings of the first JSON array in the
 * reply (a `{"responses": [...]}` wrapper and `{ "response": "..." }` items are accepted too).
 * When no such array is found the reply is malformed; if a single answer was asked for, the
 * whole reply text is taken as that answer, since a model that ignores the format usually just
 * answers. Nothing is split on lines or padded.
 */
export function parseGenerationReply(reply: string, expectedCount: number): GenerationReply {
  const wanted = Math.max(1, Math.floor(expectedCount));
  const arrays: unknown[][] = [];
  for (const value of jsonValues(reply, "array")) {
    const parsed = generationArraySchema.safeParse(value);
    if (parsed.success) arrays.push(parsed.data);
  }
  if (arrays.length === 0) {
    for (const value of jsonValues(reply, "object")) {
      const parsed = generationWrapperSchema.safeParse(value);
      if (!parsed.success) continue;
      const inner = Object.values(parsed.data).find((entry) => Array.isArray(entry) && entry.length > 0);
      if (inner) arrays.push(inner as unknown[]);
    }
  }
  for (const items of arrays) {
    const answers = answersFromArray(items).slice(0, wanted);
    if (answers.length > 0) return { answers, missing: wanted - answers.length, malformed: false };
  }
  const text = unfence(reply);
  if (wanted === 1 && text.length > 0) return { answers: [text], missing: 0, malformed: true };
  return { answers: [], missing: wanted, malformed: true };
}

// ---------------------------------------------------------------------------------------------
// Ranking: {"ranking": ["B", "A", ...], "explanation": "..."} with every label exactly once.

const rankingReplySchema = z.object({
  ranking: z.array(z.union([z.string(), z.number()])),
  explanation: z.string().optional().catch(undefined),
});

export type RankingReply =
  | { readonly malformed: false; readonly ranking: string[]; readonly explanation: string }
  | { readonly malformed: true; readonly reason: string };

/** '[b]', ' B ', 'Answer B' → 'B'. */
function normalizeLabel(value: string | number): string {
  const label = String(value)
    .trim()
    .replace(/^answer\s+/i, "")
    .trim();
  // '[b]' → 'b' without a pattern (the old /^\[\s*(.*?)\s*\]$/ was cubic on '[' + spaces).
  const unbracketed = label.length >= 2 && label.startsWith("[") && label.endsWith("]") ? label.slice(1, -1) : label;
  return unbracketed.trim().toUpperCase();
}

function checkRanking(ranking: readonly string[], labels: readonly string[]): string | null {
  const expected = `The ranking must list each of ${labels.join(", ")} exactly once, best first.`;
  const known = new Set(labels);
  const unknown = ranking.filter((label) => !known.has(label));
  if (unknown.length > 0) return `${expected} Unknown label: ${unknown[0] || "(empty)"}.`;
  const seen = new Set<string>();
  for (const label of ranking) {
    if (seen.has(label)) return `${expected} ${label} appears more than once.`;
    seen.add(label);
  }
  const missing = labels.filter((label) => !seen.has(label));
  if (missing.length > 0) return `${expected} Missing: ${missing.join(", ")}.`;
  return null;
}

/** Reads a ranking reply against the labels the judge was shown. */
export function parseRankingReply(reply: string, labels: readonly string[]): RankingReply {
  const wanted = labels.map(normalizeLabel);
  let firstProblem: string | null = null;
  for (const value of jsonValues(reply, "object")) {
    const parsed = rankingReplySchema.safeParse(value);
    if (!parsed.success) continue;
    const ranking = parsed.data.ranking.map(normalizeLabel);
    const problem = checkRanking(ranking, wanted);
    if (problem === null) return { malformed: false, ranking, explanation: parsed.data.explanation?.trim() ?? "" };
    firstProblem ??= problem;
  }
  return {
    malformed: true,
    reason: firstProblem ?? `No JSON object with a "ranking" list was found.`,
  };
}

// ---------------------------------------------------------------------------------------------
// Rating: {"scores": {"accuracy": 8, ...}, "explanation": "..."} with exactly the criteria.

const scoreValueSchema = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);
const ratingReplySchema = z.object({
  scores: z.record(z.string(), z.unknown()),
  explanation: z.string().optional().catch(undefined),
});
const flatRatingSchema = z.record(z.string(), z.unknown());

export type RatingReply =
  | { readonly malformed: false; readonly scores: Record<string, number>; readonly explanation: string }
  | { readonly malformed: true; readonly reason: string };

function checkScores(
  rawScores: Readonly<Record<string, unknown>>,
  criteria: readonly string[],
): { scores: Record<string, number> } | { problem: string } {
  const expected = `"scores" must have exactly ${criteria.join(", ")}, each a number from ${RATING_MIN} to ${RATING_MAX}.`;
  const wanted = new Set(criteria);
  const scores: Record<string, number> = {};
  for (const [rawKey, rawValue] of Object.entries(rawScores)) {
    const key = rawKey.trim().toLowerCase();
    if (!wanted.has(key)) return { problem: `${expected} Unexpected key: ${rawKey}.` };
    if (Object.hasOwn(scores, key)) return { problem: `${expected} ${key} is given twice.` };
    const value = scoreValueSchema.safeParse(rawValue);
    if (!value.success || !Number.isFinite(value.data) || value.data < RATING_MIN || value.data > RATING_MAX) {
      return { problem: `${expected} ${key} is ${JSON.stringify(rawValue) ?? "missing"}.` };
    }
    scores[key] = value.data;
  }
  const missing = criteria.filter((criterion) => !Object.hasOwn(scores, criterion));
  if (missing.length > 0) return { problem: `${expected} Missing: ${missing.join(", ")}.` };
  return { scores };
}

/**
 * Reads a rating reply: exactly the given criteria (keys compared case-insensitively), each a
 * number from 1 to 10 (numeric strings accepted). A bare `{"accuracy": 8}` without the
 * "scores" wrapper is accepted too.
 */
export function parseRatingReply(reply: string, criteria: readonly string[]): RatingReply {
  const wanted = criteria.map((criterion) => criterion.trim().toLowerCase());
  let firstProblem: string | null = null;
  for (const value of jsonValues(reply, "object")) {
    const wrapped = ratingReplySchema.safeParse(value);
    let rawScores: Record<string, unknown> | null = null;
    let explanation = "";
    if (wrapped.success) {
      rawScores = wrapped.data.scores;
      explanation = wrapped.data.explanation?.trim() ?? "";
    } else {
      const flat = flatRatingSchema.safeParse(value);
      if (
        flat.success &&
        wanted.some((criterion) => Object.keys(flat.data).some((key) => key.trim().toLowerCase() === criterion))
      ) {
        const { explanation: flatExplanation, ...rest } = flat.data;
        rawScores = rest;
        explanation = typeof flatExplanation === "string" ? flatExplanation.trim() : "";
      }
    }
    if (!rawScores) continue;
    const checked = checkScores(rawScores, wanted);
    if ("scores" in checked) return { malformed: false, scores: checked.scores, explanation };
    firstProblem ??= checked.problem;
  }
  return { malformed: true, reason: firstProblem ?? `No JSON object with "scores" was found.` };
}
