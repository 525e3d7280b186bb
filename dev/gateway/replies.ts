/**
 * Deterministic replies of the right shape for the prompts ModelJury sends.
 *
 * HOW A REQUEST IS CLASSIFIED. Only the system message(s) and the LAST user
 * message are read; together they are "the prompt". When that gives "anything
 * else" and the conversation has earlier user messages (the app's "that reply
 * could not be used, reply again" follow-up), the earlier user messages are
 * tried, latest first, and the first one that classifies is answered again.
 * Checks run in this order, first match wins (judge prompts may quote the
 * generation prompt, so they are checked before generation):
 *
 * 1. ranking — at least two distinct answer labels at the start of a line,
 *    `[A]`, `[B]`, … (one to three uppercase letters in square brackets,
 *    leading spaces allowed), AND the word "rank" ("rank", "ranking",
 *    "ranked") anywhere in the prompt.
 *    Reply: `{"ranking":["B","A",…],"explanation":"…"}` with every label
 *    exactly once, best first.
 *
 * 2. rating — a 1-to-10 scale ("1-10", "1–10", "1 to 10", "between 1 and
 *    10", "out of 10", "from 1 (poor) to 10"), AND "score"/"scores"/"rate"/
 *    "rating", AND at least one criterion
 *    name of convex/lib/criteria.ts (accuracy, creativity, clarity, …).
 *    The requested criteria are, in order of preference: the criterion names
 *    written as quoted JSON keys (`"accuracy"`); else those on a line starting
 *    with "criteria" / "evaluation criteria" (and the lines right under it up
 *    to a blank line); else every criterion named outside the answer; else
 *    `accuracy`.
 *    The answer being rated is, in order of preference: the block after a
 *    single `[A]` label; the text inside `<answer>…</answer>` or
 *    `<response>…</response>`; the block after a line starting "Answer:" or
 *    "Response:" (e.g. "Response to evaluate:"); else the whole user message.
 *    Reply: `{"scores":{"accuracy":7,…},"explanation":"…"}`, integers 1-10,
 *    exactly the requested criteria.
 *
 * 3. generation — "JSON array" anywhere in the prompt AND a count: "exactly
 *    N" (N in digits or one…ten), else "N responses" / "N distinct answers"
 *    (responses, answers, variations, versions, options), e.g. "Provide
 *    exactly 3 distinct responses as a JSON array of strings." N is capped at
 *    50. Reply: a JSON array of N distinct strings (fewer when the
 *    gateway's answerShortfall is set), wrapped in ```json fences on about
 *    one call in ten.
 *
 * 4. anything else — a short plain-text reply.
 *
 * An answer "block" (ranking and rating) starts after its label or header,
 * skips leading blank space, and ends at the next blank line, the next label
 * line, or a separator line (---, ===, ###, ```). The gateway's own answers
 * are single paragraphs, so this recovers them exactly.
 *
 * HOW JUDGES SCORE. A judge cannot know who wrote an answer, so answers carry
 * their writer's quality in their text: stronger models write more sentences
 * and more specific ones (with markers such as "for example", "because",
 * "in practice"). `answerTextScore` (judgeReplies.ts) reads that back; judges add seeded noise
 * (weaker judges are noisier), so stronger generators win more often, not always.
 */

import { EVALUATION_CRITERIA, type EvaluationCriterion } from "../../convex/lib/criteria";

export type ChatContentPart = { type: string; text?: string };
export interface ChatMessage {
  role: string;
  content: string | ChatContentPart[] | null;
}

/** The criteria a rating prompt can ask for: the app's registry, so a new criterion is scored here too. */
export const CRITERIA = EVALUATION_CRITERIA;
export type Criterion = EvaluationCriterion;
const CRITERIA_ALTERNATIVES = CRITERIA.join("|");

export type ClassifiedPrompt =
  | { kind: "generation"; count: number }
  | { kind: "ranking"; answers: { label: string; text: string }[] }
  | { kind: "rating"; criteria: Criterion[]; answer: string }
  | { kind: "text" };

export type ReplyKind = ClassifiedPrompt["kind"];

