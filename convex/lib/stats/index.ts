// The jury's evidence for one test: intervals, tie ranks, Bradley–Terry ratings,
// agreement and each judge's record, from plain arrays. Pure: no Convex, no clock, seeded.
import { AGREEMENT_WORDS, agreementBand, kendallW, krippendorffAlphaInterval } from "./agreement";
import {
  bootstrapTInterval,
  compareScores,
  kendallTauB,
  mean,
  midranks,
  spearman,
  tInterval,
  type Interval,
} from "./basics";
import { median } from "simple-statistics";
import { lengthBias, positionBias, positionConsistency, selfPreference, type JudgedAnswer } from "./bias";
import { addGame, bradleyTerryStrengths, eloRating, emptyWinMatrix, winRate, type WinMatrix } from "./bradleyTerry";
import { evidenceSummary, MIN_PAIRS, thinEvidence, tieRanks } from "./ranks";
import { seriesMeans } from "./breakdown";
import { repeatSpread, type RepeatCell } from "./repeats";
import { seededRandom } from "./random";
import type {
  AgreementFigure,
  JudgeJuryStats,
  JuryResponse,
  JuryStats,
  JuryStatsInput,
  ModelJuryStats,
  UnitAgreement,
} from "./types";
import { compareMeans, judgeScores, modelFamily, modelsOf } from "./judgeScores";

export type { Interval } from "./basics";

export const DEFAULT_RESAMPLES = 1000;
/** The score scale: every mean score and its interval lie within it. */
export const SCORE_BOUNDS: Interval = { low: 0, high: 10 };
/**
 * False-alarm budget of one judge's bias checks: a fair judge is flagged at most this often.
 * Its three checks (position, length, self-preference) share it, each at alpha / 3 (Bonferroni).
 */
export const DEFAULT_ALPHA = 0.01;
const BIAS_CHECKS = 3;
/** Virtual tied games per pair of models in the Bradley–Terry fit (keeps unbeaten models finite). */
const BT_PSEUDO_TIES = 0.1;

export const AGREEMENT_METHODS = {
  "kendall-w":
    "Kendall's W with the tie correction: how similarly the judges order the same answers (0 = no agreement, 1 = identical orders), per persona × topic; the overall figure is their mean.",
  "krippendorff-alpha-interval":
    "Krippendorff's alpha (interval): how much the judges' scores of the same answers agree beyond chance (1 = identical, 0 = chance, below 0 = systematic disagreement).",
} as const;

function figure(method: AgreementFigure["method"], value: number | null): AgreementFigure {
  const band = agreementBand(value);
  return { method, value, band, label: band === null ? "Not enough judges yet" : AGREEMENT_WORDS[band] };
}

