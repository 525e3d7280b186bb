// Validation of templates, personas and topics (spec part 1 §5), shared by forms and mutations.
import { personaSchema, problemsOf, topicSchema } from "./forms";
import { TEMPLATE_LIMITS } from "./limits";
import type { PersonaInput, Problem, TopicInput } from "./types";

// The limits live with every other stored-field limit in ./limits; re-exported for the forms.
export { PERSONA_LIMITS, TEMPLATE_LIMITS, TOPIC_LIMITS } from "./limits";

export const TEMPLATE_CATEGORIES = ["marketing", "technical", "customer-service", "content", "general"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

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

export const TEMPLATE_MESSAGES = {
  nameAndDescriptionRequired: "Please provide both a name and description for your template.",
  personaAndTopicRequired: "Your configuration must have at least one persona and one topic to save as a template.",
  nameTooLong: `Template name must be ${TEMPLATE_LIMITS.maxNameLength} characters or fewer.`,
  descriptionTooLong: `Template description must be ${TEMPLATE_LIMITS.maxDescriptionLength} characters or fewer.`,
  tooManyTags: `You can add up to ${TEMPLATE_LIMITS.maxTags} tags.`,
  tagTooLong: `Tags must be ${TEMPLATE_LIMITS.maxTagLength} characters or fewer.`,
  duplicateTag: "That tag has already been added.",
} as const;

export interface TemplateInput {
  readonly name: string;
  readonly description: string;
  readonly personas: readonly unknown[];
  readonly topics: readonly unknown[];
  readonly tags?: readonly string[];
}

/**
 * The first problem with a Save-as-Template form, with the field it is about, or null when it
 * can be saved. Checked in the order the spec lists them; lengths count the trimmed text.
 */
export function templateInputProblem(input: TemplateInput): Problem | null {
  const name = input.name.trim();
  const description = input.description.trim();
  if (!name || !description)
    return { field: name ? "description" : "name", message: TEMPLATE_MESSAGES.nameAndDescriptionRequired };
  if (input.personas.length === 0 || input.topics.length === 0) {
    return {
      field: input.personas.length === 0 ? "personas" : "topics",
      message: TEMPLATE_MESSAGES.personaAndTopicRequired,
    };
  }
  if (name.length > TEMPLATE_LIMITS.maxNameLength) return { field: "name", message: TEMPLATE_MESSAGES.nameTooLong };
  if (description.length > TEMPLATE_LIMITS.maxDescriptionLength) {
    return { field: "description", message: TEMPLATE_MESSAGES.descriptionTooLong };
  }
  if (input.tags) {
    const tags = input.tags.map(normalizeTag);
    if (tags.length > TEMPLATE_LIMITS.maxTags) return { field: "tags", message: TEMPLATE_MESSAGES.tooManyTags };
    if (tags.some((tag) => tag.length > TEMPLATE_LIMITS.maxTagLength))
      return { field: "tags", message: TEMPLATE_MESSAGES.tagTooLong };
    if (new Set(tags).size !== tags.length) return { field: "tags", message: TEMPLATE_MESSAGES.duplicateTag };
  }
  return null;
}

/** The message of templateInputProblem, for the form. */
export function validateTemplateInput(input: TemplateInput): string | null {
  return templateInputProblem(input)?.message ?? null;
}

export function normalizeTag(tag: string): string {
  return tag.trim().toLowerCase();
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
