// Deployment settings stored in the `settings` table, with the spec's defaults.
import type { QueryCtx } from "../_generated/server";

export const SETTING_DEFAULTS = {
  /** Jobs processing at once across the deployment. */
  maxProcessingJobs: 10,
  /**
   * Gateway calls in flight for one test when it starts: the adaptive controller's first level
   * (lib/concurrency.ts), which it raises while calls succeed, within the test's share of
   * `maxGatewayConcurrency`. 64: a doubling per round trip from 8 took the generation phase of a
   * 650-call test at 9 s a call to reach 256 (bench/deployment.ts 1.75 × its critical path); a
   * gateway that allows fewer answers the excess 429 at once, which costs no attempt (the pool
   * sends those calls again) and settles the level within a few seconds. 0 runs no workers.
   */
  perTestConcurrency: 64,
  /**
   * Gateway calls in flight at once across the deployment, shared evenly by the running tests:
   * each test's controller stays under its share. 256 suits the Professional plan with a gateway
   * that allows as many (OpenRouter's paid keys do); lower it for a smaller gateway.
   */
  maxGatewayConcurrency: 256,
  /**
   * Worker actions per test; each keeps many calls in flight, so running tests need one scheduled
   * job each (Starter runs 8 at once: README "Real deployments" says which settings to lower).
   */
  workersPerTest: 1,
  /**
   * A worker stops claiming after this long, lets its calls land and schedules its next chunk.
   * Each chunk's end idles the test's slots while its slowest calls land (up to 30 s at real
   * latencies; bench/deployment.ts --plan starter --timeline showed a gap every 2 minutes, 1.14 ×
   * its ideal), so chunks are long: 5 minutes plus the drain stays well inside an action's limit.
   */
  workerChunkMs: 5 * 60 * 1000,
  /**
   * A leased call whose worker has not answered by then is handed out again: longer than a
   * worker's chunk plus its slowest call's time-outs (3 attempts of 120 s for 3,000 tokens), so
   * only a dead worker's calls expire.
   */
  leaseMs: 11 * 60 * 1000,
  /** Generation or judge calls given up on after this many leases. */
  maxCallAttempts: 3,
  /** Calls created per transaction when a test starts (the rest follow in scheduled batches). */
  callsPerBatch: 200,
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;

export async function readSetting(ctx: QueryCtx, key: SettingKey): Promise<number> {
  const row = await ctx.db
    .query("settings")
    .withIndex("by_key", (q) => q.eq("key", key))
    .unique();
  return row?.value ?? SETTING_DEFAULTS[key];
}
