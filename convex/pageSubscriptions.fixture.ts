// The queries the pages of a test subscribe while it runs, as the pages subscribe them (the
// results page with its first pages of answers and judgements, the monitor, the shared page):
// convex/pageSubscriptions.test.ts and bench/subscriptions.ts open them on the local backend and
// count each one's re-runs with the meter (keyed "module:function").
import type { ConvexClient } from "convex/browser";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";

/** A query the pages subscribe: the pages that do, and its subscriptions in subscribePages. */
export type PageQuery = { query: string; pages: string; subscriptions: number };

/**
 * What the pages subscribe (src/features/results, monitor, shared, checks, notes,
 * results/failure-notice, settle-notice; src/lib/results-views.ts), by the meter's name of the query.
 */
export const PAGE_QUERIES: readonly PageQuery[] = [
  { query: "results:test", pages: "results (the test as stored)", subscriptions: 1 },
  { query: "results:live", pages: "results (what the folds write)", subscriptions: 1 },
  { query: "results:responses", pages: "results (first 20 answers)", subscriptions: 1 },
  { query: "results:evaluations", pages: "results (first 10 judgements)", subscriptions: 1 },
  { query: "results:juryStats", pages: "results", subscriptions: 1 },
  { query: "notes:list", pages: "results", subscriptions: 1 },
  { query: "notes:canAdd", pages: "results", subscriptions: 1 },
  { query: "checks:summary", pages: "results, monitor", subscriptions: 1 },
  { query: "payments:testRefund", pages: "results, monitor", subscriptions: 1 },
  { query: "settle:status", pages: "results, monitor (stop when settled)", subscriptions: 1 },
  { query: "tests:monitor", pages: "monitor", subscriptions: 1 },
  { query: "tests:current", pages: "monitor (with the test's id, and without: the space's)", subscriptions: 2 },
  { query: "shares:test", pages: "shared (the test as stored)", subscriptions: 1 },
  { query: "shares:live", pages: "shared (what the folds write)", subscriptions: 1 },
  { query: "shares:juryStats", pages: "shared", subscriptions: 1 },
  { query: "checks:sharedSummary", pages: "shared", subscriptions: 1 },
  { query: "sharedExtras:settleStatus", pages: "shared (stop when settled)", subscriptions: 1 },
  { query: "sharedExtras:juryAdvice", pages: "shared", subscriptions: 1 },
];

/**
 * Opens every subscription of PAGE_QUERIES: the owner's pages on `owner` (a query both of them
 * subscribe with the same arguments is one subscription of a client), the shared page on
 * `anonymous`. Returns the updates each query's subscriptions received so far (by meter name).
 */
export function subscribePages(
  owner: ConvexClient,
  anonymous: ConvexClient,
  testId: Id<"tests">,
  shareId: string,
): { updates: Map<string, number>; unsubscribe: () => void } {
  const updates = new Map<string, number>();
  const count = (query: string) => () => updates.set(query, (updates.get(query) ?? 0) + 1);
  const firstPage = (numItems: number) => ({ testId, paginationOpts: { numItems, cursor: null } });
  const handles = [
    owner.onUpdate(api.results.test, { testId }, count("results:test")),
    owner.onUpdate(api.results.live, { testId }, count("results:live")),
    owner.onUpdate(api.results.responses, firstPage(20), count("results:responses")),
    owner.onUpdate(api.results.evaluations, firstPage(10), count("results:evaluations")),
    owner.onUpdate(api.results.juryStats, { testId }, count("results:juryStats")),
    owner.onUpdate(api.checks.summary, { testId }, count("checks:summary")),
    owner.onUpdate(api.notes.list, { testId }, count("notes:list")),
    owner.onUpdate(api.notes.canAdd, { testId }, count("notes:canAdd")),
    owner.onUpdate(api.payments.testRefund, { testId }, count("payments:testRefund")),
    owner.onUpdate(api.settle.status, { testId }, count("settle:status")),
    owner.onUpdate(api.tests.monitor, { testId }, count("tests:monitor")),
    owner.onUpdate(api.tests.current, { testId }, count("tests:current")),
    owner.onUpdate(api.tests.current, {}, count("tests:current")),
    anonymous.onUpdate(api.shares.test, { shareId }, count("shares:test")),
    anonymous.onUpdate(api.shares.live, { shareId }, count("shares:live")),
    anonymous.onUpdate(api.shares.juryStats, { shareId }, count("shares:juryStats")),
    anonymous.onUpdate(api.checks.sharedSummary, { shareId }, count("checks:sharedSummary")),
    anonymous.onUpdate(api.sharedExtras.settleStatus, { shareId }, count("sharedExtras:settleStatus")),
    anonymous.onUpdate(api.sharedExtras.juryAdvice, { shareId }, count("sharedExtras:juryAdvice")),
  ];
  return { updates, unsubscribe: () => handles.forEach((handle) => handle()) };
}
