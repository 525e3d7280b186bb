// The team's seat on the jury: teammates' blind verdicts (reviews.ts) turned into the team's
// ranking, the reviewers' agreement with each other, and each model judge's agreement with the
// team. Same units (persona × topic), score scale and bootstrap as the jury's figures. Pure, seeded.
import { ratingAverage, spreadRankingScore } from "../scoring";
import { AGREEMENT_WORDS, agreementBand, kendallW, krippendorffAlphaInterval, type AgreementBand } from "./agreement";
import { bootstrapTInterval, kendallCounts, mean, tauBOfCounts, type Interval, type KendallCounts } from "./basics";
import { seriesMeans } from "./breakdown";
import { compareMeans, judgeScores, modelsOf } from "./judgeScores";
import { DEFAULT_RESAMPLES, SCORE_BOUNDS } from "./index";
import type { JuryStatsInput } from "./types";
import { seededRandom } from "./random";
import { MIN_PAIRS, tieRanks, type RankRange } from "./ranks";

/** One teammate's verdict on one persona × topic pair, by response id. */
export interface HumanVerdict {
  readonly reviewerId: string;
  readonly personaId: string;
  readonly topicId: string;
  /** Ranking scale: the pair's answers, best first. */
  readonly ranking?: readonly string[];
  /** Rating scale: each answer's 1–10 scores per criterion. */
  readonly scores?: readonly { readonly responseId: string; readonly scores: Readonly<Record<string, number>> }[];
}

/** The jury's input (its judges' calls give each judge's model order) and the team's verdicts. */
export interface HumanStatsInput extends JuryStatsInput {
  readonly verdicts: readonly HumanVerdict[];
}

export interface HumanModelStats {
  readonly modelId: string;
  readonly modelName: string;
  /** Mean over reviewed units of the team's score of the model there (0–10, as the jury's). */
  readonly meanScore: number | null;
  readonly interval: Interval | null;
  readonly rank: RankRange | null;
  readonly units: number;
}

export interface HumanAgreement {
  readonly method: "kendall-w" | "krippendorff-alpha-interval";
  readonly value: number | null;
  readonly band: AgreementBand | null;
  readonly label: string;
  /** Units reviewed by at least two teammates. */
  readonly units: number;
}

export interface JudgeHumanAgreement {
  readonly judgeModelId: string;
  /** Kendall's tau-b between the judge's and the team's model order, pooled over common units. */
  readonly tau: number | null;
  readonly interval: Interval | null;
  /** Units both the judge and the team scored at least two models in. */
  readonly units: number;
}

export interface HumanStats {
  /** Each reviewer with the number of pairs they reviewed, in order of first verdict. */
  readonly reviewers: { readonly reviewerId: string; readonly pairs: number }[];
  readonly pairsReviewed: number;
  /** The team's ranking, best mean first. */
  readonly models: HumanModelStats[];
  /** Null until two teammates have reviewed a common pair. */
  readonly reviewerAgreement: HumanAgreement | null;
  /** Best agreement first; judges without a figure last. */
  readonly judges: JudgeHumanAgreement[];
}

const unitKey = (personaId: string, topicId: string) => JSON.stringify([personaId, topicId]);

/** "The judges barely agree" said of teammates. */
function reviewerWords(band: AgreementBand | null): string {
  if (band === null) return "Not enough reviewers yet";
  return AGREEMENT_WORDS[band].replace("judges", "reviewers");
}

/** Sums the counts of the units drawn `times[u]` times each. */
function pooledCounts(perUnit: readonly KendallCounts[], times?: ArrayLike<number>): KendallCounts {
  const total = { concordant: 0, discordant: 0, tiedX: 0, tiedY: 0 };
  perUnit.forEach((counts, u) => {
    const weight = times ? times[u]! : 1;
    total.concordant += weight * counts.concordant;
    total.discordant += weight * counts.discordant;
    total.tiedX += weight * counts.tiedX;
    total.tiedY += weight * counts.tiedY;
  });
  return total;
}

