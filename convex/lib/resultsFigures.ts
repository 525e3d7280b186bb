// What the results and shared pages show, computed from a test's stored fields (its row, which
// no fold writes) and the small rows the folds write (its counter row, its modelStats rows). Pure,
// so that the server's one-call views and the pages, which subscribe the two halves apart
// (convex/results.ts, convex/shares.ts), compute every figure with the same code: the half that
// re-runs with each fold then reads no configuration.
import type { GenericId, Infer } from "convex/values";
import type { progress, runCounters, testConfiguration } from "../validators";
import { pickFields } from "./fields";
import { testFigures } from "./metrics";
import {
  paretoFrontier,
  percentile,
  percentileFromBuckets,
  personaBreakdown,
  rankModels,
  type ScoreTally,
} from "./scoring";

type Counters = Infer<typeof runCounters>;
type CounterKey = keyof Counters;
type Configuration = Infer<typeof testConfiguration>;

/** Every counter of runCounters (validators.ts): what a fold adds on the counter row. */
const COUNTER_FIELDS = [
  "responsesCount",
  "evaluationsCount",
  "missingResponses",
  "missingEvaluations",
  "failedCalls",
  "totalCalls",
  "finishedCalls",
  "totalCostUsd",
  "totalLatencyMs",
  "totalTokens",
  "judgingCostUsd",
  "judgeCallsFinished",
  "generationCallMs",
  "judgeCallMs",
] as const satisfies readonly CounterKey[];
// A counter added to runCounters and not listed above fails to compile here.
const everyCounterListed: Exclude<CounterKey, (typeof COUNTER_FIELDS)[number]> extends never ? true : never = true;
void everyCounterListed;

/** What a running test's counter row holds (tables/testCounters.ts): what its folds added and set. */
type CounterFigures = {
  sums: Partial<Counters>;
  progress: Infer<typeof progress>;
  lastProgressAt: number;
  lastCallError?: string;
};

type CountedFields = Partial<Counters> & {
  progress?: Infer<typeof progress>;
  lastProgressAt?: number;
  lastCallError?: string;
};

/**
 * The test with its counter row added: its figures as the pages show them. Give it the test as
 * stored (core/pipeline/counterRow.ts): only the counters it holds, and those the row adds, are set.
 */
export function withCounters<Test extends CountedFields>(test: Test, row: CounterFigures | null): Test {
  if (row === null) return test;
  const counted: Test = {
    ...test,
    ...("progress" in test ? { progress: row.progress } : {}),
    ...("lastProgressAt" in test ? { lastProgressAt: row.lastProgressAt } : {}),
    lastCallError: row.lastCallError ?? test.lastCallError,
  };
  if (counted.lastCallError === undefined) delete counted.lastCallError;
  for (const key of COUNTER_FIELDS) {
    const added = row.sums[key];
    if (added !== undefined) (counted as Record<CounterKey, number | undefined>)[key] = (test[key] ?? 0) + added;
  }
  return counted;
}

/** A modelStats row's score tally: one model, for one persona or all of them (''). */
type StatsTally = ScoreTally & { personaId: string };

/** The latency figures of one model's stats row. */
type LatencyFigures = {
  medianLatencyMs: number | null;
  p95LatencyMs: number | null;
  maxLatencyMs: number | null;
  latencyExact: boolean;
};

/** What the results page shows of a stats row: its tally, spend and latency (summed up, not every answer's). */
type StatsFigures = StatsTally & { costUsd: number; latencyMsSum: number; latency: LatencyFigures };

type StatsRow = StatsTally & {
  costUsd: number;
  latencyMsSum: number;
  latenciesMs?: number[];
  latencyBuckets: number[];
};

