// The monitor's figures on a real run through the offline stack: slow
// generators and quick judges (the catalog's own latencies), rating scale so judging is most of
// the calls. Every 250 ms it reads the test as the monitor does and compares, against what
// really happened next: the percentage stored (calls against every call, judge calls counted from
// the start) with the spec's (answers, then 50 + 40% of the evaluations), and the time remaining
// stored (the run's end forecast from the calls in flight and the gateway's observed latencies,
// lib/timeEstimates forecastTimeRemaining, counted down to) with the averages-only estimate and the
// single pace before it (elapsed × work left / work done). Prints the largest fall of each
// percentage, the estimates' median error while judging, and their error at 25, 50 and 75% of the run.
//   npx tsx bench/monitor-estimate.ts [--scale 1] [--concurrency 8] [--topics 6] [--warm-up 1]
import { parseArgs } from "node:util";
import { api } from "../convex/_generated/api";
import type { Doc } from "../convex/_generated/dataModel";
import { computeProgress } from "../convex/lib/progress";
import { timeRemainingOf } from "../convex/core/pipeline/runCounters";
import { percentile } from "../convex/lib/scoring";
import { startGateway } from "../dev/gateway/server";
import { refreshCatalog, signUpBenchUser, startBenchBackend, topicsOf } from "./helpers";

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "1" },
    concurrency: { type: "string", default: "8" },
    topics: { type: "string", default: "6" },
    "warm-up": { type: "string", default: "1" },
  },
});
const WARM_UP_RUNS = Number(values["warm-up"]);
const concurrency = Number(values.concurrency);
const TOPICS = Number(values.topics);
// Slow writers (2.8-3.5 s a call at scale 1) and quick judges (0.65-0.9 s).
const GENERATORS = ["deepseek/deepseek-r1", "openai/o4-mini", "google/gemini-2.5-pro", "anthropic/claude-opus-4"];
const EVALUATORS = [
  "meta-llama/llama-3.1-8b-instruct",
  "anthropic/claude-3-haiku",
  "mistralai/mistral-small-3.1-24b-instruct",
];

/** Before: the spec's percentage and one pace for all work, as lib/progress had them. */
function before(test: Doc<"tests">, now: number) {
  const info = computeProgress(test.configuration, {
    actualResponses: test.responsesCount,
    actualEvaluations: test.evaluationsCount,
    missingResponses: test.missingResponses,
    missingEvaluations: test.missingEvaluations,
  });
  const done =
    info.phase === "Finalizing Results"
      ? 1
      : info.expectedEvaluations <= 0
        ? info.responseProgress / 100
        : (info.responseProgress + info.evaluationProgress) / 200;
  const elapsed = now - (test.startedAt ?? now);
  const remaining = done >= 1 ? 0 : done <= 0 || elapsed <= 0 ? null : (elapsed * (1 - done)) / done;
  return { percentage: info.progress, remaining };
}

/** After: as the pipeline stores it: the end forecast from the calls in flight and the gateway's latencies, counted down to. */
function after(test: Doc<"tests">, now: number) {
  const { endsAt } = test.progress;
  return {
    percentage: test.progress.percentage,
    remaining: endsAt === undefined ? timeRemainingOf(test, now) : Math.max(0, endsAt - now),
  };
}

/** The averages-only estimate the forecast replaced (each kind's calls left at its mean rate). */
function averagesOnly(test: Doc<"tests">, now: number) {
  return timeRemainingOf(test, now);
}

