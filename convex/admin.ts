// The admin area (spec part 2 §2, §4, §6-9). Every function here is admin-only on the server;
// figures come from the counters kept as data changes, lists are bounded, and everything is a
// query the page subscribes to, so a job changing state anywhere shows at once.
import { v, type Infer } from "convex/values";
import { internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx, QueryCtx } from "./_generated/server";
import { adminMutation, adminQuery, fail, internalMutation } from "./functions";
import {
  ADMIN_LIST_LIMIT,
  canRetryJob,
  HEALTH_WINDOW_MS,
  isStuckJob,
  isSystemHealthy,
  successRate,
} from "./lib/jobAnalysis";
import * as adminModel from "./core/admin";
import { readCounter } from "./core/counters";
import { concurrencyRowOf } from "./core/pipeline/concurrency";
import { alertKind, jobStatus, testStatus } from "./validators";
import schema from "./schema";
import { pickFields } from "./lib/fields";
import { takeWithinBytes } from "./lib/boundedList";
import { summaryRowOf } from "./core/testSummaries";
import { countedTestOf } from "./core/pipeline/counterRow";

// ---------------------------------------------------------------- overview

export const stats = adminQuery({
  args: {},
  returns: v.object({
    totalUsers: v.number(),
    totalJobs: v.number(),
    activeJobs: v.number(),
    queuedJobs: v.number(),
    processingJobs: v.number(),
    completedJobs: v.number(),
    failedJobs: v.number(),
    cancelledJobs: v.number(),
    totalRevenueCents: v.number(),
    successRate: v.number(),
  }),
  handler: async (ctx) => {
    const [
      totalUsers,
      totalJobs,
      queuedJobs,
      processingJobs,
      completedJobs,
      failedJobs,
      cancelledJobs,
      totalRevenueCents,
    ] = await Promise.all([
      readCounter(ctx, "users"),
      readCounter(ctx, "jobs"),
      readCounter(ctx, "jobs:queued"),
      readCounter(ctx, "jobs:processing"),
      readCounter(ctx, "jobs:completed"),
      readCounter(ctx, "jobs:failed"),
      readCounter(ctx, "jobs:cancelled"),
      readCounter(ctx, "revenueCents"),
    ]);
    return {
      totalUsers,
      totalJobs,
      activeJobs: queuedJobs + processingJobs,
      queuedJobs,
      processingJobs,
      completedJobs,
      failedJobs,
      cancelledJobs,
      totalRevenueCents,
      successRate: successRate(completedJobs, totalJobs),
    };
  },
});

/** Processing jobs read for the stuck check; the dispatcher keeps far fewer running. */
const PROCESSING_SCAN_LIMIT = 500;
/** Queued jobs read for the backlog check; ten or more already means unhealthy. */
const QUEUED_SCAN_LIMIT = 1000;

/**
 * Queued, processing and stuck jobs. `now` comes from the page (rounded to the minute) because
 * a query must not read the clock; healthy means no stuck jobs and fewer than 10 jobs queued
 * among those created in the last 24 hours.
 */
export const health = adminQuery({
  args: { now: v.number() },
  returns: v.object({
    queuedJobs: v.number(),
    processingJobs: v.number(),
    stuckJobs: v.number(),
    stuck: v.array(v.object({ _id: v.id("jobs"), testName: v.string(), since: v.number() })),
    isHealthy: v.boolean(),
    lastUpdated: v.number(),
  }),
  handler: async (ctx, { now }) => {
    const since = now - HEALTH_WINDOW_MS;
    const queued = await ctx.db
      .query("jobs")
      .withIndex("by_status", (q) => q.eq("status", "queued").gte("_creationTime", since))
      .take(QUEUED_SCAN_LIMIT);
    const processing = await ctx.db
      .query("jobs")
      .withIndex("by_status", (q) => q.eq("status", "processing"))
      .take(PROCESSING_SCAN_LIMIT);
    const stuck = processing.filter((job) => isStuckJob(job, now));
    const figures = {
      queuedJobs: queued.length,
      processingJobs: await readCounter(ctx, "jobs:processing"),
      stuckJobs: stuck.length,
    };
    return {
      ...figures,
      stuck: stuck.map((job) => ({ _id: job._id, testName: job.testName, since: job.startedAt ?? job._creationTime })),
      isHealthy: isSystemHealthy(figures),
      lastUpdated: now,
    };
  },
});

