// Checks of one judge's biases: position (first-shown answer put first), length and self-preference.
import { sampleStandardDeviation } from "simple-statistics";
import { correlationPValue, mean, pearson, studentTUpperTail } from "./basics";

/**
 * P(X ≥ k) for X the number of successes in independent trials with the given success
 * probabilities (the Poisson-binomial distribution; the binomial when they are all equal).
 */
export function successesUpperTail(probabilities: readonly number[], k: number): number {
  if (k <= 0) return 1;
  if (k > probabilities.length) return 0;
  // dist[j] = P(j successes so far).
  let dist = new Float64Array(probabilities.length + 1);
  dist[0] = 1;
  probabilities.forEach((p, trial) => {
    const next = new Float64Array(dist.length);
    for (let j = 0; j <= trial; j++) {
      next[j]! += dist[j]! * (1 - p);
      next[j + 1]! += dist[j]! * p;
    }
    dist = next;
  });
  let tail = 0;
  for (let j = k; j < dist.length; j++) tail += dist[j]!;
  return Math.min(1, tail);
}

export interface PositionBias {
  /** Ranking calls looked at. */
  readonly calls: number;
  /** Share of calls whose first-shown answer was ranked first. */
  readonly firstRate: number;
  /** The share expected by chance (mean of 1 / answers shown). */
  readonly chance: number;
  /** One-sided binomial test of putting the first-shown answer first more often than chance. */
  readonly pValue: number;
}

/** Position bias from ranking calls: which answer was shown first, and which was ranked first. */
export function positionBias(
  calls: readonly { readonly shown: readonly string[]; readonly ranking: readonly string[] }[],
): PositionBias | null {
  const usable = calls.filter((call) => call.shown.length >= 2 && call.ranking.length > 0);
  if (usable.length === 0) return null;
  const probabilities = usable.map((call) => 1 / call.shown.length);
  const hits = usable.filter((call) => call.ranking[0] === call.shown[0]).length;
  return {
    calls: usable.length,
    firstRate: hits / usable.length,
    chance: probabilities.reduce((sum, p) => sum + p, 0) / usable.length,
    pValue: successesUpperTail(probabilities, hits),
  };
}

/**
 * Share of answer pairs a judge put in the same order when shown the answers forwards and in
 * reverse (position consistency); null without a pair of orders.
 */
export function positionConsistency(
  pairs: readonly { readonly forward: readonly string[]; readonly reverse: readonly string[] }[],
): number | null {
  let same = 0;
  let total = 0;
  for (const { forward, reverse } of pairs) {
    const place = new Map(reverse.map((id, index) => [id, index]));
    const common = forward.filter((id) => place.has(id));
    for (let i = 0; i < common.length; i++) {
      for (let j = i + 1; j < common.length; j++) {
        total++;
        if (place.get(common[i]!)! < place.get(common[j]!)!) same++;
      }
    }
  }
  return total > 0 ? same / total : null;
}

/** One answer as one judge saw it, next to what the rest of the panel gave the same answer. */
export interface JudgedAnswer {
  readonly score: number;
  /** Mean score the other judges gave this answer; null when no other judge scored it. */
  readonly othersScore: number | null;
  /**
   * Where the judge placed this answer among those of its unit minus where the panel's mean
   * placed it, both as midranks scaled to 0..1; null without other judges. Ranks, not scores, so a
   * judge that is merely more decisive (or less noisy) than the averaged panel shows no excess.
   */
  readonly excess: number | null;
  /** Answer length (characters) minus the mean length of its persona × topic unit. */
  readonly lengthFromUnitMean: number;
  readonly length: number;
  readonly ownFamily: boolean;
  /** The model that wrote the answer. */
  readonly modelId: string;
}

export interface LengthBias {
  /** Correlation of the judge's scores with answer length. */
  readonly correlation: number | null;
  /** Correlation of its excess over the panel (rank against the panel's rank) with length, within units. */
  readonly excess: number | null;
  /** One-sided test that the excess correlation is above 0. */
  readonly pValue: number | null;
}

export function lengthBias(answers: readonly JudgedAnswer[]): LengthBias {
  const correlation = pearson(
    answers.map((answer) => answer.score),
    answers.map((answer) => answer.length),
  );
  const paired = answers.filter((answer) => answer.excess !== null);
  const excess = pearson(
    paired.map((answer) => answer.excess!),
    paired.map((answer) => answer.lengthFromUnitMean),
  );
  return { correlation, excess, pValue: excess === null ? null : correlationPValue(excess, paired.length) };
}

export interface SelfPreference {
  /** Mean over its own family's answers of (its score − the other judges' score), in score points. */
  readonly value: number | null;
  /** Own-family answers it scored next to other judges. */
  readonly answers: number;
  /**
   * One-sided test that its excess over the panel (in ranks) is larger on its own family's models
   * than on the other models: Welch-free two-sample t on per-model mean excesses, the spread taken
   * from the other models, t with (other models − 1) degrees of freedom. Per model rather than
   * per answer, because a judge that is merely more decisive than the panel has a steady excess
   * on particular models whatever their family.
   */
  readonly pValue: number | null;
}

export function selfPreference(answers: readonly JudgedAnswer[]): SelfPreference {
  const differences: number[] = [];
  const byModel = new Map<string, { sum: number; count: number; own: boolean }>();
  for (const answer of answers) {
    if (answer.othersScore === null || answer.excess === null) continue;
    if (answer.ownFamily) differences.push(answer.score - answer.othersScore);
    const entry = byModel.get(answer.modelId) ?? { sum: 0, count: 0, own: answer.ownFamily };
    entry.sum += answer.excess;
    entry.count += 1;
    byModel.set(answer.modelId, entry);
  }
  const value = mean(differences);
  const own = [...byModel.values()].filter((entry) => entry.own).map((entry) => entry.sum / entry.count);
  const rest = [...byModel.values()].filter((entry) => !entry.own).map((entry) => entry.sum / entry.count);
  if (value === null || own.length === 0 || rest.length < 3)
    return { value, answers: differences.length, pValue: null };
  const spread = sampleStandardDeviation(rest);
  const gap = mean(own)! - mean(rest)!;
  const standardError = spread * Math.sqrt(1 / own.length + 1 / rest.length);
  const pValue = standardError > 0 ? studentTUpperTail(gap / standardError, rest.length - 1) : gap > 0 ? 0 : 1;
  return { value, answers: differences.length, pValue };
}
