// The admin powers over jobs and accounts (spec part 2 §4, §6): retry, cancel, force restart and
// account deletion. Job state changes go through setJobStatus so the counters stay right; test
// deletion is core/testDeletion.ts's cascade.
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { fail } from "../functions";
import { canCancelJob, canRetryJob } from "../lib/jobAnalysis";
import { takeWithinBytes } from "../lib/boundedList";
import { checkWholeNumber, JOB_PRIORITY_LIMITS } from "../lib/limits";
import type { Problem } from "../lib/types";
import { initialProgress } from "../lib/progress";
import { hasEnded } from "../lib/testStatus";
import { incrementCounter } from "./counters";
import { deleteJob, setJobStatus } from "./jobs";
import { REFUND_REASONS } from "./payments";
import { dropCounterRow } from "./pipeline/counterRow";
import { EMPTY_RUN_COUNTERS } from "./pipeline/runCounters";
import { deleteReviewsBatch } from "./reviews";
import { leaveAllTeams } from "./teams";
import { clearTestRows } from "./run/lifecycle";
import { deleteTest } from "./testDeletion";
import { endTest } from "./testEnding";
import { syncTestSummaryOf } from "./testSummaries";
import { forgetTestStats, recordTestRun } from "./userStats";
import { dropMonitorRow } from "./monitorProgress";
import { dispatchSoon } from "./pipeline/dispatchSoon";

/** Rows deleted per transaction by the restart and account cleanups. */
export const CLEANUP_BATCH_SIZE = 1000;

export async function requireJob(ctx: MutationCtx, jobId: Id<"jobs">): Promise<Doc<"jobs">> {
  const job = await ctx.db.get("jobs", jobId);
  if (!job) fail("NOT_FOUND", "Job not found");
  return job;
}

async function requireTestOf(ctx: MutationCtx, job: Doc<"jobs">): Promise<Doc<"tests">> {
  const test = await ctx.db.get("tests", job.testId);
  if (!test) fail("NOT_FOUND", "The job's test no longer exists. Delete the job instead.");
  return test;
}

/**
 * An ended test that runs again no longer counts on its owner's (and its team's) home figures;
 * it is counted again when it ends. (forgetTestStats also drops it from the test count, which it
 * stays in.)
 */
async function reopenTest(ctx: MutationCtx, test: Doc<"tests">): Promise<void> {
  // A running test restarted keeps no monitor row nor counter row of the old run (the monitor
  // reads the test, whose counters are zeroed).
  await dropMonitorRow(ctx, test._id);
  await dropCounterRow(ctx, test._id);
  if (!hasEnded(test.status)) return;
  await forgetTestStats(ctx, test);
  if (test.awaitingPayment !== true) await recordTestRun(ctx, test);
}

/** Why an admin may not run a job's test again (retry, force restart): it has no payment standing. */
export const UNPAID_RUN_MESSAGES = {
  unpaid: "This test was never paid for, so it cannot run without a payment. The owner can start a new test.",
  refunded:
    "This test's payment was returned to its owner, in full or in part, so it cannot run again without a new payment.",
} as const;

/** Payments read per test: a test has its payment and the odd second checkout. */
const TEST_PAYMENTS_READ = 20;

/**
 * Why the job's test may not run again without a new payment, or null when it may: a draft whose
 * payment never settled, or a test whose payment was refunded or whose refund was asked for (a
 * failed test's, as soon as the refund scheduled by its ending runs). A job that needed no payment
 * (free mode, the owner's own key) has no amount and may always run.
 */
