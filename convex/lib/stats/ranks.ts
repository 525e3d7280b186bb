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

/** z for a two-sided 95% interval. */
const Z_95 = 1.959963984540054;

export interface RankedModel {
  readonly modelId: string;
  readonly modelName: string;
  readonly mean: number;
  readonly interval: Interval;
}

export interface EvidenceSummary {
  /** "thin": too little evidence for an interval (lib/verdict.ts says each in words). */
  readonly kind: "best" | "tied" | "thin" | "none";
  readonly text: string;
  /** The best model, or every model tied for first (leader first); [] when thin or none. */
  readonly leaders: string[];
  /** Estimated topics to add before the leader's interval clears the others'; null when not estimable. */
  readonly extraTopicsRange: TopicsRange | null;
}

/**
 * "A is best" only when the leader's lower bound is above every other model's upper bound;
 * otherwise the models whose intervals reach the leader's are statistically tied. Below
 * MIN_EVIDENCE_PAIRS units, or with one judge call per answer, the evidence is too thin to say
 * either. The number of extra topics assumes interval widths shrink with the square root of the
 * number of persona × topic units: separating the leader from model B needs n · (w / d)² units, w
 * the leader's lower half-width plus B's upper half-width and d the gap between their means; the
 * range takes d one standard error either side (the half-widths over z, added in quadrature), and
 * is null when d less its standard error is not above 0.
 */
export function evidenceSummary(
  models: readonly RankedModel[],
  units: number,
  personas: number,
  repeatedJudgeCalls = true,
): EvidenceSummary {
  const sorted = [...models].sort((a, b) => compareScores(b.mean, a.mean));
  const leader = sorted[0];
  const summary = (kind: EvidenceSummary["kind"], leaders: RankedModel[], range: TopicsRange | null) => ({
    kind,
    text: verdictSentence({
      kind,
      leaders: leaders.map((model) => model.modelName),
      extraTopicsRange: range,
      units,
    }),
    leaders: leaders.map((model) => model.modelId),
    extraTopicsRange: range,
  });
  if (!leader) return summary("none", [], null);
  if (units < MIN_EVIDENCE_PAIRS || !repeatedJudgeCalls) return summary("thin", [], null);
  const tied = sorted.slice(1).filter((model) => compareScores(model.interval.high, leader.interval.low) >= 0);
  if (tied.length === 0) return summary("best", [leader], null);
  const extraTopics = (gapShift: number) => {
    let neededUnits = 0;
    for (const model of tied) {
      const leaderHalf = leader.mean - leader.interval.low;
      const modelHalf = model.interval.high - model.mean;
      const width = leaderHalf + modelHalf;
      const gap = leader.mean - model.mean + gapShift * (Math.hypot(leaderHalf, modelHalf) / Z_95);
      neededUnits =
        gap > 0 && Number.isFinite(neededUnits) ? Math.max(neededUnits, units * (width / gap) ** 2) : Infinity;
    }
    return Number.isFinite(neededUnits) && units > 0
      ? Math.max(1, Math.ceil((neededUnits - units) / Math.max(1, personas)))
      : null;
  };
  const low = extraTopics(1);
  const high = extraTopics(-1);
  return summary("tied", [leader, ...tied], low !== null && high !== null ? { low, high } : null);
}
