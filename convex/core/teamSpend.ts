// A team's spend by member as counters: one teamSpend row per team × payer, moved in the same
// mutation that records a team test's payment or its refund (core/payments.ts), so the owners'
// summary (billing.teamSpend) reads one row per member, never the payments. The payer's
// users.teamSpentCents moves with it (their personal home's Total Spent leaves it out).
//
// Each payment carries what it already adds (`teamSpendCounted`): a step is counted once, so a
// replayed record changes nothing, and the rebuild over existing payments (billing.ts
// rebuildTeamSpend) can run beside live payments without counting one twice.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";

type Counted = Doc<"payments">["teamSpendCounted"];

/** Rows a team's summary reads: every member who ever paid for one of its tests, members past included. */
export const TEAM_SPEND_ROWS_READ = 500;

/**
 * What a payment adds to its payer's row: a paid one its cents and one test; one paid and then
 * returned also its cents as refunded (and the test no more). A payment that never counted as
 * paid (a second payment for a paid test, one for a stopped test) adds nothing, refunded or not.
 */
export function countedAs(status: Doc<"payments">["status"], counted: Counted): Counted {
  if (status === "paid" || status === "completed") return "paid";
  if (status === "refunded" && counted === "paid") return "refunded";
  return counted;
}

export async function teamSpendRow(ctx: QueryCtx, teamId: Id<"teams">, userId: Id<"users">) {
  return await ctx.db
    .query("teamSpend")
    .withIndex("by_team_user", (q) => q.eq("teamId", teamId).eq("userId", userId))
    .unique();
}

export async function teamSpendRows(ctx: QueryCtx, teamId: Id<"teams">): Promise<Doc<"teamSpend">[]> {
  return await ctx.db
    .query("teamSpend")
    .withIndex("by_team_user", (q) => q.eq("teamId", teamId))
    .take(TEAM_SPEND_ROWS_READ);
}

/**
 * Brings the payer's row up to what the payment (as it now stands) adds; true when it moved.
 * Personal payments and those of a deleted team count nowhere.
 */
export async function countTeamPayment(ctx: MutationCtx, payment: Doc<"payments">): Promise<boolean> {
  const teamId = payment.teamId;
  if (teamId === undefined) return false;
  const target = countedAs(payment.status, payment.teamSpendCounted);
  if (target === payment.teamSpendCounted) return false;
  if ((await ctx.db.get("teams", teamId)) === null) return false;
  const step = { paidCents: 0, refundedCents: 0, tests: 0 };
  // Partial refunds (payment.refundedCents) count with the paid step; a full refund, the rest.
  const partlyRefunded = payment.refundedCents ?? 0;
  if (payment.teamSpendCounted === undefined) {
    step.paidCents = payment.amountCents;
    step.refundedCents = partlyRefunded;
    step.tests = 1;
  }
  if (target === "refunded") {
    step.refundedCents += payment.amountCents - partlyRefunded;
    step.tests -= 1;
  }
  await moveTeamSpend(ctx, teamId, payment.userId, step);
  await ctx.db.patch("payments", payment._id, { teamSpendCounted: target });
  return true;
}

/**
 * A partial refund of a team test's payment already counted as paid: its payer's row and part of
 * Total Spent drop by the amount. (One not yet counted carries it in refundedCents when counted.)
 */
export async function countTeamPartialRefund(ctx: MutationCtx, payment: Doc<"payments">, cents: number) {
  if (payment.teamId === undefined || payment.teamSpendCounted !== "paid") return;
  if ((await ctx.db.get("teams", payment.teamId)) === null) return;
  await moveTeamSpend(ctx, payment.teamId, payment.userId, { paidCents: 0, refundedCents: cents, tests: 0 });
}

async function moveTeamSpend(
  ctx: MutationCtx,
  teamId: Id<"teams">,
  userId: Id<"users">,
  step: { paidCents: number; refundedCents: number; tests: number },
): Promise<void> {
  const row = await teamSpendRow(ctx, teamId, userId);
  if (row === null) {
    await ctx.db.insert("teamSpend", { teamId, userId, ...step });
  } else {
    await ctx.db.patch("teamSpend", row._id, {
      paidCents: row.paidCents + step.paidCents,
      refundedCents: row.refundedCents + step.refundedCents,
      tests: row.tests + step.tests,
    });
  }
  // The payer's team part of Total Spent: their personal space's home shows their spend less it.
  const payer = await ctx.db.get("users", userId);
  if (payer)
    await ctx.db.patch("users", payer._id, {
      teamSpentCents: Math.max(0, (payer.teamSpentCents ?? 0) + step.paidCents - step.refundedCents),
    });
}

/** Payments the rebuild looks at per transaction: each may read its team and its payer's row. */
export const TEAM_SPEND_REBUILD_BATCH = 200;

/** One batch of the rebuild: counts what the next payments add and not yet counted. */
export async function countTeamPaymentsPage(ctx: MutationCtx, cursor: string | null) {
  const page = await ctx.db.query("payments").paginate({ cursor, numItems: TEAM_SPEND_REBUILD_BATCH });
  let counted = 0;
  for (const payment of page.page) if (await countTeamPayment(ctx, payment)) counted++;
  return { counted, isDone: page.isDone, continueCursor: page.continueCursor };
}
