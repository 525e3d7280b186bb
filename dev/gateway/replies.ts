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
 * "in practice"). `answerTextScore` reads that back; judges add seeded noise
 * (weaker judges are noisier), so stronger generators win more often, not always.
 */

import { EVALUATION_CRITERIA, type EvaluationCriterion } from "../../convex/lib/criteria";
import { FAIR_JUDGE, modelFamily, type CatalogModel, type JudgeProfile } from "./catalog";
import { createRandom, hashStrings, pick, unitFromStrings, type Random } from "./random";

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

// ── Words from the prompt ──────────────────────────────────────────────────

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but
  by can could did do does doing down during each few for from further had has have having he her here hers herself him
  himself his how i if in into is it its itself just let me more most my myself no nor not now of off on once only or
  other our ours ourselves out over own same she should so some such than that the their theirs them themselves then
  there these they this those through to too under until up very was we were what when where which while who whom why
  will with would you your yours yourself yourselves make makes made like using use used want wants need needs one two
  three four five six seven eight nine ten get gets way ways thing things something anything everything really well
  much many sure keep every able within without across upon still yet ever even though although however whether`
    .split(/\s+/)
    .filter(Boolean),
);

/** Instruction vocabulary: never echoed back as topic words. */
const INSTRUCTION_WORDS = new Set(
  `exactly distinct different unique response responses answer answers json array arrays string strings format formatted
  provide return output write generate please each item items list object reply respond following below above prompt
  user system assistant only valid text quotes markdown code fence fences separate element elements number numbered
  task instructions instruction given`
    .split(/\s+/)
    .filter(Boolean),
);

/** Common verbs and modifiers that make poor topic phrases on their own. */
const WEAK_WORDS = new Set(
  `write writes writing describe explain create based include includes give best good great simple short
  long brief aimed target targeted focus focused focusing help helps consider think know tell show hello thanks thank
  new better quick quickly clear clearly topic persona style tone voice promoting promote suggest suggests recommend
  compose draft craft produce saves save`
    .split(/\s+/)
    .filter(Boolean),
);

const INSTRUCTION_SENTENCE = /\b(?:json|array|exactly\s+\d+|respond|reply|return only|output only|format)\b/i;

function isContentWord(word: string): boolean {
  return word.length >= 3 && !STOPWORDS.has(word) && !INSTRUCTION_WORDS.has(word) && !word.includes("'");
}

/** The topic phrases of one paragraph, in order: each run of content words gives its last one or two words. */
function paragraphPhrases(paragraph: string): string[] {
  const phrases: string[] = [];
  const sentences = paragraph.split(/(?<=[.!?])\s+|\n+/).filter((sentence) => !INSTRUCTION_SENTENCE.test(sentence));
  for (const segment of sentences.join("\n").split(/[,.;:!?()[\]{}"\u201c\u201d\n/–—]|\s-\s/)) {
    let run: string[] = [];
    const flush = () => {
      while (run.length > 0 && WEAK_WORDS.has(run[run.length - 1] ?? "")) run.pop();
      const head = run.slice(-2);
      if (head.length === 2 && WEAK_WORDS.has(head[0] ?? "")) head.shift();
      const phrase = head.join(" ");
      if (phrase && !phrases.includes(phrase)) phrases.push(phrase);
      run = [];
    };
    for (const match of segment.matchAll(/[A-Za-z][A-Za-z'-]*[A-Za-z]|\S+/g)) {
      const word = match[0].toLowerCase();
      if (/^[a-z][a-z'-]*[a-z]$/.test(word) && isContentWord(word)) run.push(word);
      else flush();
    }
    flush();
  }
  return phrases;
}

/**
 * Topic phrases of the prompt ("a reusable coffee cup" → "coffee cup", English
 * heads coming last), instruction sentences left out. Paragraphs are taken in
 * turns starting from the last one, since the app writes the topic first and
 * the user's specific request after it; the first phrases lead every answer.
 */
export function topicWords(parts: PromptParts, limit = 10): string[] {
  const phrases: string[] = [];
  // The persona's own words only help when the user message has too few.
  for (const source of [parts.user, parts.system]) {
    if (source === parts.system && phrases.length >= 3) break;
    const paragraphs = source
      .split(/\n\s*\n/)
      .map(paragraphPhrases)
      .filter((list) => list.length > 0)
      .reverse();
    for (let turn = 0; paragraphs.some((list) => turn < list.length); turn++) {
      for (const list of paragraphs) {
        const phrase = list[turn];
        if (phrase && !phrases.includes(phrase) && phrases.length < limit) phrases.push(phrase);
      }
    }
  }
  if (phrases.length > 0) return phrases;
  return ["the topic", "the audience", "the goal"];
}

/** "a sarcastic teenager" from "You are a sarcastic teenager who …", when the system prompt says so. */
function personaRole(system: string): string | undefined {
  const match = /\byou are (an? [a-z][a-z -]{2,40}?)(?=[,.;:!\n]| who\b| that\b| with\b| and\b)/i.exec(system);
  return match?.[1]?.trim().toLowerCase();
}

// ── Generation ─────────────────────────────────────────────────────────────

/**
 * Phrases that mark a specific, substantive sentence. Only the "substantive"
 * templates below contain them, so their count in a text says how strong its
 * writer was.
 */
export const DETAIL_MARKERS = [
  "for example",
  "because",
  "specifically",
  "in practice",
  "trade-off",
  "first,",
  "second,",
  "measurable",
  "concrete",
  "which means",
] as const;

const PLAIN_SENTENCES = [
  "{A} is an important part of {b}.",
  "It is good to think about {a} and {b}.",
  "{A} can help with {b} in many ways.",
  "A lot of people care about {a}.",
  "{A} and {b} go well together.",
  "This is a simple idea about {a}.",
  "Try to keep {a} in mind when thinking about {b}.",
  "{A} matters here.",
  "Overall, {a} is worth a look.",
] as const;

const DETAILED_SENTENCES = [
  "For example, tying {a} to {b} gives the reader a concrete reason to care about {c}.",
  "This works because {a} shapes how people judge {b} long before they get to {c}.",
  "Specifically, lead with {a}, support it with {b}, and close on {c}.",
  "In practice, test two versions of the {a} angle and see which one moves {b}.",
  "The trade-off is that more {a} can crowd out {b}, so keep {c} focused.",
  "First, name the problem {a} solves; second, show one measurable result for {b}.",
  "Anchoring {a} in a concrete detail about {b} makes the point easier to trust.",
  "That leaves room for {c}, which means the {a} message stays specific instead of generic.",
  "A measurable goal for {b} keeps the {a} discussion honest.",
  "Because {c} varies between readers, frame {a} around the {b} they already know.",
] as const;

const OPENERS = [
  "A direct take on {a}:",
  "Focusing on {b}:",
  "From the {c} angle:",
  "Put plainly:",
  "Starting with {a}:",
  "An alternative approach:",
  "Thinking about {b} first:",
  "A practical version:",
  "Keeping it short:",
  "A bolder idea:",
] as const;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fillTemplate(template: string, words: readonly string[]): string {
  const [a = "it", b = a, c = b] = words;
  return template.replaceAll("{A}", capitalize(a)).replaceAll("{a}", a).replaceAll("{b}", b).replaceAll("{c}", c);
}

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Sentences that add length and nothing else: what verbose models pad their answers with. */
const FILLER_SENTENCES = [
  "There is a lot that could be said about {a}, and all of it matters in its own way.",
  "When it comes to {b}, it is always worth taking the time to think things through carefully.",
  "Many people have many different views on {a}, and every one of those views deserves some attention.",
  "In the end, {b} is something that everyone will approach in their own personal way.",
  "It is also worth remembering that {a} is part of a much bigger picture overall.",
  "All things considered, {b} remains a topic that is well worth discussing at some length.",
] as const;

function composeAnswer(
  random: Random,
  quality: number,
  words: readonly string[],
  index: number,
  persona?: string,
  verbosity = 0,
): string {
  // The prompt's first phrases name its subject, so every answer keeps them; the rest rotate for variety.
  const core = words.slice(0, 3);
  const others = words.slice(3);
  const offset = others.length > 0 ? index % others.length : 0;
  const rotated = [...others.slice(offset), ...others.slice(0, offset)];
  const focus = shuffled(random, [...core, ...rotated.slice(0, 2)]);
  const sentenceCount = Math.min(7, Math.max(1, 1 + Math.round(quality * 5 + (random() - 0.5) * 1.5)));
  const detailChance = Math.pow(quality, 0.8);

  const sentences: string[] = [];
  const usedTemplates = new Set<string>();
  for (let i = 0; i < sentenceCount; i++) {
    const pool = random() < detailChance ? DETAILED_SENTENCES : PLAIN_SENTENCES;
    let template = pick(random, pool);
    for (let tries = 0; usedTemplates.has(template) && tries < 6; tries++) template = pick(random, pool);
    usedTemplates.add(template);
    const start = Math.floor(random() * focus.length);
    sentences.push(fillTemplate(template, [...focus.slice(start), ...focus.slice(0, start)]));
  }

  // Drawn last, so models without verbosity keep exactly the answers they always gave.
  if (verbosity > 0) {
    const first = Math.floor(random() * FILLER_SENTENCES.length);
    for (let i = 0; i < verbosity; i++) {
      const template = FILLER_SENTENCES[(first + i) % FILLER_SENTENCES.length] ?? FILLER_SENTENCES[0];
      sentences.push(fillTemplate(template, [...focus.slice(i % focus.length), ...focus]));
    }
  }

  const parts: string[] = [];
  if (quality >= 0.5) parts.push(fillTemplate(OPENERS[index % OPENERS.length] ?? OPENERS[0], focus));
  if (persona && quality >= 0.55) parts.push(`Speaking as ${persona},`);
  const body = sentences.join(" ");
  const intro = parts.join(" ");
  if (!intro) return body;
  // "Speaking as …," runs straight into the first sentence, in lower case.
  return intro.endsWith(",") ? `${intro} ${body.charAt(0).toLowerCase()}${body.slice(1)}` : `${intro} ${body}`;
}

/** `count` distinct answers, deterministic in (model, prompt, seed). */
export function generateAnswers(model: CatalogModel, parts: PromptParts, count: number, seed: number): string[] {
  const words = topicWords(parts);
  const persona = personaRole(parts.system);
  const answers: string[] = [];
  for (let index = 0; answers.length < count; index++) {
    let answer = "";
    for (let attempt = 0; attempt < 6; attempt++) {
      const random = createRandom(
        hashStrings("answer", model.id, parts.system, parts.user, String(seed), String(index), String(attempt)),
      );
      answer = composeAnswer(random, model.quality, words, index + attempt, persona, model.verbosity);
      if (!answers.includes(answer)) break;
    }
    if (answers.includes(answer)) answer = `${answer} (Take ${index + 1}.)`;
    answers.push(answer);
  }
  rememberAuthor(model.id, answers);
  return answers;
}

// ── Who wrote what ─────────────────────────────────────────────────────────

/**
 * The gateway remembers which model wrote each answer it generated (the most recent ones), so a
 * self-preferring judge can recognise its own family's answers the way real models recognise
 * their own style.
 */
const MAX_REMEMBERED_ANSWERS = 200_000;
const authors = new Map<string, string>();

/** 64 bits of hash of the answer, whitespace-insensitive: the memory holds no answer text. */
function answerKey(text: string): string {
  const normalized = text.replace(/\s+/g, " ").trim();
  return `${hashStrings("author-a", normalized)}:${hashStrings("author-b", normalized)}`;
}

function rememberAuthor(modelId: string, answers: readonly string[]): void {
  for (const answer of answers) {
    const key = answerKey(answer);
    authors.delete(key);
    authors.set(key, modelId);
    if (authors.size > MAX_REMEMBERED_ANSWERS) {
      const oldest = authors.keys().next();
      if (!oldest.done) authors.delete(oldest.value);
    }
  }
}

/** The model that wrote an answer this gateway generated, if it still remembers it. */
export function authorOf(text: string): string | undefined {
  return authors.get(answerKey(text));
}

export function generationContent(answers: readonly string[], fenced: boolean): string {
  const json = JSON.stringify(answers, null, 2);
  return fenced ? `\`\`\`json\n${json}\n\`\`\`` : json;
}

