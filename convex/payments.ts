import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { ActionCtx } from "./_generated/server";
import { fail, internalAction, internalMutation, internalQuery, userAction, userQuery } from "./functions";
import { formatCents } from "./lib/format";
import {
  checkoutIdOf,
  endOpenCheckouts,
  paymentByCheckout,
  paymentsEnabled,
  providerPaymentIdOf,
  QUOTE_CURRENCY,
  recordRefund as recordRefundOf,
  REFUND_REASONS,
  REFUND_RETRY_DELAYS_MS,
  requestTestRefund,
  settlePayment,
} from "./core/payments";
import { checkoutOf, expireSession } from "./core/checkout";
import { paymentProvider } from "./core/paymentProvider";
import { HIDDEN_INPUT_LIMITS } from "./lib/limits";
import { requireTestAccess } from "./core/testAccess";
import { paymentStatus } from "./validators";

const openCheckout = v.object({
  sessionId: v.string(),
  amountCents: v.number(),
  currency: v.string(),
  url: v.optional(v.string()),
});

/**
 * Opens the test's Stripe Checkout Session for its quoted price, or hands back the one already
 * open for the same test and amount (a second tab, a retry), so one test has one session to pay.
 * Sessions of another amount are expired.
 */
export const createCheckout = userAction({
  args: { testId: v.id("tests") },
  returns: v.object({ url: v.string(), sessionId: v.string() }),
  handler: async (ctx, { testId }): Promise<{ url: string; sessionId: string }> =>
    await checkoutOf(ctx, ctx.userId, testId),
});

export const payableTest = internalQuery({
  args: { testId: v.id("tests"), userId: v.id("users") },
  returns: v.union(
    v.null(),
    v.object({
      name: v.string(),
      priceCents: v.number(),
      email: v.optional(v.string()),
      awaitingPayment: v.boolean(),
      open: v.array(openCheckout),
    }),
  ),
  handler: async (ctx, { testId, userId }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test || test.userId !== userId) return null;
    const job = await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique();
    const user = await ctx.db.get("users", userId);
    const payments = await ctx.db
      .query("payments")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .order("asc")
      .take(20);
    return {
      name: test.name,
      priceCents: test.priceCents,
      email: user?.email,
      awaitingPayment: job?.status === "pending_payment" && test.status === "pending",
      open: payments
        .filter((payment) => payment.status === "pending" && checkoutIdOf(payment) !== undefined)
        .map((payment) => ({
          sessionId: checkoutIdOf(payment)!,
          amountCents: payment.amountCents,
          currency: payment.currency,
          ...(payment.checkoutUrl ? { url: payment.checkoutUrl } : {}),
        })),
    };
  },
});

/**
 * Records a new session and returns the session everyone should pay: the oldest open one of
 * the same test and amount (ours unless another tab got there first).
 */
export const recordCheckout = internalMutation({
  args: {
    testId: v.id("tests"),
    userId: v.id("users"),
    sessionId: v.string(),
    amountCents: v.number(),
    url: v.optional(v.string()),
  },
  returns: v.union(v.null(), v.object({ sessionId: v.string(), url: v.string() })),
  handler: async (ctx, args) => {
    const test = await ctx.db.get("tests", args.testId);
    await ctx.db.insert("payments", {
      userId: args.userId,
      testId: args.testId,
      ...(test?.teamId === undefined ? {} : { teamId: test.teamId }),
      testName: test?.name ?? "Deleted test",
      checkoutId: args.sessionId,
      amountCents: args.amountCents,
      currency: QUOTE_CURRENCY,
      status: "pending",
      ...(args.url ? { checkoutUrl: args.url } : {}),
    });
    const payments = await ctx.db
      .query("payments")
      .withIndex("by_test", (q) => q.eq("testId", args.testId))
      .order("asc")
      .take(20);
    const first = payments.find(
      (payment) =>
        payment.status === "pending" &&
        payment.amountCents === args.amountCents &&
        payment.checkoutUrl &&
        checkoutIdOf(payment),
    );
    return first ? { sessionId: checkoutIdOf(first)!, url: first.checkoutUrl! } : null;
  },
});

/** A session we expired or replaced: a payment that still lands for it is refunded unless the test still waits for one. */
export const markCheckoutEnded = internalMutation({
  args: { sessionId: v.string() },
  returns: v.null(),
  handler: async (ctx, { sessionId }) => {
    const payment = await paymentByCheckout(ctx, sessionId);
    if (payment && payment.status === "pending")
      await ctx.db.patch("payments", payment._id, { status: "cancelled", checkoutUrl: undefined });
    return null;
  },
});

