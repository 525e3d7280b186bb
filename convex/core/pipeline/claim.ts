// Workers and leases (ARCHITECTURE §4 step 4): a running test has one pool worker, served by the
// worker host (core/pipeline/host.ts), keeping many calls in flight; calls are leased in batches.
import type { Doc, Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import type { WorkItem } from "../../validators";
import { claimKinds } from "../../lib/claimOrder";
import { ensureJuryStatsRow } from "../jury/poll";
import type { FinalStatsRunner } from "../jury/finalRun";
import { readSetting } from "../settings";
import { finishIfDone } from "./finish";
import { foldCounters } from "./runCounters";
import { serveTest, unserveTest } from "./host";
import { workViewOf, type WorkConfiguration } from "./runView";
import { buildWorkItem } from "./workItem";
import { createJudgeCallsOfPairsDone } from "./calls";
import { priorGenerationOf } from "./callGenerations";

/**
 * Gives the running test a pool worker when it has none and a pending call: the worker host
 * (core/pipeline/host.ts) serves it. Reads the call index only when a worker is missing, so
 * recordings can call it freely. With `perTestConcurrency` 0 no worker runs (tests that play the
 * worker themselves).
 */
export async function ensureWorkers(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running") return;
  if ((await readSetting(ctx, "perTestConcurrency")) <= 0) return;
  if (test.activeWorkers > 0) return;
  const pending = await ctx.db
    .query("calls")
    .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
    .first();
  if (!pending) return;
  await ctx.db.patch("tests", testId, { activeWorkers: 1 });
  await serveTest(ctx, testId);
  // Its worker looks at its jury statistics after its reports (workerLook.ts): their row exists.
  await ensureJuryStatsRow(ctx, testId);
}

async function lease(
  ctx: MutationCtx,
  config: WorkConfiguration,
  call: Doc<"calls">,
  leaseMs: number,
): Promise<WorkItem> {
  const attempts = call.attempts + 1;
  const leaseId = `${call._id}:${attempts}`;
  const priorGeneration = await priorGenerationOf(ctx, call);
  await ctx.db.patch("calls", call._id, { status: "leased", attempts, leaseId, leaseExpiresAt: Date.now() + leaseMs });
  const item = await buildWorkItem(ctx, config, call, leaseId);
  return priorGeneration === undefined ? item : { ...item, priorGeneration };
}

/**
 * A worker is done with the test: no longer counted; the test ends if nothing is left. True when
 * it ended and the worker runs its full statistics itself (`finalStats: "caller"`).
 */
export async function endWorker(
  ctx: MutationCtx,
  testId: Id<"tests">,
  finalStats: FinalStatsRunner = "scheduled",
): Promise<boolean> {
  const test = await ctx.db.get("tests", testId);
  if (!test) return false;
  await ctx.db.patch("tests", testId, { activeWorkers: Math.max(0, test.activeWorkers - 1) });
  await unserveTest(ctx, testId);
  // Its last results are shown at once (between folds the row lags by up to a second).
  await foldCounters(ctx, testId);
  const statsOwed = await finishIfDone(ctx, testId, finalStats);
  // A call handed back (reclaimed, or its missing answers asked for again) after this worker
  // last looked still gets a worker.
  await ensureWorkers(ctx, testId);
  return statsOwed;
}

/**
 * Leases up to `max` of the test's pending calls at once (a pool worker's free slots): its judge
 * calls first, then its answers, each oldest first (lib/claimOrder.ts).
 * Returns none when the test no longer runs or has nothing pending; the worker then lets its
 * calls land and ends through endWorker.
 */
export async function claimBatch(
  ctx: MutationCtx,
  testId: Id<"tests">,
  max: number,
  /** At most this many generation calls (a test set to stop when settled: its pairs in progress). */
  maxGenerate = Infinity,
  /** Recorded generation calls whose pairs get their judge calls first (createJudgeCallsOfPairsDone). */
  pairsDone: readonly Id<"calls">[] = [],
): Promise<WorkItem[]> {
  // The run and work rows, not the test's row, which the worker's report folds into meanwhile.
  const run = await workViewOf(ctx, testId);
  if (!run?.running) return [];
  // The pairs' judge calls are made here rather than by a report the claims would wait for (a
  // claim reads the pending judge calls to their end, where a report inserting them conflicted),
  // and leased in the same transaction: judging starts as soon as a pair's answers are in.
  if (pairsDone.length > 0) await createJudgeCallsOfPairsDone(ctx, pairsDone);
  if (max <= 0) return [];
  const kinds = claimKinds();
  const calls: Doc<"calls">[] = [];
  for (const kind of kinds) {
    const wanted = Math.min(max - calls.length, kind === "generate" ? maxGenerate : Infinity);
    if (wanted <= 0) continue;
    calls.push(
      ...(await ctx.db
        .query("calls")
        .withIndex("by_test_kind_status", (q) => q.eq("testId", testId).eq("kind", kind).eq("status", "pending"))
        .take(wanted)),
    );
  }
  const leaseMs = await readSetting(ctx, "leaseMs");
  const items: WorkItem[] = [];
  for (const call of calls) items.push(await lease(ctx, run.configuration, call, leaseMs));
  return items;
}
