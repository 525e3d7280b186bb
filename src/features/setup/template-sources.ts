import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import { templateDataOf, type BuiltinTemplate } from "../../../convex/lib/builtins";
import type { TemplateSource } from "./setup-state";

/** A saved template as listOwn, listPublic and get return it. */
export type SavedTemplate = FunctionReturnType<typeof api.templates.listOwn>[number];

export function builtinSource(template: BuiltinTemplate): TemplateSource {
  return {
    kind: "builtin",
    id: template.id,
    name: template.name,
    category: template.category,
    data: templateDataOf(template),
  };
}

export function savedSource(template: SavedTemplate): TemplateSource {
  return {
    kind: "saved",
    id: template._id,
    name: template.name,
    category: template.category,
    data: template.templateData,
  };
}
