// Gates on a finished test's evidence, as the CLI (cli/report.ts) applies them: a model is best,
// is in the top tie group, ranks N or better, or passes its checks at a minimum rate. A gate
// passes only when the 95% intervals settle it, never on a point estimate alone: "is best" on the
// jury's decision (lib/verdict.ts), a rank on the worst rank the intervals allow, a pass rate on
// the lower bound of its Wilson interval. A gate that rests on too little evidence has its own
// outcome, "thin", which fails unless the caller allows thin evidence (then it passes with a
// warning). Pure.
import { thinReason, verdictLine, verdictSentence, TOO_LITTLE_EVIDENCE, type VerdictKind } from "./verdict";

export interface GateInterval {
  readonly low: number;
  readonly high: number;
}

export interface GatePassRate {
  readonly answers: number;
  readonly passed: number;
  readonly rate: number | null;
  /** 95% Wilson score interval of the rate; null with no answers. */
  readonly interval: GateInterval | null;
}

/** What the gates read of a test's results (the HTTP API's results payload). */
export interface GateEvidence {
  /** The jury's decision; leaders by model id. */
  readonly verdict: { readonly kind: VerdictKind; readonly leaders: readonly string[] } | null;
  /** Persona × topic pairs the jury judged (says why evidence is thin). */
  readonly units?: number;
  readonly models: readonly {
    readonly modelId: string;
    readonly modelName: string;
    /** Best and worst rank the 95% intervals allow. */
    readonly rank: { readonly best: number; readonly worst: number } | null;
  }[];
  /** Each model's overall check pass rate; null when the test has no checks. */
  readonly checks: { readonly models: readonly { readonly modelId: string; readonly overall: GatePassRate }[] } | null;
}

export interface ModelGates {
  /** Models the jury must name best. */
  readonly best?: readonly string[];
  /** Models that must be in the top tie group (best possible rank 1). */
  readonly topGroup: readonly string[];
  /** Worst rank each model may hold (1 = first). */
  readonly maxRank?: Readonly<Record<string, number>>;
  /** Lowest overall check pass rate (0-1) per model. */
  readonly minPassRate: Readonly<Record<string, number>>;
}

/** "passed" and "failed" are settled by the intervals; "thin" rests on too little evidence. */
export type GateOutcome = "passed" | "failed" | "thin";

export interface GateDecision {
  readonly gate: string;
  readonly outcome: GateOutcome;
  readonly reason: string;
}

