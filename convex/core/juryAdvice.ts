// Keeps a finished test's jury advice (lib/juryAdvice.ts): computed from the same input as the
// full jury-statistics run after the test ended (core/jury/recompute.ts), in that action, and
// stored by juryAdvice.ts store. Bounded by lib/juryAdvice.ts ADVICE_WORK_BUDGET.
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx } from "../_generated/server";
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
