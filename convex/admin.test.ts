// The admin powers of spec part 2 §4 and §6 against the real pipeline bookkeeping: workers are
// played by hand (claimBatch, record) so every state is exact. No worker is ever scheduled
// (perTestConcurrency 0) and scheduled functions run only when a test says so.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { forceRestartJob, UNPAID_RUN_MESSAGES } from "./core/admin";
import { readCounter } from "./core/counters";
import { recordPurchase } from "./core/payments";
import { claimBatch } from "./core/pipeline/claim";
import { recordOutcome } from "./core/pipeline/record";
import {
  createBackend,
  createUser,
  drainDispatch,
  readTestRows,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
  refusalOf,
} from "./test.helpers";
import type { Outcome } from "./validators";

const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];
const NO_USAGE = { promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0 };

beforeEach(() => {
  vi.useFakeTimers();
  delete process.env.STRIPE_SECRET_KEY; // free mode: a new test's job is queued at once
});
afterEach(() => {
  vi.useRealTimers();
});

async function setup() {
  const t = createBackend();
  await seedCatalog(t, MODELS);
  await t.run(async (ctx) => {
    await ctx.db.insert("settings", { key: "perTestConcurrency", value: 0 });
  });
  const admin = await createUser(t, "admin@example.com", { isAdmin: true });
  const user = await createUser(t, "ada@example.com", { fullName: "Ada Lovelace" });
  // createUser writes rows directly; the sign-up callback is what counts users.
  await t.run(async (ctx) => {
    await ctx.db.insert("counters", { name: "users", value: 2 });
  });
  return { t, admin, user };
}

/** A test of 2 generators × 1 persona × 1 topic × 2 answers, ranked by 1 evaluator. */
async function createTest(t: TestBackend, as: Awaited<ReturnType<typeof createUser>>["as"], name = "Coffee taglines") {
  const { testId } = await as.mutation(api.tests.create, {
    configuration: sampleConfiguration(MODELS.slice(0, 2), MODELS.slice(2), { name }),
  });
  const jobId = await t.run(
    async (ctx) =>
      (await ctx.db
        .query("jobs")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique())!._id,
  );
  return { testId, jobId };
}

/** Plays a worker: leases the test's next call and records `outcome` for it. */
async function work(t: TestBackend, testId: Id<"tests">, outcome: Outcome) {
  return await t.run(async (ctx) => {
    const [item] = await claimBatch(ctx, testId, 1);
    if (!item) throw new Error("nothing to claim");
    await recordOutcome(ctx, item.callId, item.leaseId, outcome);
    return item;
  });
}

const failed = (error: string): Outcome => ({ kind: "failed", error, ...NO_USAGE });
const generated = (answers: string[]): Outcome => ({
  kind: "generated",
  answers,
  ...NO_USAGE,
  promptTokens: 10,
  completionTokens: 20,
});

async function rows(t: TestBackend, testId: Id<"tests">, jobId: Id<"jobs">) {
  return await t.run(async (ctx) => ({
    ...(await readTestRows(ctx, testId)),
    job: (await ctx.db.get("jobs", jobId))!,
    stats: await ctx.db
      .query("modelStats")
      .withIndex("by_test_model_persona", (q) => q.eq("testId", testId))
      .collect(),
  }));
}

async function scheduled(t: TestBackend) {
  return await t.run(async (ctx) =>
    (await ctx.db.system.query("_scheduled_functions").collect())
      .filter((entry) => entry.state.kind === "pending")
      .map((entry) => entry.name),
  );
}

