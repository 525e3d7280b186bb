// Two tests compared (issue 22 step 2): each shared model's score and rank in both, the difference
// with a 95% interval, the rank correlation between the runs, and the plain differences of their
// configurations. Pure: no Convex, no clock.
//
// The sampling unit is the persona × topic pair ("unit"), as in the jury statistics (lib/stats).
// A model's score in a run is the mean over the run's units of its mean score there (each
// answer's score being the mean of its judges' scores), the jury statistics' meanScore. Each
// unit's score averages that pair's answers and judge calls, so the spread of the unit scores
// carries the pairs', the answers' and the judges' noise (docs/statistics.md). When both runs
// have the same pairs (matched by `key`, the persona's name and the topic's title: a rerun gives
// them new ids; a re-judging keeps the very answers), the interval is the paired t interval of
// the per-pair differences (a hard topic weighs on both sides alike); otherwise Welch's interval
// for two independent means. t intervals, not the percentile bootstrap used before: with few
// pairs that was too narrow and marked changes a rerun erases. Too little evidence in either run
// (stats/ranks.ts thinEvidence): no interval, so no "larger than chance".
import { checkLabel } from "./checks";
import { criterionLabel } from "./criteria";
import { runSettingDifferences } from "./runSettingDifferences";
import { ratingAverage, spreadRankingScore } from "./scoring";
import { compareScores, sampleSd, spearman, t95, type Interval } from "./stats/basics";
import type { JuryRanking, JuryRating } from "./stats/types";
import { MIN_PAIRS, thinEvidence } from "./stats/ranks";
import type { TestConfiguration } from "../validators";

/** One persona × topic pair of a run: each model's mean score there (models without a score absent). */
export interface UnitScores {
  readonly personaId: string;
  readonly topicId: string;
  /** What matches the pair in another run (persona name and topic title); absent: never paired. */
  readonly key?: string;
  readonly means: ReadonlyMap<string, number>;
  /**
   * Judged answers in the pair, and those with two or more judge calls (absent when the unit
   * is not a pair's answers, e.g. a persona's stored means: the calls rule is then not applied).
   */
  readonly answers?: number;
  readonly repeatedAnswers?: number;
}

/** A run's scores: its models in its order, and its units. */
export interface RunScores {
  readonly models: readonly { readonly id: string; readonly name: string }[];
  readonly units: readonly UnitScores[];
}

/** An answer as the jury's kept rows hold it. */
export interface ScoredAnswer {
  readonly id: string;
  readonly modelId: string;
  readonly personaId: string;
  readonly topicId: string;
}

/** One judge's verdict on one answer: a rating's scores per criterion, or a ranking's place. */
export interface AnswerVerdict {
  readonly responseId: string;
  readonly judgeModelId: string;
  /** Rating: 1–10 per criterion. */
  readonly scores?: Readonly<Record<string, number>>;
  /** Ranking: the answer's place (0 = best) among `ranked` answers of a pair of `outOf`. */
  readonly place?: { readonly rank: number; readonly ranked: number; readonly outOf: number };
}

/** The jury's calls as one verdict per judged answer (a ranking call gives one per answer it ranked). */
export function verdictsOfCalls(calls: {
  readonly ratings?: readonly JuryRating[];
  readonly rankings?: readonly JuryRanking[];
}): AnswerVerdict[] {
  return [
    ...(calls.ratings ?? []).map((rating) => ({
      responseId: rating.responseId,
      judgeModelId: rating.judgeModelId,
      scores: rating.scores,
    })),
    ...(calls.rankings ?? []).flatMap((call) =>
      call.ranking.map((responseId, rank) => ({
        responseId,
        judgeModelId: call.judgeModelId,
        place: { rank, ranked: call.ranking.length, outOf: call.outOf ?? call.ranking.length },
      })),
    ),
  ];
}

