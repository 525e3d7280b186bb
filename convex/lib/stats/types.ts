// What the jury statistics take (answers, judge calls) and give (per model and per judge figures).
import { type AgreementBand } from "./agreement";
import type { RepeatSpread } from "./repeats";
import type { Interval } from "./basics";
import { type EvidenceSummary, type RankRange } from "./ranks";

export interface JuryResponse {
  readonly id: string;
  readonly modelId: string;
  readonly personaId: string;
  readonly topicId: string;
  /** Answer length in characters. */
  readonly length: number;
  readonly costUsd?: number;
  /** Which run of its cell it came from, when the test repeats cells (0-based). */
  readonly repeat?: number;
}

/** One ranking call: the answers in the order the judge was shown them, and its order, best first. */
export interface JuryRanking {
  readonly judgeModelId: string;
  readonly shown: readonly string[];
  readonly ranking: readonly string[];
  /** "reverse" for the second call of "Judge in both orders". */
  readonly order?: "forward" | "reverse";
  /** Answers of its persona × topic when the judge ranked fewer (it skipped its own family's). */
  readonly outOf?: number;
  readonly costUsd?: number;
}

/** One rating call: a judge's 1–10 scores of one answer per criterion. */
export interface JuryRating {
  readonly judgeModelId: string;
  readonly responseId: string;
  readonly scores: Readonly<Record<string, number>>;
  readonly costUsd?: number;
}

export interface JuryStatsInput {
  /** Seeds the bootstrap, e.g. the test id: the same data always gives the same figures. */
  readonly seed: string;
  readonly scale: "ranking" | "rating";
  /** Generator ids and names, in the test's order; models only seen in responses are appended. */
  readonly models?: readonly { readonly id: string; readonly name: string }[];
  readonly judges: readonly string[];
  readonly responses: readonly JuryResponse[];
  readonly rankings?: readonly JuryRanking[];
  readonly ratings?: readonly JuryRating[];
  readonly resamples?: number;
  readonly alpha?: number;
}

export interface ModelJuryStats {
  readonly modelId: string;
  readonly modelName: string;
  /** Mean over persona × topic units of the model's mean score there (0–10); null before any score. */
  readonly meanScore: number | null;
  readonly scoreInterval: Interval | null;
  readonly rank: RankRange | null;
  /** Bradley–Terry rating on the Elo scale (400, base 10, geometric-mean model at 1000). */
  readonly rating: number | null;
  readonly ratingInterval: Interval | null;
  /** Units in which it was scored, and judge scores it received. */
  readonly units: number;
  readonly scores: number;
  /** What generating its answers cost, and what judging them cost (its share of each judge call). */
  readonly generationCostUsd: number;
  readonly judgingCostUsd: number;
  /** Rating tests: its mean per criterion (JuryStats.criteria order), with a bootstrap interval; [] for ranking. */
  readonly criteria: { readonly criterion: string; readonly mean: number | null; readonly interval: Interval | null }[];
  /** Its mean score from each judge (JuryStats.judges order), with a bootstrap interval. */
  readonly byJudge: {
    readonly judgeModelId: string;
    readonly mean: number | null;
    readonly interval: Interval | null;
  }[];
  /** A repeated test's spread between repeats (lib/stats/repeats.ts); absent without repeats. */
  readonly repeatSpread?: RepeatSpread;
}

export interface AgreementFigure {
  readonly method: "kendall-w" | "krippendorff-alpha-interval";
  readonly value: number | null;
  readonly band: AgreementBand | null;
  /** Plain words, e.g. "Strong agreement". */
  readonly label: string;
}

export interface UnitAgreement extends AgreementFigure {
  readonly personaId: string;
  readonly topicId: string;
}

export interface JudgeJuryStats {
  readonly judgeModelId: string;
  /** The provider part of the model id. */
  readonly family: string;
  readonly calls: number;
  readonly scores: number;
  readonly costUsd: number;
  /** Leave-one-out agreement with the rest of the panel, averaged over units. */
  readonly agreement: { readonly method: "kendall-tau-b" | "spearman"; readonly value: number | null };
  readonly position: {
    readonly calls: number;
    readonly firstRate: number;
    readonly chance: number;
    readonly pValue: number;
    readonly flagged: boolean;
  } | null;
  /** Share of answer pairs kept in the same order when shown in reverse; null without both orders. */
  readonly positionConsistency: number | null;
  readonly length: {
    readonly correlation: number | null;
    readonly excess: number | null;
    readonly pValue: number | null;
    readonly flagged: boolean;
  };
  readonly selfPreference: {
    readonly value: number | null;
    readonly answers: number;
    readonly pValue: number | null;
    readonly flagged: boolean;
  };
  readonly flagged: boolean;
}

export interface JuryStats {
  readonly scale: "ranking" | "rating";
  readonly resamples: number;
  readonly alpha: number;
  readonly units: number;
  readonly personas: number;
  readonly topics: number;
  /** Best mean score first. */
  readonly models: ModelJuryStats[];
  /** winRates.matrix[i][j]: share of comparisons models[i] won against models[j] (ties half). */
  readonly winRates: { readonly modelIds: string[]; readonly matrix: (number | null)[][] };
  readonly agreement: { readonly method: string; readonly overall: AgreementFigure; readonly byUnit: UnitAgreement[] };
  readonly judges: JudgeJuryStats[];
  /** Statistics stored before the topics estimate became a range hold extraTopicsNeeded instead. */
  readonly summary: Omit<EvidenceSummary, "extraTopicsRange"> & {
    readonly extraTopicsRange?: EvidenceSummary["extraTopicsRange"];
    readonly extraTopicsNeeded?: number | null;
  };
  readonly costs: { readonly generationUsd: number; readonly judgingUsd: number };
  /** Rating tests: the criteria scored, in the order the per-criterion figures use; [] for ranking. */
  readonly criteria: string[];
}
