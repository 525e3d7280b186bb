// The jury-advice target of bench/adaptive.ts (issue 35): on a mixed panel with planted truth,
// advise a smaller jury from one replication (lib/juryAdvice.ts), then check on fresh ones that
// it reaches the full jury's decision (same kind, same top group) at a fraction of the cost.
//
// The panel: two cheap, accurate judges from different families, one expensive accurate judge,
// and one noisy judge whose errors follow the expensive one's (it shares its mistakes, plus its
// own noise). Answers as simulateRun's (pair difficulty, each model's fit, answer spread); a
// rating judge gives round(1 + 9 × perceived quality), clamped to 1–10.
import { juryAdviceRecord } from "../convex/lib/juryAdvice";
import { computeJuryStats } from "../convex/lib/stats";
import { gaussian, streamRandom } from "../convex/lib/stats/simulated.helpers";
import type { JuryRating, JuryResponse, JuryStatsInput } from "../convex/lib/stats/types";

interface PanelJudge {
  readonly id: string;
  readonly noise: number;
  readonly costUsd: number;
  /** Shares this judge's error (the same draw) before adding its own noise. */
  readonly follows?: string;
}

export const MIXED_PANEL: readonly PanelJudge[] = [
  { id: "openai/gpt-4.1-mini", noise: 0.06, costUsd: 0.0004 },
  { id: "anthropic/claude-haiku", noise: 0.06, costUsd: 0.0008 },
  { id: "google/gemini-pro", noise: 0.05, costUsd: 0.005 },
  { id: "meta/llama-noisy", noise: 0.12, costUsd: 0.0006, follows: "google/gemini-pro" },
];

const SPREADS = { pairSpread: 0.1, fitSpread: 0.08, answerSpread: 0.1 };

export function simulatePanelRun(qualities: Record<string, number>, pairs: number, seed: string): JuryStatsInput {
  const models = Object.keys(qualities);
  const responses: JuryResponse[] = [];
  const ratings: JuryRating[] = [];
  const judgeRandom = streamRandom(`panel-judges:${seed}`);
  for (let pair = 0; pair < pairs; pair++) {
    const pairRandom = streamRandom(`panel-pair:${seed}:${pair}`);
    const difficulty = SPREADS.pairSpread * gaussian(pairRandom);
    for (const modelId of models) {
      const value =
        qualities[modelId]! +
        difficulty +
        SPREADS.fitSpread * gaussian(pairRandom) +
        SPREADS.answerSpread * gaussian(pairRandom);
      const id = `${modelId}|${pair}`;
      responses.push({ id, modelId, personaId: "p0", topicId: `t${pair}`, length: 800 });
      const errors = new Map<string, number>();
      for (const judge of MIXED_PANEL) {
        const error = (judge.follows ? errors.get(judge.follows)! : 0) + judge.noise * gaussian(judgeRandom);
        errors.set(judge.id, error);
        const overall = Math.min(10, Math.max(1, Math.round(1 + 9 * (value + error))));
        ratings.push({ judgeModelId: judge.id, responseId: id, scores: { overall }, costUsd: judge.costUsd });
      }
    }
  }
  return {
    seed,
    scale: "rating",
    judges: MIXED_PANEL.map((judge) => judge.id),
    models: models.map((id) => ({ id, name: id })),
    responses,
    ratings,
  };
}

function decision(input: JuryStatsInput, judges?: ReadonlySet<string>): string {
  const only = judges
    ? { judges: [...judges], ratings: input.ratings?.filter((call) => judges.has(call.judgeModelId)) }
    : {};
  const { summary } = computeJuryStats({ ...input, ...only, resamples: 1 });
  return `${summary.kind}:${[...summary.leaders].sort().join(",")}`;
}

export interface JuryAdviceOutcome {
  /** Advice replications that advised a smaller jury, of all. */
  readonly advised: number;
  readonly adviceReps: number;
  /** Replications where advice was withheld: too little evidence (no decision, or one too close to repeat). */
  readonly tooLittleEvidence: number;
  /** Replications with a clear decision where no smaller jury held ("every judge counted"). */
  readonly allNeeded: number;
  /** Held-out replications where the advised jury reached the full jury's decision, of all checked. */
  readonly agreed: number;
  readonly checked: number;
  /** Mean over checks of the advised jury's share of the full jury's judging cost. */
  readonly costShare: number;
  /** Advised juries by how often they were advised. */
  readonly juries: Map<string, number>;
  readonly independentVotes: number;
}

/**
 * Advises on `adviceReps` replications, then checks the advised juries on `checks` fresh
 * replications in all, shared out evenly among the advised ones (at least one each): a row where
 * advice is rare is measured on as many fresh runs as one where it is common.
 */
export function juryAdviceBench(
  qualities: Record<string, number>,
  pairs: number,
  adviceReps: number,
  checks: number,
): JuryAdviceOutcome {
  let tooLittleEvidence = 0;
  let allNeeded = 0;
  let agreed = 0;
  let checked = 0;
  let costShare = 0;
  let votes = 0;
  const juries = new Map<string, number>();
  const advisedJuries: { rep: number; subset: ReadonlySet<string> }[] = [];
  for (let rep = 0; rep < adviceReps; rep++) {
    const record = juryAdviceRecord(simulatePanelRun(qualities, pairs, `advise|${rep}`), (id) => id);
    votes += record.independentVotes ?? 0;
    if (record.outcome === "thin" || record.outcome === "close") tooLittleEvidence++;
    if (record.outcome === "allNeeded") allNeeded++;
    const cheapest = record.advised;
    if (!cheapest) continue;
    const key = cheapest.judges.join(" + ");
    juries.set(key, (juries.get(key) ?? 0) + 1);
    advisedJuries.push({ rep, subset: new Set(cheapest.judges) });
  }
  const advised = advisedJuries.length;
  const heldOut = advised === 0 ? 0 : Math.max(1, Math.ceil(checks / advised));
  for (const { rep, subset } of advisedJuries) {
    for (let h = 0; h < heldOut; h++) {
      const fresh = simulatePanelRun(qualities, pairs, `held-out|${rep}|${h}`);
      checked++;
      if (decision(fresh, subset) === decision(fresh)) agreed++;
      const cost = (only?: ReadonlySet<string>) =>
        (fresh.ratings ?? [])
          .filter((call) => !only || only.has(call.judgeModelId))
          .reduce((sum, call) => sum + (call.costUsd ?? 0), 0);
      costShare += cost(subset) / cost();
    }
  }
  return {
    advised,
    adviceReps,
    tooLittleEvidence,
    allNeeded,
    agreed,
    checked,
    costShare: checked > 0 ? costShare / checked : NaN,
    juries,
    independentVotes: votes / adviceReps,
  };
}
