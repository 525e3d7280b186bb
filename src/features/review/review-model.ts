// The blind review's words and pure steps: the shape reviews.pair answers,
// moving an answer within a ranking, the scores a rating needs, and which pair comes next.
// Nothing here knows a model's name: the server sends the answers under neutral labels only.
import type { FunctionReturnType } from "convex/server";

import { reviewedText } from "@/components/results/team-review-model";

import type { api } from "../../../convex/_generated/api";

export type ReviewPairView = NonNullable<FunctionReturnType<typeof api.reviews.pair>>;
export type ReviewPairSummary = ReviewPairView["pairs"][number];
export type ReviewCurrent = NonNullable<ReviewPairView["current"]>;
export type ReviewAnswer = ReviewCurrent["answers"][number];

/** Scores by label, then by criterion (1–10). */
export type RatingScores = Record<string, Record<string, number>>;

export const REVIEW_TITLE = "Blind review";
export const REVIEW_EMPTY = "No answers to review yet";
export const REVIEW_EMPTY_HINT = "Answers appear here as the models write them.";
export const REVIEW_LOAD_FAILED = "Could not load the review";
export const VIEWERS_CANNOT_REVIEW = "Viewers cannot review. Ask a team owner to make you a member.";
export const RATING_MIN = 1;
export const RATING_MAX = 10;

/** Where an answer sits in a ranking: its key, the pair's key, so a change of pair starts afresh. */
export function pairKey(pair: { personaId: string; topicId: string }): string {
  return `${pair.personaId}\u0000${pair.topicId}`;
}

/** What identifies the answers on screen: each label with the length and start of its text. */
export function answersSignature(answers: readonly ReviewAnswer[]): string {
  return answers
    .map((answer) => `${answer.label}:${answer.content.length}:${answer.content.slice(0, 40)}`)
    .join("\u0001");
}

/** The order to start from: the saved verdict's, else the order the server shuffled them in. */
export function initialRanking(current: ReviewCurrent): string[] {
  const labels = current.answers.map((answer) => answer.label);
  const verdict = current.verdict;
  if (verdict && "ranking" in verdict) {
    const saved = verdict.ranking.filter((label) => labels.includes(label));
    if (saved.length === labels.length) return saved;
  }
  return labels;
}

/** The saved scores, or none yet. */
export function initialScores(current: ReviewCurrent): RatingScores {
  const verdict = current.verdict;
  if (verdict && "scores" in verdict) return structuredClone(verdict.scores);
  return {};
}

/** `order` with the item at `from` moved to `to` (both clamped into the list). */
export function moveTo<T>(order: readonly T[], from: number, to: number): T[] {
  const next = [...order];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** How many scores a rating still lacks: every label × every criterion needs a whole number 1–10. */
export function missingScores(labels: readonly string[], criteria: readonly string[], scores: RatingScores): number {
  let missing = 0;
  for (const label of labels) {
    for (const criterion of criteria) {
      const value = scores[label]?.[criterion];
      if (value === undefined || !Number.isInteger(value) || value < RATING_MIN || value > RATING_MAX) missing += 1;
    }
  }
  return missing;
}

/** The pair after `current` (in the configuration's order, wrapping) that has answers and is not reviewed. */
export function nextUnreviewed(
  pairs: readonly ReviewPairSummary[],
  current: { personaId: string; topicId: string },
): ReviewPairSummary | null {
  const at = pairs.findIndex((pair) => pairKey(pair) === pairKey(current));
  for (let step = 1; step <= pairs.length; step += 1) {
    const pair = pairs[(at + step + pairs.length) % pairs.length];
    if (pair && pair.answers > 0 && !pair.reviewed && pairKey(pair) !== pairKey(current)) return pair;
  }
  return null;
}

/** The neighbouring pair with answers, before (-1) or after (+1) `current`; null at either end. */
export function neighbourPair(
  pairs: readonly ReviewPairSummary[],
  current: { personaId: string; topicId: string },
  direction: -1 | 1,
): ReviewPairSummary | null {
  const at = pairs.findIndex((pair) => pairKey(pair) === pairKey(current));
  for (let index = at + direction; index >= 0 && index < pairs.length; index += direction) {
    const pair = pairs[index];
    if (pair && pair.answers > 0) return pair;
  }
  return null;
}

/** The caller's progress over the listed pairs. */
export function progressText(pairs: readonly ReviewPairSummary[]): string {
  return reviewedText(pairs.filter((pair) => pair.reviewed).length, pairs.length);
}