/**
 * The team's figures:
 * - A reviewer's score of an answer is the jury's: on the ranking scale the answer at 0-based
 *   place r of the pair's N answers scores (N − r)/N × 10 (spreadRankingScore); on the rating scale
 *   the mean of its criteria. Their score of a model in a unit is the mean over its answers there,
 *   and the team's score of the model in the unit is the mean over the reviewers who scored it.
 * - The team's ranking: each model's mean over units, with the t interval of its unit scores and
 *   rank ranges from overlapping intervals (tieRanks), as the jury's; no interval below MIN_PAIRS
 *   reviewed units. (The jury's other rule, one call per answer, is not applied: a team splits
 *   the pairs between its reviewers, and each unit's score carries its reviewer's noise into the
 *   spread of the unit scores the interval is built from.)
 * - The reviewers' agreement over units with two or more reviewers: Kendall's W per unit, averaged
 *   (ranking), or Krippendorff's alpha (interval) over every answer's scores (rating).
 * - Each judge against the team: in every unit where both scored two or more of the same models,
 *   the pairs of models are counted concordant, discordant or tied (kendallCounts, x = judge,
 *   y = team); tau-b of the pooled counts, with a bootstrap t interval over resampled units
 *   (basics.bootstrapTInterval; none below MIN_PAIRS units).
 */