/**
 * Each unit's model means: an answer's score is the mean over its judges of each judge's mean
 * verdict on it; a model's unit mean the mean of its answers' scores there.
 */
export function unitScoresOf(answers: readonly ScoredAnswer[], verdicts: readonly AnswerVerdict[]): UnitScores[] {
  const byJudge = new Map<string, Map<string, { sum: number; count: number }>>();
  for (const verdict of verdicts) {
    const score =
      verdict.place !== undefined
        ? spreadRankingScore(verdict.place.rank, verdict.place.ranked, verdict.place.outOf)
        : verdict.scores
          ? ratingAverage(verdict.scores)
          : null;
    if (score === null) continue;
    let judges = byJudge.get(verdict.responseId);
    if (!judges) byJudge.set(verdict.responseId, (judges = new Map()));
    const entry = judges.get(verdict.judgeModelId) ?? { sum: 0, count: 0 };
    entry.sum += score;
    entry.count += 1;
    judges.set(verdict.judgeModelId, entry);
  }
  const units = new Map<
    string,
    {
      personaId: string;
      topicId: string;
      scores: Map<string, { sum: number; count: number }>;
      answers: number;
      repeatedAnswers: number;
    }
  >();
  for (const answer of answers) {
    const key = `${answer.personaId}\u0000${answer.topicId}`;
    let unit = units.get(key);
    if (!unit) {
      units.set(
        key,
        (unit = {
          personaId: answer.personaId,
          topicId: answer.topicId,
          scores: new Map(),
          answers: 0,
          repeatedAnswers: 0,
        }),
      );
    }
    const judges = byJudge.get(answer.id);
    if (!judges || judges.size === 0) continue;
    let judgeSum = 0;
    let calls = 0;
    for (const { sum, count } of judges.values()) {
      judgeSum += sum / count;
      calls += count;
    }
    unit.answers += 1;
    if (calls >= 2) unit.repeatedAnswers += 1;
    const entry = unit.scores.get(answer.modelId) ?? { sum: 0, count: 0 };
    entry.sum += judgeSum / judges.size;
    entry.count += 1;
    unit.scores.set(answer.modelId, entry);
  }
  return [...units.values()].map(({ personaId, topicId, scores, answers, repeatedAnswers }) => ({
    personaId,
    topicId,
    means: new Map([...scores].map(([modelId, { sum, count }]) => [modelId, sum / count])),
    answers,
    repeatedAnswers,
  }));
}

/** Why a run's evidence is too little for an interval (stats/ranks.ts thinEvidence), or null. */
export function runEvidence(run: RunScores): string | null {
  let answers = 0;
  let repeatedAnswers = 0;
  for (const unit of run.units) {
    answers += unit.answers ?? 0;
    repeatedAnswers += unit.repeatedAnswers ?? 0;
  }
  return thinEvidence({ pairs: run.units.filter((unit) => unit.means.size > 0).length, answers, repeatedAnswers });
}

/** A model's score in a run given how many times each unit is drawn: null when it has none. */
function scoreOf(units: readonly UnitScores[], modelId: string, times?: ArrayLike<number>): number | null {
  let sum = 0;
  let count = 0;
  units.forEach((unit, index) => {
    const value = unit.means.get(modelId);
    const weight = times ? times[index]! : 1;
    if (value === undefined || weight === 0) return;
    sum += weight * value;
    count += weight;
  });
  return count > 0 ? sum / count : null;
}

/** Each model's score and rank in its run (1 = best; equal scores share the better rank). */
export function runStandings(run: RunScores): Map<string, { score: number | null; rank: number | null }> {
  const scores = run.models.map((model) => ({ id: model.id, score: scoreOf(run.units, model.id) }));
  return new Map(
    scores.map(({ id, score }) => [
      id,
      {
        score,
        rank:
          score === null
            ? null
            : 1 + scores.filter((other) => other.score !== null && compareScores(other.score, score) > 0).length,
      },
    ]),
  );
}

