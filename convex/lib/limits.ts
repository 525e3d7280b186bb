// Every limit on what the server stores, in one place. The setup forms read these
// numbers for their maxLength, counters and hints; the Convex functions check them before
// writing anything. Over a limit the user is told which field and what the limit is.
//
// Where the spec gives a figure it is used (part 1 §5: template name 100, description 500,
// 5 tags of 20 characters, 1–10 responses per topic). The rest are ours, chosen so that the
// largest input we accept is far inside Convex's own limits (1 MiB per document, 16 MiB of
// arguments and of data read per function): a test configuration or a template is at most
// 256 KiB, so it fails here with our message, the same way offline and on a deployment; the
// public template library answers at most 4 MiB, and a user's own templates total at most 8 MiB.
import type { ModelRef, PersonaInput, Problem, TopicInput } from "./types";
import { modelIdOf, modelNameOf } from "./types";

export const PERSONA_LIMITS = {
  maxNameLength: 100,
  maxDescriptionLength: 500,
  maxSystemPromptLength: 10_000,
} as const;

export const TOPIC_LIMITS = {
  maxTitleLength: 100,
  maxDescriptionLength: 500,
  maxPromptLength: 10_000,
} as const;

/** Spec part 1 §5 (Save as Template). */
export const TEMPLATE_LIMITS = {
  maxNameLength: 100,
  maxDescriptionLength: 500,
  maxTags: 5,
  maxTagLength: 20,
} as const;

/** A test's configuration (tests.create) and what a template may carry into one. */
export const TEST_LIMITS = {
  maxGeneratorModels: 10,
  maxEvaluatorModels: 5,
  maxPersonas: 10,
  maxTopics: 10,
  minResponsesPerTopic: 1,
  maxResponsesPerTopic: 10,
  /** Generation plus evaluation calls to the gateway for one test. */
  maxCallsPerTest: 2000,
  /** A judge ranks all answers of a persona × topic pair in one reply; beyond this it gets unreliable. */
  maxAnswersPerRanking: 40,
  maxTestNameLength: 200,
  maxUserPromptLength: 10_000,
  maxRankingPromptLength: 5_000,
  maxTaskTypeLength: 50,
  /** The temporary ids the setup page gives personas and topics ('temp-<time>-<random>'). */
  maxItemIdLength: 100,
  /** Gateway model ids ('provider/name', OpenRouter's longest are under 80). */
  maxModelIdLength: 200,
  maxModelNameLength: 200,
  /**
   * Repeats of every model × persona × topic cell (lib/repeats.ts): 1–10, the spec's bound on
   * responses per topic (part 1 §5), the other per-cell multiplier; maxCallsPerTest binds first
   * on any sizeable test.
   */
  minRepeats: 1,
  maxRepeats: 10,
} as const;

/** Checks on every answer (lib/checks.ts). */
export const CHECK_LIMITS = {
  maxChecks: 10,
  /** Text to look for, and regular expressions. */
  maxTextLength: 1_000,
  maxSchemaLength: 10_000,
  /** Length bounds, in words or characters. */
  maxLength: 1_000_000,
  /** Latency at most, in milliseconds. */
  maxLatencyMs: 600_000,
  /** Cost at most, in dollars per answer. */
  maxCostUsd: 100,
} as const;

/** The whole stored configuration of a test, or a template, as UTF-8 JSON. */
export const MAX_STORED_BYTES = 256 * 1024;

/** Bounded lists: per user, and one page of the public library. */
export const COLLECTION_LIMITS = {
  /** Saved personas, and saved topics, per user (each). */
  maxSavedAssets: 500,
  maxOwnTemplates: 200,
  /** All of a user's templates together, so listing or counting them reads at most this. */
  ownTemplatesBytes: 8 * 1024 * 1024,
  publicLibrarySize: 200,
  /** The public library stops adding templates before its answer passes this size. */
  publicLibraryBytes: 4 * 1024 * 1024,
} as const;

/** Notes on an answer (notes.add); the answer's dialog lists a test's newest `maxListed`. */
export const NOTE_LIMITS = { maxBodyLength: 500, maxListed: 500 } as const;