describe("retry", () => {
  test("a failed job goes back to the queue with one more retry; its failed calls go back to work", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    await drainDispatch(t);
    await work(t, testId, failed("Gateway error 429: rate limit"));
    await work(t, testId, failed("Gateway error 429: rate limit"));
    const before = await rows(t, testId, jobId);
    expect(before.job).toMatchObject({ status: "failed", retryCount: 0 });
    expect(before.test).toMatchObject({ status: "failed", failedCalls: 2, finishedCalls: 2, missingResponses: 4 });

    await admin.as.mutation(api.admin.retryJob, { jobId });
    const after = await rows(t, testId, jobId);
    expect(after.job).toMatchObject({ status: "queued", retryCount: 1 });
    expect(after.job.errorMessage).toBeUndefined();
    expect(after.job.completedAt).toBeUndefined();
    expect(after.test).toMatchObject({
      status: "pending",
      failedCalls: 0,
      finishedCalls: 0,
      missingResponses: 0,
      totalCalls: 2,
    });
    expect(after.test.completedAt).toBeUndefined();
    expect(after.test.errorMessage).toBeUndefined();
    expect(after.calls.map((call) => [call.status, call.attempts, call.error])).toEqual([
      ["pending", 0, undefined],
      ["pending", 0, undefined],
    ]);
    expect(await scheduled(t)).toContain("runner:dispatch");

    // The dispatcher starts it again and the calls finish this time.
    await drainDispatch(t);
    expect((await rows(t, testId, jobId)).job.status).toBe("processing");
    await work(t, testId, generated(["A", "B"]));
    await work(t, testId, generated(["C", "D"]));
    const running = await rows(t, testId, jobId);
    expect(running.test).toMatchObject({ status: "running", responsesCount: 4, failedCalls: 0, missingResponses: 0 });
    expect(running.calls.filter((call) => call.kind === "evaluate")).toHaveLength(1);
  });

  test("a cancelled job can be retried; completed, queued and processing ones cannot", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    expect(await refusalOf(admin.as.mutation(api.admin.retryJob, { jobId }))).toMatchObject({ code: "CONFLICT" });
    await drainDispatch(t);
    expect(await refusalOf(admin.as.mutation(api.admin.retryJob, { jobId }))).toMatchObject({ code: "CONFLICT" });
    await user.as.mutation(api.tests.cancel, { testId });
    await admin.as.mutation(api.admin.retryJob, { jobId });
    const after = await rows(t, testId, jobId);
    expect(after.job).toMatchObject({ status: "queued", retryCount: 1 });
    expect(after.test.status).toBe("pending");
  });

  test("a job whose test was refunded, or a draft never paid for, is refused without a payment; a paid cancelled one runs", async () => {
    const { t, admin, user } = await setup();
    process.env.STRIPE_SECRET_KEY = "sk_test_admin_retry";
    try {
      const jobRow = async (jobId: Id<"jobs">) =>
        (await admin.as.query(api.admin.listJobs, {})).jobs.find((job) => job._id === jobId)!;
      const pay = async (testId: Id<"tests">, sessionId: string) => {
        const priceCents = await t.run(async (ctx) => (await ctx.db.get("tests", testId))!.priceCents);
        await t.mutation(internal.payments.recordCheckout, {
          testId,
          userId: user.userId,
          sessionId,
          amountCents: priceCents,
        });
        await t.mutation(internal.payments.markPaid, {
          sessionId,
          amountCents: priceCents,
          currency: "usd",
          paymentIntentId: `pi_${sessionId}`,
        });
      };
      const refused = async (jobId: Id<"jobs">, message: string) => {
        expect(await refusalOf(admin.as.mutation(api.admin.retryJob, { jobId }))).toEqual({
          code: "PAYMENT_REQUIRED",
          message,
        });
        expect(await refusalOf(admin.as.mutation(api.admin.forceRestartJob, { jobId }))).toEqual({
          code: "PAYMENT_REQUIRED",
          message,
        });
        expect((await jobRow(jobId)).retryRefusal).toBe(message);
      };

      // A paid test that fails: its payment goes back to the owner (asked for at once, then made by Stripe).
      const failing = await createTest(t, user.as, "Paid and failed");
      await pay(failing.testId, "cs_failed");
      await drainDispatch(t);
      await work(t, failing.testId, failed("Gateway error 429: rate limit"));
      await work(t, failing.testId, failed("Gateway error 429: rate limit"));
      expect((await rows(t, failing.testId, failing.jobId)).job.status).toBe("failed");
      expect(await scheduled(t)).toContain("payments:refundTest");
      // What the scheduled refund does first: from here on the payment is owed back.
      await t.mutation(internal.payments.requestRefund, {
        testId: failing.testId,
        reason: "No responses were generated.",
      });
      await refused(failing.jobId, UNPAID_RUN_MESSAGES.refunded);
      const payment = await t.run(
        async (ctx) =>
          (await ctx.db
            .query("payments")
            .withIndex("by_test", (q) => q.eq("testId", failing.testId))
            .unique())!,
      );
      await t.mutation(internal.payments.recordRefund, {
        paymentId: payment._id,
        refundId: "re_failed",
        amountCents: payment.amountCents,
      });
      await refused(failing.jobId, UNPAID_RUN_MESSAGES.refunded);
      const after = await rows(t, failing.testId, failing.jobId);
      expect(after.job).toMatchObject({ status: "failed", retryCount: 0 });
      expect(after.test.status).toBe("failed");
      expect(after.calls.every((call) => call.status === "failed")).toBe(true);

      // A draft whose payment never came, cancelled by the stale-test cron an hour later.
      const draft = await createTest(t, user.as, "Never paid");
      expect((await rows(t, draft.testId, draft.jobId)).job.status).toBe("pending_payment");
      vi.setSystemTime(Date.now() + 61 * 60 * 1000);
      await t.mutation(internal.runner.cancelStaleTests, {});
      expect((await rows(t, draft.testId, draft.jobId)).job.status).toBe("cancelled");
      await refused(draft.jobId, UNPAID_RUN_MESSAGES.unpaid);
      expect((await rows(t, draft.testId, draft.jobId)).test).toMatchObject({
        status: "cancelled",
        awaitingPayment: true,
      });

      // A paid test the owner stopped keeps its payment: Retry runs it again.
      const stopped = await createTest(t, user.as, "Paid and stopped");
      await pay(stopped.testId, "cs_stopped");
      await drainDispatch(t);
      await user.as.mutation(api.tests.cancel, { testId: stopped.testId });
      expect((await jobRow(stopped.jobId)).retryRefusal).toBeNull();
      await admin.as.mutation(api.admin.retryJob, { jobId: stopped.jobId });
      expect((await rows(t, stopped.testId, stopped.jobId)).job).toMatchObject({ status: "queued", retryCount: 1 });
    } finally {
      delete process.env.STRIPE_SECRET_KEY;
    }
  });

  test("a retried team test stays on its team's Total Tests and off its starter's personal one", async () => {
    const { t, admin, user } = await setup();
    const { teamId } = await user.as.mutation(api.teams.create, { name: "Team" });
    const { testId } = await user.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(MODELS.slice(0, 2), MODELS.slice(2), { name: "Team run" }),
      teamId,
    });
    const job = await t.run(
      async (ctx) =>
        (await ctx.db
          .query("jobs")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .unique())!,
    );
    await drainDispatch(t);
    await work(t, testId, failed("Gateway error 429: rate limit"));
    await work(t, testId, failed("Gateway error 429: rate limit"));
    const totals = async () => [
      (await user.as.query(api.dashboard.home, { teamId })).stats.totalTests,
      (await user.as.query(api.dashboard.home, {})).stats.totalTests,
    ];
    expect(await totals()).toEqual([1, 0]);
    await admin.as.mutation(api.admin.retryJob, { jobId: job._id });
    expect(await totals()).toEqual([1, 0]);
  });

  test("a missing job is 'Job not found'", async () => {
    const { t, admin, user } = await setup();
    const { jobId } = await createTest(t, user.as);
    await t.run(async (ctx) => ctx.db.delete("jobs", jobId));
    expect(await refusalOf(admin.as.mutation(api.admin.retryJob, { jobId }))).toEqual({
      code: "NOT_FOUND",
      message: "Job not found",
    });
  });
});

