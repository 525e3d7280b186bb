// The zod schemas of every form that writes to the server: the form validates with one
// (react-hook-form's zodResolver) and the Convex function parses its arguments with the same
// one (problemsOf + rejectProblems), so a rule and its message live here once. Limits come from
// ./limits and ./credentials; the contact form's schema is in ./contact beside its subjects.
import { z } from "zod";

import { passwordProblem } from "./credentials";
import { API_KEY_LIMITS, PERSONA_LIMITS, TEMPLATE_LIMITS, TEST_LIMITS, TOPIC_LIMITS } from "./limits";
import { TEMPLATE_CATEGORIES, type TemplateCategory } from "./templateCategories";
import type { Problem } from "./types";

/**
 * The problems of `value` under `schema`, one per field (its first), in the schema's field
 * order; `field` is the dotted path ("name", "templateData.personas.0.name").
 */
export function problemsOf(schema: z.ZodType, value: unknown): Problem[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".");
    if (seen.has(field)) continue;
    seen.add(field);
    problems.push({ field, message: issue.message });
  }
  return problems;
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** Required text: trimmed, then '{label} is required.' or '{label} must be N characters or fewer.' */
export function requiredText(label: string, maxLength: number) {
  return z
    .string()
    .trim()
    .min(1, `${label} is required.`)
    .max(maxLength, `${label} must be ${count(maxLength)} characters or fewer.`);
}

/** Spec part 1 §5: name, description and system prompt are all required. */
export const personaSchema = z.object({
  name: requiredText("Persona name", PERSONA_LIMITS.maxNameLength),
  description: requiredText("Persona description", PERSONA_LIMITS.maxDescriptionLength),
  systemPrompt: requiredText("System prompt", PERSONA_LIMITS.maxSystemPromptLength),
});

/** Spec part 1 §5: title, description and topic content are all required. */
export const topicSchema = z.object({
  title: requiredText("Topic title", TOPIC_LIMITS.maxTitleLength),
  description: requiredText("Topic description", TOPIC_LIMITS.maxDescriptionLength),
  prompt: requiredText("Topic content", TOPIC_LIMITS.maxPromptLength),
});

export { TEMPLATE_CATEGORIES, type TemplateCategory };

export const TEMPLATE_MESSAGES = {
  nameAndDescriptionRequired: "Please provide both a name and description for your template.",
  personaAndTopicRequired: "Your configuration must have at least one persona and one topic to save as a template.",
  nameTooLong: `Template name must be ${TEMPLATE_LIMITS.maxNameLength} characters or fewer.`,
  descriptionTooLong: `Template description must be ${TEMPLATE_LIMITS.maxDescriptionLength} characters or fewer.`,
  tooManyTags: `You can add up to ${TEMPLATE_LIMITS.maxTags} tags.`,
  tagTooLong: `Tags must be ${TEMPLATE_LIMITS.maxTagLength} characters or fewer.`,
  duplicateTag: "That tag has already been added.",
} as const;

/** Tags are stored trimmed and lowercased. */
export function normalizeTag(tag: string): string {
  return tag.trim().toLowerCase();
}

/** The first problem with a list of tags (normalized, empty ones dropped), or null. */
export function tagsProblem(tags: readonly string[]): string | null {
  if (tags.length > TEMPLATE_LIMITS.maxTags) return TEMPLATE_MESSAGES.tooManyTags;
  if (tags.some((tag) => tag.length > TEMPLATE_LIMITS.maxTagLength)) return TEMPLATE_MESSAGES.tagTooLong;
  if (new Set(tags).size !== tags.length) return TEMPLATE_MESSAGES.duplicateTag;
  return null;
}

/**
 * The Save-as-Template form (spec part 1 §5): name and description required (trimmed), one
 * message for both, shown on the first one missing; name at most 100 and description at most
 * 500 characters; up to 5 unique tags of at most 20 characters, stored lowercased and trimmed;
 * a category; private or public. The output is what is stored.
 */
export const templateFormSchema = z
  .object({
    name: z.string().trim().max(TEMPLATE_LIMITS.maxNameLength, TEMPLATE_MESSAGES.nameTooLong),
    description: z.string().trim().max(TEMPLATE_LIMITS.maxDescriptionLength, TEMPLATE_MESSAGES.descriptionTooLong),
    tags: z
      .array(z.string())
      .transform((tags) => tags.map(normalizeTag).filter(Boolean))
      .superRefine((tags, context) => {
        const problem = tagsProblem(tags);
        if (problem !== null) context.addIssue({ code: "custom", message: problem });
      }),
    category: z.enum(TEMPLATE_CATEGORIES),
    isPublic: z.boolean(),
  })
  // Checked alongside the fields' own rules (`when`), so the required message shows with the others.
  .refine((values) => values.name !== "", {
    path: ["name"],
    message: TEMPLATE_MESSAGES.nameAndDescriptionRequired,
    when: () => true,
  })
  .refine((values) => values.name === "" || values.description !== "", {
    path: ["description"],
    message: TEMPLATE_MESSAGES.nameAndDescriptionRequired,
    when: () => true,
  });
export type TemplateForm = z.input<typeof templateFormSchema>;