export interface GateVerdict {
  readonly gate: string;
  readonly passed: boolean;
  /** Passed only because thin evidence was allowed. */
  readonly warning: boolean;
  readonly reason: string;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function ranks(rank: { best: number; worst: number }): string {
  return `${rank.best}–${rank.worst}`;
}

function thin(gate: string, units: number | undefined): GateDecision {
  return { gate, outcome: "thin", reason: `${TOO_LITTLE_EVIDENCE.toLowerCase()}: ${thinReason(units)}` };
}

/** Each gate's outcome on the evidence: best, top group, rank, then pass rate gates. */
export function decideGates(evidence: GateEvidence, gates: ModelGates): GateDecision[] {
  const decisions: GateDecision[] = [];
  const model = (id: string) => evidence.models.find((entry) => entry.modelId === id);
  const nameOf = (id: string) => model(id)?.modelName ?? id;
  const kind = evidence.verdict?.kind ?? "none";
  /** A jury gate's outcome before its own rule: unknown model, too little evidence, nothing scored. */
  const juryPrecheck = (gate: string, modelId: string): GateDecision | null => {
    if (!model(modelId)) return { gate, outcome: "failed", reason: `${modelId} is not one of the test's models` };
    if (kind === "thin") return thin(gate, evidence.units);
    if (kind === "none") return { gate, outcome: "failed", reason: "the jury scored no answer" };
    return null;
  };
  const facts = {
    kind,
    leaders: (evidence.verdict?.leaders ?? []).map(nameOf),
    ...(evidence.units === undefined ? {} : { units: evidence.units }),
  };

  for (const modelId of gates.best ?? []) {
    const gate = `${modelId} is best`;
    const early = juryPrecheck(gate, modelId);
    if (early) decisions.push(early);
    else if (kind === "best" && evidence.verdict?.leaders[0] === modelId)
      decisions.push({ gate, outcome: "passed", reason: verdictSentence(facts) });
    else decisions.push({ gate, outcome: "failed", reason: verdictLine(facts) });
  }

  /** A gate on a model's rank range: the prechecks, no rank, then `decide` on the range. */
  const rankGate = (
    gate: string,
    modelId: string,
    decide: (rank: { best: number; worst: number }, name: string) => Omit<GateDecision, "gate">,
  ): GateDecision => {
    const rank = model(modelId)?.rank ?? null;
    const early = juryPrecheck(gate, modelId);
    if (early) return early;
    if (rank === null)
      return { gate, outcome: "failed", reason: `${nameOf(modelId)} has no rank: the jury scored none of its answers` };
    return { gate, ...decide(rank, nameOf(modelId)) };
  };

  for (const modelId of gates.topGroup) {
    decisions.push(
      rankGate(`${modelId} in the top group`, modelId, (rank, name) => {
        if (rank.best === 1) return { outcome: "passed", reason: `${name} can rank first (ranks ${ranks(rank)})` };
        const leaders = evidence.models.filter((entry) => entry.rank?.best === 1).map((entry) => entry.modelName);
        return {
          outcome: "failed",
          reason: `${name} ranks ${ranks(rank)}; the top group is ${leaders.join(", ") || "none"}`,
        };
      }),
    );
  }

  for (const [modelId, worst] of Object.entries(gates.maxRank ?? {})) {
    decisions.push(
      rankGate(`${modelId} ranks ${worst} or better`, modelId, (rank, name) => {
        if (rank.worst <= worst) return { outcome: "passed", reason: `${name} ranks ${ranks(rank)}` };
        return {
          outcome: "failed",
          reason:
            rank.best <= worst
              ? `${name} ranks ${ranks(rank)}: the 95% intervals do not settle rank ${worst} or better`
              : `${name} ranks ${ranks(rank)}`,
        };
      }),
    );
  }

  for (const [modelId, minimum] of Object.entries(gates.minPassRate)) {
    const gate = `${modelId} check pass rate ≥ ${percent(minimum)}`;
    const overall = evidence.checks?.models.find((row) => row.modelId === modelId)?.overall;
    if (!evidence.checks) {
      decisions.push({ gate, outcome: "failed", reason: "the test has no checks" });
      continue;
    }
    if (!overall || overall.rate === null || overall.interval === null) {
      decisions.push({ gate, outcome: "failed", reason: `no answer of ${modelId} was checked` });
      continue;
    }
    decisions.push(decidePassRate(gate, nameOf(modelId), overall, minimum));
  }
  return decisions;
}

/**
 * A pass-rate gate on one rate: passed when its Wilson lower bound reaches the minimum, failed when
 * the rate itself is below it, and thin in between (the answers checked cannot settle it).
 */
export function decidePassRate(gate: string, modelName: string, rate: GatePassRate, minimum: number): GateDecision {
  if (rate.rate === null || rate.interval === null) {
    return { gate, outcome: "failed", reason: `no answer of ${modelName} was checked` };
  }
  const counted = `${modelName} passed ${rate.passed} of ${rate.answers} checked answers (${percent(rate.rate)}; 95% interval ${percent(rate.interval.low)}–${percent(rate.interval.high)})`;
  if (rate.interval.low >= minimum) return { gate, outcome: "passed", reason: counted };
  if (rate.rate < minimum) return { gate, outcome: "failed", reason: counted };
  return {
    gate,
    outcome: "thin",
    reason: `${TOO_LITTLE_EVIDENCE.toLowerCase()}: ${counted}, whose lower bound is below ${percent(minimum)}`,
  };
}

/** Pass or fail: a thin gate fails, unless thin evidence is allowed (then it passes with a warning). */
export function gateVerdicts(
  decisions: readonly GateDecision[],
  options: { readonly allowThinEvidence?: boolean } = {},
): GateVerdict[] {
  return decisions.map(({ gate, outcome, reason }) => ({
    gate,
    passed: outcome === "passed" || (outcome === "thin" && options.allowThinEvidence === true),
    warning: outcome === "thin" && options.allowThinEvidence === true,
    reason,
  }));
}