export interface ModelComparison {
  readonly modelId: string;
  readonly modelName: string;
  readonly a: { readonly score: number | null; readonly rank: number | null };
  readonly b: { readonly score: number | null; readonly rank: number | null };
  /** Score in B less score in A; null unless both have one. */
  readonly difference: number | null;
  /** 95% interval of the difference; null without scores in both runs, or on too little evidence. */
  readonly interval: Interval | null;
  /** The interval leaves out 0: the runs differ by more than chance. */
  readonly largerThanChance: boolean;
}

export interface RunComparison {
  /** The models both runs tested, in A's order. */
  readonly models: readonly ModelComparison[];
  readonly onlyInA: readonly string[];
  readonly onlyInB: readonly string[];
  /** Spearman's rho of the shared models' scores in both runs; null with fewer than 2 scored in both, or no spread. */
  readonly rankCorrelation: number | null;
  /** Why either run's evidence is too little for an interval (A's reason first), or null. */
  readonly thin: string | null;
}

/**
 * For each of A's units the index of B's unit with the same key, when both runs have the same
 * keys each once; null otherwise (the runs are then resampled independently).
 */
export function pairedUnits(a: readonly UnitScores[], b: readonly UnitScores[]): number[] | null {
  if (a.length === 0 || a.length !== b.length) return null;
  const indexInB = new Map(b.map((unit, index) => [unit.key, index]));
  if (indexInB.has(undefined) || indexInB.size !== b.length) return null;
  const partner = a.map((unit) => indexInB.get(unit.key));
  if (partner.some((index) => index === undefined) || new Set(partner).size !== a.length) return null;
  return partner as number[];
}

/**
 * The 95% interval of a model's score in B less its score in A, centred on `difference`:
 * - same pairs in both runs (`partner`): the paired t interval of its per-pair differences
 *   (Student 1908), so a pair's difficulty, the same in both runs, cancels;
 * - otherwise Welch's interval for two independent means (Welch 1947), with the
 *   Welch–Satterthwaite degrees of freedom.
 * Null when fewer than MIN_PAIRS pairs scored the model (in either run).
 */
export function differenceInterval(
  a: readonly UnitScores[],
  b: readonly UnitScores[],
  modelId: string,
  difference: number,
  partner: readonly number[] | null,
): Interval | null {
  const bounds = (half: number) => ({
    low: Math.max(-10, difference - half),
    high: Math.min(10, difference + half),
  });
  if (partner) {
    const differences: number[] = [];
    a.forEach((unit, index) => {
      const inA = unit.means.get(modelId);
      const inB = b[partner[index]!]!.means.get(modelId);
      if (inA !== undefined && inB !== undefined) differences.push(inB - inA);
    });
    const sd = sampleSd(differences);
    if (differences.length < MIN_PAIRS || sd === null) return null;
    return bounds((t95(differences.length - 1) * sd) / Math.sqrt(differences.length));
  }
  const valuesOf = (units: readonly UnitScores[]) =>
    units.flatMap((unit) => (unit.means.has(modelId) ? [unit.means.get(modelId)!] : []));
  const inA = valuesOf(a);
  const inB = valuesOf(b);
  const sdA = sampleSd(inA);
  const sdB = sampleSd(inB);
  if (inA.length < MIN_PAIRS || inB.length < MIN_PAIRS || sdA === null || sdB === null) return null;
  const varianceA = sdA ** 2 / inA.length;
  const varianceB = sdB ** 2 / inB.length;
  const variance = varianceA + varianceB;
  const df =
    variance > 0
      ? variance ** 2 / (varianceA ** 2 / (inA.length - 1) + varianceB ** 2 / (inB.length - 1))
      : inA.length + inB.length - 2;
  return bounds(t95(df) * Math.sqrt(variance));
}

/**
 * The shared models compared. (`_resampling` is what the bootstrap this replaced took: its
 * intervals are closed-form now and need no seed; older callers still pass one.)
 */