export async function unpaidRunReason(
  ctx: QueryCtx,
  job: Pick<Doc<"jobs">, "testId" | "amountCents">,
  test: Pick<Doc<"tests">, "_id" | "awaitingPayment"> | null,
): Promise<string | null> {
  if (job.amountCents <= 0 || test === null) return null;
  if (test.awaitingPayment === true) return UNPAID_RUN_MESSAGES.unpaid;
  const payments = await ctx.db
    .query("payments")
    .withIndex("by_test", (q) => q.eq("testId", test._id))
    .take(TEST_PAYMENTS_READ);
  const returned = payments.some(
    (payment) =>
      // Part of it returned (a test stopped early: the calls it did not make) counts too: a full
      // run again would be paid for only in part.
      (payment.refundedCents ?? 0) > 0 ||
      (payment.refundReason !== REFUND_REASONS.duplicate &&
        (payment.status === "refunded" ||
          ((payment.status === "paid" || payment.status === "completed") && payment.refundReason !== undefined))),
  );
  return returned ? UNPAID_RUN_MESSAGES.refunded : null;
}

async function requirePaidRun(ctx: MutationCtx, job: Doc<"jobs">, test: Doc<"tests">): Promise<void> {
  const reason = await unpaidRunReason(ctx, job, test);
  if (reason !== null) fail("PAYMENT_REQUIRED", reason);
}

/** The cron's stuck-job alerts of a job are settled once an admin has acted on it. */
async function resolveAlertsOf(ctx: MutationCtx, jobId: Id<"jobs">): Promise<void> {
  const open = await ctx.db
    .query("alerts")
    .withIndex("by_job", (q) => q.eq("jobId", jobId))
    .take(100); // one per stuck episode of this job
  for (const alert of open) if (!alert.resolved) await ctx.db.patch("alerts", alert._id, { resolved: true });
}

/** A job whose previous run is still being cleared by a force restart. */
function isRestarting(job: Doc<"jobs">): boolean {
  const data = job.progressData as { restartToken?: unknown } | undefined;
  return typeof data?.restartToken === "string";
}

// ---------------------------------------------------------------- retry

/**
 * Failed or cancelled job → queued again with one more retry. The test's failed and cancelled
 * calls go back to pending with fresh attempts and their failures leave the test's counters,
 * so the pipeline picks up where the run stopped; what succeeded is kept.
 */
export async function retryJob(ctx: MutationCtx, job: Doc<"jobs">): Promise<void> {
  if (!canRetryJob(job.status)) fail("CONFLICT", "Only a failed or cancelled job can be retried.");
  if (isRestarting(job)) fail("CONFLICT", "This job's previous run is still being cleared. Try again in a moment.");
  const test = await requireTestOf(ctx, job);
  await requirePaidRun(ctx, job, test);

  let finishedCalls = 0;
  let failedCalls = 0;
  let missingResponses = 0;
  let missingEvaluations = 0;
  for (const status of ["failed", "cancelled"] as const) {
    const calls = await ctx.db
      .query("calls")
      .withIndex("by_test_status", (q) => q.eq("testId", test._id).eq("status", status))
      .take(CLEANUP_BATCH_SIZE * 2); // a test has at most LIMITS.maxCallsPerTest (2000) calls
    for (const call of calls) {
      // A failed call was counted as finished and failed with its answers or ratings missing;
      // a cancelled one (test stopped while it was out) was never counted.
      if (status === "failed") {
        finishedCalls++;
        failedCalls++;
        if (call.kind === "generate") missingResponses += call.answersWanted ?? test.configuration.responsesPerTopic;
        else missingEvaluations += call.responseIds?.length ?? 0;
      }
      await ctx.db.patch("calls", call._id, {
        status: "pending",
        attempts: 0,
        error: undefined,
        leaseId: undefined,
        leaseExpiresAt: undefined,
        // Lease ids restart with the attempts: a kept one would refuse the retried call's result.
        recordedLeaseId: undefined,
      });
    }
  }

  await reopenTest(ctx, test);
  const now = Date.now();
  await ctx.db.patch("tests", test._id, {
    status: "pending",
    finishedCalls: Math.max(0, test.finishedCalls - finishedCalls),
    failedCalls: Math.max(0, test.failedCalls - failedCalls),
    missingResponses: Math.max(0, test.missingResponses - missingResponses),
    missingEvaluations: Math.max(0, test.missingEvaluations - missingEvaluations),
    activeWorkers: 0,
    completedAt: undefined,
    errorMessage: undefined,
    resultsSummary: undefined,
    lastProgressAt: now,
    progress: { currentPhase: "Queued for retry", percentage: test.progress.percentage },
  });
  await syncTestSummaryOf(ctx, test._id);
  await setJobStatus(ctx, job, "queued", {
    retryCount: job.retryCount + 1,
    errorMessage: undefined,
    startedAt: undefined,
    completedAt: undefined,
  });
  await resolveAlertsOf(ctx, job._id);
  await dispatchSoon(ctx);
}

