// Deployment settings stored in the `settings` table, with the spec's defaults.
import type { QueryCtx } from "../_generated/server";

export const SETTING_DEFAULTS = {
  /** Jobs processing at once across the deployment. */
  maxProcessingJobs: 10,
  /** Gateway calls in flight at once for one test (one worker each). */
  perTestConcurrency: 8,
  /** A leased call whose worker has not answered by then is handed out again. */
  leaseMs: 5 * 60 * 1000,
  /** Generation or judge calls given up on after this many leases. */
  maxCallAttempts: 3,
  /** Calls one worker action handles before it schedules its next chunk. */
  callsPerChunk: 25,
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
