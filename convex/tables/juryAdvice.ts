// A finished test's jury advice (lib/juryAdvice.ts), kept per test and read per space: the results
// page shows the test's, the space's Judges page sums many tests'. Declarations only, imported by
// convex/schema.ts.
import { defineTable } from "convex/server";
import { v } from "convex/values";

/** Why a test has advice or none: a smaller jury, every judge needed, or no decision to keep. */
const adviceOutcome = v.union(
  v.literal("advised"),
  v.literal("allNeeded"),
  v.literal("thin"),
  v.literal("oneJudge"),
  v.literal("tooManyJudges"),
  v.literal("tooLarge"),
  // Added for the evidence rule (lib/juryAdviceEvidence.ts): a decision too close for advice.
  v.literal("close"),
);

const juryAdviceFields = {
  outcome: adviceOutcome,
  /** The full jury's decision kept ("best" or "tied", the leaders by id); null without one. */
  decision: v.union(
    v.null(),
    v.object({ kind: v.union(v.literal("best"), v.literal("tied")), leaders: v.array(v.string()) }),
  ),
  /** "usd" when the calls carried costs, else the judges are weighed by their calls. */
  costBasis: v.union(v.literal("usd"), v.literal("calls")),
  /** Every judge that sat: its name, what it cost, and whether the advised jury leaves it out. */
  judges: v.array(
    v.object({
      judgeModelId: v.string(),
      name: v.string(),
      costUsd: v.number(),
      calls: v.number(),
      leftOut: v.boolean(),
    }),
  ),
  /** The cheapest smaller jury with the same decision; null unless the outcome is "advised". */
  advised: v.union(v.null(), v.object({ judges: v.array(v.string()), costShare: v.number(), agreement: v.number() })),
  independentVotes: v.union(v.number(), v.null()),
  /**
   * How clearly the full jury decided: the chance a fresh run reaches its decision, the pairs
   * judged and the pairs advice would need (null: more would not help). Absent without a
   * decision, and on rows kept before the evidence rule.
   */
  evidence: v.optional(
    v.object({ replication: v.number(), pairs: v.number(), pairsNeeded: v.union(v.number(), v.null()) }),
  ),
};
export const storedJuryAdvice = v.object(juryAdviceFields);

export const juryAdviceTables = {
  juryAdvice: defineTable({
    testId: v.id("tests"),
    userId: v.id("users"),
    /** The team the test belongs to; absent for a personal test (the space it is kept for). */
    teamId: v.optional(v.id("teams")),
    testName: v.string(),
    computedAt: v.number(),
    ...juryAdviceFields,
  })
    .index("by_test", ["testId"])
    // A space's advice, newest first: personal (teamId absent, by its starter) or a team's.
    .index("by_user_team_computed", ["userId", "teamId", "computedAt"])
    .index("by_team_computed", ["teamId", "computedAt"]),
};
