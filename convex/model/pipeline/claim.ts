// Workers and leases (ARCHITECTURE §4 step 4): a test keeps up to `perTestConcurrency` workers
// scheduled, and each worker leases its calls one at a time.
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { internal } from "../../_generated/api";
import type { WorkItem } from "../../validators";
import { readSetting } from "../settings";
import { buildWorkItem } from "./workItem";

/** Schedules workers until the test has `perTestConcurrency` of them or one per pending call. */
export async function ensureWorkers(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.status !== "running") return;
  const concurrency = await readSetting(ctx, "perTestConcurrency");
  if (test.activeWorkers >= concurrency) return;
  const pending = await ctx.db
    .query("calls")
    .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
    .take(concurrency);
  const wanted = Math.min(concurrency, test.activeWorkers + pending.length) - test.activeWorkers;
  if (wanted <= 0) return;
  await ctx.db.patch("tests", testId, { activeWorkers: test.activeWorkers + wanted });
  for (let index = 0; index < wanted; index++) {
    await ctx.scheduler.runAfter(0, internal.runner.work, { testId });
  }
}

/**
 * Leases the test's next pending call to the calling worker, or returns null, in which case the
 * worker ends and is no longer counted. A cancelled or finished test hands out nothing.
 */
export async function claimNext(ctx: MutationCtx, testId: Id<"tests">): Promise<WorkItem | null> {
  const test = await ctx.db.get("tests", testId);
  if (!test) return null;
  const call =
    test.status === "running"
      ? await ctx.db
          .query("calls")
          .withIndex("by_test_status", (q) => q.eq("testId", testId).eq("status", "pending"))
          .first()
      : null;
  if (!call) {
    await ctx.db.patch("tests", testId, { activeWorkers: Math.max(0, test.activeWorkers - 1) });
    return null;
  }
  const attempts = call.attempts + 1;
  const leaseId = `${call._id}:${attempts}`;
  await ctx.db.patch("calls", call._id, {
    status: "leased",
    attempts,
    leaseId,
    leaseExpiresAt: Date.now() + (await readSetting(ctx, "leaseMs")),
  });
  return await buildWorkItem(ctx, test, call, leaseId);
}
