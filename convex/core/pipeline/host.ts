// The worker host and its supervision (docs/pipeline.md "Workers"): one action serves every
// running test's pool worker, so running tests take one scheduled-job slot however many they
// are (Starter has 8). The host beats every HOST_BEAT_MS on its `workerHosts` row; one not heard
// of for HOST_DEAD_MS, or whose scheduled action failed (killed, its deployment restarted), is
// replaced by its watch (a look every HOST_WATCH_MS while it serves tests), the supervisor cron
// behind it, or the next test that needs it, and the calls its tests had leased are handed back:
// a dead host's results were never recorded, a slow one's are refused by their lease.
import { internal } from "../../_generated/api";
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../../_generated/server";
import { createJudgeCallsIfPairDone } from "./calls";
import { concurrencyRowOf } from "./concurrency";
import { runViewOf, workViewOf } from "./runView";
import { TEST_LIMITS } from "../../lib/limits";

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

/** Starts a host unless one is alive, and its watch unless one runs. */
export async function ensureHost(ctx: MutationCtx): Promise<void> {
  if (!(await hostAlive(ctx, await hostRow(ctx), Date.now()))) await startHost(ctx, false);
  await ensureWatch(ctx);
}

/**
 * How often the watch looks at the host while it serves tests. A look is one small mutation
 * (the host's row, its scheduled job); a death found a look later costs every served test that
 * long without calls out, where the supervisor cron's period cost up to its whole period.
 */
export const HOST_WATCH_MS = 1_000;

async function watchRow(ctx: QueryCtx) {
  return await ctx.db.query("hostWatch").first();
}

/** Starts the host's watch unless its next look is scheduled (or running now). */
export async function ensureWatch(ctx: MutationCtx): Promise<void> {
  const row = await watchRow(ctx);
  if (row) {
    const job = await ctx.db.system.get("_scheduled_functions", row.jobId);
    if (job && (job.state.kind === "pending" || job.state.kind === "inProgress")) return;
  }
  const chain = (row?.chain ?? 0) + 1;
  const jobId = await ctx.scheduler.runAfter(HOST_WATCH_MS, internal.runner.watchHost, { chain });
  if (row) await ctx.db.patch("hostWatch", row._id, { chain, jobId });
  else await ctx.db.insert("hostWatch", { chain, jobId });
}

/**
 * The watch's look: a dead host serving tests is replaced (superviseWorkers); it looks again
 * while a host lives or was just started, and stops once the host has ended with nothing to
 * serve (the next test's ensureHost starts it again).
 */
export async function watchHost(ctx: MutationCtx, chain: number, now: number): Promise<void> {
  const row = await watchRow(ctx);
  if (!row || row.chain !== chain) return; // a newer watch runs
  const watching = (await hostAlive(ctx, await hostRow(ctx), now)) || (await replaceDeadHost(ctx));
  if (!watching) return;
  const jobId = await ctx.scheduler.runAfter(HOST_WATCH_MS, internal.runner.watchHost, { chain });
  await ctx.db.patch("hostWatch", row._id, { jobId });
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
 * Gives the pairs whose answers are all in their judge calls: a worker that died between
 * recording a pair's last answer and its next claim left the pair without them. Only the
 * generation calls marked as awaiting their pair's judge calls are read (record.ts marks them,
 * calls.ts clears them), not every pair's answers: a death costs the few pairs then in progress.
 * A run opened before recordings marked them is swept pair by pair, as before.
 */
export async function sweepPairs(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const run = await runViewOf(ctx, testId);
  if (!run?.running) return;
  const awaiting = run.marksAwaitingJudges
    ? await ctx.db
        .query("calls")
        .withIndex("by_test_awaiting_judges", (q) => q.eq("testId", testId).eq("awaitingJudges", true))
        .take(TEST_LIMITS.maxCallsPerTest)
    : await firstCallOfEachPair(ctx, testId);
  const pairs = new Set<string>();
  for (const call of awaiting) {
    const pair = `${call.personaId}\u0000${call.topicId}`;
    if (pairs.has(pair)) continue;
    pairs.add(pair);
    await createJudgeCallsIfPairDone(ctx, call, run);
  }
}

async function firstCallOfEachPair(ctx: MutationCtx, testId: Id<"tests">): Promise<Doc<"calls">[]> {
  const work = await workViewOf(ctx, testId);
  const calls: Doc<"calls">[] = [];
  for (const persona of work?.configuration.personas ?? [])
    for (const topic of work?.configuration.topics ?? []) {
      const call = await ctx.db
        .query("calls")
        .withIndex("by_test_pair", (q) =>
          q.eq("testId", testId).eq("kind", "generate").eq("personaId", persona.id).eq("topicId", topic.id),
        )
        .first();
      if (call) calls.push(call);
    }
  return calls;
}

/**
 * The dead host's tests, if it served any, have their leased calls handed back and a new host
 * starts (which sweeps their pairs). True when it did.
 */
async function replaceDeadHost(ctx: MutationCtx): Promise<boolean> {
  const served = await servedTests(ctx);
  if (served.length === 0) return false;
  for (const testId of served) await handBackLeases(ctx, testId);
  await startHost(ctx, true);
  return true;
}

/**
 * The supervisor cron (every 30 s), behind the watch: it replaces a dead host serving tests and
 * restarts a watch that stopped while a host lives. True when it replaced the host.
 */
export async function superviseWorkers(ctx: MutationCtx, now: number): Promise<boolean> {
  // The host's row first: a live host's tests are not read (their rows change every report).
  const alive = await hostAlive(ctx, await hostRow(ctx), now);
  const replaced = !alive && (await replaceDeadHost(ctx));
  if (alive || replaced) await ensureWatch(ctx);
  return replaced;
}