export const NOTE_MESSAGES = {
  empty: "Write something before adding the note.",
  tooLong: `A note must be at most ${NOTE_LIMITS.maxBodyLength} characters.`,
  notFound: "This note no longer exists.",
  responseNotFound: "This answer is not part of the test.",
  notYours: "Only the note's author or a team owner can delete it.",
} as const;

/** A user's own gateway key (OpenRouter keys are about 73 characters). */
export const API_KEY_LIMITS = { minLength: 8, maxLength: 512 } as const;

/** Personal access tokens for the HTTP API (convex/apiTokens.ts) and the requests each may make. */
export const API_TOKEN_LIMITS = {
  maxNameLength: 60,
  /** Live (unrevoked) tokens per user. */
  maxTokensPerUser: 20,
  /** Requests per token per one-minute window; over it the API answers 429. */
  requestsPerMinute: 120,
} as const;

/**
 * A queued job's priority (admin.setJobPriority): the dispatcher takes the highest first and
 * every job starts at 0, so a negative one would only park a job behind all others for good.
 */
export const JOB_PRIORITY_LIMITS = { min: 0, max: 1000 } as const;

/** Short strings that are never shown but still bounded before anything reads them. */
export const HIDDEN_INPUT_LIMITS = {
  /** The contact form's hidden honeypot field (a URL at most, when a bot fills it). */
  maxHoneypotLength: 2048,
  /** A Stripe Checkout Session id (Stripe's ids are at most 255 characters). */
  maxCheckoutSessionIdLength: 255,
} as const;

function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** "Prompt must be at most 10,000 characters." */
export function tooLongMessage(label: string, max: number): string {
  return `${label} must be at most ${count(max)} characters.`;
}

