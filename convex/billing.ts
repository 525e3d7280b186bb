// Billing & Credits (spec part 2 §2, §7, §9): the caller's 20 newest payments, 50 newest credit
// transactions and completed-test count. Only the owner's rows, through the by_user indexes.
import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";
import { requireTeamRole, userQuery } from "./functions";
import { creditTransactionType, paymentStatus } from "./validators";

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
    const payments = await ctx.db
      .query("payments")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .order("desc")
      .take(PAYMENTS_LOADED);
    const transactions = await ctx.db
      .query("creditTransactions")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .order("desc")
      .take(CREDIT_TRANSACTIONS_LOADED);
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

/** The team's payments a spend summary reads (newest first); a team pays for at most this many tests here. */
export const TEAM_PAYMENTS_SCANNED = 1000;

/**
 * A team's spend by member, for its owners: the payments of the team's tests, paid
 * by whoever started each, less refunds. Members and viewers are refused (money is the owners').
 */
export const teamSpend = userQuery({
  args: { teamId: v.id("teams") },
  returns: v.object({
    totalCents: v.number(),
    members: v.array(v.object({ userId: v.id("users"), name: v.string(), spentCents: v.number(), tests: v.number() })),
  }),
  handler: async (ctx, { teamId }) => {
    await requireTeamRole(ctx, teamId, "owner");
    const payments = await ctx.db
      .query("payments")
      .withIndex("by_team", (q) => q.eq("teamId", teamId))
      .order("desc")
      .take(TEAM_PAYMENTS_SCANNED);
    const byMember = new Map<Id<"users">, { spentCents: number; tests: Set<string> }>();
    for (const payment of payments) {
      if (payment.status !== "paid" && payment.status !== "completed") continue; // pending, failed or refunded: nothing spent
      const row = byMember.get(payment.userId) ?? { spentCents: 0, tests: new Set<string>() };
      row.spentCents += payment.amountCents;
      row.tests.add(payment.testId ?? payment._id);
      byMember.set(payment.userId, row);
    }
    const members = [];
    for (const [userId, row] of byMember) {
      const user = await ctx.db.get("users", userId);
      const name = user?.fullName?.trim() || user?.name?.trim() || user?.email || "Deleted user";
      members.push({ userId, name, spentCents: row.spentCents, tests: row.tests.size });
    }
    members.sort((a, b) => b.spentCents - a.spentCents || a.name.localeCompare(b.name));
    return { totalCents: members.reduce((sum, member) => sum + member.spentCents, 0), members };
  },
});
