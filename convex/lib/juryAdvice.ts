// Jury advice (issue 35): from a finished test's own judge calls, which smaller juries would
// have reached the same decision, the cheapest of them with its share of the judging cost, and
// how many independent votes the jury carried. Pure: it reruns the jury statistics
// (lib/stats computeJuryStats) on each subset of the judges' calls and compares the decisions.
import { computeJuryStats } from "./stats";
import { judgeScores } from "./stats/judgeScores";
import { seededRandom } from "./stats/random";
import type { JuryStatsInput } from "./stats/types";
import { joinNames, type VerdictKind } from "./verdict";
import { ADVICE_REPLICATION, decisionMargin, marginCarriesAdvice, type DecisionMargin } from "./juryAdviceEvidence";

/**
 * Resamples of the test's persona × topic pairs on which a smaller jury must also reach the full
 * jury's decision, in at least ADVICE_AGREEMENT of them: agreeing on the one sample the test drew
 * can be luck. It does not make advice on a borderline decision reliable (bench/adaptive.ts
 * --target jury: a 1-point gap over 40–60 pairs held on 84–92% of fresh runs with or without
 * it): the decision's own margin does (lib/juryAdviceEvidence.ts).
 */
export const ADVICE_RESAMPLES = 20;
export const ADVICE_AGREEMENT = 0.95;

/** Juries larger than this are not searched (2^k − 2 subsets, each a full statistics run). */
export const MAX_ADVICE_JUDGES = 8;

export interface JuryDecision {
  readonly kind: VerdictKind;
  /** The best model, or the models tied for first, by id, sorted (the top group as a set). */
  readonly leaders: readonly string[];
}

export interface SmallerJury {
  readonly judges: readonly string[];
  /** Its share of the full jury's judging cost, 0–1. */
  readonly costShare: number;
  /** Share of resamples of the pairs on which it reached the full jury's decision there. */
  readonly agreement: number;
}

export interface JuryAdvice {
  readonly judges: readonly string[];
  readonly decision: JuryDecision;
  /** "usd" when the calls carry costs, else each judge is weighed by its calls. */
  readonly costBasis: "usd" | "calls";
  /** Smaller juries with the same decision, cheapest first; [] when every judge was needed. */
  readonly sameDecision: readonly SmallerJury[];
  /** Null below 3 judges: with two, shared truth and shared error cannot be told apart. */
  readonly independentVotes: number | null;
}

function decisionOf(input: JuryStatsInput): JuryDecision {
  // The decision rests on the score t intervals, not on the rating bootstrap: one resample suffices.
  const { summary } = computeJuryStats({ ...input, resamples: 1 });
  return { kind: summary.kind, leaders: [...summary.leaders].sort() };
}

/** The test as if only these judges had sat: their calls alone. */
function withJudges(input: JuryStatsInput, judges: ReadonlySet<string>): JuryStatsInput {
  return {
    ...input,
    judges: [...judges],
    rankings: input.rankings?.filter((call) => judges.has(call.judgeModelId)),
    ratings: input.ratings?.filter((call) => judges.has(call.judgeModelId)),
  };
}

/** The test with its persona × topic pairs drawn with replacement (a drawn twice pair is renamed). */
function resamplePairs(input: JuryStatsInput, random: ReturnType<typeof seededRandom>): JuryStatsInput {
  const unitKey = (response: { personaId: string; topicId: string }) =>
    JSON.stringify([response.personaId, response.topicId]);
  const units = [...new Set(input.responses.map(unitKey))];
  const unitOf = new Map(input.responses.map((response) => [response.id, unitKey(response)]));
  const draws = new Map<string, number>();
  for (let k = 0; k < units.length; k++) {
    const unit = units[random.index(units.length)]!;
    draws.set(unit, (draws.get(unit) ?? 0) + 1);
  }
  const copies = <T>(
    items: readonly T[] | undefined,
    unit: (item: T) => string | undefined,
    rename: (item: T, copy: number) => T,
  ) =>
    items?.flatMap((item) => Array.from({ length: draws.get(unit(item) ?? "") ?? 0 }, (_, copy) => rename(item, copy)));
  const id = (responseId: string, copy: number) => `${responseId}#${copy}`;
  return {
    ...input,
    responses: copies(input.responses, unitKey, (response, copy) => ({
      ...response,
      id: id(response.id, copy),
      topicId: `${response.topicId}#${copy}`,
    }))!,
    rankings: copies(
      input.rankings,
      (call) => unitOf.get(call.ranking[0] ?? call.shown[0] ?? ""),
      (call, copy) => ({
        ...call,
        shown: call.shown.map((r) => id(r, copy)),
        ranking: call.ranking.map((r) => id(r, copy)),
      }),
    ),
    ratings: copies(
      input.ratings,
      (call) => unitOf.get(call.responseId),
      (call, copy) => ({ ...call, responseId: id(call.responseId, copy) }),
    ),
  };
}

