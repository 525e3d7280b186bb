// Which pending calls a pool worker claims first (core/pipeline/claim.ts; bench/adaptive.ts
// simulates the same order). Pure.
//
// A test runs its calls oldest first: every generation call (created when the run starts) goes
// out before most judging, the fastest way to the end. A test set to stop when settled instead
// claims its pending judge calls before any generation call, so a pair's judging follows its
// answers as soon as they land and each look (lib/settle.ts reads the judged start of the seeded
// order) sees as many judged pairs as possible for the calls spent; its generation calls still
// go out in the seeded order, oldest first.
export type ClaimKind = "generate" | "evaluate";

/** The kinds a claim takes in turn, each oldest first; null: all pending calls oldest first. */
export function claimKinds(stopsWhenSettled: boolean): readonly ClaimKind[] | null {
  return stopsWhenSettled ? ["evaluate", "generate"] : null;
}
