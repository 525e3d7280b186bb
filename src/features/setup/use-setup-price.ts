// The sticky bar's numbers: the price (quote(), the function tests.create prices with), the
// time range (the chosen models' catalog latencies at the deployment's concurrency), and what
// stops the test from running.
import { useQuery } from "convex/react";
import { useMemo } from "react";

import { quote, validateTestConfig, type PriceRange } from "../../../convex/lib/pricing";
import { fewestSettlingPairs } from "../../../convex/lib/settle";
import { settledPriceRange } from "../../../convex/lib/unrunRefund";
import { api } from "../../../convex/_generated/api";
import { durationRangeLabel, setupTimeRange } from "../../../convex/lib/timeEstimates";
import { settleTimeRange, settleTimeWords } from "../../../convex/lib/settleTimeEstimate";
import type { Problem, Quote } from "../../../convex/lib/types";
import type { TestConfiguration } from "../../../convex/validators";
import type { Catalog } from "./use-catalog";
import { buildTestConfiguration, type SetupState } from "./setup-state";

export interface SetupPrice {
  configuration: TestConfiguration;
  quote: Quote;
  /** Generation queries: models × personas × topics. */
  queries: number;
  timeLabel: string;
  /** A test set to stop when settled: why its time is longer and what each end of it is; null otherwise. */
  timeNote: string | null;
  /**
   * A test set to stop when settled: what it comes to, from the fewest pairs that could settle
   * (the rest refunded) to all of them (the price paid up front); null otherwise.
   */
  settledRange: PriceRange | null;
  /** validateTestConfig's messages; the test can run when there are none. */
  problems: Problem[];
  canRun: boolean;
}

/** The catalog's latencies of the chosen models and the calls a test has out at once (models.timing). */
export interface SetupTiming {
  concurrency: number;
  latencies: readonly { key: string; latencyMs: number }[];
}

/** Before models.timing answers: every model at its kind's default latency, 64 calls at once. */
const UNKNOWN_TIMING: SetupTiming = { concurrency: 64, latencies: [] };

/**
 * `fewestSettlingPairs`: for a test set to stop when settled, the fewest persona × topic pairs
 * after which its question could settle (lib/settle, stopWhenSettled); null for a test that runs
 * every pair.
 */
export function setupPriceOf(
  state: SetupState,
  catalog: Pick<Catalog, "byId" | "prices">,
  timing: SetupTiming = UNKNOWN_TIMING,
  fewestSettlingPairs: number | null = null,
): SetupPrice {
  const configuration = buildTestConfiguration(state, catalog.byId);
  const priced = quote(configuration, catalog.prices);
  const queries = priced.estimate.totalQueries;
  const problems = validateTestConfig(configuration);
  const latencies = Object.fromEntries(timing.latencies.map(({ key, latencyMs }) => [key, latencyMs]));
  // A test set to stop when settled runs a pair at a time (lib/settleTimeEstimate.ts).
  const settleWords =
    fewestSettlingPairs === null
      ? null
      : settleTimeWords(settleTimeRange(configuration, latencies, timing.concurrency, fewestSettlingPairs));
  return {
    configuration,
    quote: priced,
    queries,
    timeLabel: settleWords?.label ?? durationRangeLabel(setupTimeRange(configuration, latencies, timing.concurrency)),
    timeNote: settleWords?.note ?? null,
    settledRange:
      fewestSettlingPairs === null || priced.priceCents === 0
        ? null
        : settledPriceRange(configuration, priced.estimate, priced.priceCents, fewestSettlingPairs),
    problems,
    canRun: problems.length === 0,
  };
}

export function useSetupPrice(state: SetupState, catalog: Catalog): SetupPrice {
  const { byId, prices } = catalog;
  // useQuery compares its arguments by value: a new array of the same ids asks nothing again.
  const timing = useQuery(api.models.timing, {
    generators: [...state.generatorModelIds],
    judges: [...state.evaluatorModelIds],
  });
  return useMemo(() => {
    const settle = state.stopWhenSettled;
    const pairsTotal = state.personas.length * state.topics.length;
    const fewest =
      settle === undefined ? null : fewestSettlingPairs(settle, state.generatorModelIds.length, pairsTotal);
    return setupPriceOf(state, { byId, prices }, timing, fewest);
  }, [state, byId, prices, timing]);
}