/** Each judge's weight in the judging cost: its calls' costs when any call has one, else its calls. */
function judgeCosts(input: JuryStatsInput): { costs: Map<string, number>; basis: "usd" | "calls" } {
  const calls = [...(input.rankings ?? []), ...(input.ratings ?? [])];
  const basis = calls.some((call) => (call.costUsd ?? 0) > 0) ? "usd" : "calls";
  const costs = new Map<string, number>();
  for (const call of calls) {
    costs.set(call.judgeModelId, (costs.get(call.judgeModelId) ?? 0) + (basis === "usd" ? (call.costUsd ?? 0) : 1));
  }
  return { costs, basis };
}

/**
 * Effective number of independent judges, k / (1 + (k − 1) ρ̄), clamped to [1, k], where ρ̄ is the
 * judges' mean pairwise error correlation over the answers every judge scored. Without the true
 * quality, each pair's covariance is shared truth plus shared error; the truth's variance is taken
 * as the smallest pairwise covariance (at least one pair errs independently), the rest is error.
 * Residuals from the jury's mean would not do: they sum to zero, so independent judges would look
 * negatively correlated (−1/(k − 1)) and every jury would count as k votes. Null below 3 judges
 * or 3 common answers.
 */
export function independentVotes(input: JuryStatsInput): number | null {
  const known = new Map(input.responses.map((response) => [response.id, response]));
  const { scores } = judgeScores(input, known);
  const judges = [...new Set([...input.judges, ...scores.keys()])].filter((judge) => scores.has(judge));
  const k = judges.length;
  if (k < 3) return null;
  const common = input.responses
    .map((response) => response.id)
    .filter((id) => judges.every((judge) => scores.get(judge)!.has(id)));
  const n = common.length;
  if (n < 3) return null;
  const centred = judges.map((judge) => {
    const values = common.map((id) => scores.get(judge)!.get(id)!);
    const average = values.reduce((sum, value) => sum + value, 0) / n;
    return values.map((value) => value - average);
  });
  const covariance = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0) / (n - 1);
  const pairs: [number, number, number][] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) pairs.push([a, b, covariance(centred[a]!, centred[b]!)]);
  }
  const truth = Math.max(0, Math.min(...pairs.map(([, , value]) => value)));
  const errorVariance = centred.map((values) => covariance(values, values) - truth);
  const correlations = pairs.map(([a, b, value]) => {
    const scale = Math.sqrt(errorVariance[a]! * errorVariance[b]!);
    // A judge with no error of its own shares none.
    return scale > 0 ? Math.min(1, Math.max(0, (value - truth) / scale)) : 0;
  });
  const meanCorrelation = correlations.reduce((sum, value) => sum + value, 0) / correlations.length;
  return Math.min(k, Math.max(1, k / (1 + (k - 1) * meanCorrelation)));
}

/** As the statistics do: a judge with calls sits on the jury even if the list missed it. */
function juryOf(input: JuryStatsInput): string[] {
  const calls = [...(input.rankings ?? []), ...(input.ratings ?? [])];
  return [...new Set([...input.judges, ...calls.map((call) => call.judgeModelId)])];
}

/**
 * Judge calls × statistics runs one advice may take (each smaller jury is decided on the test and
 * on ADVICE_RESAMPLES resamples): about 2 µs each, so ~30 s of an action at most. Four judges and
 * 40,000 judge calls fit (11.8 million); eight judges fit up to about 2,800 calls.
 */
const ADVICE_WORK_BUDGET = 15_000_000;

/**
 * "thin": no decision to keep; "close": a decision too near its edge for a fresh run to repeat it
 * reliably (lib/juryAdviceEvidence.ts), so no smaller jury can be trusted to reach it either.
 */
type NoAdviceReason = "oneJudge" | "tooManyJudges" | "tooLarge" | "thin" | "close";