/** About one generation call in ten is wrapped in ```json fences, so clients must strip them. */
export function shouldFence(modelId: string, parts: PromptParts, seed: number): boolean {
  return unitFromStrings("fence", modelId, parts.system, parts.user, String(seed)) < 0.1;
}

// ── Judging ────────────────────────────────────────────────────────────────

/** Matches the filler sentences of verbose models, whatever words fill them. */
const FILLER_PATTERN = new RegExp(
  FILLER_SENTENCES.map((template) =>
    template
      .split(/\{[ab]\}/)
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".+?"),
  ).join("|"),
  "gi",
);

/**
 * 0..1: how long and specific an answer is, filler left out. Correlates with the hidden quality
 * of its writer; a verbose model's padding does not count (except for a length-favouring judge).
 */
export function answerTextScore(text: string): number {
  const lower = text.replace(FILLER_PATTERN, " ").toLowerCase();
  const words = lower.split(/\s+/).filter(Boolean).length;
  const markers = DETAIL_MARKERS.filter((marker) => lower.includes(marker)).length;
  return (0.55 * Math.min(words, 140)) / 140 + (0.45 * Math.min(markers, 6)) / 6;
}

/**
 * The judge's perceived score: text score plus seeded noise, larger for weaker judges, plus its
 * planted imperfections (catalog.ts PLANTED_JUDGES): a bonus for the answer shown first
 * (`shownIndex` 0 of `shownCount` > 1), for its own family's answers and for length.
 */
