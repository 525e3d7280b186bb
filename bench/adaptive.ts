// "Stop when settled" against planted truth (issue 35): does stopping the first time the
// question "which model is best" is settled at 95% pick the full run's best model, with fewer
// calls, and without false winners however often it looked?
//
// Each replication simulates a whole test (simulateRun, convex/lib/stats/simulated.helpers.ts:
// pairs of varying difficulty, each model's fit to a pair, answers around the model's quality,
// judges of different noise, one favouring its own family), draws its pairs in the seeded order
// (lib/settle.ts pairOrder), and looks after every pair through the product's own functions
// (unitScoresOf, settleStatus): it stops at the first settled look, else runs to the end. Calls
// are counted as pairs (each pair costs the same calls). Scenarios:
//   - clear: one model truly best by 1 point on 10 (a "gap ≥ 1" case at its edge);
//   - equal: no true difference between the top two (and the others 1 and 2 points behind).
// Targets (issue 35): clear: the settled pick is the full run's best in ≥ 95%, calls ≤ 40% on
// average, a false winner (settled on a model truly not best) ≤ 5%; equal: a winner declared
// in ≤ 5%, else it runs to the end (the full run's verdict then says "too close to call").
// For contrast it also counts the naive rule this replaces: the fixed-size 95% t interval of
// each gap, checked after every pair from the 4th.
// Jury advice (bench/adaptiveJury.ts): on a mixed panel, the smaller jury advised from one
// replication reaches the full jury's decision in ≥ 95% of fresh ones, at ≤ 50% of its cost.
//   npx tsx bench/adaptive.ts [--reps 400] [--pairs 100] [--target settle|jury]
//     [--advice-reps 10] [--checks 200] [--jury-pairs 60,100] [--jury-scenarios clear,equal,wide]
//   (--checks: fresh replications per row, shared among the advised ones)
import { parseArgs } from "node:util";
import { studentTQuantile } from "../convex/lib/stats/basics";
import { unitScoresOf, verdictsOfCalls } from "../convex/lib/compare";
import { pairOrder, settleStatus, type SettlePair } from "../convex/lib/settle";
import { simulateRun, type RunJudge } from "../convex/lib/stats/simulated.helpers";
import { SETTLE_IN_FLIGHT_SHARE, settleInFlightCap } from "../convex/lib/claimOrder";
import { wilsonInterval } from "../convex/lib/checkFigures";
import { juryAdviceBench } from "./adaptiveJury";
import { engineRun } from "./adaptiveEngine";

const { values } = parseArgs({
  options: {
    reps: { type: "string" },
    pairs: { type: "string" },
    target: { type: "string" },
    "advice-reps": { type: "string" },
    checks: { type: "string" },
    "jury-pairs": { type: "string" },
    "jury-scenarios": { type: "string" },
  },
});
const TARGETS = values.target ? [values.target] : ["settle", "jury"];
const REPS = Number(values.reps ?? 400);
const SIZES = (values.pairs ?? "60,100,200").split(",").map(Number);
const CONFIDENCE = 0.95;
/** Answers per model and pair (one generation call each). */
const ANSWERS = 2;

/** Quality q rates 1 + 9q: 1/9 of quality is 1 point on 10. */
const POINT = 1 / 9;
const SCENARIOS = {
  clear: { "openai/alpha": 0.6 + POINT, "anthropic/beta": 0.6, "meta/gamma": 0.6 - POINT },
  equal: { "openai/alpha": 0.6, "anthropic/beta": 0.6, "meta/gamma": 0.6 - POINT, "google/delta": 0.6 - 2 * POINT },
} as const;
const SPREADS = { pairSpread: 0.1, fitSpread: 0.08, answerSpread: 0.1 };
const JUDGES: RunJudge[] = [
  { id: "openai/judge", noise: 0.06 },
  { id: "anthropic/judge", noise: 0.12 },
  { id: "google/judge", noise: 0.1, self: 0.055 },
];

interface Outcome {
  /** The model settled best, or null when the run went to the end unsettled (the engine's run). */
  settledOn: string | null;
  /** Pairs judged at the first settled look after every pair (no calls beyond them): the ideal. */
  pairsUsed: number;
  /** The engine's run (bench/adaptiveEngine.ts): calls claimed by its end over all its calls. */
  callsUsed: number;
  looks: number;
  wallMs: number;
  fullLeader: string;
  naiveWinner: string | null;
}

