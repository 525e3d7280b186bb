// The results and shared pages' views, each from two subscriptions: the test as stored (its
// configuration, names and status, which no fold writes) and what its folds write (small rows
// only). They are added up with the server's own code (convex/lib/resultsFigures.ts), so the pages
// show what results.get and shares.view return, while the half that re-runs with every fold of a
// running test reads no configuration.
import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useMemo } from "react";

import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { resultsViewOf, sharedViewOf } from "../../convex/lib/resultsFigures";

export type ResultsView = FunctionReturnType<typeof api.results.get>;
export type SharedView = FunctionReturnType<typeof api.shares.view>;

/** Everything above the results page's lists; undefined while loading (or skipped). */
export function useResultsView(testId: Id<"tests">, skip = false): ResultsView | undefined {
  const args = skip ? "skip" : { testId };
  const stored = useQuery(api.results.test, args);
  const live = useQuery(api.results.live, args);
  return useMemo(
    () => (stored === undefined || live === undefined ? undefined : resultsViewOf(stored, live)),
    [stored, live],
  );
}

/** The shared page's view; null when the link is not (or no longer) active, undefined while loading. */
export function useSharedView(shareId: string): SharedView | undefined {
  const stored = useQuery(api.shares.test, { shareId });
  const live = useQuery(api.shares.live, { shareId });
  return useMemo(() => {
    if (stored === undefined || live === undefined) return undefined;
    return stored === null || live === null ? null : sharedViewOf(stored, live);
  }, [stored, live]);
}