describe("cancel", () => {
  test("a processing job and its test are cancelled as the owner's Stop does", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    await drainDispatch(t);
    await admin.as.mutation(api.admin.cancelJob, { jobId });
    const after = await rows(t, testId, jobId);
    expect(after.job).toMatchObject({ status: "cancelled", errorMessage: "Cancelled by an admin" });
    expect(after.job.completedAt).toBeGreaterThan(0);
    expect(after.test).toMatchObject({ status: "cancelled", progress: { currentPhase: "Cancelled", percentage: 0 } });
    // A worker bringing a result back afterwards gets nothing more.
    expect(await t.run((ctx) => claimBatch(ctx, testId, 1))).toEqual([]);
    expect(await refusalOf(admin.as.mutation(api.admin.cancelJob, { jobId }))).toMatchObject({ code: "CONFLICT" });
  });

  test("a queued job is cancelled before it starts", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    await admin.as.mutation(api.admin.cancelJob, { jobId });
    await drainDispatch(t);
    const after = await rows(t, testId, jobId);
    expect(after.job.status).toBe("cancelled");
    expect(after.test.status).toBe("cancelled");
    expect(after.calls).toHaveLength(0);
  });
});

describe("force restart", () => {
  test("queued, error cleared, retries 0, no times, empty progress; the previous run's rows are gone", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    await drainDispatch(t);
    await work(t, testId, generated(["A", "B"]));
    await work(t, testId, failed("Request timeout"));
    await t.run(async (ctx) =>
      ctx.db.patch("jobs", jobId, { retryCount: 2, errorMessage: "Request timeout", progressData: { x: 1 } }),
    );
    const before = await rows(t, testId, jobId);
    expect(before.responses).toHaveLength(2);
    expect(before.calls).toHaveLength(3); // the pair ended, so its judge call exists

    await admin.as.mutation(api.admin.forceRestartJob, { jobId });
    const after = await rows(t, testId, jobId);
    expect(after.job).toMatchObject({ status: "queued", retryCount: 0, progressData: {} });
    expect(after.job.errorMessage).toBeUndefined();
    expect(after.job.startedAt).toBeUndefined();
    expect(after.job.completedAt).toBeUndefined();
    expect(after.test).toMatchObject({
      status: "pending",
      responsesCount: 0,
      evaluationsCount: 0,
      failedCalls: 0,
      totalCalls: 0,
      finishedCalls: 0,
      totalCostUsd: 0,
    });
    expect(after.test.startedAt).toBeUndefined();
    expect([after.calls, after.responses, after.evaluations, after.stats].map((list) => list.length)).toEqual([
      0, 0, 0, 0,
    ]);

    await drainDispatch(t);
    const restarted = await rows(t, testId, jobId);
    expect(restarted.job.status).toBe("processing");
    expect(restarted.calls.map((call) => [call.kind, call.status])).toEqual([
      ["generate", "pending"],
      ["generate", "pending"],
    ]);
  });

  test("a large test is cleared in batches and queued after the last one", async () => {
    const { t, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    await drainDispatch(t);
    await work(t, testId, generated(["A", "B"]));
    await work(t, testId, generated(["C", "D"]));
    await t.run(async (ctx) => forceRestartJob(ctx, (await ctx.db.get("jobs", jobId))!, 2));
    let state = await rows(t, testId, jobId);
    expect(state.job.status).toBe("processing"); // holds its slot: dispatch cannot start it half-cleared
    expect(state.job.progressData).toMatchObject({ phase: "Restarting" });
    await drainDispatch(t);
    expect((await rows(t, testId, jobId)).calls.length).toBeGreaterThan(0);
    for (let run = 0; run < 20 && state.job.status === "processing"; run++) {
      const { restartToken } = state.job.progressData as { restartToken: string };
      await t.mutation(internal.admin.continueRestart, { jobId, restartToken, budget: 2 });
      state = await rows(t, testId, jobId);
    }
    expect(state.job).toMatchObject({ status: "queued", retryCount: 0, progressData: {} });
    expect(state.job.startedAt).toBeUndefined();
    expect([state.calls, state.responses, state.evaluations, state.stats].map((list) => list.length)).toEqual([
      0, 0, 0, 0,
    ]);
  });

  test("a job waiting for payment is not restarted", async () => {
    const { t, admin, user } = await setup();
    const { jobId } = await createTest(t, user.as);
    await t.run(async (ctx) => ctx.db.patch("jobs", jobId, { status: "pending_payment" }));
    expect(await refusalOf(admin.as.mutation(api.admin.forceRestartJob, { jobId }))).toMatchObject({
      code: "CONFLICT",
    });
  });
});

