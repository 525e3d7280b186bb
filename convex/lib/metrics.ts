// The per-test figures, one entry each: its name in the results query, its name in the stored
// summary and the JSON export, how it is computed from a test's counters, and how the results
// and shared pages show it. The stored summary (lib/scoring.ts summarize), the results query
// (convex/core/results.ts metricsOf and metricsValidator), the summary's validator
// (convex/validators.ts resultsSummary), the stat cards (src/components/results-stat-cards.tsx)
// and the JSON export (src/features/results/export.ts) all derive from FIGURES, so a figure added
// here reaches the query and the cards (the summary and the export: see summaryKey). Pure:
// counters in, figures out.
import { v } from "convex/values";

export interface TestCounters {
  /** Answers recorded. */
  readonly responses: number;
  /** Answers the configuration asks for. */
  readonly expectedResponses: number;
  /** Sum of the recorded answers' latencies in milliseconds. */
  readonly latencyMsSum: number;
}

/** How a figure is shown: 'latency' as lib/format formatLatency, 'ratio' as formatRatio. */
export type FigureFormat = "latency" | "ratio";

interface FigureDefinition {
  /** The stat card's label. */
  readonly label: string;
  readonly format: FigureFormat;
  /**
   * Its name in the stored summary (tests.resultsSummary.analysisSummary) and the JSON export.
   * Only the figures summaries were first stored with have one: the schema checks existing rows,
   * so a figure added later has none (storing it needs an optional field and a migration).
   */
  readonly summaryKey?: string;
  readonly compute: (counters: TestCounters) => number;
}

/** In display order. Keys are the results query's names (metrics.<key>). */
const FIGURES = {
  /** Milliseconds per recorded answer (0 before the first answer). */
  averageResponseTimeMs: {
    label: "Average Response Time",
    format: "latency",
    summaryKey: "averageLatency",
    compute: ({ responses, latencyMsSum }) => (responses > 0 ? latencyMsSum / responses : 0),
  },
  /** 0-1: recorded answers over expected answers (0 when nothing is expected). */
  completionRate: {
    label: "Completion Rate",
    format: "ratio",
    summaryKey: "completionRate",
    compute: ({ responses, expectedResponses }) =>
      expectedResponses > 0 ? Math.min(1, Math.max(0, responses / expectedResponses)) : 0,
  },
} as const satisfies Record<string, FigureDefinition>;

export type TestFigureKey = keyof typeof FIGURES;
type SummaryKey = {
  [K in TestFigureKey]: (typeof FIGURES)[K] extends { readonly summaryKey: infer S extends string } ? S : never;
}[TestFigureKey];

/** The figures as the results query returns them. */
export type TestFigures = { readonly [K in TestFigureKey]: number };
/** The figures as the stored summary and the JSON export name them. */
export type SummaryTestFigures = { readonly [K in SummaryKey]: number };

const KEYS = Object.keys(FIGURES) as TestFigureKey[];
/** [query name, stored name] of the figures the stored summary holds. */
const SUMMARY_KEYS = KEYS.flatMap((key) => {
  const definition: FigureDefinition = FIGURES[key];
  return definition.summaryKey === undefined ? [] : [[key, definition.summaryKey] as const];
});

/** Every figure with its key, in display order. */
export const TEST_FIGURES: readonly ({ readonly key: TestFigureKey } & FigureDefinition)[] = KEYS.map((key) => ({
  key,
  ...FIGURES[key],
}));

/** The figures' fields of the results query's metricsValidator. */
export const testFigureFields = Object.fromEntries(KEYS.map((key) => [key, v.number()])) as {
  [K in TestFigureKey]: ReturnType<typeof v.number>;
};

/** The figures' fields of the stored summary's validator (resultsSummary.analysisSummary). */
export const summaryTestFigureFields = Object.fromEntries(
  SUMMARY_KEYS.map(([, summaryKey]) => [summaryKey, v.number()]),
) as {
  [K in SummaryKey]: ReturnType<typeof v.number>;
};

export function testFigures(counters: TestCounters): TestFigures {
  return Object.fromEntries(KEYS.map((key) => [key, FIGURES[key].compute(counters)])) as TestFigures;
}

/** The figures renamed as the stored summary and the JSON export name them. */
export function summaryTestFigures(figures: TestFigures): SummaryTestFigures {
  return Object.fromEntries(SUMMARY_KEYS.map(([key, summaryKey]) => [summaryKey, figures[key]])) as SummaryTestFigures;
}
