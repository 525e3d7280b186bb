// The gateway's generation id of each request a worker has out (docs/pipeline.md "Supervision"):
// kept by its reports, so a worker that dies leaves behind which generations its calls were
// waiting for. At a provider that does not stop a generation when its client goes (OpenRouter
// stops them only "for supported providers"), those run to their end and are billed; the call's
// next lease is handed the id, and its worker takes the result from the gateway
// (gateway.ts endedGeneration) rather than make the call, and pay for it, again.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";

export type CallGeneration = { callId: Id<"calls">; leaseId: string; generationId: string };

/** The most generation ids one report keeps (a worker has at most its share, 256, out). */
export const GENERATIONS_PER_REPORT = 512;

/** Keeps the ids of the requests a worker sent since its last report. */
export async function keepGenerations(
  ctx: MutationCtx,
  testId: Id<"tests">,
  generations: readonly CallGeneration[],
): Promise<void> {
  for (const generation of generations.slice(0, GENERATIONS_PER_REPORT))
    await ctx.db.insert("callGenerations", { testId, ...generation });
}

/**
 * The generation the call's last lease was waiting for, if its worker kept one and never
 * recorded that lease's result: the newest request of that lease (a reply asked for again
 * replaces the first).
 */
export async function priorGenerationOf(ctx: MutationCtx, call: Doc<"calls">): Promise<string | undefined> {
  const lastLease = `${call._id}:${call.attempts}`;
  // A first lease has none; a lease whose result was recorded (its missing answers asked for
  // again) wants a new request, not that result again.
  if (call.attempts === 0 || call.recordedLeaseId === lastLease) return undefined;
  const row = await ctx.db
    .query("callGenerations")
    .withIndex("by_call_lease", (q) => q.eq("callId", call._id).eq("leaseId", lastLease))
    .order("desc")
    .first();
  return row?.generationId;
}
