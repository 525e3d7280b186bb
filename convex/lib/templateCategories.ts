// The template categories (spec part 1 §3 "Save as Template"): the one list the validators, the
// Save-as-Template form and the pickers derive from; their labels are in ./templates.ts.
// Plain data: nothing here imports anything.

export const TEMPLATE_CATEGORIES = ["marketing", "technical", "customer-service", "content", "general"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
