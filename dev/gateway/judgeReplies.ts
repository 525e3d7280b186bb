// The gateway's judge replies (rankings and ratings, scored from the answers' text with a judge's
// seeded noise) and its replies to anything else.
import { FAIR_JUDGE, modelFamily, type CatalogModel, type JudgeProfile } from "./catalog";
import { unitFromStrings } from "./random";
import type { Criterion } from "./replies";
import { authorOf, DETAIL_MARKERS, FILLER_SENTENCES } from "./answerWriting";

// ── Judging ────────────────────────────────────────────────────────────────

/** Matches the filler sentences of verbose models, whatever words fill them. */
const FILLER_PATTERN = new RegExp(
  FILLER_SENTENCES.map((template) =>
    template
      .split(/\{[ab]\}/)
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".+?"),
  ).join("|"),
  "gi",
);

/**
 * 0..1: how long and specific an answer is, filler left out. Correlates with the hidden quality
 * of its writer; a verbose model's padding does not count (except for a length-favouring judge).
 */
export function answerTextScore(text: string): number {
  const lower = text.replace(FILLER_PATTERN, " ").toLowerCase();
  const words = lower.split(/\s+/).filter(Boolean).length;
  const markers = DETAIL_MARKERS.filter((marker) => lower.includes(marker)).length;
  return (0.55 * Math.min(words, 140)) / 140 + (0.45 * Math.min(markers, 6)) / 6;
}

/**
 * The judge's perceived score: text score plus seeded noise, larger for weaker judges, plus its
 * planted imperfections (catalog.ts PLANTED_JUDGES): a bonus for the answer shown first
 * (`shownIndex` 0 of `shownCount` > 1), for its own family's answers and for length.
 */
function judgedScore(
  judge: CatalogModel,
  seed: number,
  salt: string,
  text: string,
  profile: JudgeProfile = FAIR_JUDGE,
  shownIndex = 0,
  shownCount = 1,
): number {
  const amplitude = (0.1 + 0.25 * (1 - judge.quality)) * profile.noise;
  const noise = (unitFromStrings("judge", judge.id, String(seed), salt, text) - 0.5) * 2 * amplitude;
  let score = answerTextScore(text) + noise;
  if (profile.positionBias !== 0 && shownCount > 1 && shownIndex === 0) score += profile.positionBias;
  if (profile.selfPreference !== 0) {
    const author = authorOf(text);
    if (author !== undefined && modelFamily(author) === modelFamily(judge.id)) score += profile.selfPreference;
  }
  if (profile.lengthBias !== 0) score += (profile.lengthBias * Math.min(wordCount(text), 300)) / 100;
  return score;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** `answers` in the order the judge was shown them. */
export function rankingContent(
  judge: CatalogModel,
  answers: readonly { label: string; text: string }[],
  seed: number,
  profile: JudgeProfile = FAIR_JUDGE,
): string {
  const ranked = answers
    .map(({ label, text }, index) => ({
      label,
      score: judgedScore(judge, seed, label, text, profile, index, answers.length),
    }))
    .sort((x, y) => y.score - x.score || x.label.localeCompare(y.label));
  const best = ranked[0]?.label ?? "";
  const worst = ranked[ranked.length - 1]?.label ?? "";
  const explanation =
    ranked.length > 2
      ? `${best} is the most specific and complete answer, with concrete detail; ${worst} is the thinnest and most generic. The others fall in between on depth and clarity.`
      : `${best} is more specific and complete than ${worst}, which stays generic.`;
  return JSON.stringify({ ranking: ranked.map(({ label }) => label), explanation });
}

export function ratingContent(
  judge: CatalogModel,
  criteria: readonly Criterion[],
  answer: string,
  seed: number,
  profile: JudgeProfile = FAIR_JUDGE,
): string {
  const scores: Record<string, number> = {};
  for (const criterion of criteria) {
    const perceived = judgedScore(judge, seed, criterion, answer, profile);
    scores[criterion] = Math.min(10, Math.max(1, Math.round(1.5 + perceived * 9)));
  }
  const values = Object.values(scores);
  const mean = values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const explanation =
    mean >= 7.5
      ? "Accurate, clear and specific, with concrete examples that fit the question."
      : mean >= 4.5
        ? "Relevant and mostly clear, but light on specifics and examples."
        : "Generic and thin: it touches the topic without concrete detail.";
  return JSON.stringify({ scores, explanation });
}