/** Median and p95 exactly from every answer's latency, or from the histogram of older tests. */
function latencyOf(row: StatsRow | undefined): LatencyFigures {
  if (!row || row.responses === 0)
    return { medianLatencyMs: null, p95LatencyMs: null, maxLatencyMs: null, latencyExact: true };
  const sorted = row.latenciesMs;
  if (sorted && sorted.length > 0) {
    return {
      medianLatencyMs: percentile(sorted, 50),
      p95LatencyMs: percentile(sorted, 95),
      maxLatencyMs: sorted[sorted.length - 1] ?? null,
      latencyExact: true,
    };
  }
  return {
    medianLatencyMs: percentileFromBuckets(row.latencyBuckets, 50),
    p95LatencyMs: percentileFromBuckets(row.latencyBuckets, 95),
    maxLatencyMs: null,
    latencyExact: false,
  };
}

export function statsFiguresOf(row: StatsRow): StatsFigures {
  return {
    modelId: row.modelId,
    personaId: row.personaId,
    responses: row.responses,
    scoreSum: row.scoreSum,
    scoreCount: row.scoreCount,
    costUsd: row.costUsd,
    latencyMsSum: row.latencyMsSum,
    latency: latencyOf(row),
  };
}

function tally(row: StatsTally): ScoreTally {
  return {
    modelId: row.modelId,
    personaId: row.personaId,
    responses: row.responses,
    scoreSum: row.scoreSum,
    scoreCount: row.scoreCount,
  };
}

type SpendCounters = Pick<Counters, "totalCostUsd" | "judgingCostUsd">;

/**
 * The test's spend split into generation and judging. Tests recorded before the judges' spend
 * was counted apart: generation is what the models' rows recorded, judging the rest.
 */
function costSplitOf(test: SpendCounters, rows: readonly (StatsTally & { costUsd: number })[]) {
  const judgingCostUsd =
    test.judgingCostUsd ??
    Math.max(
      0,
      test.totalCostUsd - rows.filter((row) => row.personaId === "").reduce((sum, row) => sum + row.costUsd, 0),
    );
  return { totalCostUsd: test.totalCostUsd, generationCostUsd: test.totalCostUsd - judgingCostUsd, judgingCostUsd };
}

/** What the figures are counted from: the test's counters and expected totals. */
type CountFigureFields = Pick<Counters, "responsesCount" | "evaluationsCount" | "totalLatencyMs"> & {
  expectedResponses: number;
  expectedEvaluations: number;
};

/** The results' metrics but for money: what the shared page shows too. */
function countFiguresOf(test: CountFigureFields) {
  return {
    totalResponses: test.responsesCount,
    evaluations: test.evaluationsCount,
    ...testFigures({
      responses: test.responsesCount,
      expectedResponses: test.expectedResponses,
      latencyMsSum: test.totalLatencyMs,
    }),
    expectedResponses: test.expectedResponses,
    expectedEvaluations: test.expectedEvaluations,
  };
}

export function metricsOf(
  test: CountFigureFields & SpendCounters,
  rows: readonly (StatsTally & { costUsd: number })[],
) {
  return { ...costSplitOf(test, rows), ...countFiguresOf(test) };
}

type ModelsOf = { configuration: Pick<Configuration, "generatorModels"> };
type LayoutOf = { configuration: Pick<Configuration, "generatorModels" | "personas"> };

/** Overall rankings, live from the all-personas rows. */
export function rankingsOf(test: ModelsOf, rows: readonly StatsTally[]) {
  return rankModels(rows.filter((row) => row.personaId === "").map(tally), test.configuration.generatorModels);
}

function breakdownOf(test: LayoutOf, rows: readonly StatsTally[]) {
  return personaBreakdown(
    rows.filter((row) => row.personaId !== "").map(tally),
    test.configuration.personas,
    test.configuration.generatorModels,
  );
}

/**
 * Per model: score, cost, latency (median and p95 exactly, from every answer's latency; from the
 * histogram for older tests), and the cost-quality frontier.
 */