/** Running tests whose gateway concurrency System Health lists (the processing jobs' limit). */
const GATEWAY_LOAD_TESTS = 50;

/**
 * The gateway as the running tests see it: each one's current concurrency (its adaptive
 * controller's level and its calls in flight, lib/concurrency.ts) and what the gateway answered
 * it, with the share of exchanges answered 429 over all of them.
 */
export const gatewayLoad = adminQuery({
  args: {},
  returns: v.object({
    tests: v.array(
      v.object({
        testId: v.id("tests"),
        testName: v.string(),
        level: v.number(),
        inFlight: v.number(),
        exchanges: v.number(),
        rateLimited: v.number(),
        updatedAt: v.number(),
      }),
    ),
    exchanges: v.number(),
    rateLimited: v.number(),
    /** Exchanges answered 429, 0-1; null before any exchange. */
    rateLimitedShare: v.union(v.number(), v.null()),
  }),
  handler: async (ctx) => {
    const processing = await ctx.db
      .query("jobs")
      .withIndex("by_status", (q) => q.eq("status", "processing"))
      .take(GATEWAY_LOAD_TESTS);
    const tests = [];
    for (const job of processing) {
      const row = await concurrencyRowOf(ctx, job.testId);
      if (!row) continue;
      tests.push({
        testId: job.testId,
        testName: job.testName,
        level: Math.floor(row.level),
        inFlight: row.inFlight,
        exchanges: row.exchanges,
        rateLimited: row.rateLimited,
        updatedAt: row.updatedAt,
      });
    }
    const exchanges = tests.reduce((sum, test) => sum + test.exchanges, 0);
    const rateLimited = tests.reduce((sum, test) => sum + test.rateLimited, 0);
    return { tests, exchanges, rateLimited, rateLimitedShare: exchanges > 0 ? rateLimited / exchanges : null };
  },
});

// ---------------------------------------------------------------- users

const adminUser = v.object({
  _id: v.id("users"),
  _creationTime: v.number(),
  email: v.string(),
  fullName: v.union(v.string(), v.null()),
  isAdmin: v.boolean(),
  testCount: v.number(),
  totalSpentCents: v.number(),
  lastSignInAt: v.union(v.number(), v.null()),
});

/** The 100 newest accounts, and how many there are. */
export const listUsers = adminQuery({
  args: {},
  returns: v.object({ users: v.array(adminUser), total: v.number() }),
  handler: async (ctx) => {
    const { rows: users } = await takeWithinBytes(ctx.db.query("users").order("desc"), ADMIN_LIST_LIMIT);
    return {
      users: users.map((user) => ({
        _id: user._id,
        _creationTime: user._creationTime,
        email: user.email ?? "",
        fullName: user.fullName ?? null,
        isAdmin: user.isAdmin === true,
        testCount: user.testCount ?? 0,
        totalSpentCents: user.totalSpentCents ?? 0,
        lastSignInAt: user.lastSignInAt ?? null,
      })),
      total: await readCounter(ctx, "users"),
    };
  },
});

export const setAdmin = adminMutation({
  args: { userId: v.id("users"), isAdmin: v.boolean() },
  returns: v.null(),
  handler: async (ctx, { userId, isAdmin }) => {
    await adminModel.setAdmin(ctx, ctx.user, userId, isAdmin);
    return null;
  },
});

/** Deletes an account and its data; payments and credit transactions are kept. */
export const deleteUser = adminMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { userId }) => {
    await adminModel.deleteUserAccount(ctx, ctx.user, userId);
    return null;
  },
});

export const deleteUserData = internalMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, { userId }) => {
    const more = await adminModel.deleteUserDataBatch(ctx, userId);
    if (more) await ctx.scheduler.runAfter(0, internal.admin.deleteUserData, { userId });
    return null;
  },
});