export interface PromptParts {
  system: string;
  user: string;
}

export function messageText(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) {
    return message.content.map((part) => (typeof part.text === "string" ? part.text : "")).join("\n");
  }
  return "";
}

export function promptParts(messages: readonly ChatMessage[]): PromptParts {
  const system = messages
    .filter((message) => message.role === "system" || message.role === "developer")
    .map(messageText)
    .join("\n\n");
  const lastUser = [...messages].reverse().find((message) => message.role === "user");
  return { system, user: lastUser ? messageText(lastUser) : "" };
}

// ── Classification ─────────────────────────────────────────────────────────

const LABEL_LINE = /^[ \t]*\[([A-Z]{1,3})\]/gm;
const RANK_WORD = /\brank(?:s|ing|ed)?\b/i;
const ONE_TO_TEN =
  /\b1\s*(?:-|–|—|to)\s*10\b|\bbetween\s+1\s+and\s+10\b|\bout\s+of\s+10\b|\bfrom\s+1\b[^.\n]{0,40}?\bto\s+10\b/i;
const SCORE_WORD = /\b(?:scores?|rate|rating)\b/i;
const CRITERION_WORD = new RegExp(`\\b(${CRITERIA_ALTERNATIVES})\\b`, "gi");
const NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const COUNT = `(\\d{1,3}|${NUMBER_WORDS.join("|")})`;
const EXACTLY_N = new RegExp(`\\bexactly\\s+${COUNT}\\b`, "i");
/** Fallback when "exactly" is missing: "3 distinct responses", "five answers". */
const N_RESPONSES = new RegExp(
  `\\b${COUNT}\\s+(?:distinct\\s+|different\\s+|unique\\s+|separate\\s+|alternative\\s+)?(?:responses|answers|variations|versions|options)\\b`,
  "i",
);