const gateway = await startGateway({ port: 0, latencyScale: Number(values.scale) });
const backend = await startBenchBackend(gateway.url);
const t = backend.t;
try {
  await refreshCatalog(t, gateway);
  await t.run(async (ctx) => {
    await ctx.db.insert("settings", { key: "perTestConcurrency", value: concurrency });
    await ctx.db.insert("settings", { key: "maxGatewayConcurrency", value: concurrency }); // a fixed concurrency
  });
  const { as } = await signUpBenchUser(t);
  const configuration = {
    name: "Monitor estimate benchmark",
    taskType: "general",
    userPrompt: "Write a short product description.",
    personas: [{ id: "p0", name: "Shop owner", description: "A voice", systemPrompt: "You run a small shop." }],
    topics: topicsOf(TOPICS),
    generatorModels: GENERATORS.map((id) => ({ id, name: id })),
    evaluatorModels: EVALUATORS.map((id) => ({ id, name: id })),
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "rating" as const, includeExplanations: false },
  };
  // Warm-up runs first (--warm-up 1): the catalog then holds these models' latencies, as a
  // deployment that has run them before does; the run measured below forecasts from them until
  // its own calls land.
  for (let run = 0; run < WARM_UP_RUNS; run++) {
    const warm = await as.mutation(api.tests.create, {
      configuration: { ...configuration, name: `Warm-up ${run + 1}` },
    });
    let status = "pending";
    while (status !== "completed" && status !== "failed") {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const row = (await t.run(async (ctx) => await ctx.db.get("tests", warm.testId))) as Doc<"tests"> | null;
      status = row?.status ?? "failed";
    }
  }
  const { testId } = await as.mutation(api.tests.create, { configuration });
  const samples: {
    at: number;
    judging: boolean;
    before: ReturnType<typeof before>;
    after: ReturnType<typeof after>;
    averages: number | null;
  }[] = [];
  const read = async () => (await t.run(async (ctx) => await ctx.db.get("tests", testId))) as Doc<"tests">;
  let test = await read();
  while (test.status !== "completed" && test.status !== "failed") {
    await new Promise((resolve) => setTimeout(resolve, 250));
    test = await read();
    const now = Date.now();
    if (test.status === "running") {
      samples.push({
        at: now,
        judging: (test.judgeCallsFinished ?? 0) > 0,
        before: before(test, now),
        after: after(test, now),
        averages: averagesOnly(test, now),
      });
    }
  }
  const end = test.completedAt ?? Date.now();

  const largestFall = (series: number[]) =>
    series.reduce((fall, value, index) => Math.max(fall, (series[index - 1] ?? value) - value), 0);
  const judging = samples.filter((sample) => sample.judging && end - sample.at > 1000);
  const relativeError = (pick: (sample: (typeof samples)[number]) => number | null) =>
    percentile(
      judging.flatMap((sample) => {
        const estimate = pick(sample);
        return estimate === null ? [] : [Math.abs(estimate - (end - sample.at)) / (end - sample.at)];
      }),
      50,
    );
  const middle = judging[Math.floor(judging.length / 2)];
  const seconds = (ms: number | null) => (ms === null ? "none" : `${(ms / 1000).toFixed(1)} s`);

  console.log(
    `test ${test.status}: ${test.finishedCalls} calls (${test.judgeCallsFinished ?? 0} judge calls), ` +
      `${((end - (test.startedAt ?? end)) / 1000).toFixed(1)} s, ${samples.length} samples`,
  );
  console.log(
    `largest fall of the percentage: before ${largestFall(samples.map((s) => s.before.percentage))} points, after ${largestFall(samples.map((s) => s.after.percentage))} points`,
  );
  const beforeError = relativeError((sample) => sample.before.remaining);
  const afterError = relativeError((sample) => sample.after.remaining);
  console.log(
    `time remaining while judging, median error: before ${beforeError === null ? "n/a" : `${(beforeError * 100).toFixed(0)}%`}, ` +
      `after ${afterError === null ? "n/a" : `${(afterError * 100).toFixed(0)}%`}`,
  );
  // The error at 25, 50 and 75% of the run's wall time: |estimate − time really left| ÷ time left.
  const started = test.startedAt ?? samples[0]?.at ?? end;
  for (const share of [0.25, 0.5, 0.75]) {
    const at = started + share * (end - started);
    const sample = samples.reduce<(typeof samples)[number] | undefined>(
      (best, next) => (best === undefined || Math.abs(next.at - at) < Math.abs(best.at - at) ? next : best),
      undefined,
    );
    if (!sample) continue;
    const left = end - sample.at;
    const errorOf = (estimate: number | null) =>
      estimate === null ? "none" : `${((Math.abs(estimate - left) / left) * 100).toFixed(0)}%`;
    console.log(
      `at ${share * 100}% of the run: really ${seconds(left)} left; forecast said ${seconds(sample.after.remaining)} ` +
        `(error ${errorOf(sample.after.remaining)}), averages only ${seconds(sample.averages)} (error ${errorOf(sample.averages)}), ` +
        `one pace ${seconds(sample.before.remaining)} (error ${errorOf(sample.before.remaining)})`,
    );
  }
  if (middle) {
    console.log(
      `mid-judging: really ${seconds(end - middle.at)} left; before said ${seconds(middle.before.remaining)}, after ${seconds(middle.after.remaining)}`,
    );
  }
} finally {
  await backend.close();
  await gateway.close();
}
