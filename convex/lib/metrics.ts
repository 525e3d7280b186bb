// The per-test figures computed from a test's counters, once: the stored summary
// (lib/scoring.ts summarize) and the results query (convex/core/results.ts metricsOf) both call
// this, so a figure added here reaches both. Pure: counters in, figures out.

export interface TestCounters {
  /** Answers recorded. */
  readonly responses: number;
  /** Answers the configuration asks for. */
  readonly expectedResponses: number;
  /** Sum of the recorded answers' latencies in milliseconds. */
  readonly latencyMsSum: number;
}

export interface TestFigures {
  /** 0-1: recorded answers over expected answers (0 when nothing is expected). */
  readonly completionRate: number;
  /** Milliseconds per recorded answer (0 before the first answer). */
  readonly averageLatencyMs: number;
}

export function testFigures(counters: TestCounters): TestFigures {
  const { responses, expectedResponses, latencyMsSum } = counters;
  return {
    completionRate: expectedResponses > 0 ? Math.min(1, Math.max(0, responses / expectedResponses)) : 0,
    averageLatencyMs: responses > 0 ? latencyMsSum / responses : 0,
  };
}