export function compareRuns(
  a: RunScores,
  b: RunScores,
  _resampling?: { readonly seed?: string; readonly resamples?: number },
): RunComparison {
  const inB = new Map(b.models.map((model) => [model.id, model]));
  const inA = new Set(a.models.map((model) => model.id));
  const shared = a.models.filter((model) => inB.has(model.id));
  const standingsA = runStandings(a);
  const standingsB = runStandings(b);
  const partner = pairedUnits(a.units, b.units);
  const thin = runEvidence(a) ?? runEvidence(b);

  const models = shared.map((model): ModelComparison => {
    const inRunA = standingsA.get(model.id)!;
    const inRunB = standingsB.get(model.id)!;
    const difference = inRunA.score !== null && inRunB.score !== null ? inRunB.score - inRunA.score : null;
    const interval =
      difference === null || thin ? null : differenceInterval(a.units, b.units, model.id, difference, partner);
    return {
      modelId: model.id,
      modelName: model.name,
      a: inRunA,
      b: inRunB,
      difference,
      interval,
      largerThanChance:
        interval !== null && (compareScores(interval.low, 0) > 0 || compareScores(interval.high, 0) < 0),
    };
  });
  const scored = models.filter((model) => model.a.score !== null && model.b.score !== null);
  return {
    models,
    onlyInA: a.models.filter((model) => !inB.has(model.id)).map((model) => model.name),
    onlyInB: b.models.filter((model) => !inA.has(model.id)).map((model) => model.name),
    rankCorrelation: roundOff(
      spearman(
        scored.map((model) => model.a.score!),
        scored.map((model) => model.b.score!),
      ),
    ),
    thin,
  };
}

/** Rounding noise off a correlation (0.9999999999999999 of identical runs reads 1). */
function roundOff(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1e12) / 1e12;
}

/** The one-line reading of the rank correlation: how stable the order of the models was. */
export function stabilityReading(correlation: number | null): string {
  if (correlation === null) return "Not enough scored models in both tests to compare their order.";
  if (correlation >= 0.8) return "Stable: both tests put the models in much the same order.";
  if (correlation >= 0.4) return "Partly stable: the order of the models changed in places.";
  if (correlation > -0.4) return "Unstable: the two tests order the models differently.";
  return "Reversed: the second test orders the models nearly the other way round.";
}

function names(items: readonly string[]): string {
  return items.join(", ");
}

function setDifference(label: string, a: readonly string[], b: readonly string[], out: string[]): { shared: string[] } {
  const onlyA = a.filter((item) => !b.includes(item));
  const onlyB = b.filter((item) => !a.includes(item));
  if (onlyA.length > 0) out.push(`${label} only in A: ${names(onlyA)}.`);
  if (onlyB.length > 0) out.push(`${label} only in B: ${names(onlyB)}.`);
  return { shared: a.filter((item) => b.includes(item)) };
}

const yesNo = (value: boolean | undefined) => (value === true ? "on" : "off");

/**
 * What differs between two configurations, as plain sentences (A first, then B). Personas are
 * matched by name and topics by title (a rerun gives them new ids); an empty list: the same.
 */