// ---------------------------------------------------------------- cancel

/** Queued or processing job → cancelled, with its test, as the owner's Stop Test does. */
export async function cancelJob(ctx: MutationCtx, job: Doc<"jobs">): Promise<void> {
  if (!canCancelJob(job.status)) fail("CONFLICT", "Only a queued or processing job can be cancelled.");
  await resolveAlertsOf(ctx, job._id);
  // Workers stop at their next claim; the freed slot starts the next queued job.
  await endTest(ctx, await ctx.db.get("tests", job.testId), job, {
    status: "cancelled",
    progress: { currentPhase: "Cancelled", percentage: 0 },
    jobError: "Cancelled by an admin",
    // The price of the calls not made goes back above the minimum, as with the owner's Stop.
    refundUnrun: REFUND_REASONS.cancelledByAdmin,
  });
}

// ---------------------------------------------------------------- force restart

/**
 * Deletes up to `budget` rows of a test's previous run: every per-test table whose registry entry
 * says a restart deletes it (core/run/tables.ts). Returns true when none are left.
 */
export async function clearRunBatch(ctx: MutationCtx, testId: Id<"tests">, budget: number): Promise<boolean> {
  return await clearTestRows(ctx, testId, "restart", budget);
}

/** Spec part 2 §4: queued, error cleared, retry count 0, no start or completion, empty progress. */
async function queueRestartedJob(ctx: MutationCtx, job: Doc<"jobs">): Promise<void> {
  await setJobStatus(ctx, job, "queued", {
    errorMessage: undefined,
    retryCount: 0,
    startedAt: undefined,
    completedAt: undefined,
    progressData: {},
  });
  await dispatchSoon(ctx);
}

/**
 * Runs a job again from nothing: the test's previous results are deleted and its counters
 * zeroed, then the job is queued as spec part 2 §4 says. A large test is cleared over several
 * transactions; meanwhile the job holds a processing slot (so dispatch cannot start it on
 * half-deleted rows) and its progress data says it is restarting.
 */
export async function forceRestartJob(
  ctx: MutationCtx,
  job: Doc<"jobs">,
  budget: number = CLEANUP_BATCH_SIZE,
): Promise<void> {
  if (job.status === "pending_payment") fail("CONFLICT", "This job is waiting for payment and cannot be restarted.");
  if (isRestarting(job)) fail("CONFLICT", "This job is already restarting.");
  const test = await requireTestOf(ctx, job);
  await requirePaidRun(ctx, job, test);
  await reopenTest(ctx, test);
  const now = Date.now();
  // Workers of the old run stop at their next claim, and results they bring back are dropped.
  await ctx.db.patch("tests", test._id, {
    status: "pending",
    progress: { currentPhase: initialProgress(test.configuration).phase, percentage: 0 },
    ...EMPTY_RUN_COUNTERS,
    resultsSummary: undefined,
    errorMessage: undefined,
    lastCallError: undefined,
    startedAt: undefined,
    completedAt: undefined,
    lastProgressAt: now,
  });
  await syncTestSummaryOf(ctx, test._id);
  await resolveAlertsOf(ctx, job._id);
  if (await clearRunBatch(ctx, test._id, budget)) {
    await queueRestartedJob(ctx, job);
    return;
  }
  const restartToken = `${job._id}:${now}`;
  await setJobStatus(ctx, job, "processing", {
    errorMessage: undefined,
    retryCount: 0,
    startedAt: now,
    completedAt: undefined,
    progressData: { phase: "Restarting", details: "Clearing the previous run's results", restartToken },
  });
  await ctx.scheduler.runAfter(0, internal.admin.continueRestart, { jobId: job._id, restartToken, budget });
}