function modelChartsOf(test: ModelsOf, rows: readonly StatsFigures[]) {
  const rankings = rankingsOf(test, rows);
  const overall = new Map(rows.filter((row) => row.personaId === "").map((row) => [row.modelId, row]));
  const points = rankings.flatMap((ranking) => {
    const row = overall.get(ranking.modelId);
    if (!row || row.scoreCount === 0 || row.responses === 0) return [];
    return [{ id: ranking.modelId, cost: row.costUsd / row.responses, score: ranking.averageScore }];
  });
  const frontier = new Set(paretoFrontier(points));
  return rankings.map((ranking) => {
    const row = overall.get(ranking.modelId);
    const responses = row?.responses ?? 0;
    return {
      modelId: ranking.modelId,
      modelName: ranking.modelName,
      responses,
      evaluationCount: ranking.evaluationCount,
      averageScore: ranking.evaluationCount > 0 ? ranking.averageScore : null,
      costUsd: row?.costUsd ?? 0,
      costPerResponseUsd: row && responses > 0 ? row.costUsd / responses : null,
      averageLatencyMs: row && responses > 0 ? row.latencyMsSum / responses : null,
      ...(row && row.responses > 0 ? row.latency : latencyOf(undefined)),
      onFrontier: frontier.has(ranking.modelId),
    };
  });
}

/** Persona × model average scores, personas in the test's order, models in ranking order. */
function heatmapOf(test: LayoutOf, rows: readonly StatsTally[]) {
  const models = rankingsOf(test, rows).map((ranking) => ({ id: ranking.modelId, name: ranking.modelName }));
  const personas = test.configuration.personas.map((persona) => ({ id: persona.id, name: persona.name }));
  const byKey = new Map(
    rows.filter((row) => row.personaId !== "").map((row) => [`${row.personaId}\u0000${row.modelId}`, row]),
  );
  const cells = personas.flatMap((persona) =>
    models.map((model) => {
      const row = byKey.get(`${persona.id}\u0000${model.id}`);
      return {
        personaId: persona.id,
        modelId: model.id,
        averageScore: row && row.scoreCount > 0 ? row.scoreSum / row.scoreCount : null,
        evaluationCount: row?.scoreCount ?? 0,
      };
    }),
  );
  return { personas, models, cells };
}

/** A test the pages can show: it has models, personas and topics to lay the results out by. */
export function isValidTest(test: { configuration: Configuration }): boolean {
  const config = test.configuration;
  return config.generatorModels.length > 0 && config.personas.length > 0 && config.topics.length > 0;
}

export function namesOf(test: { configuration: Configuration }) {
  const config = test.configuration;
  return {
    model: new Map([...config.generatorModels, ...config.evaluatorModels].map((model) => [model.id, model.name])),
    persona: new Map(config.personas.map((persona) => [persona.id, persona.name])),
    topic: new Map(config.topics.map((topic) => [topic.id, topic.title])),
  };
}

export type Names = ReturnType<typeof namesOf>;

/** The names an answer is shown under: its model's, persona's and topic's (or a stand-in). */
export function namesOfResponse(response: { modelId: string; personaId: string; topicId: string }, names: Names) {
  return {
    modelName: names.model.get(response.modelId) ?? response.modelId,
    personaName: names.persona.get(response.personaId) ?? "Unknown persona",
    topicTitle: names.topic.get(response.topicId) ?? "Unknown topic",
  };
}

/** The results page's header fields of a test (core/tests.ts testHeader), besides its job's. */
export const HEADER_FIELDS = [
  "name",
  "taskType",
  "status",
  "progress",
  "configuration",
  "estimate",
  "priceCents",
  "expectedResponses",
  "expectedEvaluations",
  "responsesCount",
  "evaluationsCount",
  "missingResponses",
  "missingEvaluations",
  // The latest gateway error: why answers or judgements are missing.
  "lastCallError",
  "failedCalls",
  "totalCostUsd",
  "totalLatencyMs",
  "totalTokens",
  "resultsSummary",
  "errorMessage",
  "startedAt",
  "completedAt",
  // A team's test (absent for a personal one): the results offer a team review only then.
  "teamId",
  // The test a rerun was started from: its results offer "Compare with the original".
  "rerunOf",
] as const;

/** What every stored test the results page shows holds, besides its other header fields. */
type StoredTestBase = CountFigureFields &
  SpendCounters &
  CountedFields & {
    _id: GenericId<"tests">;
    _creationTime: number;
    awaitingPayment: boolean;
    configuration: Configuration;
  };

