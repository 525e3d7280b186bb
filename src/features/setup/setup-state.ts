// The Test Setup draft: its shape, defaults, local-storage format, and the pure steps that fill
// it (apply a template, prefill a rerun) or turn it into the configuration tests.create takes.
import { z } from "zod";
import type { SettleQuestion } from "../../../convex/lib/settle";

import type { TestConfiguration, TemplateData } from "../../../convex/validators";
import { DEFAULT_RANKING_PROMPT } from "../../../convex/lib/prompts";
import {
  DEFAULT_TEMPLATE_CATEGORY,
  TEMPLATE_CATEGORIES,
  isTemplateCategory,
  type TemplateCategory,
} from "../../../convex/lib/templates";
import {
  DEFAULT_EVALUATION_CRITERIA,
  DEFAULT_RESPONSES_PER_TOPIC,
  DEFAULT_SCORING_PARAMETERS,
  EVALUATION_CRITERIA,
  type CatalogModel,
  type EvaluationCriterion,
} from "../../../convex/lib/types";
import { LIMITS } from "../../../convex/lib/pricing";
import { checksFromTemplate, checksToTemplate } from "../../../convex/lib/checkProblems";
import type { AnswerCheck } from "../../../convex/lib/checks";

export const SETUP_STORAGE_KEY = "modeljury.setup.v1";
const STORAGE_VERSION = 1;

export interface SetupPersona {
  id: string;
  name: string;
  description: string;
  systemPrompt: string;
}

export interface SetupTopic {
  id: string;
  title: string;
  description: string;
  prompt: string;
}

export type ModelRole = "generator" | "evaluator";

export interface AppliedTemplate {
  kind: "builtin" | "saved";
  id: string;
  name: string;
}

export interface SetupState {
  name: string;
  /** The test's task type; set by the template, read-only on the page. */
  category: TemplateCategory;
  userPrompt: string;
  rankingPrompt: string;
  responsesPerTopic: number;
  personas: SetupPersona[];
  topics: SetupTopic[];
  generatorModelIds: string[];
  evaluatorModelIds: string[];
  evaluationCriteria: Record<EvaluationCriterion, boolean>;
  scoringParameters: {
    scale: "ranking" | "rating";
    includeExplanations: boolean;
    bothOrders?: boolean;
    skipOwnFamily?: boolean;
  };
  /** Checks on every answer (convex/lib/checks.ts). */
  checks: AnswerCheck[];
  /** "An answer that fails a check ranks last". */
  failedChecksRankLast: boolean;
  /** "Stop when settled" (convex/lib/settle.ts): absent when off; its seed is set at creation. */
  stopWhenSettled?: Omit<SettleQuestion, "seed">;
  /** Runs of each model × persona × topic cell (convex/lib/repeats.ts): absent is 1; as typed, also out of range. */
  repeats?: number;
  /** The template the draft started from; section 1 hides while one is applied. */
  appliedTemplate: AppliedTemplate | null;
  /** Sections 2-7 show once a template is applied, Custom is chosen, or a rerun is loaded. */
  sectionsVisible: boolean;
  /** The test this draft reruns (Rerun Test): the new test records it and links back to it. */
  rerunOf?: string;
}

export function defaultSetupState(): SetupState {
  return {
    name: "",
    category: DEFAULT_TEMPLATE_CATEGORY,
    userPrompt: "",
    rankingPrompt: DEFAULT_RANKING_PROMPT,
    responsesPerTopic: DEFAULT_RESPONSES_PER_TOPIC,
    personas: [],
    topics: [],
    generatorModelIds: [],
    evaluatorModelIds: [],
    evaluationCriteria: { ...DEFAULT_EVALUATION_CRITERIA },
    scoringParameters: { ...DEFAULT_SCORING_PARAMETERS },
    checks: [],
    failedChecksRankLast: false,
    appliedTemplate: null,
    sectionsVisible: false,
  };
}

