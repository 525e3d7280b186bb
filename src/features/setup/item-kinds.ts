// Personas and topics share their editor, list and saved-item picker; this says how they differ.
// The rules are the editor's zod schemas (convex/lib/forms, chosen by `singular`), not imported
// here: the dashboard shows these labels without loading the validation.
import { PERSONA_LIMITS, TOPIC_LIMITS } from "../../../convex/lib/limits";

export interface FieldSpec<K extends string> {
  key: K;
  label: string;
  placeholder: string;
  maxLength: number;
  multiline?: boolean;
  hint?: string;
}

export interface ItemKind<K extends string> {
  /** 'persona' or 'topic', as used in button names ('Add Persona', 'Edit persona X'). */
  singular: "persona" | "topic";
  Singular: string;
  plural: string;
  fields: readonly FieldSpec<K>[];
  titleKey: K;
  descriptionKey: K;
  bodyKey: K;
  emptySavedText: string;
  empty: () => Record<K, string>;
}

export type PersonaField = "name" | "description" | "systemPrompt";
export type TopicField = "title" | "description" | "prompt";

export const PERSONA_KIND: ItemKind<PersonaField> = {
  singular: "persona",
  Singular: "Persona",
  plural: "personas",
  fields: [
    { key: "name", label: "Name", placeholder: "e.g., Sarcastic Teenager", maxLength: PERSONA_LIMITS.maxNameLength },
    {
      key: "description",
      label: "Description",
      placeholder: "e.g., A bored 16-year-old who answers everything with an eye-roll",
      maxLength: PERSONA_LIMITS.maxDescriptionLength,
    },
    {
      key: "systemPrompt",
      label: "System Prompt",
      placeholder: "e.g., You are a sarcastic teenager. Answer helpfully, but with dry, eye-rolling humour.",
      maxLength: PERSONA_LIMITS.maxSystemPromptLength,
      multiline: true,
      hint: "The system prompt instructs the model how to behave: its role, tone and style.",
    },
  ],
  titleKey: "name",
  descriptionKey: "description",
  bodyKey: "systemPrompt",
  emptySavedText: "No saved personas found",
  empty: () => ({ name: "", description: "", systemPrompt: "" }),
};

export const TOPIC_KIND: ItemKind<TopicField> = {
  singular: "topic",
  Singular: "Topic",
  plural: "topics",
  fields: [
    { key: "title", label: "Title", placeholder: "e.g., Everyday Situations", maxLength: TOPIC_LIMITS.maxTitleLength },
    {
      key: "description",
      label: "Description",
      placeholder: "e.g., Common situations people ask for help with",
      maxLength: TOPIC_LIMITS.maxDescriptionLength,
    },
    {
      key: "prompt",
      label: "Topic Content",
      placeholder: "e.g., Explain how to split a restaurant bill fairly between friends who ordered different things.",
      maxLength: TOPIC_LIMITS.maxPromptLength,
      multiline: true,
      hint: "The topic content is combined with the user prompt, and the two are sent to every generator model.",
    },
  ],
  titleKey: "title",
  descriptionKey: "description",
  bodyKey: "prompt",
  emptySavedText: "No saved topics found",
  empty: () => ({ title: "", description: "", prompt: "" }),
};

/** Just the kind's fields of an item (no ids or timestamps). */
export function fieldValues<K extends string>(kind: ItemKind<K>, item: Readonly<Record<K, string>>): Record<K, string> {
  const values = kind.empty();
  for (const field of kind.fields) values[field.key] = item[field.key];
  return values;
}
