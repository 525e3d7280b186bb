// Ranks that tie when confidence intervals overlap, and the sentence that says what the evidence supports.
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

export interface RankedModel {
  readonly modelId: string;
  readonly modelName: string;
  readonly mean: number;
  readonly interval: Interval;
}

export interface EvidenceSummary {
  readonly kind: "best" | "tied" | "none";
  readonly text: string;
  /** The best model, or every model tied for first (leader first). */
  readonly leaders: string[];
  /** Estimated topics to add before the leader's interval clears the others'; null when not estimable. */
  readonly extraTopicsNeeded: number | null;
}

function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * "A is best" only when the leader's lower bound is above every other model's upper bound;
 * otherwise the models whose intervals reach the leader's are statistically tied. The number of
 * extra topics assumes interval widths shrink with the square root of the number of
 * persona × topic units: separating the leader from model B needs n · (w / d)² units, w the
 * leader's lower half-width plus B's upper half-width and d the gap between their means.
 */
export function evidenceSummary(models: readonly RankedModel[], units: number, personas: number): EvidenceSummary {
  const sorted = [...models].sort((a, b) => compareScores(b.mean, a.mean));
  const leader = sorted[0];
  if (!leader) return { kind: "none", text: "No scores yet.", leaders: [], extraTopicsNeeded: null };
  const tied = sorted.slice(1).filter((model) => compareScores(model.interval.high, leader.interval.low) >= 0);
  if (tied.length === 0) {
    return { kind: "best", text: `${leader.modelName} is best`, leaders: [leader.modelId], extraTopicsNeeded: null };
  }
  let neededUnits = 0;
  for (const model of tied) {
    const gap = leader.mean - model.mean;
    const width = leader.mean - leader.interval.low + (model.interval.high - model.mean);
    neededUnits =
      compareScores(leader.mean, model.mean) > 0 && Number.isFinite(neededUnits)
        ? Math.max(neededUnits, units * (width / gap) ** 2)
        : Infinity;
  }
  const extraTopics =
    Number.isFinite(neededUnits) && units > 0
      ? Math.max(1, Math.ceil((neededUnits - units) / Math.max(1, personas)))
      : null;
  const names = joinNames([leader, ...tied].map((model) => model.modelName));
  return {
    kind: "tied",
    text:
      `${names} are statistically tied; run more topics or judges to separate them` +
      (extraTopics === null ? "." : ` (about ${extraTopics} more ${extraTopics === 1 ? "topic" : "topics"}).`),
    leaders: [leader.modelId, ...tied.map((model) => model.modelId)],
    extraTopicsNeeded: extraTopics,
  };
}