function judgedScore(
  judge: CatalogModel,
  seed: number,
  salt: string,
  text: string,
  profile: JudgeProfile = FAIR_JUDGE,
  shownIndex = 0,
  shownCount = 1,
): number {
  const amplitude = (0.1 + 0.25 * (1 - judge.quality)) * profile.noise;
  const noise = (unitFromStrings("judge", judge.id, String(seed), salt, text) - 0.5) * 2 * amplitude;
  let score = answerTextScore(text) + noise;
  if (profile.positionBias !== 0 && shownCount > 1 && shownIndex === 0) score += profile.positionBias;
  if (profile.selfPreference !== 0) {
    const author = authorOf(text);
    if (author !== undefined && modelFamily(author) === modelFamily(judge.id)) score += profile.selfPreference;
  }
  if (profile.lengthBias !== 0) score += (profile.lengthBias * Math.min(wordCount(text), 300)) / 100;
  return score;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** `answers` in the order the judge was shown them. */
export function rankingContent(
  judge: CatalogModel,
  answers: readonly { label: string; text: string }[],
  seed: number,
  profile: JudgeProfile = FAIR_JUDGE,
): string {
  const ranked = answers
    .map(({ label, text }, index) => ({
      label,
      score: judgedScore(judge, seed, label, text, profile, index, answers.length),
    }))
    .sort((x, y) => y.score - x.score || x.label.localeCompare(y.label));
  const best = ranked[0]?.label ?? "";
  const worst = ranked[ranked.length - 1]?.label ?? "";
  const explanation =
    ranked.length > 2
      ? `${best} is the most specific and complete answer, with concrete detail; ${worst} is the thinnest and most generic. The others fall in between on depth and clarity.`
      : `${best} is more specific and complete than ${worst}, which stays generic.`;
  return JSON.stringify({ ranking: ranked.map(({ label }) => label), explanation });
}

export function ratingContent(
  judge: CatalogModel,
  criteria: readonly Criterion[],
  answer: string,
  seed: number,
  profile: JudgeProfile = FAIR_JUDGE,
): string {
  const scores: Record<string, number> = {};
  for (const criterion of criteria) {
    const perceived = judgedScore(judge, seed, criterion, answer, profile);
    scores[criterion] = Math.min(10, Math.max(1, Math.round(1.5 + perceived * 9)));
  }
  const values = Object.values(scores);
  const mean = values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const explanation =
    mean >= 7.5
      ? "Accurate, clear and specific, with concrete examples that fit the question."
      : mean >= 4.5
        ? "Relevant and mostly clear, but light on specifics and examples."
        : "Generic and thin: it touches the topic without concrete detail.";
  return JSON.stringify({ scores, explanation });
}

// ── Everything else ────────────────────────────────────────────────────────

export function plainTextContent(model: CatalogModel, parts: PromptParts, seed: number): string {
  const random = createRandom(hashStrings("text", model.id, parts.system, parts.user, String(seed)));
  return composeAnswer(random, model.quality, topicWords(parts), 0, personaRole(parts.system), model.verbosity);
}

/** A reply that is not valid JSON for any shape: the content cut off part-way. */
export function malformedContent(content: string): string {
  const cut = Math.max(1, Math.floor(content.length * 0.6));
  const truncated = content.slice(0, cut);
  // Make sure a cut that happens to land on a complete JSON value still fails to parse.
  try {
    JSON.parse(truncated);
    return `${truncated},`;
  } catch {
    return truncated;
  }
}