describe("priority", () => {
  test("sets the priority; the dispatcher takes the highest first", async () => {
    const { t, admin, user } = await setup();
    await t.run(async (ctx) => {
      await ctx.db.insert("settings", { key: "maxProcessingJobs", value: 1 });
    });
    const first = await createTest(t, user.as, "First");
    const second = await createTest(t, user.as, "Second");
    await admin.as.mutation(api.admin.setJobPriority, { jobId: second.jobId, priority: 5 });
    expect((await rows(t, second.testId, second.jobId)).job.priority).toBe(5);
    await drainDispatch(t);
    expect((await rows(t, second.testId, second.jobId)).job.status).toBe("processing");
    expect((await rows(t, first.testId, first.jobId)).job.status).toBe("queued");
    expect(
      await refusalOf(admin.as.mutation(api.admin.setJobPriority, { jobId: first.jobId, priority: 1.5 })),
    ).toMatchObject({
      code: "INVALID_INPUT",
    });
  });

  test("a negative or huge priority is refused and the job keeps its own", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    for (const priority of [-1, -1000, 1001, Number.MAX_SAFE_INTEGER]) {
      expect(await refusalOf(admin.as.mutation(api.admin.setJobPriority, { jobId, priority }))).toMatchObject({
        code: "INVALID_INPUT",
        message: "Priority must be a whole number from 0 to 1,000.",
        field: "priority",
      });
    }
    expect((await rows(t, testId, jobId)).job.priority).toBe(0);
    await admin.as.mutation(api.admin.setJobPriority, { jobId, priority: 1000 });
    expect((await rows(t, testId, jobId)).job.priority).toBe(1000);
  });
});