/** Why a test gets no advice (the cheapest checks first), or null; with the decision's margin when it has one. */
function whyNoAdvice(input: JuryStatsInput): { reason: NoAdviceReason | null; margin: DecisionMargin | null } {
  const judges = juryOf(input);
  if (judges.length < 2) return { reason: "oneJudge", margin: null };
  if (judges.length > MAX_ADVICE_JUDGES) return { reason: "tooManyJudges", margin: null };
  const calls = (input.rankings?.length ?? 0) + (input.ratings?.length ?? 0);
  if ((2 ** judges.length - 1) * (1 + ADVICE_RESAMPLES) * calls > ADVICE_WORK_BUDGET) {
    return { reason: "tooLarge", margin: null };
  }
  const margin = decisionMargin(input);
  if (margin === null) return { reason: "thin", margin };
  return { reason: marginCarriesAdvice(margin) ? null : "close", margin };
}

/**
 * The advice for a finished test: the smaller juries that reach its decision on its own pairs and
 * on at least ADVICE_AGREEMENT of ADVICE_RESAMPLES resamples of them, with a verdict of their own
 * as clear as advice needs (lib/juryAdviceEvidence.ts), or null when there is no decision to keep
 * (too little evidence, no scores), the decision is too close to repeat, fewer than two judges sat,
 * or more than MAX_ADVICE_JUDGES.
 */
export function juryAdvice(input: JuryStatsInput): JuryAdvice | null {
  if (whyNoAdvice(input).reason !== null) return null;
  const judges = juryOf(input);
  const decision = decisionOf(input);
  const { costs, basis } = judgeCosts(input);
  const total = [...costs.values()].reduce((sum, cost) => sum + cost, 0);
  const same = (a: JuryDecision, b: JuryDecision) => a.kind === b.kind && a.leaders.join("\n") === b.leaders.join("\n");
  const random = seededRandom(`jury-advice|${input.seed}`);
  const resamples = Array.from({ length: ADVICE_RESAMPLES }, () => {
    const sample = resamplePairs(input, random);
    return { sample, decision: decisionOf(sample) };
  });
  const sameDecision: SmallerJury[] = [];
  for (let mask = 1; mask < (1 << judges.length) - 1; mask++) {
    const subset = judges.filter((_, index) => (mask >> index) & 1);
    const only = new Set(subset);
    if (!same(decisionOf(withJudges(input, only)), decision)) continue;
    let agreed = 0;
    for (const { sample, decision: full } of resamples) if (same(decisionOf(withJudges(sample, only)), full)) agreed++;
    const agreement = agreed / ADVICE_RESAMPLES;
    if (agreement < ADVICE_AGREEMENT) continue;
    // The smaller jury's own verdict must be as clear as the full jury's must be: with fewer
    // judges its noise is larger, and a fresh run near the edge can split the two.
    const own = decisionMargin(withJudges(input, only));
    if (own === null || !marginCarriesAdvice(own)) continue;
    const cost = subset.reduce((sum, judge) => sum + (costs.get(judge) ?? 0), 0);
    sameDecision.push({
      judges: subset,
      costShare: total > 0 ? cost / total : subset.length / judges.length,
      agreement,
    });
  }
  sameDecision.sort((a, b) => a.costShare - b.costShare || a.judges.length - b.judges.length);
  return { judges, decision, costBasis: basis, sameDecision, independentVotes: independentVotes(input) };
}

/**
 * The advice in words, one line each: "The same verdict with A and B alone: 38% of the judging
 * cost" (or that every judge was needed), and "3 judges, worth 1.8 independent votes".
 */
export function juryAdviceLines(advice: JuryAdvice, judgeName: (judgeModelId: string) => string): string[] {
  const cheapest = advice.sameDecision[0];
  const lines = [
    cheapest
      ? `The same verdict with ${joinNames(cheapest.judges.map(judgeName))} alone: ${Math.round(100 * cheapest.costShare)}% of the judging ${advice.costBasis === "usd" ? "cost" : "calls"}`
      : NO_ADVICE_WORDS.allNeeded,
  ];
  if (advice.independentVotes !== null) {
    lines.push(`${advice.judges.length} judges, worth ${advice.independentVotes.toFixed(1)} independent votes`);
  }
  return lines;
}

/** A test's advice as kept (tables/juryAdvice.ts): what the results and the space's Judges page show. */
export interface JuryAdviceRecord {
  readonly outcome: "advised" | "allNeeded" | NoAdviceReason;
  readonly decision: { kind: "best" | "tied"; leaders: string[] } | null;
  readonly costBasis: "usd" | "calls";
  readonly judges: { judgeModelId: string; name: string; costUsd: number; calls: number; leftOut: boolean }[];
  readonly advised: { judges: string[]; costShare: number; agreement: number } | null;
  readonly independentVotes: number | null;
  /** How clearly the full jury decided (lib/juryAdviceEvidence.ts); absent without a decision, and on rows kept before it. */
  readonly evidence?: { replication: number; pairs: number; pairsNeeded: number | null };
}

