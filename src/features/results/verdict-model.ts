// The results page's plain-language verdict: which model to pick, how sure the jury is and what
// would make it surer, in words a buyer reads without the statistics. Pure: every figure comes
// from the stored jury statistics (each model's mean score and 95% interval) and the page's
// per-model cost and latency.
import { formatCostPerResponse, formatScore } from "../../../convex/lib/format";
import { formatInterval } from "./jury-model";

/** What the verdict reads of a model's jury figures. */
export interface VerdictModel {
  modelId: string;
  modelName: string;
  meanScore: number | null;
  scoreInterval: { low: number; high: number } | null;
}

/** What the verdict reads of a model's cost and speed (results.get's models). */
export interface VerdictFigures {
  modelId: string;
  costPerResponseUsd: number | null;
  medianLatencyMs: number | null;
}

export interface VerdictInput {
  models: readonly VerdictModel[];
  figures: readonly VerdictFigures[];
  /** The jury's estimate of the topics that would separate a tie (null when it has none). */
  extraTopicsNeeded: number | null;
  /** The test is still producing answers or judgements. */
  live: boolean;
  /** Persona × topic pairs the intervals are resampled over (the jury's units of evidence). */
  units: number;
}

export interface PlainVerdict {
  /**
   * "clear": one model's interval is above every other's; "close": the top models overlap;
   * "thin": one leads, but on too few persona × topic pairs for its interval to mean much.
   */
  kind: "clear" | "close" | "thin" | "single";
  /** The model to pick. */
  pickId: string;
  /** "Pick Claude 3.5 Haiku." */
  headline: string;
  /** How sure the jury is, in words: "Clear winner" or "Too close to call". */
  certainty: string;
  /** Why, in one or two sentences with the scores. */
  confidence: string;
  /** What would settle it (or that nothing more is needed). */
  settle: string;
  /** The models the jury cannot tell apart at the top, best mean first (the pick among them). */
  contenders: string[];
}

/** Two models' 95% intervals closer than this (points out of 10) make a close second. */
export const CLOSE_SECOND_POINTS = 0.5;
/**
 * Fewer persona × topic pairs than this and a lead is not called sure: resampling so few pairs
 * gives intervals far narrower than a rerun's spread (one pair gives none at all).
 */
export const MIN_UNITS_FOR_SURE = 5;

type Scored = VerdictModel & { meanScore: number; scoreInterval: { low: number; high: number } };

function scoreText(model: Scored): string {
  return `${formatScore(model.meanScore)} (95% range ${formatInterval(model.scoreInterval)})`;
}

/** "A", "A and B", "A, B and C", "A, B, C and 2 others". */
export function joinNames(names: readonly string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? "";
  if (names.length > shown + 1) return `${names.slice(0, shown).join(", ")} and ${names.length - shown} others`;
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * The verdict, or null before any model has a score with an interval. The top group is the
 * leader (best mean) and every model whose interval reaches the leader's (the same rule as the
 * jury's summary). One model alone: pick it. A group: pick the cheapest of them per answer (they
 * are equally good as far as the jury can tell), else the leader; what would settle it is the
 * jury's estimate of the topics needed, or more topics, answers or judges.
 */
export function plainVerdict(input: VerdictInput): PlainVerdict | null {
  const scored = input.models
    .filter((model): model is Scored => model.meanScore !== null && model.scoreInterval !== null)
    .sort((a, b) => b.meanScore - a.meanScore || a.modelName.localeCompare(b.modelName, "en"));
  const leader = scored[0];
  if (!leader) return null;
  const live = input.live ? " The test is still running, so this may change as the judges report." : "";
  if (scored.length === 1) {
    return {
      kind: "single",
      pickId: leader.modelId,
      headline: `${leader.modelName} is the only model scored.`,
      certainty: "Nothing to compare",
      confidence: `It scores ${scoreText(leader)} out of 10.${live}`,
      settle: "Add more models to the test to compare them.",
      contenders: [leader.modelId],
    };
  }
  const group = [leader, ...scored.slice(1).filter((model) => model.scoreInterval.high >= leader.scoreInterval.low)];
  const figures = new Map(input.figures.map((figure) => [figure.modelId, figure]));
  if (group.length === 1 && input.units < MIN_UNITS_FOR_SURE) {
    const second = scored[1]!;
    const more = MIN_UNITS_FOR_SURE - input.units;
    return {
      kind: "thin",
      pickId: leader.modelId,
      headline: `${leader.modelName} leads; pick it for now.`,
      certainty: "Too little evidence to be sure",
      confidence:
        `${leader.modelName} scores ${formatScore(leader.meanScore)} out of 10, ahead of ${second.modelName} at ${formatScore(second.meanScore)}, ` +
        `but the jury saw only ${input.units} persona × topic ${input.units === 1 ? "pair" : "pairs"}: too few to be sure the lead holds.${live}`,
      settle: `Run it again with at least ${more} more ${more === 1 ? "topic" : "topics"} (or personas): the lead is then measured, not guessed.`,
      contenders: [leader.modelId],
    };
  }
  if (group.length === 1) {
    const second = scored[1]!;
    const margin = leader.scoreInterval.low - second.scoreInterval.high;
    const close = margin < CLOSE_SECOND_POINTS;
    return {
      kind: "clear",
      pickId: leader.modelId,
      headline: `Pick ${leader.modelName}.`,
      certainty: "Clear winner",
      confidence:
        `The jury is sure: ${leader.modelName} scores ${scoreText(leader)} out of 10, above every other model's range. ` +
        `Next best: ${second.modelName} at ${scoreText(second)}.${live}`,
      settle: close
        ? `${second.modelName} is a close second (its range ends ${formatScore(margin)} points below ${leader.modelName}'s): more topics would confirm the lead.`
        : "Nothing more is needed to choose between these models.",
      contenders: [leader.modelId],
    };
  }
  const priced = group
    .map((model) => ({ model, cost: figures.get(model.modelId)?.costPerResponseUsd ?? null }))
    .filter((entry): entry is { model: Scored; cost: number } => entry.cost !== null);
  const cheapest =
    priced.length === group.length
      ? [...priced].sort((a, b) => a.cost - b.cost || b.model.meanScore - a.model.meanScore)[0]!
      : null;
  const pick = cheapest?.model ?? leader;
  const names = joinNames(group.map((model) => model.modelName));
  const why = cheapest
    ? pick === leader
      ? `it leads and costs the least of them (${formatCostPerResponse(cheapest.cost)} per answer).`
      : `it is as good as the jury can tell and costs the least of them (${formatCostPerResponse(cheapest.cost)} per answer).`
    : "it leads, though not clearly.";
  return {
    kind: "close",
    pickId: pick.modelId,
    headline: `Pick ${pick.modelName}: ${why}`,
    certainty: "Too close to call",
    confidence:
      `The jury cannot separate ${names}: their 95% ranges overlap (` +
      group.map((model) => `${model.modelName} ${scoreText(model)}`).join("; ") +
      `).${live}`,
    settle:
      input.extraTopicsNeeded !== null
        ? `About ${input.extraTopicsNeeded} more ${input.extraTopicsNeeded === 1 ? "topic" : "topics"} would likely separate them; more answers per topic or more judges also help.`
        : "More topics, more answers per topic or more judges would separate them.",
    contenders: group.map((model) => model.modelId),
  };
}
