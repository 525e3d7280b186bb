// The sticky bar's numbers: the price (quote(), the function tests.create prices with), the
// time range (the chosen models' catalog latencies at the deployment's concurrency), and what
// stops the test from running.
import { useQuery } from "convex/react";
import { useMemo } from "react";

import { quote, validateTestConfig } from "../../../convex/lib/pricing";
import { api } from "../../../convex/_generated/api";
import { durationRangeLabel, setupTimeRange } from "../../../convex/lib/timeEstimates";
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

export function setupPriceOf(
  state: SetupState,
  catalog: Pick<Catalog, "byId" | "prices">,
  timing: SetupTiming = UNKNOWN_TIMING,
): SetupPrice {
  const configuration = buildTestConfiguration(state, catalog.byId);
  const priced = quote(configuration, catalog.prices);
  const queries = priced.estimate.totalQueries;
  const problems = validateTestConfig(configuration);
  const latencies = Object.fromEntries(timing.latencies.map(({ key, latencyMs }) => [key, latencyMs]));
  return {
    configuration,
    quote: priced,
    queries,
    timeLabel: durationRangeLabel(setupTimeRange(configuration, latencies, timing.concurrency)),
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
  return useMemo(() => setupPriceOf(state, { byId, prices }, timing), [state, byId, prices, timing]);
}