// ---------------------------------------------------------------- jobs

/** The job fields an admin row shows as stored; the optional times and error become null. */
const JOB_ROW_FIELDS = [
  "testId",
  "userId",
  "testName",
  "status",
  "priority",
  "retryCount",
  "maxRetries",
  "amountCents",
] as const;

const adminJob = schema.tables.jobs.validator.pick(...JOB_ROW_FIELDS).extend({
  _id: v.id("jobs"),
  _creationTime: v.number(),
  userEmail: v.union(v.string(), v.null()),
  startedAt: v.union(v.number(), v.null()),
  completedAt: v.union(v.number(), v.null()),
  errorMessage: v.union(v.string(), v.null()),
  /** Why Retry (and Force Restart) is refused: the test has no payment standing; null when it may run. */
  retryRefusal: v.union(v.string(), v.null()),
});

async function emailsOf(ctx: QueryCtx, userIds: Id<"users">[]): Promise<Map<Id<"users">, string | null>> {
  const emails = new Map<Id<"users">, string | null>();
  for (const userId of new Set(userIds)) emails.set(userId, (await ctx.db.get("users", userId))?.email ?? null);
  return emails;
}

/**
 * The refusal of a failed or cancelled job (the ones Retry is offered for); others read nothing.
 * Without the test at hand it reads the test's summary row, never the test with its configuration.
 */
async function retryRefusalOf(ctx: QueryCtx, job: Doc<"jobs">, test?: Doc<"tests"> | null): Promise<string | null> {
  if (!canRetryJob(job.status) || job.amountCents <= 0) return null;
  if (test !== undefined) return await adminModel.unpaidRunReason(ctx, job, test);
  const summary = await summaryRowOf(ctx, job.testId);
  return await adminModel.unpaidRunReason(
    ctx,
    job,
    summary === null ? null : { _id: summary.testId, awaitingPayment: summary.awaitingPayment },
  );
}

function jobRow(
  job: Doc<"jobs">,
  emails: Map<Id<"users">, string | null>,
  retryRefusal: string | null,
): Infer<typeof adminJob> {
  return {
    ...pickFields(job, JOB_ROW_FIELDS),
    _id: job._id,
    _creationTime: job._creationTime,
    userEmail: emails.get(job.userId) ?? null,
    startedAt: job.startedAt ?? null,
    completedAt: job.completedAt ?? null,
    errorMessage: job.errorMessage ?? null,
    retryRefusal,
  };
}

/** The newest jobs (100 by default), optionally of one status, and how many there are. */
export const listJobs = adminQuery({
  args: { status: v.optional(jobStatus), limit: v.optional(v.number()) },
  returns: v.object({ jobs: v.array(adminJob), total: v.number() }),
  handler: async (ctx, { status, limit }) => {
    const count = Math.max(1, Math.min(ADMIN_LIST_LIMIT, Math.floor(limit ?? ADMIN_LIST_LIMIT)));
    const { rows: jobs } = await takeWithinBytes(
      status
        ? ctx.db
            .query("jobs")
            .withIndex("by_status", (q) => q.eq("status", status))
            .order("desc")
        : ctx.db.query("jobs").order("desc"),
      count,
    );
    const emails = await emailsOf(
      ctx,
      jobs.map((job) => job.userId),
    );
    return {
      jobs: await Promise.all(jobs.map(async (job) => jobRow(job, emails, await retryRefusalOf(ctx, job)))),
      total: await readCounter(ctx, status ? `jobs:${status}` : "jobs"),
    };
  },
});

