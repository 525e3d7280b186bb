// The test configuration the HTTP API and the command-line runner accept, turned into the
// configuration the setup page sends to tests.create. It is the same shape with conveniences a
// file written by hand needs: models as plain gateway ids, personas and topics without ids,
// evaluation settings left out for the setup page's defaults. Wrong shapes are reported per field
// here, by the field's exact path in the request body ("checks[0].kind"); everything else is left
// to the setup page's own validation (validateTestConfig), whose paths apiFieldPath rewrites.
import { CHECK_KINDS } from "./checks";
import { DEFAULT_RANKING_PROMPT } from "./prompts";
import { DEFAULT_SETTLE_CONFIDENCE, type SettleQuestion } from "./settle";
import { DEFAULT_EVALUATION_CRITERIA, type Problem } from "./types";

/** A configuration as the setup page stores it (validators.ts testConfiguration), structurally. */
export interface ApiTestConfiguration {
  name: string;
  taskType: string;
  userPrompt: string;
  personas: { id: string; name: string; description: string; systemPrompt: string }[];
  topics: { id: string; title: string; description: string; prompt: string }[];
  generatorModels: { id: string; name: string }[];
  evaluatorModels: { id: string; name: string }[];
  responsesPerTopic: number;
  rankingPrompt: string;
  evaluationCriteria: Record<string, boolean>;
  scoringParameters: { scale: "ranking" | "rating"; includeExplanations: boolean; bothOrders?: boolean };
  checks?: Record<string, unknown>[];
  failedChecksRankLast?: boolean;
  stopWhenSettled?: SettleQuestion;
  /** Runs of each model × persona × topic cell (lib/repeats.ts); absent = 1. */
  repeats?: number;
}

export const API_DEFAULT_RESPONSES_PER_TOPIC = 2;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(problems: Problem[], field: string, value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "string") {
    problems.push({ field, message: `${field} must be text.` });
    return fallback;
  }
  return value;
}

function list(problems: Problem[], field: string, value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ field, message: `${field} must be a list.` });
    return [];
  }
  return value;
}

