// The scheduled pipeline's registered functions (ARCHITECTURE §4): dispatch, the pool worker and
// its claims, recordings and reports, and the crons that keep it healthy. What each does lives in
// core/pipeline/ (the worker itself in core/pipeline/worker.ts).
import { v } from "convex/values";
import { internalAction, internalMutation, internalQuery } from "./functions";
import { copyAnswerBatch } from "./core/pipeline/answerCopy";
import { createGenerationCallBatch, createJudgeCallsOfPairsDone } from "./core/pipeline/calls";
import { claimBatch as claimBatch_, endWorker } from "./core/pipeline/claim";
import { concurrencyShare, startingConcurrency, storeConcurrency } from "./core/pipeline/concurrency";
import { dispatchQueued } from "./core/pipeline/dispatch";
import { recordOutcome } from "./core/pipeline/record";
import { foldIfDue } from "./core/pipeline/runCounters";
import { alertStuckJobs, cancelTestsWithoutProgress, reclaimExpiredLeases } from "./core/pipeline/recovery";
import { CLAIM_BATCH } from "./core/pipeline/worker";
import {
  beatHost,
  continueHost as continueHost_,
  endHost as endHost_,
  ensureHost as ensureHost_,
  handBackLeases,
  servedTests as servedTests_,
  superviseWorkers as superviseWorkers_,
  sweepPairs,
  watchHost as watchHost_,
} from "./core/pipeline/host";
import { runHost } from "./core/pipeline/hostLoop";
import { keepGenerations } from "./core/pipeline/callGenerations";
import { cancelUnmadeCallBatch } from "./core/pipeline/unmadeCalls";
import type { Doc } from "./_generated/dataModel";
import { settleInFlightCap } from "./lib/claimOrder";
import { expectedCallsOf } from "./lib/progress";
import { readSetting } from "./core/settings";
import { catalogLatencies, recordModelLatencies } from "./core/modelLatencies";
import { callOutcome, callsInSight, workerReport, workItem } from "./validators";

export const dispatch = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await dispatchQueued(ctx),
});

/** The next batch of a starting test's generation calls (see createGenerationCallBatch). */
export const createCalls = internalMutation({
  args: { testId: v.id("tests"), cursor: v.number(), fresh: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { testId, cursor, fresh }) => {
    await createGenerationCallBatch(ctx, testId, cursor, fresh);
    return null;
  },
});

/** The next batch of a starting re-judging's copied answers and judge calls (see copyAnswerBatch). */
export const copyAnswers = internalMutation({
  args: { testId: v.id("tests"), cursor: v.number() },
  returns: v.null(),
  handler: async (ctx, { testId, cursor }) => {
    await copyAnswerBatch(ctx, testId, cursor);
    return null;
  },
});

/** Leases up to `max` pending calls to a pool worker (its free slots). */
export const claimBatch = internalMutation({
  args: {
    testId: v.id("tests"),
    max: v.number(),
    /** At most this many generation calls (a test set to stop when settled: lib/claimOrder.ts). */
    maxGenerate: v.optional(v.number()),
    /**
     * Generation calls recorded whose pairs have no call out at the worker: their pairs get their
     * judge calls in this claim, which leases them at once (judge calls are claimed first).
     */
    pairsDone: v.optional(v.array(v.id("calls"))),
    /**
     * The worker starts after one died: every pair whose answers are in gets its judge calls first
     * (in the claim, not in a report beside the claims: it read every pair's calls as they leased them).
     */
    sweep: v.optional(v.boolean()),
  },
  returns: v.array(workItem),
  handler: async (ctx, { testId, max, maxGenerate, pairsDone, sweep }) => {
    if (sweep) await sweepPairs(ctx, testId);
    return await claimBatch_(ctx, testId, Math.min(max, CLAIM_BATCH), maxGenerate, pairsDone);
  },
});

/**
 * Records a landed call in its own transaction (core/pipeline/record.ts). `concurrency` is the
 * test's calls in flight, for the time remaining. False when its lease was no longer current.
 */
export const record = internalMutation({
  args: {
    callId: v.id("calls"),
    leaseId: v.string(),
    outcome: callOutcome,
    concurrency: v.optional(v.number()),
  },
  returns: v.boolean(),
  handler: async (ctx, { callId, leaseId, outcome, concurrency }) =>
    await recordOutcome(ctx, callId, leaseId, outcome, concurrency),
});

/**
 * Records the calls a worker saw land while its last batches were out, in one transaction
 * (core/pipeline/recordBatcher.ts bounds it in rows and bytes), each as `record` would. Sent
 * again after a failure it changes nothing already recorded (idempotent by lease).
 */
const callGeneration = v.object({ callId: v.id("calls"), leaseId: v.string(), generationId: v.string() });