/**
 * The one place a payment arrives: from the webhook, the return page and expiry races. A session
 * we have no row for (the action died between creating and recording it) is recorded from its
 * metadata, so its money is settled or returned too.
 */
export const markPaid = internalMutation({
  args: {
    sessionId: v.string(),
    amountCents: v.number(),
    currency: v.string(),
    paymentIntentId: v.optional(v.string()),
    testId: v.optional(v.string()),
    userId: v.optional(v.string()),
    testName: v.optional(v.string()),
  },
  returns: v.object({ testId: v.union(v.null(), v.id("tests")), status: v.union(v.null(), paymentStatus) }),
  handler: async (ctx, args) => {
    let payment = await paymentByCheckout(ctx, args.sessionId);
    if (!payment) {
      const userId = args.userId ? ctx.db.normalizeId("users", args.userId) : null;
      if (!userId || !(await ctx.db.get("users", userId))) return { testId: null, status: null };
      const testId = args.testId ? ctx.db.normalizeId("tests", args.testId) : null;
      const test = testId ? await ctx.db.get("tests", testId) : null;
      const paymentId = await ctx.db.insert("payments", {
        userId,
        ...(test && test.userId === userId
          ? { testId: test._id, ...(test.teamId === undefined ? {} : { teamId: test.teamId }) }
          : {}),
        testName: test?.name ?? args.testName ?? "Deleted test",
        checkoutId: args.sessionId,
        amountCents: test?.priceCents ?? args.amountCents,
        currency: QUOTE_CURRENCY,
        status: "pending",
      });
      payment = (await ctx.db.get("payments", paymentId))!;
    }
    await settlePayment(ctx, payment, {
      amountCents: args.amountCents,
      currency: args.currency,
      ...(args.paymentIntentId ? { paymentIntentId: args.paymentIntentId } : {}),
    });
    const settled = await ctx.db.get("payments", payment._id);
    return { testId: settled?.testId ?? null, status: settled?.status ?? null };
  },
});

/** The return page asks the provider itself whether the session was paid (spec: verify-payment). */
export const verify = userAction({
  args: { sessionId: v.string() },
  returns: v.object({ verified: v.boolean(), testId: v.union(v.null(), v.id("tests")) }),
  handler: async (ctx, { sessionId }): Promise<{ verified: boolean; testId: Id<"tests"> | null }> => {
    if (sessionId.length > HIDDEN_INPUT_LIMITS.maxCheckoutSessionIdLength) {
      fail("INVALID_INPUT", "This payment link is not valid.", { field: "sessionId" });
    }
    const owner: { userId: Id<"users">; testId: Id<"tests"> | null; amountCents: number } | null = await ctx.runQuery(
      internal.payments.sessionOwner,
      { sessionId },
    );
    if (!owner || owner.userId !== ctx.userId) return { verified: false, testId: null };
    try {
      const session = await paymentProvider().getCheckout(sessionId);
      if (!session?.paid) return { verified: false, testId: owner.testId };
      const settled: { status: string | null } = await ctx.runMutation(internal.payments.markPaid, session.paid);
      return { verified: settled.status === "paid" || settled.status === "completed", testId: owner.testId };
    } catch (error) {
      console.error("verify-payment failed", error);
      return { verified: false, testId: owner.testId };
    }
  },
});

export const sessionOwner = internalQuery({
  args: { sessionId: v.string() },
  returns: v.union(
    v.null(),
    v.object({ userId: v.id("users"), testId: v.union(v.null(), v.id("tests")), amountCents: v.number() }),
  ),
  handler: async (ctx, { sessionId }) => {
    const payment = await paymentByCheckout(ctx, sessionId);
    return payment
      ? { userId: payment.userId, testId: payment.testId ?? null, amountCents: payment.amountCents }
      : null;
  },
});

// ---------------------------------------------------------------- ending checkouts

/** CONTRACT: expires every open checkout session of the test (no-op in free mode). */
export const expireTestCheckouts = internalAction({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    if (!paymentsEnabled()) return null;
    const sessionIds: string[] = await ctx.runMutation(internal.payments.endTestCheckouts, { testId });
    const provider = paymentProvider();
    for (const sessionId of sessionIds) await expireSession(ctx, provider, sessionId);
    return null;
  },
});

