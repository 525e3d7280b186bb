// The sticky bar's numbers: the price (quote(), the function tests.create prices with), the
// time range, and what stops the test from running.
import { useMemo } from "react";

import { quote, validateTestConfig } from "../../../convex/lib/pricing";
import { estimateTimeRange, timeRangeLabel } from "../../../convex/lib/progress";
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

export function setupPriceOf(state: SetupState, catalog: Pick<Catalog, "byId" | "prices">): SetupPrice {
  const configuration = buildTestConfiguration(state, catalog.byId);
  const priced = quote(configuration, catalog.prices);
  const queries = priced.estimate.totalQueries;
  const problems = validateTestConfig(configuration);
  return {
    configuration,
    quote: priced,
    queries,
    timeLabel: timeRangeLabel(estimateTimeRange(queries)),
    problems,
    canRun: problems.length === 0,
  };
}

export function useSetupPrice(state: SetupState, catalog: Catalog): SetupPrice {
  const { byId, prices } = catalog;
  return useMemo(() => setupPriceOf(state, { byId, prices }), [state, byId, prices]);
}
