// The jury's decision in words, one wording for every place that states it: the results page,
// History's row, the shared page, the compare page, the monitor, the HTTP API and the CLI. Pure:
// it reads the jury statistics' summary (lib/stats/ranks.ts evidenceSummary: which decision the
// intervals support) and says it; it decides nothing the summary has not.

/**
 * "best": one model's interval clears every other's; "tied": the top models' intervals overlap;
 * "thin": too little evidence for an interval (too few persona × topic pairs, or one judge call per
 * answer); "none": nothing scored yet.
 */
export type VerdictKind = "best" | "tied" | "thin" | "none";

/** Fewer persona × topic pairs than this and the jury shows no interval and names no best model. */
export const MIN_EVIDENCE_PAIRS = 4;

/** An estimate of the topics to add before a tie separates, as a range (lib/stats/ranks.ts). */
export interface TopicsRange {
  readonly low: number;
  readonly high: number;
}

/** What the words read of the jury's summary. */
export interface VerdictFacts {
  readonly kind: VerdictKind;
  /** The best model, or the models tied for first, by name, leader first ([] when thin or none). */
  readonly leaders: readonly string[];
  readonly extraTopicsRange?: TopicsRange | null;
  /** Persona × topic pairs judged: says why the evidence is thin when known. */
  readonly units?: number;
}

export const TOO_CLOSE_TO_CALL = "Too close to call";
export const TOO_LITTLE_EVIDENCE = "Too little evidence";
export const NO_SCORES_YET = "No scores yet";

/** "A", "A and B", "A, B and C", "A, B, C and 2 others". */
export function joinNames(names: readonly string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? "";
  if (names.length > shown + 1) return `${names.slice(0, shown).join(", ")} and ${names.length - shown} others`;
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The decision in a few words, a badge's: "A is best", "Too close to call", "Too little evidence". */
export function verdictLabel(facts: VerdictFacts): string {
  switch (facts.kind) {
    case "best":
      return `${facts.leaders[0] ?? "One model"} is best`;
    case "tied":
      return TOO_CLOSE_TO_CALL;
    case "thin":
      return TOO_LITTLE_EVIDENCE;
    case "none":
      return NO_SCORES_YET;
  }
}

/** A list's line: the label, with the tied models named ("Too close to call: A and B"). */
export function verdictLine(facts: VerdictFacts): string {
  const label = verdictLabel(facts);
  return facts.kind === "tied" && facts.leaders.length > 0 ? `${label}: ${joinNames(facts.leaders)}` : label;
}

/** "about 5–12 more topics", "about 3 more topics", "about 1 more topic"; null without an estimate. */
export function extraTopicsText(range: TopicsRange | null | undefined): string | null {
  if (!range) return null;
  const { low, high } = range;
  const count = low === high ? `${low}` : `${low}–${high}`;
  return `about ${count} more ${high === 1 ? "topic" : "topics"}`;
}

function pairs(count: number): string {
  return `${count} persona × topic ${count === 1 ? "pair" : "pairs"}`;
}

/** Why the evidence is too little, from the pairs judged when known. */
export function thinReason(units?: number): string {
  if (units !== undefined && units < MIN_EVIDENCE_PAIRS) {
    return `the jury judged only ${pairs(units)}; it needs at least ${MIN_EVIDENCE_PAIRS}, with each answer judged at least twice`;
  }
  if (units !== undefined) {
    return "each answer was judged only once; it needs at least two judge calls per answer (a second judge, or judging in both orders)";
  }
  return `it needs at least ${MIN_EVIDENCE_PAIRS} persona × topic pairs, with each answer judged at least twice`;
}

/** The decision in one sentence with what supports it, or what would settle it. */
export function verdictSentence(facts: VerdictFacts): string {
  switch (facts.kind) {
    case "best":
      return `${verdictLabel(facts)}: its 95% interval is above every other model's.`;
    case "tied": {
      const topics = extraTopicsText(facts.extraTopicsRange);
      const names = joinNames(facts.leaders);
      return (
        `${TOO_CLOSE_TO_CALL}: ${names} ${facts.leaders.length === 1 ? "is" : "are"} statistically tied; ` +
        `run more topics or judges to separate them${topics === null ? "" : ` (${topics})`}.`
      );
    }
    case "thin":
      return `${TOO_LITTLE_EVIDENCE} to name a best model: ${thinReason(facts.units)}.`;
    case "none":
      return `${NO_SCORES_YET}.`;
  }
}

/** The jury summary's model ids as names (the summary keeps ids; the words name models). */
export function verdictFactsOf(
  summary: {
    readonly kind: VerdictKind;
    readonly leaders: readonly string[];
    readonly extraTopicsRange?: TopicsRange | null;
  },
  models: readonly { readonly modelId: string; readonly modelName: string }[],
  units?: number,
): VerdictFacts {
  const names = new Map(models.map((model) => [model.modelId, model.modelName]));
  return {
    kind: summary.kind,
    leaders: summary.leaders.map((id) => names.get(id) ?? id),
    extraTopicsRange: summary.extraTopicsRange ?? null,
    ...(units === undefined ? {} : { units }),
  };
}

/**
 * The HTTP API's verdict (GET /tests/{id}/results): the decision, its label and sentence in these
 * words, the leaders by model id and the topics range; null before the jury has statistics.
 */
export function verdictPayload(
  stats: {
    readonly summary: Parameters<typeof verdictFactsOf>[0];
    readonly models: Parameters<typeof verdictFactsOf>[1];
    readonly units: number;
  } | null,
) {
  if (stats === null) return null;
  const facts = verdictFactsOf(stats.summary, stats.models, stats.units);
  return {
    kind: facts.kind,
    label: verdictLabel(facts),
    text: verdictSentence(facts),
    leaders: [...stats.summary.leaders],
    extraTopicsRange: facts.extraTopicsRange ?? null,
  };
}