export function computeJuryStats(input: JuryStatsInput): JuryStats {
  const resamples = Math.max(1, Math.floor(input.resamples ?? DEFAULT_RESAMPLES));
  const alpha = input.alpha ?? DEFAULT_ALPHA;
  const known = new Map(input.responses.map((response) => [response.id, response]));

  // Models, units and the responses of each unit.
  const { modelIds, names } = modelsOf(input);
  const unitKeys: string[] = [];
  const unitOf = new Map<string, number>();
  const unitResponses: JuryResponse[][] = [];
  for (const response of input.responses) {
    const key = JSON.stringify([response.personaId, response.topicId]);
    let unit = unitOf.get(key);
    if (unit === undefined) {
      unit = unitKeys.length;
      unitKeys.push(key);
      unitOf.set(key, unit);
      unitResponses.push([]);
    }
    unitResponses[unit]!.push(response);
  }
  const modelIndex = new Map(modelIds.map((id, index) => [id, index]));
  const M = modelIds.length;
  const U = unitKeys.length;
  const unitOfResponse = (response: JuryResponse) =>
    unitOf.get(JSON.stringify([response.personaId, response.topicId]))!;

  const { scores, calls, judgingCost, criterionScores, criteria, verdicts } = judgeScores(input, known);
  const judges = [...new Set([...input.judges, ...scores.keys()])];

  // Per unit: each judge's scores there; each model's unit mean; the pairwise games.
  const unitJudgeScores: Map<string, Map<string, number>>[] = unitResponses.map(() => new Map());
  for (const [judge, byResponse] of scores) {
    for (const [responseId, score] of byResponse) {
      const unit = unitOfResponse(known.get(responseId)!);
      let map = unitJudgeScores[unit]!.get(judge);
      if (!map) unitJudgeScores[unit]!.set(judge, (map = new Map()));
      map.set(responseId, score);
    }
  }
  const unitModelMean = new Float64Array(U * M).fill(NaN);
  const unitWins: WinMatrix[] = [];
  const scoreCounts = new Array<number>(M).fill(0);
  // Repeats (lib/stats/repeats.ts): each model's mean in each repeat of each pair. The pair's
  // value above averages its repeats, so a pair stays one cluster in every interval.
  const repeated = input.responses.some((response) => response.repeat !== undefined);
  const repeatCells: RepeatCell[][] = modelIds.map(() => []);
  for (let u = 0; u < U; u++) {
    const perModel = new Map<number, number[]>();
    const perRepeat = new Map<string, { m: number; repeat: number; values: number[] }>();
    for (const response of unitResponses[u]!) {
      const values: number[] = [];
      for (const byResponse of unitJudgeScores[u]!.values()) {
        const score = byResponse.get(response.id);
        if (score !== undefined) values.push(score);
      }
      const m = modelIndex.get(response.modelId)!;
      scoreCounts[m]! += values.length;
      const responseMean = mean(values);
      if (responseMean === null) continue;
      perModel.set(m, [...(perModel.get(m) ?? []), responseMean]);
      const repeat = response.repeat ?? 0;
      const cell = perRepeat.get(`${m}:${repeat}`) ?? { m, repeat, values: [] };
      cell.values.push(responseMean);
      perRepeat.set(`${m}:${repeat}`, cell);
    }
    for (const [m, values] of perModel) unitModelMean[u * M + m] = mean(values)!;
    for (const cell of perRepeat.values())
      repeatCells[cell.m]!.push({ unit: u, repeat: cell.repeat, value: mean(cell.values)! });
    const wins = emptyWinMatrix(M);
    for (const byResponse of unitJudgeScores[u]!.values()) {
      const entries = [...byResponse].map(([id, score]) => {
        const response = known.get(id)!;
        return { m: modelIndex.get(response.modelId)!, repeat: response.repeat ?? 0, score };
      });
      for (let a = 0; a < entries.length; a++) {
        for (let b = a + 1; b < entries.length; b++) {
          const x = entries[a]!;
          const y = entries[b]!;
          // Games only within one repeat: a judge compared those answers in one call.
          if (x.m !== y.m && x.repeat === y.repeat)
            addGame(wins, M, x.m, y.m, (compareScores(x.score, y.score) + 1) / 2);
        }
      }
    }
    unitWins.push(wins);
  }

  // Point estimates over every unit.
  /** Sums over units drawn `times[u]` times each: model score sums and counts, and the games. */
  const aggregate = (times: ArrayLike<number>, wins: WinMatrix) => {
    const sum = new Float64Array(M);
    const count = new Float64Array(M);
    wins.fill(0);
    for (let u = 0; u < U; u++) {
      const weight = times[u]!;
      if (weight === 0) continue;
      for (let m = 0; m < M; m++) {
        const value = unitModelMean[u * M + m]!;
        if (!Number.isNaN(value)) {
          sum[m]! += weight * value;
          count[m]! += weight;
        }
      }
      const unitMatrix = unitWins[u]!;
      for (let k = 0; k < wins.length; k++) wins[k]! += weight * unitMatrix[k]!;
    }
    return { sum, count };
  };
  const totalWins = emptyWinMatrix(M);
  const totals = aggregate(new Float64Array(U).fill(1), totalWins);
  const played = Array.from({ length: M }, (_, m) => {
    let games = 0;
    for (let j = 0; j < M; j++) games += totalWins[m * M + j]! + totalWins[j * M + m]!;
    return games > 0;
  });
  const strengths = bradleyTerryStrengths(totalWins, M, { pseudoTies: BT_PSEUDO_TIES });

  // Too little evidence: no interval at all (ranks.thinEvidence).
  let scoredUnits = 0;
  for (let u = 0; u < U; u++) {
    for (let m = 0; m < M; m++) {
      if (!Number.isNaN(unitModelMean[u * M + m]!)) {
        scoredUnits++;
        break;
      }
    }
  }
  let repeatedAnswers = 0;
  for (const count of verdicts.values()) if (count >= 2) repeatedAnswers++;
  const thin = thinEvidence({ pairs: scoredUnits, answers: verdicts.size, repeatedAnswers });

  // Bradley–Terry ratings: bootstrap over persona × topic units (each drawn with its answers and
  // judge calls), for the standard error of the t interval (docs/statistics.md).
  const random = seededRandom(input.seed);
  const ratingSamples: number[][] = modelIds.map(() => []);
  if (U > 0 && !thin) {
    const times = new Uint32Array(U);
    const wins = emptyWinMatrix(M);
    for (let b = 0; b < resamples; b++) {
      times.fill(0);
      for (let k = 0; k < U; k++) times[random.index(U)]! += 1;
      aggregate(times, wins);
      const sample = bradleyTerryStrengths(wins, M, {
        pseudoTies: BT_PSEUDO_TIES,
        start: strengths,
        tolerance: 1e-6,
        maxIterations: 50,
      });
      for (let m = 0; m < M; m++) if (played[m]) ratingSamples[m]!.push(eloRating(sample[m]!));
    }
  }

  const generationCost = new Array<number>(M).fill(0);
  const judgedCost = new Array<number>(M).fill(0);
  for (const response of input.responses) {
    generationCost[modelIndex.get(response.modelId)!]! += response.costUsd ?? 0;
    judgedCost[modelIndex.get(response.modelId)!]! += judgingCost.get(response.id) ?? 0;
  }

  // Per model × criterion (rating) and per model × judge: unit means, bootstrapped over units.
  const C = criteria.length;
  const J = judges.length;
  const judgeIndex = new Map(judges.map((judge, index) => [judge, index]));
  const breakdown = new Float64Array(U * M * (C + J)).fill(NaN);
  const series = M * (C + J);
  const unitSum = new Float64Array(series);
  const unitCount = new Uint32Array(series);
  for (let u = 0; u < U; u++) {
    unitSum.fill(0);
    unitCount.fill(0);
    const push = (k: number, value: number) => {
      unitSum[k]! += value;
      unitCount[k]! += 1;
    };
    for (const response of unitResponses[u]!) {
      const m = modelIndex.get(response.modelId)!;
      const byCriterion = criterionScores.get(response.id);
      if (byCriterion) {
        criteria.forEach((criterion, c) => {
          const value = mean(byCriterion.get(criterion) ?? []);
          if (value !== null) push(m * (C + J) + c, value);
        });
      }
      for (const [judge, byResponse] of unitJudgeScores[u]!) {
        const score = byResponse.get(response.id);
        if (score !== undefined) push(m * (C + J) + C + judgeIndex.get(judge)!, score);
      }
    }
    for (let k = 0; k < series; k++) if (unitCount[k]! > 0) breakdown[u * series + k] = unitSum[k]! / unitCount[k]!;
  }
  // Means over units with t intervals: each model's score, and per criterion and per judge.
  const minUnits = thin ? Infinity : MIN_PAIRS;
  // Skewness-corrected: one judge's (or criterion's) verdicts per pair are few and lopsided.
  const breakdownMeans = seriesMeans(breakdown, U, series, { minUnits, bounds: SCORE_BOUNDS, skewCorrected: true });
  const modelMeans = seriesMeans(unitModelMean, U, M, { minUnits, bounds: SCORE_BOUNDS });
  const scored = modelIds.map((_, m) => totals.count[m]! > 0);
  const intervals = modelIds.map((_, m) => modelMeans[m]!.interval);
  const scoredIntervals = intervals.filter((interval): interval is Interval => interval !== null);
  const ranges = tieRanks(scoredIntervals);
  const rangeOf = new Map(scoredIntervals.map((interval, index) => [interval, ranges[index]!]));
  const models: ModelJuryStats[] = modelIds.map((modelId, m) => ({
    modelId,
    modelName: names.get(modelId) ?? modelId,
    meanScore: scored[m] ? totals.sum[m]! / totals.count[m]! : null,
    scoreInterval: intervals[m] ?? null,
    rank: intervals[m] ? (rangeOf.get(intervals[m]!) ?? null) : null,
    rating: played[m] ? eloRating(strengths[m]!) : null,
    ratingInterval:
      // Not widened by √(n/(n − 1)): exact for a mean's bootstrap variance, it over-corrected the
      // Bradley–Terry fit's (coverage 95.6–97.8% at 4 pairs with it, 93.7–96.8% without;
      // bench/coverage.ts, docs/statistics.md).
      played[m] && !thin
        ? bootstrapTInterval(eloRating(strengths[m]!), ratingSamples[m]!, scoredUnits, { widen: false })
        : null,
    units: totals.count[m]!,
    scores: scoreCounts[m]!,
    generationCostUsd: generationCost[m]!,
    judgingCostUsd: judgedCost[m]!,
    criteria: criteria.map((criterion, c) => ({ criterion, ...breakdownMeans[m * (C + J) + c]! })),
    byJudge: judges.map((judgeModelId, j) => ({ judgeModelId, ...breakdownMeans[m * (C + J) + C + j]! })),
    ...(repeated ? { repeatSpread: repeatSpread(repeatCells[m]!) } : {}),
  }));
  models.sort((a, b) => compareMeans(b.meanScore, a.meanScore));

  const personas = new Set(input.responses.map((response) => response.personaId)).size;
  const summary = evidenceSummary(
    models.flatMap((model) =>
      model.meanScore !== null
        ? [{ modelId: model.modelId, modelName: model.modelName, mean: model.meanScore, interval: model.scoreInterval }]
        : [],
    ),
    U,
    personas,
    {
      thin,
      // The gap's t interval over the units both models were scored in: a hard topic lowers both.
      gap: (leaderId, modelId) => {
        const l = modelIndex.get(leaderId)!;
        const o = modelIndex.get(modelId)!;
        const differences: number[] = [];
        for (let u = 0; u < U; u++) {
          const difference = unitModelMean[u * M + l]! - unitModelMean[u * M + o]!;
          if (!Number.isNaN(difference)) differences.push(difference);
        }
        return differences.length >= MIN_PAIRS ? tInterval(differences) : null;
      },
    },
  );

  const order = models.map((model) => modelIndex.get(model.modelId)!);
  const winRates = {
    modelIds: models.map((model) => model.modelId),
    matrix: order.map((i) => order.map((j) => (i === j ? null : winRate(totalWins, M, i, j)))),
  };

  // Agreement per unit and overall.
  const method = input.scale === "ranking" ? "kendall-w" : "krippendorff-alpha-interval";
  const byUnit: UnitAgreement[] = [];
  const unitValues: number[] = [];
  const alphaUnits: number[][] = [];
  for (let u = 0; u < U; u++) {
    const [personaId, topicId] = JSON.parse(unitKeys[u]!) as [string, string];
    const panel = [...unitJudgeScores[u]!.values()];
    let value: number | null;
    if (input.scale === "ranking") {
      const common = unitResponses[u]!.filter((response) => panel.every((byResponse) => byResponse.has(response.id)));
      value = kendallW(panel.map((byResponse) => common.map((response) => byResponse.get(response.id)!)));
    } else {
      const answers = unitResponses[u]!.map((response) =>
        panel.flatMap((byResponse) => (byResponse.has(response.id) ? [byResponse.get(response.id)!] : [])),
      );
      alphaUnits.push(...answers);
      value = krippendorffAlphaInterval(answers);
    }
    if (value !== null) unitValues.push(value);
    byUnit.push({ personaId, topicId, ...figure(method, value) });
  }
  const overall = figure(method, input.scale === "ranking" ? mean(unitValues) : krippendorffAlphaInterval(alphaUnits));

  // Each judge's record.
  const judgeStats: JudgeJuryStats[] = judges.map((judge) => {
    const family = modelFamily(judge);
    const answers: JudgedAnswer[] = [];
    const agreements: number[] = [];
    for (let u = 0; u < U; u++) {
      const own = unitJudgeScores[u]!.get(judge);
      if (!own) continue;
      const lengths = unitResponses[u]!.map((response) => response.length);
      const unitLength = mean(lengths) ?? 0;
      const unitAnswers = [...own].map(([responseId, score]) => {
        const others: number[] = [];
        for (const [other, byResponse] of unitJudgeScores[u]!) {
          const value = other === judge ? undefined : byResponse.get(responseId);
          if (value !== undefined) others.push(value);
        }
        return {
          response: known.get(responseId)!,
          score,
          othersScore: mean(others),
          othersMedian: others.length > 0 ? median(others) : null,
        };
      });
      const compared = unitAnswers.filter((answer) => answer.othersScore !== null);
      const mine = compared.map((answer) => answer.score);
      const theirs = compared.map((answer) => answer.othersScore!);
      // The panel's placement uses the median of the other judges, so one biased judge in the
      // panel does not make every fair judge look biased against what it favours.
      const panel = compared.map((answer) => answer.othersMedian!);
      const myRanks = midranks(mine);
      const theirRanks = midranks(panel);
      const excessOf = new Map(
        compared.map((answer, index) => [
          answer,
          compared.length > 1 ? (myRanks[index]! - theirRanks[index]!) / (compared.length - 1) : null,
        ]),
      );
      for (const answer of unitAnswers) {
        answers.push({
          score: answer.score,
          othersScore: answer.othersScore,
          excess: excessOf.get(answer) ?? null,
          length: answer.response.length,
          lengthFromUnitMean: answer.response.length - unitLength,
          ownFamily: modelFamily(answer.response.modelId) === family,
          modelId: answer.response.modelId,
        });
      }
      const value = input.scale === "ranking" ? kendallTauB(mine, theirs) : spearman(mine, theirs);
      if (value !== null) agreements.push(value);
    }
    const judgeRankings =
      input.scale === "ranking" ? (input.rankings ?? []).filter((call) => call.judgeModelId === judge) : [];
    const position = positionBias(
      judgeRankings.map((call) => ({
        shown: call.shown.filter((id) => known.has(id)),
        ranking: call.ranking.filter((id) => known.has(id)),
      })),
    );
    const forward = new Map<number, string[]>();
    const pairs: { forward: readonly string[]; reverse: readonly string[] }[] = [];
    for (const call of judgeRankings.filter((entry) => entry.order !== "reverse")) {
      const first = known.get(call.shown[0] ?? "");
      if (first) forward.set(unitOfResponse(first), [...call.ranking]);
    }
    for (const call of judgeRankings.filter((entry) => entry.order === "reverse")) {
      const first = known.get(call.shown[0] ?? "");
      const match = first ? forward.get(unitOfResponse(first)) : undefined;
      if (match) pairs.push({ forward: match, reverse: call.ranking });
    }
    const length = lengthBias(answers);
    const self = selfPreference(answers);
    const level = alpha / BIAS_CHECKS;
    const positionFlagged = position !== null && position.firstRate > position.chance && position.pValue < level;
    const lengthFlagged = length.pValue !== null && (length.excess ?? 0) > 0 && length.pValue < level;
    const selfFlagged = self.pValue !== null && (self.value ?? 0) > 0 && self.pValue < level;
    const usage = calls.get(judge) ?? { calls: 0, costUsd: 0 };
    return {
      judgeModelId: judge,
      family,
      calls: usage.calls,
      scores: scores.get(judge)?.size ?? 0,
      costUsd: usage.costUsd,
      agreement: { method: input.scale === "ranking" ? "kendall-tau-b" : "spearman", value: mean(agreements) },
      position: position && { ...position, flagged: positionFlagged },
      positionConsistency: positionConsistency(pairs),
      length: { ...length, flagged: lengthFlagged },
      selfPreference: { ...self, flagged: selfFlagged },
      flagged: positionFlagged || lengthFlagged || selfFlagged,
    };
  });

  return {
    scale: input.scale,
    resamples,
    alpha,
    units: U,
    personas,
    topics: new Set(input.responses.map((response) => response.topicId)).size,
    models,
    winRates,
    agreement: { method: AGREEMENT_METHODS[method], overall, byUnit },
    judges: judgeStats,
    summary,
    costs: {
      generationUsd: generationCost.reduce((sum, cost) => sum + cost, 0),
      judgingUsd: judgeStats.reduce((sum, judge) => sum + judge.costUsd, 0),
    },
    criteria,
  };
}