export function configurationDifferences(a: TestConfiguration, b: TestConfiguration): string[] {
  const out: string[] = [];
  setDifference(
    "Models",
    a.generatorModels.map((model) => model.name),
    b.generatorModels.map((model) => model.name),
    out,
  );
  const personas = setDifference(
    "Personas",
    a.personas.map((persona) => persona.name),
    b.personas.map((persona) => persona.name),
    out,
  );
  for (const name of personas.shared) {
    const left = a.personas.find((persona) => persona.name === name)!;
    const right = b.personas.find((persona) => persona.name === name)!;
    if (left.systemPrompt !== right.systemPrompt) out.push(`Persona ${name}: the system prompt differs.`);
    if (left.description !== right.description) out.push(`Persona ${name}: the description differs.`);
  }
  const topics = setDifference(
    "Topics",
    a.topics.map((topic) => topic.title),
    b.topics.map((topic) => topic.title),
    out,
  );
  for (const title of topics.shared) {
    const left = a.topics.find((topic) => topic.title === title)!;
    const right = b.topics.find((topic) => topic.title === title)!;
    if (left.prompt !== right.prompt) out.push(`Topic ${title}: the prompt differs.`);
    if (left.description !== right.description) out.push(`Topic ${title}: the description differs.`);
  }
  if (a.userPrompt !== b.userPrompt) out.push("The prompt differs.");
  if (a.responsesPerTopic !== b.responsesPerTopic) {
    out.push(`Responses per topic: ${a.responsesPerTopic} in A, ${b.responsesPerTopic} in B.`);
  }
  setDifference(
    "Evaluators",
    a.evaluatorModels.map((model) => model.name),
    b.evaluatorModels.map((model) => model.name),
    out,
  );
  const scaleA = a.scoringParameters.scale;
  const scaleB = b.scoringParameters.scale;
  if (scaleA !== scaleB) out.push(`Scoring: ${scaleA} in A, ${scaleB} in B.`);
  if (a.rankingPrompt !== b.rankingPrompt) out.push("The evaluation prompt differs.");
  const criteriaOf = (config: TestConfiguration) =>
    Object.entries(config.evaluationCriteria)
      .filter(([, on]) => on)
      .map(([criterion]) => criterionLabel(criterion));
  setDifference("Criteria", criteriaOf(a), criteriaOf(b), out);
  const settings: [string, boolean | undefined, boolean | undefined][] = [
    ["Explanations", a.scoringParameters.includeExplanations, b.scoringParameters.includeExplanations],
    ["Judge in both orders", a.scoringParameters.bothOrders, b.scoringParameters.bothOrders],
    ["Judges skip their own family", a.scoringParameters.skipOwnFamily, b.scoringParameters.skipOwnFamily],
    ["An answer that fails a check ranks last", a.failedChecksRankLast, b.failedChecksRankLast],
  ];
  for (const [label, left, right] of settings) {
    if ((left === true) !== (right === true)) out.push(`${label}: ${yesNo(left)} in A, ${yesNo(right)} in B.`);
  }
  const labelsOf = (config: TestConfiguration) =>
    (config.checks ?? []).map((check) =>
      checkLabel(check, (topicId) => config.topics.find((topic) => topic.id === topicId)?.title),
    );
  setDifference("Checks", labelsOf(a), labelsOf(b), out);
  out.push(...runSettingDifferences(a, b));
  return out;
}

/** The persona × topic pairs of both runs, matched by persona name and topic title, in A's order then B's. */
export function matchedPairs(
  a: TestConfiguration,
  b: TestConfiguration,
): { persona: string; topic: string; a: PairRef | null; b: PairRef | null }[] {
  const pairs: { persona: string; topic: string; a: PairRef | null; b: PairRef | null }[] = [];
  const find = (persona: string, topic: string) =>
    pairs.find((pair) => pair.persona === persona && pair.topic === topic);
  for (const persona of a.personas) {
    for (const topic of a.topics) {
      pairs.push({
        persona: persona.name,
        topic: topic.title,
        a: { personaId: persona.id, topicId: topic.id },
        b: null,
      });
    }
  }
  for (const persona of b.personas) {
    for (const topic of b.topics) {
      const ref = { personaId: persona.id, topicId: topic.id };
      const pair = find(persona.name, topic.title);
      if (pair && pair.b === null) pair.b = ref;
      else if (!pair) pairs.push({ persona: persona.name, topic: topic.title, a: null, b: ref });
    }
  }
  return pairs;
}

export interface PairRef {
  readonly personaId: string;
  readonly topicId: string;
}
