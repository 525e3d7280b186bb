// Search and category filter of the templates page (spec part 2 §5): case-insensitive over name,
// description and tags; the category filter defaults to 'all'.
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import type { TemplateCategoryFilter } from "../../../convex/lib/templates";

export type TemplateView = FunctionReturnType<typeof api.templates.listOwn>[number];

/** Cards show the first 3 tags, then '+n'. */
export const TAGS_SHOWN = 3;

export function filterTemplates<T extends Pick<TemplateView, "name" | "description" | "tags" | "category">>(
  templates: readonly T[],
  search: string,
  category: TemplateCategoryFilter,
): T[] {
  const needle = search.trim().toLowerCase();
  return templates.filter(
    (template) =>
      (category === "all" || template.category === category) &&
      (needle === "" ||
        template.name.toLowerCase().includes(needle) ||
        template.description.toLowerCase().includes(needle) ||
        template.tags.some((tag) => tag.toLowerCase().includes(needle))),
  );
}

export function visibleTags(tags: readonly string[]): { shown: string[]; more: number } {
  return { shown: tags.slice(0, TAGS_SHOWN), more: Math.max(0, tags.length - TAGS_SHOWN) };
}