function replicate(
  qualities: Record<string, number>,
  pairs: number,
  scale: "rating" | "ranking",
  seed: string,
): Outcome {
  const input = simulateRun({
    qualities,
    judges: JUDGES,
    pairs,
    answers: ANSWERS,
    scale,
    ...SPREADS,
    pairSeed: seed,
    answerSeed: seed,
    judgeSeed: seed,
  });
  const units = pairOrder(unitScoresOf(input.responses, verdictsOfCalls(input)), seed);
  const ordered: SettlePair[] = units.map((unit) => ({ means: unit.means }));
  const models = Object.keys(qualities);
  const mean = (modelId: string, upTo: number) =>
    ordered.slice(0, upTo).reduce((sum, pair) => sum + (pair.means.get(modelId) ?? 0), 0) / upTo;
  const fullLeader = [...models].sort((a, b) => mean(b, pairs) - mean(a, pairs))[0]!;
  const question = { question: "best" as const, confidence: CONFIDENCE };
  let pairsUsed = pairs;
  for (let done = 1; done <= pairs; done++) {
    if (settleStatus(question, models, ordered.slice(0, done), pairs).settled) {
      pairsUsed = done;
      break;
    }
  }
  // Each generation call asks one model for the pair's answers; rating judges each answer.
  const generateCalls = models.length;
  const judgeCalls = scale === "rating" ? JUDGES.length * models.length * ANSWERS : JUDGES.length;
  const engine = engineRun({
    question,
    models,
    ordered,
    generateCalls,
    judgeCalls,
    inFlight: settleInFlightCap(generateCalls + judgeCalls, pairs),
    seed,
  });
  return {
    settledOn: engine.settled?.modelId ?? null,
    pairsUsed,
    callsUsed: engine.callsUsed,
    looks: engine.looks,
    wallMs: engine.wallMs,
    fullLeader,
    naiveWinner: naiveWinner(ordered, models),
  };
}