/** One more batch of a force restart's cleanup; the last one queues the job. */
export async function continueRestart(
  ctx: MutationCtx,
  jobId: Id<"jobs">,
  restartToken: string,
  budget: number,
): Promise<void> {
  const job = await ctx.db.get("jobs", jobId);
  if (!job) return; // deleted with its test: that cascade removes the rows
  const test = await ctx.db.get("tests", job.testId);
  const done = test ? await clearRunBatch(ctx, test._id, budget) : true;
  if (!done) {
    await ctx.scheduler.runAfter(0, internal.admin.continueRestart, { jobId, restartToken, budget });
    return;
  }
  const data = job.progressData as { restartToken?: unknown } | undefined;
  if (data?.restartToken !== restartToken) return;
  // Cancelled (or otherwise moved) while clearing: it stays where the admin put it.
  if (job.status !== "processing" || !test) {
    await ctx.db.patch("jobs", job._id, { progressData: {} });
    return;
  }
  await queueRestartedJob(ctx, job);
}

// ---------------------------------------------------------------- priority

export async function setJobPriority(ctx: MutationCtx, job: Doc<"jobs">, priority: number): Promise<void> {
  const problems: Problem[] = [];
  checkWholeNumber(problems, "priority", "Priority", priority, JOB_PRIORITY_LIMITS.min, JOB_PRIORITY_LIMITS.max);
  if (problems.length > 0) fail("INVALID_INPUT", problems[0].message, { field: "priority" });
  await ctx.db.patch("jobs", job._id, { priority });
  // A higher priority may now win a free slot.
  if (job.status === "queued") await dispatchSoon(ctx);
}

// ---------------------------------------------------------------- delete

/** The job and its test with every row of the test (money records are kept). */
export async function deleteJobWithTest(ctx: MutationCtx, job: Doc<"jobs">): Promise<void> {
  const test = await ctx.db.get("tests", job.testId);
  if (test) {
    await deleteTest(ctx, test); // deletes the job, its alerts, and schedules the children
    return;
  }
  await resolveAlertsOf(ctx, job._id);
  const alerts = await ctx.db
    .query("alerts")
    .withIndex("by_job", (q) => q.eq("jobId", job._id))
    .take(100);
  for (const alert of alerts) await ctx.db.delete("alerts", alert._id);
  await deleteJob(ctx, job);
  if (job.status === "processing") await dispatchSoon(ctx);
}

// ---------------------------------------------------------------- admin rights

/** Grants or removes admin rights; the last admin keeps theirs. */
export async function setAdmin(ctx: MutationCtx, caller: Doc<"users">, userId: Id<"users">, isAdmin: boolean) {
  const user = await ctx.db.get("users", userId);
  if (!user) fail("NOT_FOUND", "User not found.");
  if ((user.isAdmin === true) === isAdmin) return;
  if (!isAdmin) {
    const admins = await ctx.db
      .query("users")
      .withIndex("by_admin", (q) => q.eq("isAdmin", true))
      .take(2);
    if (admins.length <= 1) {
      fail(
        "CONFLICT",
        user._id === caller._id
          ? "You are the only admin. Make another user an admin before removing your own admin rights."
          : "The last admin cannot lose admin rights.",
      );
    }
  }
  await ctx.db.patch("users", userId, { isAdmin, updatedAt: Date.now() });
}

// ---------------------------------------------------------------- account deletion