/** A field path as the API names it: "checks.0.kind" (the setup page's form) → "checks[0].kind". */
export function apiFieldPath(field: string): string {
  return field.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

function models(problems: Problem[], field: string, value: unknown): { id: string; name: string }[] {
  return list(problems, field, value).flatMap((entry, index) => {
    const id = typeof entry === "string" ? entry : isObject(entry) ? entry.id : undefined;
    if (typeof id !== "string") {
      problems.push({
        field: `${field}[${index}]`,
        message: `${field}[${index}] must be a model id such as "openai/gpt-4o".`,
      });
      return [];
    }
    // The name is read from the catalog when the test is created.
    return [{ id: id.trim(), name: id.trim() }];
  });
}

function criteriaOf(problems: Problem[], value: unknown): Record<string, boolean> {
  const defaults: Record<string, boolean> = { ...DEFAULT_EVALUATION_CRITERIA };
  if (value === undefined || value === null) return defaults;
  const known = Object.keys(defaults);
  const chosen = Array.isArray(value)
    ? value
    : isObject(value)
      ? Object.entries(value)
          .filter(([, on]) => on === true)
          .map(([name]) => name)
      : null;
  if (chosen === null) {
    problems.push({
      field: "evaluationCriteria",
      message: `evaluationCriteria must be a list of: ${known.join(", ")}.`,
    });
    return defaults;
  }
  const unknown = chosen.filter((name) => typeof name !== "string" || !known.includes(name));
  if (unknown.length > 0) {
    problems.push({
      field: "evaluationCriteria",
      message: `Unknown evaluation criteria: ${unknown.map(String).join(", ")}. Choose from ${known.join(", ")}.`,
    });
  }
  return Object.fromEntries(known.map((name) => [name, chosen.includes(name)]));
}

const CHECK_FIELDS: Record<string, "string" | "boolean" | "number"> = {
  id: "string",
  kind: "string",
  value: "string",
  caseSensitive: "boolean",
  unit: "string",
  min: "number",
  max: "number",
  topicId: "string",
};

/**
 * A check's shape, each problem under its exact field: an `id` is required (unique in the test;
 * gates and results name the check by it), `kind` one of the check kinds, the other fields typed.
 * True when the check has no shape problem (its rules are checked with the configuration's).
 */
function checkShapeProblems(problems: Problem[], check: Json, field: string): boolean {
  const before = problems.length;
  const kinds = CHECK_KINDS.map((entry) => entry.kind);
  if (typeof check.id !== "string" || !check.id.trim()) {
    problems.push({
      field: `${field}.id`,
      message: `${field}.id is required: a text unique among the test's checks (gates and results name the check by it).`,
    });
  }
  if (typeof check.kind !== "string" || !(kinds as string[]).includes(check.kind)) {
    problems.push({ field: `${field}.kind`, message: `${field}.kind must be one of: ${kinds.join(", ")}.` });
  }
  for (const [key, value] of Object.entries(check)) {
    const type = CHECK_FIELDS[key];
    if (type === undefined) {
      problems.push({
        field: `${field}.${key}`,
        message: `${field}.${key} is not a field of a check (${Object.keys(CHECK_FIELDS).join(", ")}).`,
      });
    } else if (value !== undefined && typeof value !== type) {
      problems.push({
        field: `${field}.${key}`,
        message: `${field}.${key} must be ${type === "string" ? "text" : `a ${type}`}.`,
      });
    } else if (key === "unit" && value !== "words" && value !== "characters") {
      problems.push({ field: `${field}.unit`, message: `${field}.unit must be "words" or "characters".` });
    }
  }
  return problems.length === before;
}

/**
 * The configuration and every shape problem found, each under its field ("personas.0.name").
 * `scale`, `includeExplanations` and `bothOrders` may be given at the top level or inside
 * `scoringParameters`.
 */
export function apiConfigurationOf(input: unknown): { configuration: ApiTestConfiguration; problems: Problem[] } {
  const problems: Problem[] = [];
  const body = isObject(input) ? input : {};
  if (!isObject(input)) problems.push({ field: "configuration", message: "The configuration must be a JSON object." });

  const personas = list(problems, "personas", body.personas).map((entry, index) => {
    const field = `personas[${index}]`;
    const persona = isObject(entry) ? entry : {};
    if (!isObject(entry)) problems.push({ field, message: `${field} must be an object.` });
    return {
      id: text(problems, `${field}.id`, persona.id, `persona-${index + 1}`),
      name: text(problems, `${field}.name`, persona.name, ""),
      description: text(problems, `${field}.description`, persona.description, ""),
      systemPrompt: text(problems, `${field}.systemPrompt`, persona.systemPrompt, ""),
    };
  });
  const topics = list(problems, "topics", body.topics).map((entry, index) => {
    const field = `topics[${index}]`;
    const topic = isObject(entry) ? entry : {};
    if (!isObject(entry)) problems.push({ field, message: `${field} must be an object.` });
    return {
      id: text(problems, `${field}.id`, topic.id, `topic-${index + 1}`),
      title: text(problems, `${field}.title`, topic.title, ""),
      description: text(problems, `${field}.description`, topic.description, ""),
      prompt: text(problems, `${field}.prompt`, topic.prompt, ""),
    };
  });

  const scoring = isObject(body.scoringParameters) ? body.scoringParameters : {};
  const scale = body.scale ?? scoring.scale ?? "ranking";
  if (scale !== "ranking" && scale !== "rating") {
    problems.push({ field: "scale", message: 'scale must be "ranking" or "rating".' });
  }
  const flag = (name: string): boolean | undefined => {
    const value = body[name] ?? scoring[name];
    if (value === undefined) return undefined;
    if (typeof value !== "boolean") problems.push({ field: name, message: `${name} must be true or false.` });
    return value === true;
  };
  const includeExplanations = flag("includeExplanations") ?? true;
  const bothOrders = flag("bothOrders");

  const responses = body.responsesPerTopic ?? API_DEFAULT_RESPONSES_PER_TOPIC;
  if (typeof responses !== "number") {
    problems.push({ field: "responsesPerTopic", message: "responsesPerTopic must be a number." });
  }
  const checks = list(problems, "checks", body.checks).filter((check, index) => {
    if (isObject(check)) return checkShapeProblems(problems, check, `checks[${index}]`);
    problems.push({ field: `checks[${index}]`, message: `checks[${index}] must be an object.` });
    return false;
  }) as Record<string, unknown>[];
  const failedChecksRankLast = flag("failedChecksRankLast");
  const stopWhenSettled = settleSettingOf(problems, body.stopWhenSettled);
  // Its range is validateTestConfig's (lib/repeats.ts), as on the setup page.
  const repeats = body.repeats;
  if (repeats !== undefined && typeof repeats !== "number") {
    problems.push({ field: "repeats", message: "repeats must be a number." });
  }

  const configuration: ApiTestConfiguration = {
    name: text(problems, "name", body.name, ""),
    taskType: text(problems, "taskType", body.taskType, "general"),
    userPrompt: text(problems, "userPrompt", body.userPrompt, ""),
    personas,
    topics,
    generatorModels: models(problems, "generatorModels", body.generatorModels),
    evaluatorModels: models(problems, "evaluatorModels", body.evaluatorModels),
    responsesPerTopic: typeof responses === "number" ? responses : API_DEFAULT_RESPONSES_PER_TOPIC,
    rankingPrompt: text(problems, "rankingPrompt", body.rankingPrompt, DEFAULT_RANKING_PROMPT),
    evaluationCriteria: criteriaOf(problems, body.evaluationCriteria),
    scoringParameters: {
      scale: scale === "rating" ? "rating" : "ranking",
      includeExplanations,
      ...(bothOrders === undefined ? {} : { bothOrders }),
    },
    ...(checks.length > 0 ? { checks } : {}),
    ...(failedChecksRankLast === undefined ? {} : { failedChecksRankLast }),
    ...(stopWhenSettled === undefined ? {} : { stopWhenSettled }),
    ...(typeof repeats === "number" ? { repeats } : {}),
  };
  return { configuration, problems };
}

const SETTLE_QUESTIONS = ["best", "withinDelta", "passRate"] as const;
const SETTLE_FIELDS: Record<string, "string" | "number"> = {
  question: "string",
  confidence: "number",
  modelId: "string",
  delta: "number",
  minPassRate: "number",
  seed: "string",
};

/** "Stop when settled": its shape, each problem under its field; its ranges are checked at creation. */
function settleSettingOf(problems: Problem[], value: unknown): SettleQuestion | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  const field = "stopWhenSettled";
  if (!isObject(value)) {
    problems.push({ field, message: `${field} must be an object such as { "question": "best", "confidence": 0.95 }.` });
    return undefined;
  }
  for (const [key, entry] of Object.entries(value)) {
    const type = SETTLE_FIELDS[key];
    if (type === undefined)
      problems.push({
        field: `${field}.${key}`,
        message: `${field}.${key} is not a field of ${field} (${Object.keys(SETTLE_FIELDS).join(", ")}).`,
      });
    else if (typeof entry !== type)
      problems.push({
        field: `${field}.${key}`,
        message: `${field}.${key} must be ${type === "string" ? "text" : "a number"}.`,
      });
  }
  const question = value.question ?? "best";
  if (!(SETTLE_QUESTIONS as readonly unknown[]).includes(question)) {
    problems.push({
      field: `${field}.question`,
      message: `${field}.question must be one of: ${SETTLE_QUESTIONS.join(", ")}.`,
    });
    return undefined;
  }
  const number = (key: string) => (typeof value[key] === "number" ? { [key]: value[key] as number } : {});
  return {
    question: question as SettleQuestion["question"],
    confidence: typeof value.confidence === "number" ? value.confidence : DEFAULT_SETTLE_CONFIDENCE,
    ...(typeof value.modelId === "string" ? { modelId: value.modelId.trim() } : {}),
    ...number("delta"),
    ...number("minPassRate"),
    ...(typeof value.seed === "string" ? { seed: value.seed } : {}),
  };
}