const templateContent = z.object({ personas: z.array(z.unknown()), topics: z.array(z.unknown()) });
type TemplateContent = z.infer<typeof templateContent>;
const hasPersonaAndTopic = (data: TemplateContent) => data.personas.length > 0 && data.topics.length > 0;

/** What a template holds must include a persona and a topic (the limits of the rest are ./limits). */
export const templateContentSchema = templateContent.refine(
  hasPersonaAndTopic,
  TEMPLATE_MESSAGES.personaAndTopicRequired,
);

/**
 * What templates.create parses: the form and the content it saves. The persona and topic rule
 * comes after the name and description rule, as the spec lists them.
 */
export const templateSchema = templateFormSchema
  .safeExtend({ templateData: templateContent })
  .refine((values) => hasPersonaAndTopic(values.templateData), {
    path: ["templateData"],
    message: TEMPLATE_MESSAGES.personaAndTopicRequired,
    when: (payload) => payload.issues.every((issue) => issue.path?.[0] !== "templateData"),
  });

export const RESPONSES_PER_TOPIC_MESSAGE = `Responses per topic must be a whole number from ${TEST_LIMITS.minResponsesPerTopic} to ${TEST_LIMITS.maxResponsesPerTopic}.`;

/**
 * Responses per topic as typed (spec part 1 §5: 1 to 10): a whole number in range, else the
 * message; the output is the number.
 */
export const responsesPerTopicField = z
  .string()
  .trim()
  .regex(/^\d{1,3}$/, RESPONSES_PER_TOPIC_MESSAGE)
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(TEST_LIMITS.minResponsesPerTopic, RESPONSES_PER_TOPIC_MESSAGE)
      .max(TEST_LIMITS.maxResponsesPerTopic, RESPONSES_PER_TOPIC_MESSAGE),
  );

export const PROFILE_LIMITS = { maxFullNameLength: 100, maxAvatarUrlLength: 2048 } as const;
export const PROFILE_MESSAGES = {
  fullNameTooLong: `Full name must be at most ${PROFILE_LIMITS.maxFullNameLength} characters.`,
  avatarUrlInvalid: "Avatar URL must be a valid http(s) URL.",
} as const;

/** Trimmed; empty is stored as null (spec part 2 §5). */
export function cleanOptionalText(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

/** Text as typed (the server passes null as ""); the output is trimmed, or null when empty. */
const optionalText = z.string().transform(cleanOptionalText);

/** Profile: an optional full name and an optional http(s) avatar URL; empty is null. */
export const profileSchema = z.object({
  fullName: optionalText.refine(
    (name) => name === null || name.length <= PROFILE_LIMITS.maxFullNameLength,
    PROFILE_MESSAGES.fullNameTooLong,
  ),
  avatarUrl: optionalText.refine(
    (url) => url === null || (url.length <= PROFILE_LIMITS.maxAvatarUrlLength && /^https?:\/\/\S+$/i.test(url)),
    PROFILE_MESSAGES.avatarUrlInvalid,
  ),
});

export const API_KEY_MESSAGES = {
  required: "Enter your OpenRouter API key.",
  invalid: `Please enter a valid API key: ${API_KEY_LIMITS.minLength} to ${API_KEY_LIMITS.maxLength} characters, without spaces.`,
} as const;

/** A gateway key as pasted: trimmed, 8 to 512 characters, no whitespace inside. */
export const apiKeySchema = z.object({
  key: z
    .string()
    .trim()
    .min(1, API_KEY_MESSAGES.required)
    .refine(
      (key) => key.length >= API_KEY_LIMITS.minLength && key.length <= API_KEY_LIMITS.maxLength && !/\s/.test(key),
      API_KEY_MESSAGES.invalid,
    ),
});
export type ApiKeyForm = z.input<typeof apiKeySchema>;

/** A password being chosen (sign-up, reset, change): the rule of ./credentials. */
export const newPasswordField = z.string().superRefine((value, context) => {
  const problem = passwordProblem(value);
  if (problem !== null) context.addIssue({ code: "custom", message: problem });
});

export const PASSWORD_CHANGE_MESSAGES = {
  currentRequired: "Enter your current password.",
  mustDiffer: "The new password must differ from the current one.",
  mismatch: "The passwords do not match.",
} as const;

/** What profile.changePassword parses: the new-password rule, and a password other than the current one. */
export const passwordChangeSchema = z
  .object({ currentPassword: z.string(), newPassword: newPasswordField })
  .refine((values) => values.newPassword !== values.currentPassword, {
    path: ["newPassword"],
    message: PASSWORD_CHANGE_MESSAGES.mustDiffer,
  });

/** The Change Password form: the server's schema, the current password filled in, and the new one typed twice. */
export const passwordChangeFormSchema = z
  .object({
    currentPassword: z.string().min(1, PASSWORD_CHANGE_MESSAGES.currentRequired),
    newPassword: newPasswordField,
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword !== values.currentPassword, {
    path: ["newPassword"],
    message: PASSWORD_CHANGE_MESSAGES.mustDiffer,
    when: () => true,
  })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ["confirmPassword"],
    message: PASSWORD_CHANGE_MESSAGES.mismatch,
    // Checked alongside the fields' own rules, so every problem shows at once.
    when: () => true,
  });
export type PasswordChangeForm = z.input<typeof passwordChangeFormSchema>;
