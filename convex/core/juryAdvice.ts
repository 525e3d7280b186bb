// Keeps a finished test's jury advice (lib/juryAdvice.ts): computed from the same input as the
// full jury-statistics run after the test ended (core/jury/recompute.ts), in that action, and
// stored by juryAdvice.ts store. Bounded by lib/juryAdvice.ts ADVICE_WORK_BUDGET.
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx, QueryCtx } from "../_generated/server";
import type { Infer } from "convex/values";
import type { storedJuryAdvice } from "../tables/juryAdvice";
import { juryAdviceRecord } from "../lib/juryAdvice";
import type { JuryStatsInput } from "../lib/stats/types";

export async function keepJuryAdvice(ctx: ActionCtx, testId: Id<"tests">, input: JuryStatsInput): Promise<void> {
  try {
    // Judges are named by the store, which reads the test's configuration.
    const advice = juryAdviceRecord(input, (judgeModelId) => judgeModelId);
    await ctx.runMutation(internal.juryAdvice.store, { testId, advice });
  } catch (error) {
    // The advice is an extra: the statistics are stored already and stay.
    console.error(`jury advice for ${testId} failed`, error);
  }
}

/** A test's stored advice as the pages show it (the row without its ids), or null until computed. */
export async function storedAdviceOf(
  ctx: QueryCtx,
  testId: Id<"tests">,
): Promise<Infer<typeof storedJuryAdvice> | null> {
  const row = await ctx.db
    .query("juryAdvice")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
  if (row === null) return null;
  const { outcome, decision, costBasis, judges, advised, independentVotes, evidence } = row;
  return {
    outcome,
    decision,
    costBasis,
    judges,
    advised,
    independentVotes,
    // How clearly the jury decided: the words of "too little evidence" (lib/juryAdvice.ts).
    ...(evidence === undefined ? {} : { evidence }),
  };
}
