// The results page's plain-language verdict: which model to pick, how sure the jury is and what
// would make it surer, in words a buyer reads without the statistics. Pure: the decision is the
// jury summary's (best, tied or too little evidence), worded by convex/lib/verdict.ts as on every
// other page; the figures come from the stored jury statistics (each model's mean score and 95%
// interval) and the page's per-model cost and latency.
import { formatCostPerResponse, formatScore } from "../../../convex/lib/format";
import {
  extraTopicsText,
  joinNames,
  MIN_EVIDENCE_PAIRS,
  thinReason,
  TOO_CLOSE_TO_CALL,
  TOO_LITTLE_EVIDENCE,
  verdictLabel,
  type TopicsRange,
  type VerdictKind,
} from "../../../convex/lib/verdict";
import { formatInterval } from "@/components/results/jury-model";

export { joinNames } from "../../../convex/lib/verdict";

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
  /** The jury's decision (its statistics' summary): the leaders by model id. */
  summary: { kind: VerdictKind; leaders: readonly string[]; extraTopicsRange?: TopicsRange | null };
  /** The test is still producing answers or judgements. */
  live: boolean;
  /** Persona × topic pairs the intervals are resampled over (the jury's units of evidence). */
  units: number;
}

export interface PlainVerdict {
  /**
   * "clear": one model's interval is above every other's; "close": the top models overlap;
   * "thin": too little evidence to tell the models apart; "single": one model to show.
   */
  kind: "clear" | "close" | "thin" | "single";
  /** The model to pick; null when the evidence is too thin to pick one. */
  pickId: string | null;
  /** "Pick Claude 3.5 Haiku." */
  headline: string;
  /** The jury's decision as every page words it: "A is best", "Too close to call", "Too little evidence". */
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

type Scored = VerdictModel & { meanScore: number };

function scoreText(model: Scored): string {
  return model.scoreInterval
    ? `${formatScore(model.meanScore)} (95% range ${formatInterval(model.scoreInterval)})`
    : formatScore(model.meanScore);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The verdict, or null before any model has a score. The decision is the jury summary's: one
 * model alone, pick it; too little evidence, pick none and say what evidence is missing; a clear
 * best, pick it; a tie (the summary's leaders), pick the cheapest of them per answer (they are
 * equally good as far as the jury can tell), else the leader, and say what would settle it.
 */
export function plainVerdict(input: VerdictInput): PlainVerdict | null {
  const scored = input.models
    .filter((model): model is Scored => model.meanScore !== null)
    .sort((a, b) => b.meanScore - a.meanScore || a.modelName.localeCompare(b.modelName, "en"));
  const leader = scored[0];
  if (!leader || input.summary.kind === "none") return null;
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
  const second = scored[1]!;
  if (input.summary.kind === "thin") {
    const more = Math.max(0, MIN_EVIDENCE_PAIRS - input.units);
    return {
      kind: "thin",
      pickId: null,
      headline: "Too little evidence to pick a model yet.",
      certainty: TOO_LITTLE_EVIDENCE,
      confidence:
        `${leader.modelName} has the highest mean score (${formatScore(leader.meanScore)} out of 10, ahead of ${second.modelName} at ${formatScore(second.meanScore)}), ` +
        `but ${thinReason(input.units)}: too little to tell the models apart.${live}`,
      settle:
        more > 0
          ? `Run it again with at least ${more} more ${more === 1 ? "topic" : "topics"} (or personas) and each answer judged at least twice (a second judge, or judging in both orders).`
          : "Run it again with a second judge, or with judging in both orders, so each answer is judged at least twice.",
      contenders: [],
    };
  }
  const byId = new Map(scored.map((model) => [model.modelId, model]));
  const leaders = input.summary.leaders.flatMap((id) => byId.get(id) ?? []);
  const group = leaders.length > 0 ? leaders : [leader];
  const top = group[0]!;
  if (input.summary.kind === "best") {
    const next = scored.find((model) => model !== top)!;
    const margin = top.scoreInterval && next.scoreInterval ? top.scoreInterval.low - next.scoreInterval.high : Infinity;
    return {
      kind: "clear",
      pickId: top.modelId,
      headline: `Pick ${top.modelName}.`,
      certainty: verdictLabel({ kind: "best", leaders: [top.modelName] }),
      confidence:
        `The jury is sure: ${top.modelName} scores ${scoreText(top)} out of 10, above every other model's range. ` +
        `Next best: ${next.modelName} at ${scoreText(next)}.${live}`,
      settle:
        margin < CLOSE_SECOND_POINTS
          ? `${next.modelName} is a close second (its range ends ${formatScore(margin)} points below ${top.modelName}'s): more topics would confirm the lead.`
          : "Nothing more is needed to choose between these models.",
      contenders: [top.modelId],
    };
  }
  const figures = new Map(input.figures.map((figure) => [figure.modelId, figure]));
  const priced = group
    .map((model) => ({ model, cost: figures.get(model.modelId)?.costPerResponseUsd ?? null }))
    .filter((entry): entry is { model: Scored; cost: number } => entry.cost !== null);
  const cheapest =
    priced.length === group.length
      ? [...priced].sort((a, b) => a.cost - b.cost || b.model.meanScore - a.model.meanScore)[0]!
      : null;
  const pick = cheapest?.model ?? top;
  const names = joinNames(group.map((model) => model.modelName));
  const why = cheapest
    ? pick === top
      ? `it leads and costs the least of them (${formatCostPerResponse(cheapest.cost)} per answer).`
      : `it is as good as the jury can tell and costs the least of them (${formatCostPerResponse(cheapest.cost)} per answer).`
    : "it leads, though not clearly.";
  const topics = extraTopicsText(input.summary.extraTopicsRange);
  return {
    kind: "close",
    pickId: pick.modelId,
    headline: `Pick ${pick.modelName}: ${why}`,
    certainty: TOO_CLOSE_TO_CALL,
    confidence:
      `The jury cannot separate ${names}: their 95% ranges overlap (` +
      group.map((model) => `${model.modelName} ${scoreText(model)}`).join("; ") +
      `).${live}`,
    settle:
      topics !== null
        ? `${capitalized(topics)} would likely separate them; more answers per topic or more judges also help.`
        : "More topics, more answers per topic or more judges would separate them.",
    contenders: group.map((model) => model.modelId),
  };
}
