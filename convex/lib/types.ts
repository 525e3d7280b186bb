// Types shared by the pure domain modules in convex/lib, the Convex functions and the React app.
// Structural on purpose: a stored test configuration (convex/validators.ts) fits these shapes,
// and so does a draft in the setup page, without this folder importing any server code; the
// shapes that are only ever stored are inferred from validators.ts, their one declaration.
import type { Infer } from "convex/values";
import type { AnswerCheck, costEstimate, ResultsSummary, scoringParameters } from "../validators";
import type { EvaluationCriteria } from "./criteria";

/** A model in a configuration: its gateway id, or a `{ id, name }` reference as stored on tests. */
export type ModelRef = string | { readonly id: string; readonly name?: string };

export function modelIdOf(ref: ModelRef): string {
  return typeof ref === "string" ? ref : ref.id;
}

export function modelNameOf(ref: ModelRef): string {
  return typeof ref === "string" ? ref : (ref.name ?? ref.id);
}

export interface PersonaInput {
  readonly id?: string;
  readonly name: string;
  readonly description: string;
  readonly systemPrompt: string;
}

export interface TopicInput {
  readonly id?: string;
  readonly title: string;
  readonly description: string;
  readonly prompt: string;
}

// The evaluation criteria are declared once, in criteria.ts.
export {
  DEFAULT_EVALUATION_CRITERIA,
  EVALUATION_CRITERIA,
  selectedCriteria,
  type EvaluationCriteria,
  type EvaluationCriterion,
} from "./criteria";

/**
 * 'ranking': each evaluator orders all answers of a persona × topic pair in one call.
 * 'rating': each evaluator scores each answer from 1 to 10 on every selected criterion.
 */
export const EVALUATION_SCALES = ["ranking", "rating"] as const;
export type EvaluationScale = (typeof EVALUATION_SCALES)[number];

/** Declared by validators.ts scoringParameters. */
export type ScoringParameters = Readonly<Infer<typeof scoringParameters>>;

export const DEFAULT_SCORING_PARAMETERS: ScoringParameters = { scale: "ranking", includeExplanations: true };

/** Spec part 1 §5: responses per topic defaults to 2. */
export const DEFAULT_RESPONSES_PER_TOPIC = 2;

/** The configuration a test runs with (spec part 1 §3 "Test configuration"). */
export interface TestConfig {
  readonly name: string;
  readonly taskType?: string;
  readonly userPrompt: string;
  readonly personas: readonly PersonaInput[];
  readonly topics: readonly TopicInput[];
  readonly generatorModels: readonly ModelRef[];
  readonly evaluatorModels: readonly ModelRef[];
  readonly responsesPerTopic: number;
  readonly rankingPrompt?: string;
  readonly evaluationCriteria: EvaluationCriteria;
  readonly scoringParameters: ScoringParameters;
  /** Checks on every answer (lib/checks.ts). */
  readonly checks?: readonly AnswerCheck[];
  /** "An answer that fails a check ranks last". */
  readonly failedChecksRankLast?: boolean;
  /** Runs of each model × persona × topic cell (lib/repeats.ts); absent = 1. */
  readonly repeats?: number;
}

/** Gateway price of one model, in dollars per token. */
export interface CatalogPrice {
  readonly prompt: number;
  readonly completion: number;
}

/** Model id → price per token. Models missing from it are priced at UNKNOWN_MODEL_COST_PER_TOKEN. */
export type PriceCatalog = Readonly<Record<string, CatalogPrice>>;

export const MODEL_TIERS = ["FREE", "BUDGET", "STANDARD", "PREMIUM", "ENTERPRISE", "FLAGSHIP"] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

/** One model of the gateway catalog, normalised from the gateway's shape. */
export interface CatalogModel {
  readonly id: string;
  readonly name: string;
  /** Provider slug, e.g. "openai" for "openai/gpt-4o". */
  readonly provider: string;
  readonly contextLength: number;
  readonly pricing: CatalogPrice;
  readonly description: string;
  readonly tier: ModelTier;
  /** Unix time in milliseconds, when the gateway says. */
  readonly created?: number;
}

/** Spec part 1 §3 "Cost estimate"; all amounts are dollars (floats). Declared by validators.ts costEstimate. */
export type CostEstimate = Readonly<Infer<typeof costEstimate>>;

export interface Quote {
  readonly estimate: CostEstimate;
  /** What the user pays, integer cents (0 when there is nothing to run). */
  readonly priceCents: number;
}

export interface CallCounts {
  /** One generation call per model × persona × topic. */
  readonly generationCalls: number;
  /** Rating: one per answer per evaluator. Ranking: one per persona × topic pair per evaluator. */
  readonly evaluationCalls: number;
  readonly expectedResponses: number;
  /** One evaluation score per answer per evaluator, whatever the scale. */
  readonly expectedEvaluations: number;
  readonly total: number;
}

/** A user-facing validation problem; `field` is a path such as "personas.0.name". */
export interface Problem {
  readonly field: string;
  readonly message: string;
}

/** Spec part 2 §3 "Progress info". */
export interface ProgressInfo {
  readonly phase: ProgressPhase;
  /** 0-100 */
  readonly progress: number;
  readonly details: string;
  readonly expectedResponses: number;
  readonly actualResponses: number;
  readonly expectedEvaluations: number;
  readonly actualEvaluations: number;
  /** 0-100 */
  readonly responseProgress: number;
  /** 0-100 */
  readonly evaluationProgress: number;
}

export type ProgressPhase =
  | "Initializing"
  | "Starting Response Generation"
  | "Generating Responses"
  | "Collecting Evaluations"
  | "Finalizing Results"
  | "Unknown";

export type { ModelRanking } from "../validators";

/** Spec part 2 §3 results_summary.analysisSummary, declared by validators.ts resultsSummary. */
export type AnalysisSummary = ResultsSummary["analysisSummary"];
