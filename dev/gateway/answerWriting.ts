// The gateway's generated answers (replies.ts classifies the prompt): words taken from the prompt,
// answers whose sentences carry their writer's quality, and the memory of who wrote which answer.
import { type CatalogModel } from "./catalog";
import { createRandom, hashStrings, pick, unitFromStrings, type Random } from "./random";
import type { PromptParts } from "./replies";

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
export const FILLER_SENTENCES = [
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
