// Calibration of the jury statistics against the dev gateway's known truth.
//
// Runs seeded simulated tests in-process with the gateway's own reply functions
// (dev/gateway/jury.ts): 10 generators of known hidden quality × 50 topics, judged by the
// catalog's three planted judges (position-biased, self-preferring, length-favouring) and two
// fair ones, then computeJuryStats on each. It checks that the true best generator lands in the
// top tie group, that each planted judge is flagged for its planted bias, that fair judges are
// not flagged, and how long one computation takes (CPU time of computeJuryStats for 10
// generators × 50 topics × 5 judges, after a warm-up; the machine may be shared).
//   npx tsx bench/jury-calibration.ts [--tests 40] [--topics 50]
import { parseArgs } from "node:util";
import { computeJuryStats } from "../convex/lib/stats";
import type { JudgeJuryStats } from "../convex/lib/stats/types";
import { catalog, findCatalogModel, modelFamily, PLANTED_JUDGES } from "../dev/gateway/catalog";
import { simulateJuryTest } from "../dev/gateway/jury";
import { createRandom } from "../dev/gateway/random";

const { values } = parseArgs({
  options: { tests: { type: "string", default: "40" }, topics: { type: "string", default: "50" } },
});
const TESTS = Number(values.tests);
const TOPICS = Number(values.topics);

const POSITION_JUDGE = "meta-llama/llama-3.1-8b-instruct";
const SELF_JUDGE = "google/gemini-2.5-flash";
const LENGTH_JUDGE = "qwen/qwq-32b";
const FAIR_JUDGES = [
  "anthropic/claude-sonnet-4",
  "openai/gpt-4o",
  "openai/gpt-4.1",
  "deepseek/deepseek-chat",
  "x-ai/grok-3",
  "anthropic/claude-3.5-haiku",
  "openai/gpt-4o-mini",
  "google/gemini-2.0-flash-001",
];

// Generators: chat models of the catalog with a price under the app's filter, the judges left out.
const judgeIds = new Set([POSITION_JUDGE, SELF_JUDGE, LENGTH_JUDGE, ...FAIR_JUDGES]);
const pool = catalog.filter(
  (model) => !judgeIds.has(model.id) && model.promptPerMillion < 100 && model.completionPerMillion < 100,
);
const googlePool = pool.filter((model) => modelFamily(model.id) === "google");
const verbosePool = pool.filter((model) => (model.verbosity ?? 0) > 0);

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** 10 generators: one Google model (for the self-preferring judge), one verbose model, eight others. */
function lineup(seed: number): string[] {
  const random = createRandom(seed * 7919);
  const google = shuffle(googlePool, random)[0]!;
  const verbose = shuffle(verbosePool, random)[0]!;
  const rest = shuffle(
    pool.filter((model) => model !== google && model !== verbose),
    random,
  ).slice(0, 8);
  return [google, verbose, ...rest].map((model) => model.id);
}

function plantedFlag(judge: JudgeJuryStats): boolean {
  if (judge.judgeModelId === POSITION_JUDGE) return judge.position?.flagged ?? false;
  if (judge.judgeModelId === SELF_JUDGE) return judge.selfPreference.flagged;
  return judge.length.flagged;
}

let bestInTopGroup = 0;
let planted = 0;
let plantedFlagged = 0;
let fair = 0;
let fairFlagged = 0;
const missed: string[] = [];
const falseFlags: string[] = [];
const started = performance.now();
for (let seed = 1; seed <= TESTS; seed++) {
  const generators = lineup(seed);
  const fairJudges = shuffle(FAIR_JUDGES, createRandom(seed * 104729)).slice(0, 2);
  const judges = [POSITION_JUDGE, SELF_JUDGE, LENGTH_JUDGE, ...fairJudges];
  const stats = computeJuryStats(simulateJuryTest({ generators, judges, topics: TOPICS, seed }));

  const trueBest = [...generators].sort((a, b) => findCatalogModel(b)!.quality - findCatalogModel(a)!.quality)[0];
  if (stats.models.some((model) => model.modelId === trueBest && model.rank?.best === 1)) bestInTopGroup++;
  else missed.push(`test ${seed}: true best ${trueBest} outside the top tie group (${stats.summary.text})`);

  for (const judge of stats.judges) {
    if (judge.judgeModelId in PLANTED_JUDGES) {
      planted++;
      if (plantedFlag(judge)) plantedFlagged++;
      else missed.push(`test ${seed}: planted ${judge.judgeModelId} not flagged`);
    } else {
      fair++;
      if (judge.flagged) {
        fairFlagged++;
        falseFlags.push(
          `test ${seed}: fair ${judge.judgeModelId} flagged (position p=${judge.position?.pValue.toPrecision(2)}, length p=${judge.length.pValue?.toPrecision(2)}, self p=${judge.selfPreference.pValue?.toPrecision(2)})`,
        );
      }
    }
  }
}
const simulatedSeconds = (performance.now() - started) / 1000;

// One computation of 10 generators × 50 topics × 5 judges, in CPU time, after a warm-up.
const timingInput = simulateJuryTest({
  generators: lineup(1000),
  judges: [POSITION_JUDGE, SELF_JUDGE, LENGTH_JUDGE, ...FAIR_JUDGES.slice(0, 2)],
  topics: 50,
  seed: 1000,
});
computeJuryStats({ ...timingInput, seed: "warm-up" });
const before = process.cpuUsage();
computeJuryStats(timingInput);
const used = process.cpuUsage(before);

for (const line of [...missed, ...falseFlags]) console.log(line);
console.log(
  `${TESTS} simulated tests of 10 generators × ${TOPICS} topics × 5 judges in ${simulatedSeconds.toFixed(1)} s`,
);
const percent = (part: number, whole: number) => Math.round((100 * part) / Math.max(1, whole));
console.log(`true best inside top tie group: ${percent(bestInTopGroup, TESTS)}%`);
console.log(`planted biased judge flagged: ${percent(plantedFlagged, planted)}%`);
console.log(`fair judge flagged: ${percent(fairFlagged, fair)}%`);
console.log(`statistics computation: ${Math.round((used.user + used.system) / 1000)} ms`);