/** Marks the test's open checkouts ended and returns their sessions (expired by the caller). */
export const endTestCheckouts = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.array(v.string()),
  handler: async (ctx, { testId }) => await endOpenCheckouts(ctx, testId, { expireLater: false }),
});

/** Expires sessions already marked ended in a mutation (core/payments.ts endOpenCheckouts). */
export const expireSessions = internalAction({
  args: { sessionIds: v.array(v.string()) },
  returns: v.null(),
  handler: async (ctx, { sessionIds }) => {
    if (!paymentsEnabled()) return null;
    const provider = paymentProvider();
    for (const sessionId of sessionIds) await expireSession(ctx, provider, sessionId);
    return null;
  },
});

// ---------------------------------------------------------------- refunds

/** CONTRACT: refunds the paid payment of a test once (idempotent); no-op when nothing was paid. */
export const refundTest = internalAction({
  args: { testId: v.id("tests"), reason: v.string() },
  returns: v.null(),
  handler: async (ctx, { testId, reason }) => {
    const paymentId: Id<"payments"> | null = await ctx.runMutation(internal.payments.requestRefund, { testId, reason });
    if (paymentId) await refund(ctx, paymentId, 0);
    return null;
  },
});

export const requestRefund = internalMutation({
  args: { testId: v.id("tests"), reason: v.string() },
  returns: v.union(v.null(), v.id("payments")),
  handler: async (ctx, { testId, reason }) => await requestTestRefund(ctx, testId, reason),
});

/** Refunds one payment through the provider (retried, then reported) and records it once. */
export const refundPayment = internalAction({
  args: { paymentId: v.id("payments"), attempt: v.optional(v.number()) },
  returns: v.null(),
  handler: async (ctx, { paymentId, attempt }) => {
    await refund(ctx, paymentId, attempt ?? 0);
    return null;
  },
});

