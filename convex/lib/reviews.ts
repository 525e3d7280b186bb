// Blind human review of a persona × topic pair (reviews.ts): the neutral labels a reviewer sees,
// in an order shuffled per reviewer and pair, and the check of what they send back. Pure.
import { labelFor, RATING_MAX, RATING_MIN, seededShuffle } from "./prompts";

/**
 * The pair's answers in the order this reviewer sees them, each with its label ("A", "B", …).
 * Seeded by test, reviewer and pair: the same on every read, different between reviewers.
 */
export function blindOrder<T>(
  answers: readonly T[],
  seed: { testId: string; userId: string; personaId: string; topicId: string },
): { label: string; answer: T }[] {
  const key = JSON.stringify(["review", seed.testId, seed.userId, seed.personaId, seed.topicId]);
  return seededShuffle(answers, key).map((answer, index) => ({ label: labelFor(index), answer }));
}

export type ReviewVerdict = { ranking: string[] } | { scores: Record<string, Record<string, number>> };

function list(items: readonly string[]): string {
  return items.join(", ");
}

/**
 * A reviewer's verdict on the test's scale, by label: a ranking names every label once, best
 * first; a rating scores every label on every criterion with a whole number from 1 to 10.
 * Returns the verdict, or the sentence that says what is wrong.
 */
export function checkVerdict(
  scale: "ranking" | "rating",
  labels: readonly string[],
  criteria: readonly string[],
  input: { ranking?: readonly string[]; scores?: Readonly<Record<string, Readonly<Record<string, number>>>> },
): { verdict: ReviewVerdict } | { error: string } {
  if (labels.length === 0) return { error: "This pair has no answers to review yet." };
  if (scale === "ranking") {
    if (input.ranking === undefined || input.scores !== undefined)
      return { error: "This test uses the ranking scale: rank the answers from best to worst." };
    const ranking = input.ranking;
    const once = new Set(ranking);
    if (ranking.length !== labels.length || once.size !== ranking.length || !labels.every((label) => once.has(label)))
      return { error: `Rank every answer exactly once: ${list(labels)}.` };
    return { verdict: { ranking: [...ranking] } };
  }
  if (input.scores === undefined || input.ranking !== undefined)
    return { error: "This test uses the rating scale: score every answer on each criterion." };
  const scores = input.scores;
  const given = Object.keys(scores);
  if (given.length !== labels.length || !labels.every((label) => Object.hasOwn(scores, label)))
    return { error: `Score every answer: ${list(labels)}.` };
  const verdict: Record<string, Record<string, number>> = {};
  for (const label of labels) {
    const byCriterion = scores[label]!;
    const named = Object.keys(byCriterion);
    if (named.length !== criteria.length || !criteria.every((criterion) => Object.hasOwn(byCriterion, criterion)))
      return { error: `Score answer ${label} on every criterion: ${list(criteria)}.` };
    for (const criterion of criteria) {
      const value = byCriterion[criterion]!;
      if (!Number.isInteger(value) || value < RATING_MIN || value > RATING_MAX)
        return {
          error: `Scores are whole numbers from ${RATING_MIN} to ${RATING_MAX} (answer ${label}, ${criterion}).`,
        };
    }
    verdict[label] = Object.fromEntries(criteria.map((criterion) => [criterion, byCriterion[criterion]!]));
  }
  return { verdict: { scores: verdict } };
}
