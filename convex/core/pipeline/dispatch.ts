// Starting queued jobs (ARCHITECTURE §4 step 3): by priority, then age, up to the global limit
// of processing jobs; a started job's test runs and its first calls are created.
import type { Doc } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { setJobStatus } from "../jobs";
import { writeMonitorRowIfDue } from "../monitorProgress";
import { syncTestSummary } from "../testSummaries";
import { readSetting } from "../settings";
import { copyAnswerBatch } from "./answerCopy";
import { createGenerationCallBatch } from "./calls";
import { dispatchSoon, takeDispatchTicket } from "./dispatchSoon";

/**
 * Starts the next queued job by priority (highest first), then age, while fewer than the global
 * limit are processing: marks it processing and creates its first batch of calls (the rest
 * follow in their own transactions), which schedules its workers. One job per transaction, so
 * ten large tests queued at once never share one; after taking a job off the queue it schedules
 * another dispatch for the next. Returns how many queued jobs it took (0 or 1): started, or
 * cancelled when their test was.
 */
export async function dispatchQueued(ctx: MutationCtx): Promise<number> {
  await takeDispatchTicket(ctx);
  const limit = await readSetting(ctx, "maxProcessingJobs");
  const processing = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "processing"))
    .take(limit);
  if (processing.length >= limit) return 0;
  const top = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "queued"))
    .order("desc")
    .first();
  if (!top) return 0;
  // Within one priority the index keeps creation order: oldest first.
  const job = await ctx.db
    .query("jobs")
    .withIndex("by_status_priority", (q) => q.eq("status", "queued").eq("priority", top.priority))
    .first();
  if (!job) return 0;
  // The next job starts once this one's calls all exist: its last batch asks for the dispatch
  // (createGenerationCallBatch). Ten tests queued at once had ten batch chains, the dispatches
  // and their hosts' starts running together: 8 of Starter's 8 scheduled-job slots.
  if (!(await startJob(ctx, job))) await dispatchSoon(ctx);
  return 1;
}

/** Starts the job; true when its calls are still being created (the last batch dispatches next). */
async function startJob(ctx: MutationCtx, job: Doc<"jobs">): Promise<boolean> {
  const now = Date.now();
  const test = await ctx.db.get("tests", job.testId);
  if (!test || test.status === "cancelled") {
    await setJobStatus(ctx, job, "cancelled", { completedAt: now, errorMessage: "The test was cancelled or deleted." });
    return false;
  }
  await setJobStatus(ctx, job, "processing", { startedAt: now });
  const opened = {
    status: "running" as const,
    startedAt: test.startedAt ?? now,
    lastProgressAt: now,
    progress: {
      currentPhase: "Starting Response Generation",
      percentage: 0,
      details: `Expected ${test.expectedResponses} responses, found 0`,
    },
    callCursor: 0,
  };
  await ctx.db.patch("tests", test._id, opened);
  const running = { ...test, ...opened };
  await syncTestSummary(ctx, running);
  // The monitor reads its row from the run's first moment: without it, it read the test's answers
  // as they arrived and re-ran with each until the first fold wrote the row.
  await writeMonitorRowIfDue(ctx, running, now, now);
  // A re-judging makes no generation call: it copies the original's answers (core/pipeline/answerCopy).
  if (test.rejudgeOf !== undefined) {
    await copyAnswerBatch(ctx, test._id, 0);
    return false;
  }
  // Only a retried job's test has calls already (a restart deletes them before queueing).
  return await createGenerationCallBatch(ctx, test._id, 0, test.totalCalls === 0);
}
