// Shapes and small formats of the results screens.
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import { preview as previewText } from "../../../convex/lib/text";

export type ResultsData = FunctionReturnType<typeof api.results.get>;
export type ResponseRow = FunctionReturnType<typeof api.results.responses>["page"][number];
export type EvaluationRow = FunctionReturnType<typeof api.results.evaluations>["page"][number];

/** Spec part 2 §9: responses and evaluations shown before 'Load more'. */
export const RESPONSES_PAGE = 20;
export const EVALUATIONS_PAGE = 10;
export const PREVIEW_LENGTH = 50;

/** The first `length` characters, with '...' when there is more. */
export function preview(text: string, length = PREVIEW_LENGTH): string {
  return previewText(text, length);
}

/** 'Coffee taglines!' → 'coffee-taglines', for file names. */
export function fileSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return slug || "test";
}

/** The page title of a test that is still producing results. */
export function isLive(status: string): boolean {
  return status === "running" || status === "pending";
}