/** Size of a value as stored: its JSON in UTF-8 bytes (what Convex counts, near enough). */
export function storedBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? "").length;
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${count(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`
    : `${count(Math.ceil(bytes / 1024))} KB`;
}

/** Problems are pushed onto `problems`; each names its field and the limit. */
export function checkLength(problems: Problem[], field: string, label: string, value: string, max: number): void {
  if (value.length > max) problems.push({ field, message: tooLongMessage(label, max) });
}

export function checkCount(
  problems: Problem[],
  field: string,
  label: string,
  items: readonly unknown[],
  max: number,
): void {
  if (items.length > max)
    problems.push({ field, message: `${label}: at most ${count(max)} allowed (got ${count(items.length)}).` });
}

/** A whole number within [min, max]; NaN, ±Infinity and fractions are refused. */
export function checkWholeNumber(
  problems: Problem[],
  field: string,
  label: string,
  value: number,
  min: number,
  max: number,
): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push({ field, message: `${label} must be a whole number from ${count(min)} to ${count(max)}.` });
  }
}

export function checkStoredSize(problems: Problem[], field: string, label: string, value: unknown): void {
  const bytes = storedBytes(value);
  if (bytes > MAX_STORED_BYTES) {
    problems.push({
      field,
      message: `${label} must be at most ${formatBytes(MAX_STORED_BYTES)} in total (this one is ${formatBytes(bytes)}). Shorten its prompts, personas or topics.`,
    });
  }
}

/** Each value once: a repeated persona, topic or model would silently merge its paid answers. */
export function checkUnique(problems: Problem[], field: string, message: string, values: readonly string[]): void {
  if (new Set(values).size !== values.length) problems.push({ field, message });
}

function checkModelIds(problems: Problem[], field: string, label: string, refs: readonly ModelRef[]): void {
  refs.forEach((ref, index) => {
    checkLength(problems, `${field}.${index}`, `${label} model id`, modelIdOf(ref), TEST_LIMITS.maxModelIdLength);
    checkLength(problems, `${field}.${index}`, `${label} model name`, modelNameOf(ref), TEST_LIMITS.maxModelNameLength);
  });
}

/**
 * The limits of a test configuration that validateTestConfig (pricing.ts) does not check itself:
 * task type, item and model ids, duplicate personas and topics, and the stored size. Counts,
 * names, prompts, responses per topic and duplicate models are checked there.
 */
export function configurationLimitProblems(config: {
  readonly taskType?: string;
  readonly personas: readonly PersonaInput[];
  readonly topics: readonly TopicInput[];
  readonly generatorModels: readonly ModelRef[];
  readonly evaluatorModels: readonly ModelRef[];
}): Problem[] {
  const problems: Problem[] = [];
  checkLength(problems, "taskType", "Task type", config.taskType ?? "", TEST_LIMITS.maxTaskTypeLength);
  for (const [field, label, items] of [
    ["personas", "persona", config.personas],
    ["topics", "topic", config.topics],
  ] as const) {
    // Answers are keyed by persona and topic id: an empty or repeated id would merge them.
    const ids = items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
    if (ids.some((id) => !id.trim())) problems.push({ field, message: `Every ${label} needs an id.` });
    ids.forEach((id, index) =>
      checkLength(problems, `${field}.${index}.id`, `A ${label} id`, id, TEST_LIMITS.maxItemIdLength),
    );
    checkUnique(problems, field, `Each ${label} can only be added once (two have the same id).`, ids);
  }
  checkModelIds(problems, "generatorModels", "Generator", config.generatorModels);
  checkModelIds(problems, "evaluatorModels", "Evaluator", config.evaluatorModels);
  if (problems.length === 0) checkStoredSize(problems, "configuration", "The test configuration", config);
  return problems;
}

/** What a template stores beyond its name, description and tags (templateData). */
export interface TemplateDataInput {
  readonly userPrompt: string;
  readonly personas: readonly Pick<PersonaInput, "name" | "description" | "systemPrompt">[];
  readonly topics: readonly Pick<TopicInput, "title" | "description" | "prompt">[];
  readonly evaluationConfig: { readonly rankingPrompt: string };
  readonly suggestedModels: { readonly generators: readonly string[]; readonly evaluators: readonly string[] };
  readonly responsesPerTopic?: number;
}

/**
 * The limits of a template's data: the same counts, prompt sizes and responses per topic as a
 * test (a template is a test to be), model id lists, and the stored size. Persona and topic
 * fields are checked by validatePersona / validateTopic.
 */
export function templateDataLimitProblems(data: TemplateDataInput): Problem[] {
  const problems: Problem[] = [];
  checkCount(problems, "templateData.personas", "Personas", data.personas, TEST_LIMITS.maxPersonas);
  checkCount(problems, "templateData.topics", "Topics", data.topics, TEST_LIMITS.maxTopics);
  checkLength(problems, "templateData.userPrompt", "The prompt", data.userPrompt, TEST_LIMITS.maxUserPromptLength);
  checkLength(
    problems,
    "templateData.evaluationConfig.rankingPrompt",
    "The ranking prompt",
    data.evaluationConfig.rankingPrompt,
    TEST_LIMITS.maxRankingPromptLength,
  );
  for (const [role, label, max] of [
    ["generators", "Suggested generator models", TEST_LIMITS.maxGeneratorModels],
    ["evaluators", "Suggested evaluator models", TEST_LIMITS.maxEvaluatorModels],
  ] as const) {
    const ids = data.suggestedModels[role];
    const field = `templateData.suggestedModels.${role}`;
    checkCount(problems, field, label, ids, max);
    ids.forEach((id, index) =>
      checkLength(problems, `${field}.${index}`, "A model id", id, TEST_LIMITS.maxModelIdLength),
    );
    checkUnique(problems, field, `${label}: each model can only be listed once.`, ids);
  }
  if (data.responsesPerTopic !== undefined) {
    checkWholeNumber(
      problems,
      "templateData.responsesPerTopic",
      "Responses per topic",
      data.responsesPerTopic,
      TEST_LIMITS.minResponsesPerTopic,
      TEST_LIMITS.maxResponsesPerTopic,
    );
  }
  if (problems.length === 0) checkStoredSize(problems, "templateData", "A template", data);
  return problems;
}

/** Tests an HTTP API list answers at most; the newest come first. */
export const API_LIST_LIMIT = 100;

/**
 * Bytes one list query reads at most (history, dashboard, admin lists, the HTTP API's list):
 * a quarter of Convex's 16 MiB read limit per transaction, so a list also leaves room for the
 * function's other reads. lib/boundedList.ts takeWithinBytes stops reading rows at this budget.
 */
export const LIST_READ_BYTES = 4 * 1024 * 1024;