async function refund(ctx: ActionCtx, paymentId: Id<"payments">, attempt: number): Promise<void> {
  const payment: {
    status: string;
    sessionId?: string;
    paymentIntentId?: string;
    amountCents: number;
    duplicate?: boolean;
  } | null = await ctx.runQuery(internal.payments.refundable, { paymentId });
  if (!payment || payment.status === "refunded") return;
  try {
    // One key per payment: retries and races get the provider's first refund back, never a second one.
    const made = await paymentProvider().refund({
      ...(payment.paymentIntentId ? { paymentIntentId: payment.paymentIntentId } : {}),
      ...(payment.sessionId ? { sessionId: payment.sessionId } : {}),
      duplicate: payment.duplicate === true,
      idempotencyKey: `modeljury-refund-${paymentId}`,
      metadata: { paymentId },
    });
    await ctx.runMutation(internal.payments.recordRefund, {
      paymentId,
      refundId: made.id,
      amountCents: made.amountCents,
    });
  } catch (error) {
    console.error(`Refund of payment ${paymentId} failed`, error);
    const delay = REFUND_RETRY_DELAYS_MS[attempt];
    if (delay !== undefined) {
      await ctx.scheduler.runAfter(delay, internal.payments.refundPayment, { paymentId, attempt: attempt + 1 });
    } else {
      await ctx.runMutation(internal.payments.reportRefundFailure, {
        paymentId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

export const refundable = internalQuery({
  args: { paymentId: v.id("payments") },
  returns: v.union(
    v.null(),
    v.object({
      status: paymentStatus,
      sessionId: v.optional(v.string()),
      paymentIntentId: v.optional(v.string()),
      amountCents: v.number(),
      /** A second payment for a test already paid: the provider's "duplicate" reason. */
      duplicate: v.optional(v.boolean()),
    }),
  ),
  handler: async (ctx, { paymentId }) => {
    const payment = await ctx.db.get("payments", paymentId);
    if (!payment) return null;
    // Only money that arrived and is owed back: a paid test's payment asked for, or one that landed unwanted.
    const owed =
      payment.status === "refund_pending" ||
      ((payment.status === "paid" || payment.status === "completed") && payment.refundReason !== undefined);
    if (!owed)
      return payment.status === "refunded" ? { status: payment.status, amountCents: payment.amountCents } : null;
    return {
      status: payment.status,
      ...definedOnly({ sessionId: checkoutIdOf(payment), paymentIntentId: providerPaymentIdOf(payment) }),
      amountCents: payment.amountCents,
      duplicate: payment.refundReason === REFUND_REASONS.duplicate,
    };
  },
});

export const recordRefund = internalMutation({
  args: { paymentId: v.id("payments"), refundId: v.string(), amountCents: v.number() },
  returns: v.null(),
  handler: async (ctx, { paymentId, refundId, amountCents }) => {
    const payment = await ctx.db.get("payments", paymentId);
    if (payment) await recordRefundOf(ctx, payment, { id: refundId, amountCents });
    return null;
  },
});

export const reportRefundFailure = internalMutation({
  args: { paymentId: v.id("payments"), error: v.string() },
  returns: v.null(),
  handler: async (ctx, { paymentId, error }) => {
    const payment = await ctx.db.get("payments", paymentId);
    if (!payment || payment.status === "refunded") return null;
    const job = payment.testId
      ? await ctx.db
          .query("jobs")
          .withIndex("by_test", (q) => q.eq("testId", payment.testId!))
          .unique()
      : null;
    await ctx.db.insert("alerts", {
      kind: "refund_failed",
      ...(job ? { jobId: job._id } : {}),
      paymentId,
      message: `The refund of ${formatCents(payment.amountCents)} for "${payment.testName}" (session ${checkoutIdOf(payment) ?? "none"}) failed: ${error}. Refund it in Stripe.`,
      resolved: false,
    });
    return null;
  },
});

function definedOnly<T extends Record<string, string | undefined>>(fields: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<
    Record<keyof T, string>
  >;
}

// ---------------------------------------------------------------- provider-neutral field names

/** Payments rewritten per run of the migration below. */
const MIGRATION_BATCH = 100;

/**
 * Moves payments written before the provider-neutral names (stripeSessionId, stripePaymentIntentId,
 * stripeRefundId) to checkoutId, providerPaymentId and providerRefundId, a batch per run,
 * rescheduling itself until every row is done. Idempotent: a migrated row is left alone, so a
 * second run changes nothing. Until it has run, core/payments.ts reads both names.
 * Run once after deploying: `npx convex run payments:migratePaymentFields`.
 */
export const migratePaymentFields = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ migrated: v.number(), done: v.boolean() }),
  handler: async (ctx, { cursor }) => {
    const batch = await ctx.db.query("payments").paginate({ cursor: cursor ?? null, numItems: MIGRATION_BATCH });
    let migrated = 0;
    for (const payment of batch.page) {
      const { stripeSessionId, stripePaymentIntentId, stripeRefundId } = payment;
      if (stripeSessionId === undefined && stripePaymentIntentId === undefined && stripeRefundId === undefined)
        continue;
      await ctx.db.patch("payments", payment._id, {
        ...definedOnly({
          checkoutId: payment.checkoutId ?? stripeSessionId,
          providerPaymentId: payment.providerPaymentId ?? stripePaymentIntentId,
          providerRefundId: payment.providerRefundId ?? stripeRefundId,
        }),
        stripeSessionId: undefined,
        stripePaymentIntentId: undefined,
        stripeRefundId: undefined,
      });
      migrated += 1;
    }
    if (!batch.isDone) {
      await ctx.scheduler.runAfter(0, internal.payments.migratePaymentFields, { cursor: batch.continueCursor });
    }
    return { migrated, done: batch.isDone };
  },
});

// ---------------------------------------------------------------- what the owner sees

/** The money side of one test, for its results page: whether a payment was returned. */
export const testRefund = userQuery({
  args: { testId: v.id("tests") },
  returns: v.object({
    state: v.union(v.literal("none"), v.literal("pending"), v.literal("refunded")),
    amountCents: v.number(),
    refundedAt: v.optional(v.number()),
  }),
  handler: async (ctx, { testId }) => {
    const test = await requireTestAccess(ctx, ctx.user._id, testId, "read");
    const payments = await ctx.db
      .query("payments")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .take(20);
    const refunded = payments.find(
      (payment) => payment.status === "refunded" && payment.refundReason !== REFUND_REASONS.duplicate,
    );
    if (refunded)
      return { state: "refunded" as const, amountCents: refunded.amountCents, refundedAt: refunded.refundedAt };
    // A failed test's payment is owed back from the moment it failed, before the refund is asked for.
    const asked = payments.find(
      (payment) =>
        (payment.status === "paid" || payment.status === "completed") &&
        (payment.refundReason !== undefined || test.status === "failed"),
    );
    if (asked) return { state: "pending" as const, amountCents: asked.amountCents };
    return { state: "none" as const, amountCents: 0 };
  },
});
