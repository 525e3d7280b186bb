// The worker host's calls into its deployment (hostLoop.ts). Ten workers in one action, each
// claiming, recording batches and reporting, sent more mutations at once than Starter's 16 slots;
// those over the cap waited 5 s for a slot and failed with TooManyConcurrentRequests, which ended
// the workers (and the host, when its heartbeat was refused), so ten tests at once never finished.
// The host's workers now share a few slots, waiting their turn inside the action, and a call refused
// for want of a slot (it never ran) is sent again.
import { getFunctionName, type FunctionReference } from "convex/server";
import type { ActionCtx } from "../../_generated/server";

/**
 * Mutations and queries the host's workers run at once: half of Starter's 16 of each, so
 * dispatch, crons, deletions and the pages keep the other half. A recording batch takes tens of
 * milliseconds, so 8 record hundreds of calls a second.
 */
export const HOST_CALLS_AT_ONCE = 8;
/** Times a call refused for want of a slot is sent again, and the pause before each (ms). */
const SLOT_RETRIES = 8;
const SLOT_RETRY_PAUSE_MS = 250;

/** Whether an error is a deployment's refusal for want of a slot (the function did not run). */
export function isSlotRefusal(error: unknown): boolean {
  return error instanceof Error && error.message.includes("Too many concurrent requests");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `call`, again after a pause while the deployment refuses it for want of a slot. */
export async function withSlotRetries<T>(call: () => Promise<T>, pauseMs = SLOT_RETRY_PAUSE_MS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isSlotRefusal(error) || attempt > SLOT_RETRIES) throw error;
      await sleep(pauseMs * attempt);
    }
  }
}

/** At most `limit` calls run at once; the others wait in arrival order, those sent `first` ahead of the rest. */
export class CallGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most calls seen running at once. */
  peak = 0;

  constructor(readonly limit: number) {}

  async run<T>(call: () => Promise<T>, first = false): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => (first ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
    this.peak = Math.max(this.peak, this.running);
    try {
      return await call();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * The action context the host's workers use: their mutations and queries pass through gates of
 * HOST_CALLS_AT_ONCE each and are sent again when refused for want of a slot. The mutations named
 * in `first` (the recordings of landed answers, held only in the action's memory until sent) wait
 * ahead of the others: claims and reports lose nothing by waiting, an answer is made again if the
 * action dies before its recording was sent.
 */
export function gatedContext(
  ctx: ActionCtx,
  {
    limit = HOST_CALLS_AT_ONCE,
    first = [],
  }: { limit?: number; first?: readonly FunctionReference<"mutation", "internal">[] } = {},
): ActionCtx {
  const mutations = new CallGate(limit);
  const queries = new CallGate(limit);
  const firstNames = new Set(first.map((reference) => getFunctionName(reference)));
  return {
    ...ctx,
    runMutation: ((reference: FunctionReference<"mutation", "internal">, args: never) =>
      mutations.run(
        () => withSlotRetries(() => ctx.runMutation(reference, args)),
        firstNames.has(getFunctionName(reference)),
      )) as ActionCtx["runMutation"],
    runQuery: ((reference: never, args: never) =>
      queries.run(() => withSlotRetries(() => ctx.runQuery(reference, args)))) as ActionCtx["runQuery"],
  };
}