/** One job with what its details panel and error analysis need; null once it is deleted. */
export const jobDetails = adminQuery({
  args: { jobId: v.id("jobs") },
  returns: v.union(
    v.null(),
    v.object({
      job: adminJob,
      progressData: v.any(),
      test: v.union(
        v.null(),
        v.object({
          status: testStatus,
          responsesCount: v.number(),
          evaluationsCount: v.number(),
          expectedResponses: v.number(),
          expectedEvaluations: v.number(),
          failedCalls: v.number(),
          lastCallError: v.union(v.string(), v.null()),
        }),
      ),
    }),
  ),
  handler: async (ctx, { jobId }) => {
    const job = await ctx.db.get("jobs", jobId);
    if (!job) return null;
    const stored = await ctx.db.get("tests", job.testId);
    const test = stored && (await countedTestOf(ctx, stored));
    return {
      job: jobRow(job, await emailsOf(ctx, [job.userId]), await retryRefusalOf(ctx, job, test)),
      progressData: job.progressData ?? null,
      test: test
        ? {
            status: test.status,
            responsesCount: test.responsesCount,
            evaluationsCount: test.evaluationsCount,
            expectedResponses: test.expectedResponses,
            expectedEvaluations: test.expectedEvaluations,
            failedCalls: test.failedCalls,
            lastCallError: test.lastCallError ?? null,
          }
        : null,
    };
  },
});

/** An admin action on one job: the job is looked up (NOT_FOUND when it is gone), then acted on. */
function jobAction(act: (ctx: MutationCtx, job: Doc<"jobs">) => Promise<void>) {
  return adminMutation({
    args: { jobId: v.id("jobs") },
    returns: v.null(),
    handler: async (ctx, { jobId }) => {
      await act(ctx, await adminModel.requireJob(ctx, jobId));
      return null;
    },
  });
}

export const retryJob = jobAction(adminModel.retryJob);
export const cancelJob = jobAction(adminModel.cancelJob);
export const forceRestartJob = jobAction((ctx, job) => adminModel.forceRestartJob(ctx, job));

export const continueRestart = internalMutation({
  args: { jobId: v.id("jobs"), restartToken: v.string(), budget: v.number() },
  returns: v.null(),
  handler: async (ctx, { jobId, restartToken, budget }) => {
    await adminModel.continueRestart(ctx, jobId, restartToken, budget);
    return null;
  },
});

export const setJobPriority = adminMutation({
  args: { jobId: v.id("jobs"), priority: v.number() },
  returns: v.null(),
  handler: async (ctx, { jobId, priority }) => {
    await adminModel.setJobPriority(ctx, await adminModel.requireJob(ctx, jobId), priority);
    return null;
  },
});

/** Deletes the job with its test and the test's rows (money records are kept). */
export const deleteJob = adminMutation({
  args: { jobId: v.id("jobs") },
  returns: v.null(),
  handler: async (ctx, { jobId }) => {
    await adminModel.deleteJobWithTest(ctx, await adminModel.requireJob(ctx, jobId));
    return null;
  },
});

// ---------------------------------------------------------------- alerts

const ALERTS_LIMIT = 50;

/** The cron's unresolved stuck-job alerts, newest first, with their job's current state. */
export const listAlerts = adminQuery({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("alerts"),
      _creationTime: v.number(),
      kind: alertKind,
      jobId: v.optional(v.id("jobs")),
      message: v.string(),
      jobStatus: v.union(jobStatus, v.null()),
    }),
  ),
  handler: async (ctx) => {
    const { rows: alerts } = await takeWithinBytes(
      ctx.db
        .query("alerts")
        .withIndex("by_resolved", (q) => q.eq("resolved", false))
        .order("desc"),
      ALERTS_LIMIT,
    );
    const rows = [];
    for (const alert of alerts) {
      const job = alert.jobId ? await ctx.db.get("jobs", alert.jobId) : null;
      rows.push({
        _id: alert._id,
        _creationTime: alert._creationTime,
        kind: alert.kind,
        jobId: alert.jobId,
        message: alert.message,
        jobStatus: job?.status ?? null,
      });
    }
    return rows;
  },
});

export const resolveAlert = adminMutation({
  args: { alertId: v.id("alerts") },
  returns: v.null(),
  handler: async (ctx, { alertId }) => {
    const alert = await ctx.db.get("alerts", alertId);
    if (!alert) fail("NOT_FOUND", "Alert not found.");
    if (!alert.resolved) await ctx.db.patch("alerts", alertId, { resolved: true });
    return null;
  },
});
