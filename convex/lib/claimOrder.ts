// Which pending calls a pool worker claims first (core/pipeline/claim.ts; bench/adaptive.ts
// simulates the same order). Pure.
//
// Every test claims its pending judge calls before any generation call, so a pair's judging
// follows its answers as soon as they land: the judging (the slowest calls, and the heaviest to
// record) runs beside the answers instead of after them all. Run oldest first, ten tests at once
// on Starter left every test's judge calls to the end, where they queued behind one another's
// recordings at a fraction of the gateway's calls (bench/deployment.ts --ten). A test set to stop
// when settled also needs it: each look (lib/settle.ts reads the judged start of the seeded order)
// sees as many judged pairs as possible for the calls spent. Generation calls go out oldest first
// (in the seeded order for a test set to stop when settled).
export type ClaimKind = "generate" | "evaluate";

/** The kinds a claim takes in turn, each oldest first. */
export function claimKinds(): readonly ClaimKind[] {
  return ["evaluate", "generate"];
}

/**
 * The share of its pairs whose calls a test set to stop when settled keeps in flight at most.
 * Calls out when a look settles still land and are paid for, as are those claimed while the look
 * reads (about a second): the fewer out, the less a settled test overshoots the look that stopped
 * it, and the slower a test that never settles runs. bench/adaptive.ts measures it.
 */
export const SETTLE_IN_FLIGHT_SHARE = 0.05;
/**
 * Pairs a test set to stop when settled works on at once: it claims a new pair's answers only
 * while fewer of its pairs are in progress (an answer or a verdict out, or answers landed and not
 * yet given their judge calls): the next pair's answers are made while this one is judged. Its
 * looks read the judged start of the seeded order, so a pair ahead of it only adds calls a
 * settling look does not use. bench/adaptive.ts at 60 pairs: calls used 39.7% (rating) and 38.8%
 * (ranking) with 1, 40.9% and 40.4% with 2; the price is time, a pair at a time.
 */
export const SETTLE_PAIRS_AHEAD = 1;

/** The most calls a test set to stop when settled keeps in flight: its share of pairs' calls, at least one pair's. */
export function settleInFlightCap(callsPerPair: number, pairsTotal: number): number {
  return Math.max(callsPerPair, Math.round(SETTLE_IN_FLIGHT_SHARE * pairsTotal * callsPerPair));
}

/**
 * How many generation calls a claim of a test set to stop when settled may take: one pair's
 * (`generators` calls) while fewer than SETTLE_PAIRS_AHEAD pairs are in progress, else none.
 */
export function settleGenerateAllowance(pairsInProgress: number, generators: number): number {
  return pairsInProgress < SETTLE_PAIRS_AHEAD ? generators : 0;
}
