// When a test's own evidence can carry jury advice (issue 35): a smaller jury can only be trusted
// to reach "the full jury's decision" on the next run if that decision would itself come out the
// same on a fresh run. How far the decision is from flipping is read from the test's verdicts:
// each other model's edge (the leader's interval low minus its interval high: > 0 out of the top
// group, ≤ 0 inside it, as lib/stats/ranks.ts evidenceSummary decides) in standard errors of the
// paired difference of the two models over the persona × topic pairs. Pure.
import { probit } from "simple-statistics";

import { normalUpperTail, sampleSd } from "./stats/basics";
import { computeJuryStats } from "./stats";
import { judgeScores } from "./stats/judgeScores";
import type { JuryStatsInput } from "./stats/types";

/**
 * How surely a fresh run must reach the same decision for advice. A fresh run's edge, in standard
 * errors, falls about the true edge z₀ with SD 1, so it lands on the same side with probability
 * Φ(z₀); this run's z estimates z₀ with SD 1 too, so z − z_{0.95} is a 95% lower confidence bound
 * on z₀, and advice needs Φ(z − z_{0.95}) ≥ 95%, i.e. z ≥ 2 · 1.645 ≈ 3.29 standard errors. The
 * plain estimate Φ(z / √2) (Goodman 1992's replication probability, z ≥ 2.33) was tried and is not
 * enough: among many borderline tests some look clear by luck, and advice from those missed the
 * full jury's decision on 10–17% of fresh runs at 40–60 pairs. With this rule every row of
 * bench/adaptive.ts --target jury where advice is given meets ≥ 95% (bench/results/adaptive.md).
 */
export const ADVICE_REPLICATION = 0.95;
const Z_ADVICE = probit(ADVICE_REPLICATION);

export interface DecisionMargin {
  /** The closest model's edge from the decision's side, in standard errors of its paired gap (≥ 0). */
  readonly standardErrors: number;
  /** 95% lower confidence bound on the chance a fresh run reaches the same decision: Φ(z − 1.645). */
  readonly replication: number;
  /** Persona × topic pairs judged. */
  readonly pairs: number;
  /**
   * Pairs a test like this one would need for advice, when the closest edge is a model just
   * outside the top group (its z grows with the pairs); null when it is a model inside the top
   * group (a tie's z does not grow with the pairs) or one with no interval.
   */
  readonly pairsNeeded: number | null;
}

/** Each persona × topic pair's mean score of each model, as lib/stats does (mean over its answers of the judges' mean). */
function pairModelMeans(input: JuryStatsInput): Map<string, Map<string, number>> {
  const known = new Map(input.responses.map((response) => [response.id, response]));
  const { scores } = judgeScores(input, known);
  const answerValues = new Map<string, number[]>();
  for (const byResponse of scores.values()) {
    for (const [responseId, score] of byResponse)
      answerValues.set(responseId, [...(answerValues.get(responseId) ?? []), score]);
  }
  const byPair = new Map<string, Map<string, number[]>>();
  for (const response of input.responses) {
    const values = answerValues.get(response.id);
    if (!values || values.length === 0) continue;
    const pair = JSON.stringify([response.personaId, response.topicId]);
    const models = byPair.get(pair) ?? new Map<string, number[]>();
    models.set(response.modelId, [
      ...(models.get(response.modelId) ?? []),
      values.reduce((sum, value) => sum + value, 0) / values.length,
    ]);
    byPair.set(pair, models);
  }
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return new Map(
    [...byPair].map(([pair, models]) => [
      pair,
      new Map([...models].map(([model, values]) => [model, average(values)])),
    ]),
  );
}

/**
 * How far the full jury's decision ("best" or "tied") is from flipping, or null without such a
 * decision. A model without an interval counts as at the edge (0 standard errors).
 */
export function decisionMargin(input: JuryStatsInput): DecisionMargin | null {
  const stats = computeJuryStats({ ...input, resamples: 1 });
  const { summary } = stats;
  if (summary.kind !== "best" && summary.kind !== "tied") return null;
  const leader = stats.models.find((model) => model.modelId === summary.leaders[0]);
  if (!leader?.scoreInterval) return null;
  const pairMeans = pairModelMeans(input);
  // The closest edge: its z and, for a model outside the top group, z's parts (see pairsNeeded).
  let closest: { z: number; outside: boolean; widths: number } = { z: Infinity, outside: false, widths: 0 };
  for (const other of stats.models) {
    if (other.modelId === leader.modelId || other.meanScore === null) continue;
    if (!other.scoreInterval) {
      closest = { z: 0, outside: false, widths: 0 };
      continue;
    }
    const edge = leader.scoreInterval.low - other.scoreInterval.high;
    const differences: number[] = [];
    for (const models of pairMeans.values()) {
      const a = models.get(leader.modelId);
      const b = models.get(other.modelId);
      if (a !== undefined && b !== undefined) differences.push(a - b);
    }
    const sd = sampleSd(differences);
    const standardError = sd === null ? 0 : sd / Math.sqrt(differences.length);
    // Identical differences on every pair: the edge cannot move between runs like these.
    const z = standardError > 0 ? Math.abs(edge) / standardError : edge === 0 ? 0 : Infinity;
    if (z < closest.z) {
      const halfWidths = leader.meanScore! - leader.scoreInterval.low + (other.scoreInterval.high - other.meanScore);
      closest = { z, outside: edge > 0, widths: standardError > 0 ? halfWidths / standardError : 0 };
    }
  }
  const pairs = stats.units;
  const needed = 2 * Z_ADVICE;
  // Outside the top group, z = (gap − half-widths) / SE = a√n − b with b = half-widths / SE fixed
  // (both shrink as 1/√n): z reaches `needed` at n · ((needed + b) / (z + b))².
  const pairsNeeded =
    closest.z >= needed
      ? pairs
      : closest.outside
        ? Math.ceil(pairs * ((needed + closest.widths) / (closest.z + closest.widths)) ** 2)
        : null;
  return {
    standardErrors: closest.z,
    replication: 1 - normalUpperTail(closest.z - Z_ADVICE),
    pairs,
    pairsNeeded,
  };
}

/** Whether the decision is clear enough for advice: a fresh run reaches it with ≥ ADVICE_REPLICATION. */
export function marginCarriesAdvice(margin: DecisionMargin): boolean {
  return margin.replication >= ADVICE_REPLICATION;
}