export const recordBatch = internalMutation({
  args: {
    results: v.array(v.object({ callId: v.id("calls"), leaseId: v.string(), outcome: callOutcome })),
    concurrency: v.optional(v.number()),
    /** The generation ids of the test's requests sent since (core/pipeline/callGenerations.ts): kept at once. */
    generations: v.optional(v.object({ testId: v.id("tests"), started: v.array(callGeneration) })),
  },
  returns: v.array(v.boolean()),
  handler: async (ctx, { results, concurrency, generations }) => {
    if (generations) await keepGenerations(ctx, generations.testId, generations.started);
    const recorded: boolean[] = [];
    for (const { callId, leaseId, outcome } of results)
      recorded.push(await recordOutcome(ctx, callId, leaseId, outcome, concurrency));
    return recorded;
  },
});

/**
 * A pool worker's report, about once a second: its controller's state is stored for the admin
 * and its next chunk (with a count of its reports of judge results, which the jury statistics'
 * poll compares against: the report never reads or writes the statistics' row), the test's
 * progress is folded when due, and it learns whether the test still runs. It reads no row a
 * recording, the statistics or the dispatcher write while the run goes on: the deltas it folds
 * are those created before `settledBefore`, the time its worker sent its oldest recording still
 * out, so no recording in flight inserts into the range it reads; its share of the
 * deployment's gateway calls (from the jobs the dispatcher writes) is read by the worker in a
 * query (gatewayShare).
 */
export const beat = internalMutation({
  args: {
    testId: v.id("tests"),
    ...workerReport.fields,
    /** Judge results were recorded since the last report. */
    judged: v.boolean(),
    /** Generation calls recorded since the last report: their pairs get judge calls once done. */
    generated: v.optional(v.array(v.id("calls"))),
    /**
     * When (worker's clock) the worker sent its oldest recording still out, or the report's own
     * time when none is out: every delta created before it is committed.
     */
    settledBefore: v.optional(v.number()),
    /** Its calls in flight and the gateway's observed latencies, for the time left. */
    sight: v.optional(callsInSight),
    /** The worker starts after one died: every pair whose answers are in gets its judge calls. */
    sweep: v.optional(v.boolean()),
    /** The generation ids of the requests it sent since its last report (core/pipeline/callGenerations.ts). */
    generations: v.optional(v.array(callGeneration)),
  },
  returns: v.object({ running: v.boolean() }),
  handler: async (ctx, { testId, judged, generated, settledBefore, sight, sweep, generations, ...report }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test) return { running: false };
    await keepGenerations(ctx, testId, generations ?? []);
    // Judge results are counted on the worker's own row; the worker's statistics look reads the count (core/pipeline/workerLook.ts).
    await storeConcurrency(ctx, testId, report, judged);
    if (test.status !== "running") return { running: false };
    if (sweep) await sweepPairs(ctx, testId);
    // Pairs whose answers are all in get their judge calls here when the worker no longer claims
    // (a claim gives them theirs as it leases: claimBatch), not in the recordings (which would each
    // read the other calls of their pair while those are recorded too).
    await createJudgeCallsOfPairsDone(ctx, generated ?? []);
    // It never ends the test: an ending writes the owner's figures (core/userStats.ts), which every
    // test's end writes too, so a report that ended its test conflicted with the other tests' ends
    // (runner:beat ← users by runner:endWork). The worker ends it through endWork once nothing is left.
    await foldIfDue(ctx, test, Math.max(1, report.inFlight), settledBefore, sight);
    return { running: true };
  },
});

/** One batch of an ended test's pending calls marked cancelled (core/pipeline/unmadeCalls.ts). */
export const cancelUnmadeCalls = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    await cancelUnmadeCallBatch(ctx, testId);
    return null;
  },
});

/** Each running test's share of the deployment's cap on gateway calls in flight (a worker's, after its report). */
export const gatewayShare = internalQuery({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await concurrencyShare(ctx),
});

/**
 * A pool worker has nothing left to do: it is no longer counted, and the test ends if it is done.
 * `runsFinalStats`: the worker runs the ended test's full statistics itself (core/jury/finalRun.ts),
 * not a scheduled job per ending test; `finalStats` says whether it owes them.
 */
export const endWork = internalMutation({
  args: {
    testId: v.id("tests"),
    /** The gateway latencies the worker observed, by `kind:model` key: the catalog's latencies. */
    latencies: v.optional(v.array(v.object({ key: v.string(), averageMs: v.number() }))),
    runsFinalStats: v.optional(v.boolean()),
  },
  returns: v.object({ finalStats: v.boolean() }),
  handler: async (ctx, { testId, latencies, runsFinalStats }) => {
    const finalStats = await endWorker(ctx, testId, runsFinalStats === true ? "caller" : "scheduled");
    if (latencies) await recordModelLatencies(ctx, latencies, Date.now());
    return { finalStats };
  },
});

