// The worker host and its supervision (docs/pipeline.md "Workers"): one action serves every
// running test's pool worker, so running tests take one scheduled-job slot however many they
// are (Starter has 8). The host beats every HOST_BEAT_MS on its `workerHosts` row; one not heard
// of for HOST_DEAD_MS, or whose scheduled action failed (killed, its deployment restarted), is
// replaced by the supervisor cron or by the next test that needs it, and the calls its tests had leased are handed back: a dead
// host's results were never recorded, a slow one's are refused by their lease.
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../../_generated/server";
import { createJudgeCallsIfPairDone } from "./calls";
import { concurrencyRowOf } from "./concurrency";
import { workViewOf } from "./runView";

/** How often the host writes its heartbeat. */
export const HOST_BEAT_MS = 2_000;
/** A host not heard of (nor scheduled) for this long is dead: the supervisor replaces it. */
const HOST_DEAD_MS = 20_000;
/** Calls handed back per test in one transaction (a test's share of the gateway is at most 256). */
const HAND_BACK_BATCH = 512;

async function hostRow(ctx: QueryCtx) {
  return await ctx.db.query("workerHosts").first();
}

type HostRow = NonNullable<Awaited<ReturnType<typeof hostRow>>>;

async function hostAlive(ctx: QueryCtx, row: HostRow | null, now: number): Promise<boolean> {
  if (row === null || row.ended === true || now - Math.max(row.seenAt, row.startedAt) >= HOST_DEAD_MS) return false;
  // A failed action is dead now, not after HOST_DEAD_MS of silence (Convex marks an action
  // interrupted by a restart failed; it never runs it again).
  const job = row.jobId === undefined ? null : await ctx.db.system.get("_scheduled_functions", row.jobId);
  return job === null || (job.state.kind !== "failed" && job.state.kind !== "canceled");
}

/** Schedules a new host (a new epoch: the one before, if still running, stops at its next beat). */
async function startHost(ctx: MutationCtx, recovering: boolean): Promise<void> {
  const row = await hostRow(ctx);
  const epoch = (row?.epoch ?? 0) + 1;
  const jobId = await ctx.scheduler.runAfter(0, internal.runner.host, { epoch, recovering });
  const fields = { epoch, startedAt: Date.now(), seenAt: 0, ended: false, jobId };
  if (row) await ctx.db.patch("workerHosts", row._id, fields);
  else await ctx.db.insert("workerHosts", fields);
}

/** The test is served by the host (started if none runs). */
export async function serveTest(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await concurrencyRowOf(ctx, testId);
  if (!row)
    await ctx.db.insert("testConcurrency", {
      testId,
      served: true,
      // Level 0: nothing to resume from (core/pipeline/concurrency.ts startingConcurrency).
      level: 0,
      backedOff: false,
      inFlight: 0,
      exchanges: 0,
      rateLimited: 0,
      timeouts: 0,
      serverErrors: 0,
      updatedAt: Date.now(),
    });
  else if (row.served !== true) await ctx.db.patch("testConcurrency", row._id, { served: true });
  // Another test served: the host serving it picks this one up at its next look (a dead one is
  // replaced by the supervisor), so ten tests starting together do not schedule ten ensureHost
  // jobs (6–9 scheduled jobs at once as ten tests started).
  const others = await ctx.db
    .query("testConcurrency")
    .withIndex("by_served", (q) => q.eq("served", true))
    .take(2);
  if (others.some((other) => other.testId !== testId)) return;
  // In a transaction of its own: the host's row changes with every heartbeat, and the large
  // transactions that start a test (a batch of its calls) would conflict with it.
  await ctx.scheduler.runAfter(0, internal.runner.ensureHost, {});
}

/** Starts a host unless one is alive. */
export async function ensureHost(ctx: MutationCtx): Promise<void> {
  if (!(await hostAlive(ctx, await hostRow(ctx), Date.now()))) await startHost(ctx, false);
}

export async function unserveTest(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const row = await concurrencyRowOf(ctx, testId);
  if (row?.served) await ctx.db.patch("testConcurrency", row._id, { served: false });
}

/** The tests the host serves. */
export async function servedTests(ctx: QueryCtx): Promise<Id<"tests">[]> {
  const rows = await ctx.db
    .query("testConcurrency")
    .withIndex("by_served", (q) => q.eq("served", true))
    .take(200);
  return rows.map((row) => row.testId);
}

/** The host's heartbeat: false when it was replaced (it stops). */
export async function beatHost(ctx: MutationCtx, epoch: number): Promise<boolean> {
  const row = await hostRow(ctx);
  if (!row || row.epoch !== epoch || row.ended) return false;
  await ctx.db.patch("workerHosts", row._id, { seenAt: Date.now() });
  return true;
}

/** The host found nothing to serve: it ends unless a test wants serving meanwhile. */
export async function endHost(ctx: MutationCtx, epoch: number): Promise<boolean> {
  const row = await hostRow(ctx);
  if (!row || row.epoch !== epoch) return true;
  if ((await servedTests(ctx)).length > 0) return false;
  await ctx.db.patch("workerHosts", row._id, { ended: true });
  return true;
}

/** The host's time is up (the action's limit): the same epoch continues in a new action. */
export async function continueHost(ctx: MutationCtx, epoch: number): Promise<void> {
  const row = await hostRow(ctx);
  if (!row || row.epoch !== epoch) return;
  const jobId = await ctx.scheduler.runAfter(0, internal.runner.host, { epoch, recovering: false });
  await ctx.db.patch("workerHosts", row._id, { startedAt: Date.now(), seenAt: 0, jobId });
}

/** A dead worker's leased calls go back to pending (their attempts still count). */
export async function handBackLeases(ctx: MutationCtx, testId: Id<"tests">): Promise<number> {
  const leased = await ctx.db
    .query("calls")
    .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "leased"))
    .take(HAND_BACK_BATCH);
  for (const call of leased)
    await ctx.db.patch("calls", call._id, { status: "pending", leaseId: undefined, leaseExpiresAt: undefined });
  return leased.length;
}

/**
 * Gives every persona × topic pair whose answers are all in its judge calls: a worker that died
 * between recording a pair's last answer and reporting it left the pair without them.
 */
export async function sweepPairs(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const work = await workViewOf(ctx, testId);
  if (!work?.running) return;
  for (const persona of work.configuration.personas)
    for (const topic of work.configuration.topics) {
      const call = await ctx.db
        .query("calls")
        .withIndex("by_test_pair", (q) =>
          q.eq("testId", testId).eq("kind", "generate").eq("personaId", persona.id).eq("topicId", topic.id),
        )
        .first();
      if (call) await createJudgeCallsIfPairDone(ctx, call);
    }
}

/**
 * The supervisor (a cron every 10 s): when tests are served and the host is dead, their leased
 * calls are handed back and a new host starts (which sweeps their pairs). True when it did.
 */
export async function superviseWorkers(ctx: MutationCtx, now: number): Promise<boolean> {
  // The host's row first: a live host's tests are not read (their rows change every report).
  if (await hostAlive(ctx, await hostRow(ctx), now)) return false;
  const served = await servedTests(ctx);
  if (served.length === 0) return false;
  for (const testId of served) await handBackLeases(ctx, testId);
  await startHost(ctx, true);
  return true;
}