/** The advice for a finished test, with a reason when there is none, each judge named and costed. */
export function juryAdviceRecord(input: JuryStatsInput, judgeName: (judgeModelId: string) => string): JuryAdviceRecord {
  const { reason, margin } = whyNoAdvice(input);
  const advice = reason === null ? juryAdvice(input) : null;
  const advised = advice?.sameDecision[0] ?? null;
  const calls = [...(input.rankings ?? []), ...(input.ratings ?? [])];
  const judges = juryOf(input).map((judgeModelId) => {
    const own = calls.filter((call) => call.judgeModelId === judgeModelId);
    return {
      judgeModelId,
      name: judgeName(judgeModelId),
      costUsd: own.reduce((sum, call) => sum + (call.costUsd ?? 0), 0),
      calls: own.length,
      leftOut: advised !== null && !advised.judges.includes(judgeModelId),
    };
  });
  return {
    outcome: advice === null ? (reason ?? "thin") : advised ? "advised" : "allNeeded",
    decision: advice ? { kind: advice.decision.kind as "best" | "tied", leaders: [...advice.decision.leaders] } : null,
    costBasis: advice?.costBasis ?? (calls.some((call) => (call.costUsd ?? 0) > 0) ? "usd" : "calls"),
    judges,
    advised: advised
      ? { judges: [...advised.judges], costShare: advised.costShare, agreement: advised.agreement }
      : null,
    // Too many judges or calls: the votes are not searched either (they read every judge pair).
    independentVotes: reason === "tooManyJudges" || reason === "tooLarge" ? null : independentVotes(input),
    ...(margin === null
      ? {}
      : { evidence: { replication: margin.replication, pairs: margin.pairs, pairsNeeded: margin.pairsNeeded } }),
  };
}

/** Why there is no advice, in words (the results' Jury advice). */
const NO_ADVICE_WORDS: Record<NoAdviceReason | "allNeeded", string> = {
  allNeeded: "No smaller jury reaches the same verdict: every judge counted",
  thin: "Too little evidence to advise a smaller jury: the full jury's own verdict is not settled",
  close: "Too little evidence to advise a smaller jury: the full jury's own verdict is close",
  oneJudge: "One judge sat: there is no smaller jury to advise",
  tooManyJudges: `More than ${MAX_ADVICE_JUDGES} judges sat: smaller juries are not searched`,
  tooLarge: "Too many judge calls to search the smaller juries",
};

/** What the advice's words read of a kept advice: no judge's cost (the shared page has none). */
export type AdviceInWords = Omit<JuryAdviceRecord, "judges"> & {
  readonly judges: readonly Pick<JuryAdviceRecord["judges"][number], "judgeModelId" | "name">[];
};

/**
 * "Too little evidence to advise a smaller jury: the full jury's own verdict is close, and a fresh
 * run of this test could reach another one (advice needs it to hold in 95% of fresh runs; about
 * 140 persona × topic pairs would show that, this test judged 60)".
 */
function closeWords(evidence: JuryAdviceRecord["evidence"]): string {
  const needs = `advice needs it to hold in ${Math.round(100 * ADVICE_REPLICATION)}% of fresh runs`;
  const more =
    evidence && evidence.pairsNeeded !== null && evidence.pairsNeeded > evidence.pairs
      ? `; about ${evidence.pairsNeeded} persona × topic pairs would show that, this test judged ${evidence.pairs}`
      : "";
  return `${NO_ADVICE_WORDS.close}, and a fresh run of this test could reach another one (${needs}${more})`;
}

/** A kept advice in words: the smaller jury (or why none) and the independent votes. */
export function adviceRecordLines(record: AdviceInWords): string[] {
  const names = new Map(record.judges.map((judge) => [judge.judgeModelId, judge.name]));
  const advice: JuryAdvice | null =
    record.decision === null
      ? null
      : {
          judges: record.judges.map((judge) => judge.judgeModelId),
          decision: record.decision,
          costBasis: record.costBasis,
          sameDecision: record.advised ? [record.advised] : [],
          independentVotes: record.independentVotes,
        };
  if (advice) return juryAdviceLines(advice, (id) => names.get(id) ?? id);
  const lines = [
    record.outcome === "close"
      ? closeWords(record.evidence)
      : NO_ADVICE_WORDS[record.outcome === "advised" ? "thin" : record.outcome],
  ];
  if (record.independentVotes !== null)
    lines.push(`${record.judges.length} judges, worth ${record.independentVotes.toFixed(1)} independent votes`);
  return lines;
}
