// Words and numbers of the jury's evidence (its statistics) as the results, monitor, shared and history
// screens show them. Pure: every figure comes from the stored statistics (convex/lib/stats).
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import { formatDollars, formatScore } from "../../../convex/lib/format";
import { MAX_SCORE } from "../../../convex/lib/scoring";
import { verdictFactsOf, verdictSentence } from "../../../convex/lib/verdict";

type OwnerJuryView = NonNullable<FunctionReturnType<typeof api.results.juryStats>>;
type OwnerJuryStats = NonNullable<OwnerJuryView["stats"]>;
type CostlyModel = OwnerJuryStats["models"][number];
type CostlyJudge = OwnerJuryStats["judges"][number];
/**
 * The statistics as every jury screen reads them. The cost figures reach the test's members only
 * (api.results.juryStats); a shared link's viewers get none (api.shares.juryStats).
 */
export type JuryStats = Omit<OwnerJuryStats, "models" | "judges" | "costs"> & {
  models: (Omit<CostlyModel, "generationCostUsd" | "judgingCostUsd"> &
    Partial<Pick<CostlyModel, "generationCostUsd" | "judgingCostUsd">>)[];
  judges: (Omit<CostlyJudge, "costUsd"> & Partial<Pick<CostlyJudge, "costUsd">>)[];
  costs?: OwnerJuryStats["costs"];
};
export type JuryView = Omit<OwnerJuryView, "stats"> & { stats: JuryStats | null };
export type JuryModel = JuryStats["models"][number];
export type JuryJudge = JuryStats["judges"][number];
export type JuryAgreement = JuryStats["agreement"]["overall"];

export const JURY_EMPTY = "The jury's statistics appear when the first judgements arrive";
export const JURY_LOAD_FAILED = "Could not load the jury's statistics";
export const JURY_TITLE = "The Jury";

/** True once at least one model has a score with an interval. */
export function hasScores(stats: JuryStats | null | undefined): stats is JuryStats {
  return stats != null && stats.models.some((model) => model.meanScore !== null && model.scoreInterval !== null);
}

/**
 * Whether the jury has a decision to state: some model has a mean score (with too little evidence
 * the intervals are left out, and the decision says so).
 */
export function hasDecision(stats: JuryStats | null | undefined): stats is JuryStats {
  return stats != null && stats.summary.kind !== "none" && stats.models.some((model) => model.meanScore !== null);
}

/** The jury's decision in one sentence, worded as on every page (convex/lib/verdict.ts). */
export function decisionSentence(stats: JuryStats): string {
  return verdictSentence(verdictFactsOf(stats.summary, stats.models, stats.units));
}

/** "1" or, when intervals overlap, the range of ranks the model could hold: "1–2". */
export function rankLabel(rank: JuryModel["rank"]): string {
  if (!rank) return "—";
  return rank.best === rank.worst ? String(rank.best) : `${rank.best}–${rank.worst}`;
}

export function formatInterval(
  interval: { low: number; high: number } | null,
  format: (value: number) => string = formatScore,
): string {
  return interval ? `${format(interval.low)}–${format(interval.high)}` : "—";
}

export function formatRating(rating: number): string {
  return Math.round(rating).toString();
}

/** Position on a 0–10 score track, in percent (clamped). */
export function scorePercent(score: number): number {
  return Math.max(0, Math.min(100, (score / MAX_SCORE) * 100));
}

/** "62%" from a 0–1 share. */
export function formatShare(share: number): string {
  return `${Math.round(share * 100)}%`;
}

export function formatCorrelation(value: number | null): string {
  return value === null ? "—" : value.toFixed(2);
}

export function formatPValue(p: number | null): string {
  if (p === null) return "—";
  return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
}

function signed(value: number, digits = 2): string {
  return `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value).toFixed(digits)}`;
}

export function formatSelfPreference(value: number | null): string {
  return value === null ? "—" : `${signed(value)} pts`;
}

export function formatJudgeCost(dollars: number): string {
  return formatDollars(dollars, 4);
}

export function agreementMethodName(method: JuryAgreement["method"]): string {
  return method === "kendall-w" ? "Kendall's W" : "Krippendorff's alpha";
}

/** What the method measures (the tooltip beside every agreement figure), as the statistics state it. */
export function agreementMethodHelp(stats: JuryStats): string {
  return stats.agreement.method;
}

/** Each flagged bias of a judge, with the figure that made it significant. */
export function judgeFlags(judge: JuryJudge): string[] {
  const flags: string[] = [];
  if (judge.position?.flagged) {
    flags.push(
      `Position bias: puts the first-shown answer first ${formatShare(judge.position.firstRate)} of the time (chance ${formatShare(judge.position.chance)}, ${formatPValue(judge.position.pValue)})`,
    );
  }
  if (judge.length.flagged) {
    flags.push(
      `Length bias: favours longer answers (r = ${formatCorrelation(judge.length.excess ?? judge.length.correlation)}, ${formatPValue(judge.length.pValue)})`,
    );
  }
  if (judge.selfPreference.flagged && judge.selfPreference.value !== null) {
    flags.push(
      `Self-preference: scores its own family's answers ${signed(judge.selfPreference.value)} points above the other judges (${formatPValue(judge.selfPreference.pValue)})`,
    );
  }
  return flags;
}

/** The judge's name from the test's panel, else its model id. */
export function nameOf(list: readonly { id: string; name: string }[], id: string): string {
  return list.find((entry) => entry.id === id)?.name ?? id;
}

/** Colour strength of a win-rate cell: 0 at 50%, 1 at 0% or 100%. */
export function winRateStrength(rate: number): number {
  return Math.min(1, Math.abs(rate - 0.5) * 2);
}