/**
 * Deletes an account: the user row and its sign-in sessions go now (the account disappears and
 * is signed out at once), the rest in batches. Payments and credit transactions are kept.
 */
export async function deleteUserAccount(ctx: MutationCtx, caller: Doc<"users">, userId: Id<"users">): Promise<void> {
  if (userId === caller._id) fail("CONFLICT", "You cannot delete your own account from the admin page.");
  const user = await ctx.db.get("users", userId);
  if (!user) fail("NOT_FOUND", "User not found.");
  await ctx.db.delete("users", userId);
  await incrementCounter(ctx, "users", -1);
  await deleteSessionsBatch(ctx, userId, 100);
  await ctx.scheduler.runAfter(0, internal.admin.deleteUserData, { userId });
}

async function deleteSessionsBatch(ctx: MutationCtx, userId: Id<"users">, limit: number): Promise<number> {
  const sessions = await ctx.db
    .query("authSessions")
    .withIndex("userId", (q) => q.eq("userId", userId))
    .take(limit);
  for (const session of sessions) {
    const tokens = await ctx.db
      .query("authRefreshTokens")
      .withIndex("sessionId", (q) => q.eq("sessionId", session._id))
      .take(100); // a session's refresh chain
    for (const token of tokens) await ctx.db.delete("authRefreshTokens", token._id);
    await ctx.db.delete("authSessions", session._id);
  }
  return sessions.length;
}

/** Tests deleted per run: each is a few writes now and its own batched child cleanup. */
const TESTS_PER_RUN = 50;
const ROWS_PER_TABLE = 200;

/** One batch of a deleted account's rows. Returns true when another run is needed. */
export async function deleteUserDataBatch(ctx: MutationCtx, userId: Id<"users">): Promise<boolean> {
  let more = false;

  // Whole tests (configurations of up to 256 KB each): bounded in bytes too.
  const { rows: tests, cutByBytes } = await takeWithinBytes(
    ctx.db.query("tests").withIndex("by_user", (q) => q.eq("userId", userId)),
    TESTS_PER_RUN,
  );
  for (const test of tests) await deleteTest(ctx, test);
  if (tests.length === TESTS_PER_RUN || cutByBytes) more = true;

  // Jobs whose test is already gone.
  const jobs = await ctx.db
    .query("jobs")
    .withIndex("by_user", (q) => q.eq("userId", userId))
    .take(ROWS_PER_TABLE);
  for (const job of jobs) {
    if (!(await ctx.db.get("tests", job.testId))) await deleteJobWithTest(ctx, job);
  }
  if (jobs.length === ROWS_PER_TABLE) more = true;

  for (const table of ["personas", "topics", "templates", "apiKeys"] as const) {
    const rows = await ctx.db
      .query(table)
      .withIndex("by_user", (q) => q.eq("userId", userId))
      .take(ROWS_PER_TABLE);
    for (const row of rows) await ctx.db.delete(table, row._id);
    if (rows.length === ROWS_PER_TABLE) more = true;
  }

  const accounts = await ctx.db
    .query("authAccounts")
    .withIndex("userIdAndProvider", (q) => q.eq("userId", userId))
    .take(ROWS_PER_TABLE);
  for (const account of accounts) {
    const codes = await ctx.db
      .query("authVerificationCodes")
      .withIndex("accountId", (q) => q.eq("accountId", account._id))
      .take(100); // outstanding one-time codes of the account
    for (const code of codes) await ctx.db.delete("authVerificationCodes", code._id);
    await ctx.db.delete("authAccounts", account._id);
  }
  if (accounts.length === ROWS_PER_TABLE) more = true;

  if ((await deleteSessionsBatch(ctx, userId, ROWS_PER_TABLE)) === ROWS_PER_TABLE) more = true;
  if (await deleteReviewsBatch(ctx, userId, ROWS_PER_TABLE)) more = true;
  if (await leaveAllTeams(ctx, userId)) more = true;
  return more;
}
