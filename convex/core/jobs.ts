// Job state changes go through here so the admin counters stay equal to the rows.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { JobStatus } from "../validators";
import { incrementCounter, type CounterName } from "./counters";

export const DEFAULT_MAX_RETRIES = 3;

function statusCounter(status: JobStatus): CounterName {
  return `jobs:${status}`;
}

export async function insertJob(
  ctx: MutationCtx,
  job: Omit<Doc<"jobs">, "_id" | "_creationTime" | "retryCount" | "maxRetries" | "priority"> & { priority?: number },
): Promise<Id<"jobs">> {
  const jobId = await ctx.db.insert("jobs", { priority: 0, retryCount: 0, maxRetries: DEFAULT_MAX_RETRIES, ...job });
  await incrementCounter(ctx, "jobs", 1);
  await incrementCounter(ctx, statusCounter(job.status), 1);
  return jobId;
}

export async function setJobStatus(
  ctx: MutationCtx,
  job: Doc<"jobs">,
  status: JobStatus,
  patch: Partial<Omit<Doc<"jobs">, "_id" | "_creationTime" | "status">> = {},
): Promise<void> {
  await ctx.db.patch("jobs", job._id, { ...patch, status });
  if (job.status !== status) {
    await incrementCounter(ctx, statusCounter(job.status), -1);
    await incrementCounter(ctx, statusCounter(status), 1);
  }
}

export async function deleteJob(ctx: MutationCtx, job: Doc<"jobs">): Promise<void> {
  await ctx.db.delete("jobs", job._id);
  await incrementCounter(ctx, "jobs", -1);
  await incrementCounter(ctx, statusCounter(job.status), -1);
}

export async function jobOfTest(ctx: MutationCtx, testId: Id<"tests">): Promise<Doc<"jobs"> | null> {
  return await ctx.db
    .query("jobs")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique();
}