export function computeHumanStats(input: HumanStatsInput): HumanStats {
  const resamples = Math.max(1, Math.floor(input.resamples ?? DEFAULT_RESAMPLES));
  const known = new Map(input.responses.map((response) => [response.id, response]));
  const { modelIds, names } = modelsOf(input);
  const answersInUnit = new Map<string, number>();
  for (const response of input.responses) {
    const key = unitKey(response.personaId, response.topicId);
    answersInUnit.set(key, (answersInUnit.get(key) ?? 0) + 1);
  }

  // Each reviewer's score of each answer, per unit (verdicts naming answers that are gone skip them).
  const unitKeys: string[] = [];
  /** unit → reviewer → responseId → score */
  const reviewed = new Map<string, Map<string, Map<string, number>>>();
  const reviewerPairs = new Map<string, number>();
  for (const verdict of input.verdicts) {
    const key = unitKey(verdict.personaId, verdict.topicId);
    const scores = new Map<string, number>();
    if (input.scale === "ranking") {
      const ranking = (verdict.ranking ?? []).filter((id) => known.has(id));
      const outOf = Math.max(answersInUnit.get(key) ?? 0, ranking.length);
      ranking.forEach((id, rank) => scores.set(id, spreadRankingScore(rank, ranking.length, outOf)));
    } else {
      for (const entry of verdict.scores ?? []) {
        const score = known.has(entry.responseId) ? ratingAverage(entry.scores) : null;
        if (score !== null) scores.set(entry.responseId, score);
      }
    }
    reviewerPairs.set(verdict.reviewerId, (reviewerPairs.get(verdict.reviewerId) ?? 0) + 1);
    if (scores.size === 0) continue;
    let byReviewer = reviewed.get(key);
    if (!byReviewer) {
      reviewed.set(key, (byReviewer = new Map()));
      unitKeys.push(key);
    }
    byReviewer.set(verdict.reviewerId, scores);
  }

  /** A score per answer → a score per model: the mean over the model's answers. */
  const byModel = (scores: ReadonlyMap<string, number>): Map<string, number> => {
    const values = new Map<string, number[]>();
    for (const [id, score] of scores) {
      const modelId = known.get(id)!.modelId;
      values.set(modelId, [...(values.get(modelId) ?? []), score]);
    }
    return new Map([...values].map(([modelId, list]) => [modelId, mean(list)!]));
  };

  // The team's score of each model per unit: mean over its reviewers.
  const U = unitKeys.length;
  const M = modelIds.length;
  const modelIndex = new Map(modelIds.map((id, index) => [id, index]));
  const teamUnit: Map<string, number>[] = unitKeys.map((key) => {
    const perModel = new Map<string, number[]>();
    for (const scores of reviewed.get(key)!.values()) {
      for (const [modelId, score] of byModel(scores)) perModel.set(modelId, [...(perModel.get(modelId) ?? []), score]);
    }
    return new Map([...perModel].map(([modelId, list]) => [modelId, mean(list)!]));
  });

  // The team's ranking.
  const values = new Float64Array(U * M).fill(NaN);
  teamUnit.forEach((scores, u) => {
    for (const [modelId, score] of scores) values[u * M + modelIndex.get(modelId)!] = score;
  });
  const means = seriesMeans(values, U, M, { minUnits: MIN_PAIRS, bounds: SCORE_BOUNDS });
  const unitCounts = modelIds.map((modelId) => teamUnit.filter((scores) => scores.has(modelId)).length);
  const scoredIntervals = means.flatMap((entry) => (entry.interval ? [entry.interval] : []));
  const ranges = tieRanks(scoredIntervals);
  const rangeOf = new Map(scoredIntervals.map((interval, index) => [interval, ranges[index]!]));
  const models: HumanModelStats[] = modelIds.map((modelId, m) => ({
    modelId,
    modelName: names.get(modelId) ?? modelId,
    meanScore: means[m]!.mean,
    interval: means[m]!.interval,
    rank: means[m]!.interval ? (rangeOf.get(means[m]!.interval!) ?? null) : null,
    units: unitCounts[m]!,
  }));
  models.sort((a, b) => compareMeans(b.meanScore, a.meanScore));

  // The reviewers' agreement over units with two or more of them.
  const method = input.scale === "ranking" ? "kendall-w" : "krippendorff-alpha-interval";
  const shared = unitKeys.filter((key) => reviewed.get(key)!.size >= 2);
  let reviewerAgreement: HumanAgreement | null = null;
  if (shared.length > 0) {
    let value: number | null;
    if (input.scale === "ranking") {
      const perUnit: number[] = [];
      for (const key of shared) {
        const panel = [...reviewed.get(key)!.values()];
        const common = [...panel[0]!.keys()].filter((id) => panel.every((scores) => scores.has(id)));
        const w = kendallW(panel.map((scores) => common.map((id) => scores.get(id)!)));
        if (w !== null) perUnit.push(w);
      }
      value = mean(perUnit);
    } else {
      const answers: number[][] = [];
      for (const key of shared) {
        const panel = [...reviewed.get(key)!.values()];
        const ids = new Set(panel.flatMap((scores) => [...scores.keys()]));
        for (const id of ids) answers.push(panel.flatMap((scores) => (scores.has(id) ? [scores.get(id)!] : [])));
      }
      value = krippendorffAlphaInterval(answers);
    }
    const band = agreementBand(value);
    reviewerAgreement = { method, value, band, label: reviewerWords(band), units: shared.length };
  }

  // Each judge against the team.
  const { scores: judged } = judgeScores(input, known);
  const judgeIds = [...new Set([...input.judges, ...judged.keys()])];
  const judges: JudgeHumanAgreement[] = judgeIds.map((judgeModelId) => {
    // The judge's scores of the answers of each reviewed unit.
    const ownByUnit = new Map<string, Map<string, number>>();
    for (const [id, score] of judged.get(judgeModelId) ?? []) {
      const response = known.get(id)!;
      const key = unitKey(response.personaId, response.topicId);
      if (!reviewed.has(key)) continue;
      const scores = ownByUnit.get(key) ?? new Map<string, number>();
      ownByUnit.set(key, scores.set(id, score));
    }
    const perUnit: KendallCounts[] = [];
    unitKeys.forEach((key, u) => {
      const mine = byModel(ownByUnit.get(key) ?? new Map());
      const common = [...mine.keys()].filter((modelId) => teamUnit[u]!.has(modelId));
      if (common.length < 2) return;
      perUnit.push(
        kendallCounts(
          common.map((modelId) => mine.get(modelId)!),
          common.map((modelId) => teamUnit[u]!.get(modelId)!),
        ),
      );
    });
    const tau = perUnit.length > 0 ? tauBOfCounts(pooledCounts(perUnit)) : null;
    let interval: Interval | null = null;
    if (tau !== null && perUnit.length >= MIN_PAIRS) {
      const random = seededRandom(`${input.seed}:humans:${judgeModelId}`);
      const times = new Uint32Array(perUnit.length);
      const samples: number[] = [];
      for (let b = 0; b < resamples; b++) {
        times.fill(0);
        for (let k = 0; k < perUnit.length; k++) times[random.index(perUnit.length)]! += 1;
        const sample = tauBOfCounts(pooledCounts(perUnit, times));
        if (sample !== null) samples.push(sample);
      }
      interval = bootstrapTInterval(tau, samples, perUnit.length, { bounds: { low: -1, high: 1 } });
    }
    return { judgeModelId, tau, interval, units: perUnit.length };
  });
  judges.sort((a, b) => (b.tau ?? -Infinity) - (a.tau ?? -Infinity));

  return {
    reviewers: [...reviewerPairs].map(([reviewerId, pairs]) => ({ reviewerId, pairs })),
    pairsReviewed: U,
    models,
    reviewerAgreement,
    judges,
  };
}
