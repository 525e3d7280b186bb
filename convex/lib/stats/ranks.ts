// Ranks that tie when confidence intervals overlap, and the sentence that says what the evidence supports.
import { MIN_EVIDENCE_PAIRS, verdictSentence, type TopicsRange } from "../verdict";
import { compareScores, type Interval } from "./basics";

export interface RankRange {
  /** 1 + the number of models whose lower bound is above this model's upper bound. */
  readonly best: number;
  /** The number of models whose upper bound is not below this model's lower bound (itself included). */
  readonly worst: number;
}

/** Rank ranges from intervals (higher is better), in the order given. */
export function tieRanks(intervals: readonly Interval[]): RankRange[] {
  return intervals.map((own) => ({
    best: 1 + intervals.filter((other) => compareScores(other.low, own.high) > 0).length,
    worst:
      intervals.length - intervals.filter((other) => other !== own && compareScores(other.high, own.low) < 0).length,
  }));
}

/** Fewest persona × topic pairs an interval rests on: below it the statistics give none. */
export const MIN_PAIRS = MIN_EVIDENCE_PAIRS;

/** What the evidence rests on: scored pairs, judged answers, and answers with two or more judge calls. */
export interface EvidenceCounts {
  readonly pairs: number;
  readonly answers: number;
  readonly repeatedAnswers: number;
}

/**
 * Why the evidence is too little for an interval, or null when it is enough: fewer than
 * MIN_PAIRS persona × topic pairs, or one judge call per answer (fewer than half the answers
 * judged twice or more), where nothing in the data shows how much a fresh verdict would differ.
 */
export function thinEvidence({ pairs, answers, repeatedAnswers }: EvidenceCounts): string | null {
  const fewPairs = pairs < MIN_PAIRS;
  const singleCalls = answers > 0 && 2 * repeatedAnswers < answers;
  const pairWords = `${pairs} persona × topic ${pairs === 1 ? "pair" : "pairs"}`;
  if (fewPairs && singleCalls) {
    return `Too little evidence: ${pairWords} and one judge call per answer; an interval needs at least ${MIN_PAIRS} pairs and two judge calls per answer.`;
  }
  if (fewPairs) return `Too little evidence: ${pairWords}; an interval needs at least ${MIN_PAIRS}.`;
  if (singleCalls) {
    return "Too little evidence: one judge call per answer; an interval needs two (add a judge, or judge in both orders).";
  }
  return null;
}

export interface RankedModel {
  readonly modelId: string;
  readonly modelName: string;
  readonly mean: number;
  /** Null when the evidence is too little for one. */
  readonly interval: Interval | null;
}

export interface EvidenceSummary {
  /** "thin": too little evidence for any interval, so no claim (see thinEvidence); lib/verdict.ts words each kind. */
  readonly kind: "best" | "tied" | "thin" | "none";
  /** The decision in one sentence (lib/verdict.ts verdictSentence). */
  readonly text: string;
  /** The best model, or every model tied for first (leader first); [] when thin or none. */
  readonly leaders: string[];
  /**
   * Topics to add before the leader's interval likely clears the others', as a range from the
   * gaps' 95% intervals; null when the evidence cannot bound it (too little evidence, or a gap
   * whose interval reaches 0: no number of topics can be promised to separate equal models).
   */
  readonly extraTopicsRange: TopicsRange | null;
}

export interface SummaryOptions {
  /** Why the evidence is too little (thinEvidence), or null. */
  readonly thin?: string | null;
  /** The 95% interval of the leader's score less another model's (paired over pairs), or null. */
  readonly gap?: (leaderId: string, modelId: string) => Interval | null;
}

/**
 * "A is best" only when the leader's lower bound is above every other model's upper bound;
 * otherwise the models whose intervals reach the leader's are statistically tied. Too little
 * evidence (options.thin): no claim at all. The extra topics assume interval widths shrink with
 * the square root of the number of persona × topic units: separating the leader from model B
 * needs n · (w / d)² units, w the leader's lower half-width plus B's upper half-width and d the
 * gap between their true means. d is only known within its interval [d₋, d₊], so the need is
 * given as the range n · (w / d₊)² to n · (w / d₋)², and not at all when d₋ ≤ 0.
 */
export function evidenceSummary(
  models: readonly RankedModel[],
  units: number,
  personas: number,
  options: SummaryOptions = {},
): EvidenceSummary {
  const sorted = [...models].sort((a, b) => compareScores(b.mean, a.mean));
  const leader = sorted[0];
  const summary = (
    kind: EvidenceSummary["kind"],
    leaders: readonly RankedModel[],
    range: TopicsRange | null,
  ): EvidenceSummary => ({
    kind,
    text: verdictSentence({ kind, leaders: leaders.map((model) => model.modelName), extraTopicsRange: range, units }),
    leaders: leaders.map((model) => model.modelId),
    extraTopicsRange: range,
  });
  if (!leader) return summary("none", [], null);
  const leaderInterval = leader.interval;
  // Too little evidence names no model: the one ahead on so little is no claim that it is best.
  if (options.thin || leaderInterval === null) {
    return { ...summary("thin", [], null), ...(options.thin ? { text: options.thin } : {}) };
  }
  const tied = sorted
    .slice(1)
    .filter((model) => model.interval === null || compareScores(model.interval.high, leaderInterval.low) >= 0);
  if (tied.length === 0) return summary("best", [leader], null);
  let lowUnits = 0;
  let highUnits = 0;
  for (const model of tied) {
    const gap = options.gap?.(leader.modelId, model.modelId) ?? null;
    if (model.interval === null || gap === null || compareScores(gap.low, 0) <= 0) {
      highUnits = Infinity;
      continue;
    }
    const width = leader.mean - leaderInterval.low + (model.interval.high - model.mean);
    lowUnits = Math.max(lowUnits, units * (width / gap.high) ** 2);
    highUnits = Math.max(highUnits, units * (width / gap.low) ** 2);
  }
  const topics = (needed: number) => Math.max(1, Math.ceil((needed - units) / Math.max(1, personas)));
  const range = Number.isFinite(highUnits) && units > 0 ? { low: topics(lowUnits), high: topics(highUnits) } : null;
  return summary("tied", [leader, ...tied], range);
}