/** A test set to stop when settled keeps few calls in flight: its share of its pairs' calls. */
function settleCapOf(configuration: Doc<"tests">["configuration"]): number {
  const pairs = Math.max(1, configuration.personas.length * configuration.topics.length);
  const calls = expectedCallsOf(configuration);
  return settleInFlightCap((calls.generation + calls.judging) / pairs, pairs);
}

export const workerSettings = internalQuery({
  args: { testId: v.id("tests") },
  returns: v.object({
    start: v.number(),
    share: v.number(),
    resume: v.optional(v.object({ level: v.number(), backedOff: v.boolean(), ceiling: v.optional(v.number()) })),
    /** The catalog's latency of each of the test's models by `kind:model` key, until the run sees its own. */
    latencyPriors: v.optional(v.array(v.object({ key: v.string(), latencyMs: v.number() }))),
    /** The test stops when settled: its claims take judge calls first, its looks are every second. */
    stopsWhenSettled: v.optional(v.boolean()),
    /** Its generation calls per pair. */
    generators: v.optional(v.number()),
    /** Most calls in flight (a test set to stop when settled: lib/claimOrder.ts settleInFlightCap). */
    inFlightCap: v.optional(v.number()),
  }),
  handler: async (ctx, { testId }) => {
    const test = await ctx.db.get("tests", testId);
    return {
      ...(await startingConcurrency(ctx, testId)),
      ...(test
        ? {
            stopsWhenSettled: test.configuration.stopWhenSettled !== undefined,
            generators: test.configuration.generatorModels.length,
            ...(test.configuration.stopWhenSettled === undefined
              ? {}
              : { inFlightCap: settleCapOf(test.configuration) }),
            latencyPriors: Object.entries(
              await catalogLatencies(ctx, {
                generators: test.configuration.generatorModels.map((model) => model.id),
                judges: test.configuration.evaluatorModels.map((model) => model.id),
              }),
            ).map(([key, latencyMs]) => ({ key, latencyMs })),
          }
        : {}),
    };
  },
});

/**
 * The worker host (core/pipeline/hostLoop.ts): one action serving every running test's pool
 * worker, each with many gateway calls in flight, recorded in batches as they land.
 */
export const host = internalAction({
  args: { epoch: v.number(), recovering: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { epoch, recovering }) => {
    await runHost(ctx, epoch, recovering);
    return null;
  },
});

export const hostSettings = internalQuery({
  args: {},
  returns: v.object({ chunkMs: v.number() }),
  handler: async (ctx) => ({ chunkMs: await readSetting(ctx, "workerChunkMs") }),
});

/** A test wants serving: a host is started unless one is alive. */
export const ensureHost = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await ensureHost_(ctx);
    return null;
  },
});

/** The host's heartbeat; false when another host replaced it. */
export const hostBeat = internalMutation({
  args: { epoch: v.number() },
  returns: v.boolean(),
  handler: async (ctx, { epoch }) => await beatHost(ctx, epoch),
});

/** The tests the host serves (those marked when they needed a worker). */
export const servedTests = internalQuery({
  args: {},
  returns: v.array(v.id("tests")),
  handler: async (ctx) => await servedTests_(ctx),
});

/** The host had nothing to serve: true when it ends (no test asked meanwhile). */
export const endHost = internalMutation({
  args: { epoch: v.number() },
  returns: v.boolean(),
  handler: async (ctx, { epoch }) => await endHost_(ctx, epoch),
});

/** The host's time is up: it continues in a new action. */
export const continueHost = internalMutation({
  args: { epoch: v.number() },
  returns: v.null(),
  handler: async (ctx, { epoch }) => {
    await continueHost_(ctx, epoch);
    return null;
  },
});

/** A test's worker failed for good: its leased calls go back to pending for the next one. */
export const handBack = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.number(),
  handler: async (ctx, { testId }) => await handBackLeases(ctx, testId),
});

// ---------------------------------------------------------------- crons

export const reclaimLeases = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await reclaimExpiredLeases(ctx, Date.now()),
});

/** Tests with no progress for an hour are cancelled, unpaid drafts included (Cancelled - Timeout). */
export const cancelStaleTests = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await cancelTestsWithoutProgress(ctx, Date.now()),
});

/** The cron behind the watch: a dead worker host is replaced and its tests' calls handed back. */
export const superviseWorkers = internalMutation({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) => await superviseWorkers_(ctx, Date.now()),
});

/** The host's watch: a look every HOST_WATCH_MS while it serves tests (core/pipeline/host.ts watchHost). */
export const watchHost = internalMutation({
  args: { chain: v.number() },
  returns: v.null(),
  handler: async (ctx, { chain }) => {
    await watchHost_(ctx, chain, Date.now());
    return null;
  },
});

/** Jobs processing for over an hour are reported once each as stuck, for the admin page. */
export const reportStuckJobs = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await alertStuckJobs(ctx, Date.now()),
});
