// The words and shape of the results page's Team review (reviews.summary). The review page
// (features/review) counts its own progress with `reviewedText`, so both read alike.
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";

export type TeamReview = NonNullable<FunctionReturnType<typeof api.reviews.summary>>;

export const TEAM_REVIEW_TITLE = "Team review";
export const TEAM_REVIEW_EMPTY = "Nobody has reviewed this test's answers yet";
export const REVIEW_BUTTON = "Review answers";

/** "3 of 12 pairs reviewed". */
export function reviewedText(reviewed: number, total: number): string {
  return `${reviewed} of ${total} ${total === 1 ? "pair" : "pairs"} reviewed`;
}