/**
 * The results page's test as stored (results.test): its header fields with the judging spend
 * the metrics split by, and whether the pages can show it.
 */
type StoredResultsTest<Stored extends StoredTestBase> = { test: Stored; valid: boolean };

/** What the results page's live half reads (results.live): the small rows the folds and owners write. */
type LiveResults = {
  counters: CounterFigures | null;
  rows: StatsFigures[];
  job: { status: string; chargedCents: number } | null;
  share: { shareId: string; isActive: boolean } | null;
};

const SHOWN_FIELDS = [...HEADER_FIELDS, "_id", "_creationTime", "awaitingPayment"] as const;

/** Everything above the results page's lists, as results.get returns it. */
export function resultsViewOf<Stored extends StoredTestBase>(stored: StoredResultsTest<Stored>, live: LiveResults) {
  const test = withCounters(stored.test, live.counters);
  const header = pickFields(test as Record<string, unknown>, SHOWN_FIELDS) as Omit<Stored, "judgingCostUsd">;
  return {
    test: {
      ...header,
      ...(live.job ? { jobStatus: live.job.status } : {}),
      chargedCents: live.job?.chargedCents ?? 0,
    },
    valid: stored.valid,
    metrics: metricsOf(test, live.rows),
    rankings: rankingsOf(test, live.rows),
    personaBreakdown: breakdownOf(test, live.rows),
    models: modelChartsOf(test, live.rows),
    heatmap: heatmapOf(test, live.rows),
    share: live.share,
  };
}

/** What a test gave up on and the last gateway error (lib/progress.ts missingWorkSummary words it). */
export const MISSING_WORK_FIELDS = ["missingResponses", "missingEvaluations", "lastCallError"] as const;

/** The counters the shared page shows (no money: spec part 2's shared page shows none). */
export const SHARED_COUNTERS = [
  "responsesCount",
  "evaluationsCount",
  "totalLatencyMs",
  "missingResponses",
  "missingEvaluations",
] as const satisfies readonly CounterKey[];

/** What every stored test the shared page shows holds (shares.test), besides its other fields. */
type SharedTestBase = CountFigureFields &
  Pick<Counters, "missingResponses" | "missingEvaluations"> & {
    name: string;
    taskType: string;
    status: string;
    _creationTime: number;
    startedAt?: number;
    completedAt?: number;
    progress: Infer<typeof progress>;
    lastCallError?: string;
    configuration: Configuration;
  };

/** What the shared page's live half reads (shares.live): the counter row's shown counters, the tallies, the first answers. */
type LiveShared = {
  counters: CounterFigures | null;
  rows: StatsTally[];
  samples: {
    modelId: string;
    personaId: string;
    topicId: string;
    content: string;
    tokens: number;
    latencyMs: number;
    timestamp: number;
  }[];
};

/** The shared page's view, as shares.view returns it. */
export function sharedViewOf<Stored extends SharedTestBase>(
  stored: { test: Stored; valid: boolean },
  live: LiveShared,
) {
  const test = withCounters(stored.test, live.counters);
  const names = namesOf(test);
  return {
    testName: test.name,
    taskType: test.taskType,
    status: test.status as Stored["status"],
    createdAt: test._creationTime,
    ...(test.startedAt === undefined ? {} : { startedAt: test.startedAt }),
    ...(test.completedAt === undefined ? {} : { completedAt: test.completedAt }),
    ...(test.status === "running" ? { progress: test.progress } : {}),
    valid: stored.valid,
    configuration: test.configuration,
    metrics: countFiguresOf(test),
    missingWork: pickFields(test, MISSING_WORK_FIELDS),
    rankings: rankingsOf(test, live.rows),
    sampleResponses: live.samples.map((sample, index) => ({
      key: String(index),
      ...namesOfResponse(sample, names),
      content: sample.content,
      tokens: sample.tokens,
      latencyMs: sample.latencyMs,
      timestamp: sample.timestamp,
    })),
  };
}