/** The rule this replaces: the leader's fixed-size 95% t interval above every gap at any look from the 4th. */
function naiveWinner(ordered: readonly SettlePair[], models: readonly string[]): string | null {
  for (let done = 4; done <= ordered.length; done++) {
    const prefix = ordered.slice(0, done);
    const means = models.map((id) => prefix.reduce((sum, pair) => sum + pair.means.get(id)!, 0) / done);
    const leader = models[means.indexOf(Math.max(...means))]!;
    const clear = models.every((other) => {
      if (other === leader) return true;
      const gaps = prefix.map((pair) => pair.means.get(leader)! - pair.means.get(other)!);
      const m = gaps.reduce((a, b) => a + b, 0) / done;
      const sd = Math.sqrt(gaps.reduce((a, b) => a + (b - m) ** 2, 0) / (done - 1));
      return m - studentTQuantile(0.975, done - 1) * (sd / Math.sqrt(done)) > 0;
    });
    if (clear) return leader;
  }
  return null;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
const rows: string[] = [];
let failures = 0;
const started = Date.now();
for (const scale of TARGETS.includes("settle") ? (["rating", "ranking"] as const) : []) {
  for (const pairs of SIZES) {
    for (const [scenario, qualities] of Object.entries(SCENARIOS)) {
      const best = Object.entries(qualities).sort((a, b) => b[1] - a[1]);
      const trulyBest = new Set(best.filter(([, q]) => q === best[0]![1]).map(([id]) => id));
      const outcomes = Array.from({ length: REPS }, (_, rep) =>
        replicate(qualities, pairs, scale, `${scale}|${scenario}|${pairs}|${rep}`),
      );
      const share = (test: (o: Outcome) => boolean) => outcomes.filter(test).length / REPS;
      const sameAsFull = share((o) => o.settledOn === null || o.settledOn === o.fullLeader);
      const callsUsed = outcomes.reduce((sum, o) => sum + o.callsUsed, 0) / REPS;
      const idealUsed = outcomes.reduce((sum, o) => sum + o.pairsUsed / pairs, 0) / REPS;
      const looks = outcomes.reduce((sum, o) => sum + o.looks, 0) / REPS;
      const minutes = outcomes.reduce((sum, o) => sum + o.wallMs, 0) / REPS / 60_000;
      const falseWinner = share((o) => o.settledOn !== null && !trulyBest.has(o.settledOn));
      const declared = share((o) => o.settledOn !== null);
      const naiveDeclared = share((o) => o.naiveWinner !== null);
      const targets =
        scenario === "clear"
          ? [
              `same best as full run ${pct(sameAsFull)} ≥ 95% ${verdict(sameAsFull >= 0.95)}`,
              `calls ${pct(callsUsed)} ≤ 40% ${verdict(callsUsed <= 0.4)}`,
              `false winner ${pct(falseWinner)} ≤ 5% ${verdict(falseWinner <= 0.05)}`,
            ]
          : [
              `winner declared ${pct(declared)} ≤ 5% ${verdict(declared <= 0.05)}`,
              `ran to the end ${pct(1 - declared)}`,
              `false winner ${pct(falseWinner)} ≤ 5% ${verdict(falseWinner <= 0.05)}`,
            ];
      failures += targets.filter((line) => line.endsWith("FAIL")).length;
      rows.push(
        `| ${scale} | ${scenario} | ${pairs} | ${REPS} | ${targets.join(" · ")} | ${pct(declared)} | ${pct(idealUsed)} | ${looks.toFixed(1)} | ${minutes.toFixed(1)} | ${pct(naiveDeclared)} |`,
      );
      console.log(rows.at(-1));
    }
  }
}
const juryRows: string[] = [];
/** A held-out share's Wilson interval: rows with few advised replications check few fresh runs. */
const ciText = (interval: { low: number; high: number } | null) =>
  interval ? `${(100 * interval.low).toFixed(1)}–${(100 * interval.high).toFixed(1)}%` : "—";
/** The jury target's scenarios: the settle bench's two, and a model best by 2 points on 10. */
const JURY_SCENARIOS: Record<string, Record<string, number>> = {
  ...SCENARIOS,
  wide: { "openai/alpha": 0.6 + 2 * POINT, "anthropic/beta": 0.6, "meta/gamma": 0.6 - POINT },
};
if (TARGETS.includes("jury")) {
  const adviceReps = Number(values["advice-reps"] ?? 10);
  const checks = Number(values.checks ?? 200);
  const scenarios = (values["jury-scenarios"] ?? "clear").split(",");
  for (const scenario of scenarios) {
    for (const pairs of (values["jury-pairs"] ?? "60,100").split(",").map(Number)) {
      const outcome = juryAdviceBench(JURY_SCENARIOS[scenario]!, pairs, adviceReps, checks);
      const agreement = outcome.agreed / outcome.checked;
      // Advice withheld in every replication is the product declining, not a measured pass.
      const targets =
        outcome.checked === 0
          ? ["no advice given (too little evidence in every replication): nothing to check"]
          : [
              `same decision as the full jury ${pct(agreement)} (${outcome.agreed}/${outcome.checked}, 95% CI ${ciText(wilsonInterval(outcome.agreed, outcome.checked))}) ≥ 95% ${verdict(agreement >= 0.95)}`,
              `judging cost ${pct(outcome.costShare)} ≤ 50% ${verdict(outcome.costShare <= 0.5)}`,
            ];
      failures += targets.filter((line) => line.endsWith("FAIL")).length;
      const advised = [...outcome.juries].map(([jury, count]) => `${jury} ×${count}`).join("; ");
      juryRows.push(
        `| ${scenario} | ${pairs} | ${outcome.advised}/${outcome.adviceReps} | ${outcome.tooLittleEvidence}/${outcome.adviceReps} | ${outcome.allNeeded} | ${outcome.checked} | ${targets.join(" · ")} | ${outcome.independentVotes.toFixed(2)} | ${advised || "—"} |`,
      );
      console.log(juryRows.at(-1));
    }
  }
}
console.log(
  [
    "",
    `Stop when settled ("which model is best", ${CONFIDENCE * 100}%), ${REPS} replications per row, 3 judges, ${ANSWERS} answers per model and pair; calls as the engine claims them (bench/adaptiveEngine.ts: judge calls first, at most ${SETTLE_IN_FLIGHT_SHARE * 100}% of the pairs' calls in flight, a look at most once a second after a report).`,
    "| scale | scenario | pairs | reps | targets (measured, target, PASS/FAIL) | settled | a look after every pair, no calls beyond: calls | looks per test | minutes (answer 4 s, verdict 2 s) | naive repeated t: winner declared |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "Jury advice (rating, 4-judge mixed panel of bench/adaptiveJury.ts): advised on one replication where its own evidence carries advice (lib/juryAdviceEvidence.ts), checked on held-out ones.",
    "| scenario | pairs | advised N/M | no advice (too little evidence) | every judge counted | held-out checks | targets (measured, target, PASS/FAIL) | independent votes (mean) | advised juries |",
    "|---|---|---|---|---|---|---|---|---|",
    ...juryRows,
    "",
    `${failures === 0 ? "Every target met" : `${failures} target(s) missed`}; ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  ].join("\n"),
);