/** Spec part 3: an item copied into a test gets a temp prefix, the time and a random value. */
export function tempId(now: number = Date.now()): string {
  return `temp-${now}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Applying a template or bundle over these asks first ('Replace Existing Data'). */
export function hasExistingData(state: SetupState): boolean {
  return (
    state.personas.length > 0 ||
    state.topics.length > 0 ||
    state.generatorModelIds.length > 0 ||
    state.evaluatorModelIds.length > 0
  );
}

export function clampResponsesPerTopic(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_RESPONSES_PER_TOPIC;
  return Math.min(LIMITS.maxResponsesPerTopic, Math.max(LIMITS.minResponsesPerTopic, Math.round(value)));
}

/** Ids in `ids` that the catalog lists, in order, without duplicates. */
export function inCatalog(ids: readonly string[], catalogIds: ReadonlySet<string>): string[] {
  return [...new Set(ids)].filter((id) => catalogIds.has(id));
}

// ---------------------------------------------------------------------------------------------
// Templates and reruns
// ---------------------------------------------------------------------------------------------

/** A built-in or saved template, reduced to what applying it needs. */
export interface TemplateSource {
  kind: "builtin" | "saved";
  id: string;
  name: string;
  category: TemplateCategory;
  data: TemplateData;
}

/**
 * The draft after applying a template: name, category, prompts, personas and topics (under new
 * temporary ids), the suggested models the catalog has, and the evaluation settings. Nothing of
 * the previous draft survives.
 */
export function applyTemplateToState(
  source: TemplateSource,
  catalogIds: ReadonlySet<string>,
  now = Date.now(),
): SetupState {
  const { data } = source;
  const topics = data.topics.map((topic) => ({ id: tempId(now), ...pickTopic(topic) }));
  return {
    ...defaultSetupState(),
    name: source.name,
    category: source.category,
    userPrompt: data.userPrompt,
    rankingPrompt: data.evaluationConfig.rankingPrompt || DEFAULT_RANKING_PROMPT,
    responsesPerTopic:
      data.responsesPerTopic === undefined
        ? DEFAULT_RESPONSES_PER_TOPIC
        : clampResponsesPerTopic(data.responsesPerTopic),
    personas: data.personas.map((persona) => ({ id: tempId(now), ...pickPersona(persona) })),
    topics,
    checks: checksFromTemplate(
      data.checks,
      topics.map((topic) => topic.id),
    ),
    failedChecksRankLast: data.failedChecksRankLast === true,
    ...(data.stopWhenSettled === undefined ? {} : { stopWhenSettled: settleWithoutSeed(data.stopWhenSettled) }),
    ...(data.repeats === undefined || data.repeats === 1 ? {} : { repeats: data.repeats }),
    generatorModelIds: inCatalog(data.suggestedModels.generators, catalogIds),
    evaluatorModelIds: inCatalog(data.suggestedModels.evaluators, catalogIds),
    evaluationCriteria: { ...data.evaluationConfig.evaluationCriteria },
    scoringParameters: { ...data.evaluationConfig.scoringParameters },
    appliedTemplate: { kind: source.kind, id: source.id, name: source.name },
    sectionsVisible: true,
  };
}

export const RERUN_SUFFIX = " (Rerun)";

/** A past test's configuration as a new draft: name suffixed ' (Rerun)', models matched against the catalog. */
export function rerunState(config: TestConfiguration, catalogIds: ReadonlySet<string>, now = Date.now()): SetupState {
  const baseName = config.name.trim() || "Unnamed Test";
  const topics = config.topics.map((topic) => ({ id: tempId(now), ...pickTopic(topic) }));
  // The checks keep their topics under the topics' new ids.
  const checks = checksFromTemplate(
    checksToTemplate(
      config.checks,
      config.topics.map((topic) => topic.id),
    ),
    topics.map((topic) => topic.id),
  );
  return {
    ...defaultSetupState(),
    name: `${baseName}${RERUN_SUFFIX}`,
    category: isTemplateCategory(config.taskType) ? config.taskType : DEFAULT_TEMPLATE_CATEGORY,
    userPrompt: config.userPrompt,
    rankingPrompt: config.rankingPrompt || DEFAULT_RANKING_PROMPT,
    responsesPerTopic: clampResponsesPerTopic(config.responsesPerTopic),
    personas: config.personas.map((persona) => ({ id: tempId(now), ...pickPersona(persona) })),
    topics,
    checks,
    failedChecksRankLast: config.failedChecksRankLast === true,
    ...(config.stopWhenSettled === undefined ? {} : { stopWhenSettled: settleWithoutSeed(config.stopWhenSettled) }),
    ...(config.repeats === undefined || config.repeats === 1 ? {} : { repeats: config.repeats }),
    generatorModelIds: inCatalog(
      config.generatorModels.map((model) => model.id),
      catalogIds,
    ),
    evaluatorModelIds: inCatalog(
      config.evaluatorModels.map((model) => model.id),
      catalogIds,
    ),
    evaluationCriteria: { ...config.evaluationCriteria },
    scoringParameters: { ...config.scoringParameters },
    appliedTemplate: null,
    sectionsVisible: true,
  };
}

function pickPersona(persona: { name: string; description: string; systemPrompt: string }) {
  return { name: persona.name, description: persona.description, systemPrompt: persona.systemPrompt };
}

function pickTopic(topic: { title: string; description: string; prompt: string }) {
  return { title: topic.title, description: topic.description, prompt: topic.prompt };
}

/** What Save Template stores: the draft without ids, plus its models as suggestions. */
export function templateDataOfState(state: SetupState): TemplateData {
  return {
    userPrompt: state.userPrompt,
    personas: state.personas.map(pickPersona),
    topics: state.topics.map(pickTopic),
    evaluationConfig: {
      rankingPrompt: state.rankingPrompt,
      evaluationCriteria: { ...state.evaluationCriteria },
      scoringParameters: { ...state.scoringParameters },
    },
    suggestedModels: { generators: [...state.generatorModelIds], evaluators: [...state.evaluatorModelIds] },
    responsesPerTopic: state.responsesPerTopic,
    ...(state.checks.length === 0
      ? {}
      : {
          checks: checksToTemplate(
            state.checks,
            state.topics.map((topic) => topic.id),
          ),
        }),
    ...(state.failedChecksRankLast ? { failedChecksRankLast: true } : {}),
    ...(state.stopWhenSettled === undefined ? {} : { stopWhenSettled: { ...state.stopWhenSettled } }),
    ...(state.repeats === undefined || state.repeats === 1 ? {} : { repeats: state.repeats }),
  };
}

/**
 * The configuration tests.create takes. The page prices exactly this object with quote(), as
 * the server does, so the two prices agree to the cent.
 */
export function buildTestConfiguration(
  state: SetupState,
  catalogById: ReadonlyMap<string, Pick<CatalogModel, "name">>,
): TestConfiguration {
  const ref = (id: string) => ({ id, name: catalogById.get(id)?.name ?? id });
  return {
    name: state.name,
    taskType: state.category,
    userPrompt: state.userPrompt,
    personas: state.personas.map((persona) => ({ id: persona.id, ...pickPersona(persona) })),
    topics: state.topics.map((topic) => ({ id: topic.id, ...pickTopic(topic) })),
    generatorModels: state.generatorModelIds.map(ref),
    evaluatorModels: state.evaluatorModelIds.map(ref),
    responsesPerTopic: state.responsesPerTopic,
    rankingPrompt: state.rankingPrompt,
    evaluationCriteria: { ...state.evaluationCriteria },
    scoringParameters: { ...state.scoringParameters },
    ...(state.checks.length === 0 ? {} : { checks: state.checks.map((check) => ({ ...check })) }),
    ...(state.failedChecksRankLast ? { failedChecksRankLast: true } : {}),
    ...(state.stopWhenSettled === undefined ? {} : { stopWhenSettled: { ...state.stopWhenSettled } }),
    // One run per cell is the default and sends nothing; any other value (also a bad one) is checked.
    ...(state.repeats === undefined || state.repeats === 1 ? {} : { repeats: state.repeats }),
  };
}

function settleWithoutSeed({ seed: _seed, ...setting }: SettleQuestion): Omit<SettleQuestion, "seed"> {
  return setting;
}

// ---------------------------------------------------------------------------------------------
// Local storage
// ---------------------------------------------------------------------------------------------

const defaults = defaultSetupState();

const personaSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string(),
  systemPrompt: z.string(),
});

const topicSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  description: z.string(),
  prompt: z.string(),
});

const criteriaSchema = z.object(
  Object.fromEntries(EVALUATION_CRITERIA.map((criterion) => [criterion, z.boolean()])) as Record<
    EvaluationCriterion,
    z.ZodBoolean
  >,
);

// Every field falls back on its own, so one damaged field does not lose the whole draft.
const stateSchema = z.object({
  name: z.string().catch(defaults.name),
  category: z.enum(TEMPLATE_CATEGORIES).catch(defaults.category),
  userPrompt: z.string().catch(defaults.userPrompt),
  rankingPrompt: z.string().catch(defaults.rankingPrompt),
  responsesPerTopic: z.number().transform(clampResponsesPerTopic).catch(defaults.responsesPerTopic),
  personas: z.array(personaSchema).catch([]),
  topics: z.array(topicSchema).catch([]),
  generatorModelIds: z.array(z.string()).catch([]),
  evaluatorModelIds: z.array(z.string()).catch([]),
  evaluationCriteria: criteriaSchema.catch({ ...defaults.evaluationCriteria }),
  scoringParameters: z
    .object({
      scale: z.enum(["ranking", "rating"]),
      includeExplanations: z.boolean(),
      bothOrders: z.boolean().optional(),
      skipOwnFamily: z.boolean().optional(),
    })
    .catch({ ...defaults.scoringParameters }),
  checks: z
    .array(
      z.object({
        id: z.string().min(1),
        kind: z.enum([
          "contains",
          "notContains",
          "regex",
          "startsWith",
          "json",
          "jsonSchema",
          "length",
          "latency",
          "cost",
        ]),
        value: z.string().optional(),
        caseSensitive: z.boolean().optional(),
        unit: z.enum(["words", "characters"]).optional(),
        min: z.number().optional(),
        max: z.number().optional(),
        topicId: z.string().optional(),
      }),
    )
    .catch([]),
  failedChecksRankLast: z.boolean().catch(false),
  stopWhenSettled: z
    .object({
      question: z.enum(["best", "withinDelta", "passRate"]),
      confidence: z.number(),
      modelId: z.string().optional(),
      delta: z.number().optional(),
      minPassRate: z.number().optional(),
    })
    .optional()
    .catch(undefined),
  repeats: z.number().optional().catch(undefined),
  appliedTemplate: z
    .object({ kind: z.enum(["builtin", "saved"]), id: z.string(), name: z.string() })
    .nullable()
    .catch(null),
  sectionsVisible: z.boolean().catch(false),
  rerunOf: z.string().optional().catch(undefined),
});

const envelopeSchema = z.object({
  version: z.literal(STORAGE_VERSION),
  ownerId: z.string().nullable().optional(),
  state: z.unknown(),
});

export interface StoredSetup {
  /** The account the draft belongs to; another account on this browser starts afresh. */
  ownerId: string | null;
  state: SetupState;
}

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function loadStoredSetup(storage: StorageLike | undefined): StoredSetup {
  const fresh = { ownerId: null, state: defaultSetupState() };
  if (!storage) return fresh;
  try {
    const raw = storage.getItem(SETUP_STORAGE_KEY);
    if (!raw) return fresh;
    const envelope = envelopeSchema.safeParse(JSON.parse(raw));
    if (!envelope.success) return fresh;
    const state = stateSchema.safeParse(envelope.data.state);
    if (!state.success) return fresh;
    return { ownerId: envelope.data.ownerId ?? null, state: state.data };
  } catch {
    return fresh;
  }
}

export function saveStoredSetup(storage: StorageLike | undefined, stored: StoredSetup): void {
  if (!storage) return;
  try {
    storage.setItem(
      SETUP_STORAGE_KEY,
      JSON.stringify({ version: STORAGE_VERSION, ownerId: stored.ownerId, state: stored.state }),
    );
  } catch {
    // Storage full or disabled (private mode): the draft simply does not survive a reload.
  }
}

export function clearStoredSetup(storage: StorageLike | undefined): void {
  try {
    storage?.removeItem(SETUP_STORAGE_KEY);
  } catch {
    // As above.
  }
}

export function browserStorage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}