function countValue(text: string): number {
  const index = NUMBER_WORDS.indexOf(text.toLowerCase());
  return index >= 0 ? index + 1 : Number(text);
}
const JSON_ARRAY = /\bjson\s+array\b/i;
const SEPARATOR_LINE = /^\s*(?:-{3,}|={3,}|#{1,6}\s|#{1,6}$|```)/;
const ANSWER_HEADER = /^[ \t]*(?:the\s+)?(?:answer|response)\b(?![^:\n]*\bformat)[^:\n]{0,40}:[ \t]*/gim;
const ANSWER_TAG = /<(answer|response)\b[^>]*>([\s\S]*?)<\/\1>/i;

/** Reads one answer block starting at `start` (see the header comment). */
function readBlock(text: string, start: number): string {
  const rest = text.slice(start).replace(/^\s+/, "");
  const lines: string[] = [];
  for (const line of rest.split("\n")) {
    if (line.trim() === "") break;
    if (lines.length > 0 && (/^[ \t]*\[[A-Z]{1,3}\]/.test(line) || SEPARATOR_LINE.test(line))) break;
    lines.push(line);
  }
  return lines.join("\n").trim();
}

interface LabelledBlock {
  label: string;
  text: string;
  start: number;
  end: number;
}

function labelledBlocks(text: string): LabelledBlock[] {
  const blocks: LabelledBlock[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(LABEL_LINE)) {
    const label = match[1];
    if (label === undefined || seen.has(label)) continue;
    seen.add(label);
    const start = (match.index ?? 0) + match[0].length;
    const body = readBlock(text, start);
    blocks.push({ label, text: body, start: match.index ?? 0, end: start + body.length });
  }
  return blocks;
}

function uniqueCriteria(words: Iterable<string>): Criterion[] {
  const found: Criterion[] = [];
  for (const word of words) {
    const criterion = word.toLowerCase() as Criterion;
    if ((CRITERIA as readonly string[]).includes(criterion) && !found.includes(criterion)) found.push(criterion);
  }
  return found;
}

function requestedCriteria(instructions: string): Criterion[] {
  const quoted = uniqueCriteria(
    [...instructions.matchAll(new RegExp(`"(${CRITERIA_ALTERNATIVES})"`, "gi"))].map((m) => m[1] ?? ""),
  );
  if (quoted.length > 0) return quoted;

  const criteriaLine = /^[ \t]*(?:[-*#]+\s*)?(?:evaluation\s+|scoring\s+)?criteria\b.*$/im.exec(instructions);
  if (criteriaLine) {
    const section = [criteriaLine[0]];
    const after = instructions
      .slice(criteriaLine.index + criteriaLine[0].length)
      .split("\n")
      .slice(1);
    for (const line of after) {
      if (line.trim() === "") break;
      section.push(line);
    }
    const listed = uniqueCriteria([...section.join("\n").matchAll(CRITERION_WORD)].map((m) => m[1] ?? ""));
    if (listed.length > 0) return listed;
  }

  const named = uniqueCriteria([...instructions.matchAll(CRITERION_WORD)].map((m) => m[1] ?? ""));
  return named.length > 0 ? named : ["accuracy"];
}

/** The answer under evaluation and the prompt with that answer cut out. */
function answerForRating(parts: PromptParts): { answer: string; instructions: string } {
  const cut = (text: string, start: number, end: number) => text.slice(0, start) + text.slice(end);

  const labelled = labelledBlocks(parts.user);
  const single = labelled[0];
  if (labelled.length === 1 && single) {
    return { answer: single.text, instructions: `${parts.system}\n${cut(parts.user, single.start, single.end)}` };
  }
  const tagged = ANSWER_TAG.exec(parts.user);
  if (tagged) {
    const end = tagged.index + tagged[0].length;
    return { answer: (tagged[2] ?? "").trim(), instructions: `${parts.system}\n${cut(parts.user, tagged.index, end)}` };
  }
  for (const header of parts.user.matchAll(ANSWER_HEADER)) {
    const start = (header.index ?? 0) + header[0].length;
    const answer = readBlock(parts.user, start);
    if (answer.length === 0) continue;
    const end = parts.user.indexOf(answer, start) + answer.length;
    return { answer, instructions: `${parts.system}\n${cut(parts.user, header.index ?? 0, end)}` };
  }
  return { answer: parts.user, instructions: parts.system || parts.user };
}

export function classifyPrompt(parts: PromptParts): ClassifiedPrompt {
  const whole = `${parts.system}\n${parts.user}`;

  const labelled = labelledBlocks(parts.user);
  if (labelled.length >= 2 && RANK_WORD.test(whole)) {
    return { kind: "ranking", answers: labelled.map(({ label, text }) => ({ label, text })) };
  }

  if (ONE_TO_TEN.test(whole) && SCORE_WORD.test(whole) && new RegExp(CRITERION_WORD.source, "i").test(whole)) {
    const { answer, instructions } = answerForRating(parts);
    return { kind: "rating", criteria: requestedCriteria(instructions), answer };
  }

  const counted =
    EXACTLY_N.exec(parts.user) ??
    EXACTLY_N.exec(parts.system) ??
    N_RESPONSES.exec(parts.user) ??
    N_RESPONSES.exec(parts.system);
  if (counted && JSON_ARRAY.test(whole)) {
    const count = Math.min(50, Math.max(1, countValue(counted[1] ?? "1")));
    return { kind: "generation", count };
  }

  return { kind: "text" };
}

/**
 * Classifies a whole conversation (see the header comment): the last user
 * message, or for a follow-up such as "reply again in the format asked for",
 * the latest earlier user message that asked for something specific.
 */
export function classifyConversation(messages: readonly ChatMessage[]): {
  parts: PromptParts;
  request: ClassifiedPrompt;
} {
  const last = promptParts(messages);
  const request = classifyPrompt(last);
  if (request.kind !== "text") return { parts: last, request };
  const userMessages = messages.filter((message) => message.role === "user");
  for (let index = userMessages.length - 2; index >= 0; index--) {
    const message = userMessages[index];
    if (!message) continue;
    const parts = { system: last.system, user: messageText(message) };
    const earlier = classifyPrompt(parts);
    if (earlier.kind !== "text") return { parts, request: earlier };
  }
  return { parts: last, request };
}
