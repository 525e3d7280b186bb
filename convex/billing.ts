// Billing & Credits (spec part 2 §2, §7, §9): the caller's 20 newest payments, 50 newest credit
// transactions and completed-test count. Only the owner's rows, through the by_user indexes.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, requireTeamRole, userQuery } from "./functions";
import { countTeamPaymentsPage, teamSpendRows } from "./core/teamSpend";
import { creditTransactionType, paymentStatus } from "./validators";
import { takeWithinBytes } from "./lib/boundedList";
import { LIST_READ_BYTES } from "./lib/limits";

export const PAYMENTS_LOADED = 20;
export const CREDIT_TRANSACTIONS_LOADED = 50;

export const overview = userQuery({
  args: {},
  returns: v.object({
    payments: v.array(
      v.object({
        _id: v.id("payments"),
        createdAt: v.number(),
        completedAt: v.optional(v.number()),
        amountCents: v.number(),
        currency: v.string(),
        status: paymentStatus,
        testId: v.optional(v.id("tests")),
        testName: v.string(),
        /** Why the money went (or goes) back, and when Stripe returned it. */
        refundReason: v.optional(v.string()),
        refundedAt: v.optional(v.number()),
        /** What partial refunds returned (a test stopped early: the calls it did not make); the net is the rest. */
        refundedCents: v.optional(v.number()),
      }),
    ),
    creditTransactions: v.array(
      v.object({
        _id: v.id("creditTransactions"),
        createdAt: v.number(),
        type: creditTransactionType,
        amountCents: v.number(),
        description: v.string(),
        testId: v.optional(v.id("tests")),
      }),
    ),
    testsCompleted: v.number(),
  }),
  handler: async (ctx) => {
    // Bounded in rows and in bytes (lib/boundedList.ts), like every list.
    const { rows: payments } = await takeWithinBytes(
      ctx.db
        .query("payments")
        .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
        .order("desc"),
      PAYMENTS_LOADED,
      LIST_READ_BYTES / 2,
    );
    const { rows: transactions } = await takeWithinBytes(
      ctx.db
        .query("creditTransactions")
        .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
        .order("desc"),
      CREDIT_TRANSACTIONS_LOADED,
      LIST_READ_BYTES / 2,
    );
    return {
      payments: payments.map((payment) => ({
        _id: payment._id,
        createdAt: payment._creationTime,
        completedAt: payment.completedAt,
        amountCents: payment.amountCents,
        currency: payment.currency,
        status: payment.status,
        testId: payment.testId,
        testName: payment.testName,
        ...(payment.refundReason !== undefined ? { refundReason: payment.refundReason } : {}),
        ...(payment.refundedAt !== undefined ? { refundedAt: payment.refundedAt } : {}),
        ...(payment.refundedCents ? { refundedCents: payment.refundedCents } : {}),
      })),
      creditTransactions: transactions.map((entry) => ({
        _id: entry._id,
        createdAt: entry._creationTime,
        type: entry.type,
        amountCents: entry.amountCents,
        description: entry.description,
        testId: entry.testId,
      })),
      testsCompleted: ctx.user.completedTestCount ?? 0,
    };
  },
});

/**
 * A team's spend by member, for its owners: what each member paid for the team's tests they
 * started, less refunds, and how many such tests stayed paid. Reads the team's teamSpend rows (one
 * per member who paid, kept by core/payments.ts) and each one's name, never the payments.
 * Members and viewers are refused (money is the owners').
 */
export const teamSpend = userQuery({
  args: { teamId: v.id("teams") },
  returns: v.object({
    totalCents: v.number(),
    members: v.array(v.object({ userId: v.id("users"), name: v.string(), spentCents: v.number(), tests: v.number() })),
  }),
  handler: async (ctx, { teamId }) => {
    await requireTeamRole(ctx, teamId, "owner");
    const members = [];
    for (const row of await teamSpendRows(ctx, teamId)) {
      const spentCents = row.paidCents - row.refundedCents;
      if (spentCents === 0 && row.tests === 0) continue; // everything went back: nothing spent
      const user = await ctx.db.get("users", row.userId);
      const name = user?.fullName?.trim() || user?.name?.trim() || user?.email || "Deleted user";
      members.push({ userId: row.userId, name, spentCents, tests: row.tests });
    }
    members.sort((a, b) => b.spentCents - a.spentCents || a.name.localeCompare(b.name));
    return { totalCents: members.reduce((sum, member) => sum + member.spentCents, 0), members };
  },
});

/**
 * One-off, for a deployment with team payments from before the teamSpend rows: counts every
 * payment not yet counted, a batch per transaction, each batch scheduling the next. Safe beside
 * live payments and safe to run again (a payment is counted once).
 *   npx convex run billing:rebuildTeamSpend
 */
export const rebuildTeamSpend = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.object({ counted: v.number(), isDone: v.boolean() }),
  handler: async (ctx, { cursor }) => {
    const batch = await countTeamPaymentsPage(ctx, cursor ?? null);
    if (!batch.isDone)
      await ctx.scheduler.runAfter(0, internal.billing.rebuildTeamSpend, { cursor: batch.continueCursor });
    return { counted: batch.counted, isDone: batch.isDone };
  },
});
