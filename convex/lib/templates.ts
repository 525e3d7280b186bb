// Validation of templates, personas and topics (spec part 1 §5), shared by forms and mutations.
import {
  normalizeTag,
  personaSchema,
  problemsOf,
  TEMPLATE_CATEGORIES,
  TEMPLATE_MESSAGES,
  templateSchema,
  topicSchema,
  type TemplateCategory,
} from "./forms";
import { TEMPLATE_LIMITS } from "./limits";
import { repeatProblems } from "./repeats";
import { settleProblems, type SettleQuestion } from "./settle";
import type { PersonaInput, Problem, TopicInput } from "./types";

// The limits live with every other stored-field limit in ./limits; re-exported for the forms.
export { TEMPLATE_LIMITS } from "./limits";

// The Save-as-Template form's rules and options live with its schema in ./forms.
export { normalizeTag, TEMPLATE_CATEGORIES, type TemplateCategory } from "./forms";

/** Spec: the category defaults to custom, which is stored as 'general' and shown as 'Custom'. */
export const DEFAULT_TEMPLATE_CATEGORY: TemplateCategory = "general";

export const TEMPLATE_CATEGORY_LABELS: Readonly<Record<TemplateCategory, string>> = {
  marketing: "Marketing",
  technical: "Technical",
  "customer-service": "Customer Service",
  content: "Content",
  general: "Custom",
};

/** The filter buttons of the template pickers: 'all' first, then every category. */
export const TEMPLATE_CATEGORY_FILTERS = ["all", ...TEMPLATE_CATEGORIES] as const;
export type TemplateCategoryFilter = (typeof TEMPLATE_CATEGORY_FILTERS)[number];

export function isTemplateCategory(value: string): value is TemplateCategory {
  return (TEMPLATE_CATEGORIES as readonly string[]).includes(value);
}

export function templateCategoryLabel(category: string): string {
  if (category === "all") return "All";
  return isTemplateCategory(category) ? TEMPLATE_CATEGORY_LABELS[category] : category;
}

export const COMPLEXITY_LABELS = { low: "Simple", medium: "Moderate", high: "Complex" } as const;
export type TemplateComplexity = keyof typeof COMPLEXITY_LABELS;

export interface TemplateInput {
  readonly name: string;
  readonly description: string;
  readonly personas: readonly unknown[];
  readonly topics: readonly unknown[];
  readonly tags?: readonly string[];
}

/**
 * The first problem with a template's name, description, tags and content (the schema
 * templates.create parses with, ./forms), or null when it can be saved.
 */
export function validateTemplateInput(input: TemplateInput): string | null {
  const { name, description, personas, topics, tags = [] } = input;
  const values = {
    name,
    description,
    tags,
    category: DEFAULT_TEMPLATE_CATEGORY,
    isPublic: false,
    templateData: { personas, topics },
  };
  return problemsOf(templateSchema, values)[0]?.message ?? null;
}

/**
 * Adds a tag as the tag input does on Enter or the Add button. An empty entry is ignored
 * without an error (pressing Enter on an empty field); otherwise a rejected tag leaves the
 * list unchanged and says why.
 */
export function addTag(tags: readonly string[], tag: string): { tags: string[]; error?: string } {
  const normalized = normalizeTag(tag);
  const current = [...tags];
  if (!normalized) return { tags: current };
  if (normalized.length > TEMPLATE_LIMITS.maxTagLength) return { tags: current, error: TEMPLATE_MESSAGES.tagTooLong };
  if (current.includes(normalized)) return { tags: current, error: TEMPLATE_MESSAGES.duplicateTag };
  if (current.length >= TEMPLATE_LIMITS.maxTags) return { tags: current, error: TEMPLATE_MESSAGES.tooManyTags };
  return { tags: [...current, normalized] };
}

/** Spec: name, description and system prompt are all required (the editor's schema, ./forms). */
export function validatePersona(persona: Pick<PersonaInput, "name" | "description" | "systemPrompt">): Problem[] {
  return problemsOf(personaSchema, persona);
}

/** Spec: title, description and topic content are all required (the editor's schema, ./forms). */
export function validateTopic(topic: Pick<TopicInput, "title" | "description" | "prompt">): Problem[] {
  return problemsOf(topicSchema, topic);
}

/** What of a template's data its run settings are checked against. */
export interface TemplateRunSettings {
  readonly suggestedModels: { readonly generators: readonly string[] };
  readonly stopWhenSettled?: SettleQuestion;
  readonly repeats?: number;
}

/**
 * A template's run settings checked as a test's are (lib/repeats, lib/settle), under
 * templateData: "is one model within δ of the best" must name one of its suggested generators.
 */
export function templateRunProblems(data: TemplateRunSettings): Problem[] {
  const generators = data.suggestedModels.generators.map((id) => ({ id }));
  return [...repeatProblems(data.repeats), ...settleProblems(data.stopWhenSettled, generators)].map((problem) => ({
    ...problem,
    field: `templateData.${problem.field}`,
  }));
}

/** The data as a template keeps it: its "stop when settled" without a seed (each test draws its own order). */
export function withoutSettleSeed<Data extends { readonly stopWhenSettled?: SettleQuestion }>(data: Data): Data {
  if (data.stopWhenSettled?.seed === undefined) return data;
  const { seed: _seed, ...setting } = data.stopWhenSettled;
  return { ...data, stopWhenSettled: setting };
}