describe("delete job", () => {
  test("the job goes with its test and the test's rows; payments stay", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    await drainDispatch(t);
    await work(t, testId, generated(["A", "B"]));
    const paymentId = await t.run(async (ctx) =>
      ctx.db.insert("payments", {
        userId: user.userId,
        testId,
        testName: "Coffee taglines",
        amountCents: 250,
        currency: "usd",
        status: "paid",
      }),
    );
    await admin.as.mutation(api.admin.deleteJob, { jobId });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const left = await t.run(async (ctx) => ({
      job: await ctx.db.get("jobs", jobId),
      test: await ctx.db.get("tests", testId),
      responses: await ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .collect(),
      payment: await ctx.db.get("payments", paymentId),
      jobs: await readCounter(ctx, "jobs"),
    }));
    expect(left).toMatchObject({ job: null, test: null, responses: [], jobs: 0 });
    expect(left.payment).toMatchObject({ amountCents: 250, status: "paid" });
  });
});

describe("admin rights", () => {
  test("grant and remove; the last admin cannot remove their own rights", async () => {
    const { t, admin, user } = await setup();
    expect(await refusalOf(admin.as.mutation(api.admin.setAdmin, { userId: admin.userId, isAdmin: false }))).toEqual({
      code: "CONFLICT",
      message: "You are the only admin. Make another user an admin before removing your own admin rights.",
    });
    await admin.as.mutation(api.admin.setAdmin, { userId: user.userId, isAdmin: true });
    expect(
      (await user.as.query(api.admin.listUsers, {})).users.find((row) => row.email === "ada@example.com")?.isAdmin,
    ).toBe(true);
    await admin.as.mutation(api.admin.setAdmin, { userId: admin.userId, isAdmin: false });
    expect(await t.run(async (ctx) => (await ctx.db.get("users", admin.userId))!.isAdmin)).toBe(false);
    expect(await refusalOf(admin.as.query(api.admin.stats, {}))).toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("delete user", () => {
  test("removes the account and its data, keeps money records, and cannot delete oneself", async () => {
    const { t, admin, user } = await setup();
    const { testId } = await createTest(t, user.as);
    const ids = await t.run(async (ctx) => {
      const accountId = await ctx.db.insert("authAccounts", {
        userId: user.userId,
        provider: "password",
        providerAccountId: "ada@example.com",
      });
      const sessionId = await ctx.db.insert("authSessions", { userId: user.userId, expirationTime: Date.now() + 1e6 });
      await ctx.db.insert("authRefreshTokens", { sessionId, expirationTime: Date.now() + 1e6 });
      await ctx.db.insert("personas", {
        userId: user.userId,
        name: "P",
        description: "D",
        systemPrompt: "S",
        updatedAt: 0,
      });
      await ctx.db.insert("apiKeys", { userId: user.userId, ciphertext: "c", iv: "i", last4: "1234" });
      const paymentId = await ctx.db.insert("payments", {
        userId: user.userId,
        testId,
        testName: "Coffee taglines",
        amountCents: 300,
        currency: "usd",
        status: "paid",
      });
      const creditId = await ctx.db.insert("creditTransactions", {
        userId: user.userId,
        type: "purchase",
        amountCents: 300,
        description: "Payment",
      });
      return { accountId, sessionId, paymentId, creditId };
    });
    expect(await refusalOf(admin.as.mutation(api.admin.deleteUser, { userId: admin.userId }))).toMatchObject({
      code: "CONFLICT",
    });

    await admin.as.mutation(api.admin.deleteUser, { userId: user.userId });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const left = await t.run(async (ctx) => ({
      user: await ctx.db.get("users", user.userId),
      account: await ctx.db.get("authAccounts", ids.accountId),
      session: await ctx.db.get("authSessions", ids.sessionId),
      tokens: (await ctx.db.query("authRefreshTokens").collect()).length,
      test: await ctx.db.get("tests", testId),
      personas: (await ctx.db.query("personas").collect()).length,
      apiKeys: (await ctx.db.query("apiKeys").collect()).length,
      jobs: (await ctx.db.query("jobs").collect()).length,
      payment: await ctx.db.get("payments", ids.paymentId),
      credit: await ctx.db.get("creditTransactions", ids.creditId),
    }));
    expect(left).toMatchObject({
      user: null,
      account: null,
      session: null,
      tokens: 0,
      test: null,
      personas: 0,
      apiKeys: 0,
      jobs: 0,
    });
    expect(left.payment).toMatchObject({ amountCents: 300 });
    expect(left.credit).toMatchObject({ amountCents: 300 });
    const listed = await admin.as.query(api.admin.listUsers, {});
    expect(listed.users.map((row) => row.email)).toEqual(["admin@example.com"]);
    expect(listed.total).toBe(1);
  });
});

describe("overview", () => {
  test("the figures equal the rows after several state changes", async () => {
    const { t, admin, user } = await setup();
    const created = [];
    for (let index = 0; index < 5; index++) created.push(await createTest(t, user.as, `Test ${index}`));
    await drainDispatch(t); // all five processing (limit 10)
    const [a, b, c, d] = created;
    await work(t, a!.testId, generated(["A", "B"]));
    await work(t, a!.testId, generated(["C", "D"]));
    await work(t, a!.testId, { kind: "ranked", ranking: [], explanation: "", ...NO_USAGE }); // a completes
    await work(t, b!.testId, failed("401 Unauthorized"));
    await work(t, b!.testId, failed("401 Unauthorized")); // b fails
    await admin.as.mutation(api.admin.cancelJob, { jobId: c!.jobId });
    await admin.as.mutation(api.admin.retryJob, { jobId: b!.jobId }); // b queued again
    await admin.as.mutation(api.admin.forceRestartJob, { jobId: d!.jobId }); // d queued again
    await createTest(t, user.as, "Late"); // queued
    await t.run(async (ctx) => {
      const paymentId = await ctx.db.insert("payments", {
        userId: user.userId,
        testName: "Late",
        amountCents: 1234,
        currency: "usd",
        status: "pending",
      });
      await recordPurchase(ctx, (await ctx.db.get("payments", paymentId))!, 1234);
    });

    const stats = await admin.as.query(api.admin.stats, {});
    const truth = await t.run(async (ctx) => {
      const jobs = await ctx.db.query("jobs").collect();
      const count = (status: string) => jobs.filter((job) => job.status === status).length;
      const paid = (await ctx.db.query("payments").collect()).filter((payment) => payment.status === "paid");
      return {
        totalUsers: (await ctx.db.query("users").collect()).length,
        totalJobs: jobs.length,
        activeJobs: count("queued") + count("processing"),
        queuedJobs: count("queued"),
        processingJobs: count("processing"),
        completedJobs: count("completed"),
        failedJobs: count("failed"),
        cancelledJobs: count("cancelled"),
        totalRevenueCents: paid.reduce((sum, payment) => sum + payment.amountCents, 0),
        successRate: (count("completed") / jobs.length) * 100,
      };
    });
    expect(stats).toEqual(truth);
    expect(stats).toMatchObject({
      totalJobs: 6,
      completedJobs: 1,
      cancelledJobs: 1,
      queuedJobs: 3,
      processingJobs: 1,
      totalRevenueCents: 1234,
    });

    const jobs = await admin.as.query(api.admin.listJobs, {});
    expect(jobs.total).toBe(6);
    expect(jobs.jobs[0]).toMatchObject({ testName: "Late", userEmail: "ada@example.com", status: "queued" });
    const queued = await admin.as.query(api.admin.listJobs, { status: "queued" });
    expect(queued).toMatchObject({ total: 3 });
    expect(queued.jobs.map((job) => job.testName)).toEqual(["Late", "Test 3", "Test 1"]);
    expect((await admin.as.query(api.admin.listJobs, { limit: 2 })).jobs).toHaveLength(2);
  });

  test("health: stuck processing jobs, the queue over the last 24 hours, and the cron's alerts", async () => {
    const { t, admin, user } = await setup();
    const { jobId } = await createTest(t, user.as);
    await drainDispatch(t);
    const now = Date.now();
    let health = await admin.as.query(api.admin.health, { now });
    expect(health).toMatchObject({ queuedJobs: 0, processingJobs: 1, stuckJobs: 0, isHealthy: true, lastUpdated: now });

    const later = now + 61 * 60_000;
    health = await admin.as.query(api.admin.health, { now: later });
    expect(health).toMatchObject({
      stuckJobs: 1,
      isHealthy: false,
      stuck: [{ _id: jobId, testName: "Coffee taglines" }],
    });

    for (let index = 0; index < 10; index++) await createTest(t, user.as, `Queued ${index}`);
    expect(await admin.as.query(api.admin.health, { now })).toMatchObject({ queuedJobs: 10, isHealthy: false });
    // A day later those are out of the window.
    expect(await admin.as.query(api.admin.health, { now: now + 25 * 3_600_000 })).toMatchObject({ queuedJobs: 0 });

    vi.setSystemTime(later);
    await t.mutation(internal.runner.reportStuckJobs, {});
    const alerts = await admin.as.query(api.admin.listAlerts, {});
    expect(alerts).toMatchObject([{ jobId, kind: "stuck_job", jobStatus: "processing" }]);
    await admin.as.mutation(api.admin.resolveAlert, { alertId: alerts[0]!._id });
    expect(await admin.as.query(api.admin.listAlerts, {})).toEqual([]);
  });

  test("job details carry the test's counts for the error analysis, and null once deleted", async () => {
    const { t, admin, user } = await setup();
    const { testId, jobId } = await createTest(t, user.as);
    await drainDispatch(t);
    await work(t, testId, generated(["A", "B"]));
    const details = await admin.as.query(api.admin.jobDetails, { jobId });
    expect(details).toMatchObject({
      job: { _id: jobId, testId, userEmail: "ada@example.com", status: "processing", retryCount: 0, maxRetries: 3 },
      test: { status: "running", responsesCount: 2, expectedResponses: 4 },
    });
    await admin.as.mutation(api.admin.deleteJob, { jobId });
    expect(await admin.as.query(api.admin.jobDetails, { jobId })).toBeNull();
  });
});
