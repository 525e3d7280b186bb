// A team's spend by member (billing.teamSpend) is kept as counters where a team test's payment is
// recorded and refunded; the figures are always what the payments ledger gives, and the rebuild
// counts the payments of a deployment from before the counters, beside live payments.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import { createBackend, createUser, sampleConfiguration, seedCatalog, type TestBackend } from "./test.helpers";

beforeEach(() => {
  // Tests wait for a Stripe payment; nothing scheduled runs unless a test asks (no Stripe is called).
  vi.useFakeTimers();
  process.env.STRIPE_SECRET_KEY = "sk_test_team_spend";
});
afterEach(() => {
  delete process.env.STRIPE_SECRET_KEY;
  vi.useRealTimers();
});

async function teamOf(t: TestBackend) {
  const owner = await createUser(t, "owner@example.com", { fullName: "Olive Owner" });
  const member = await createUser(t, "member@example.com", { fullName: "Max Member" });
  const { teamId } = await owner.as.mutation(api.teams.create, { name: "Team" });
  await t.run(async (ctx) => {
    await ctx.db.insert("memberships", { teamId, userId: member.userId, role: "member" });
    await ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 }); // paid jobs stay queued
  });
  await seedCatalog(t, ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"]);
  return { teamId, owner, member };
}

type Person = Awaited<ReturnType<typeof createUser>>;

/** A test started in `teamId` (or personal) and its price, waiting for its payment. */
async function started(person: Person, teamId: Id<"teams"> | undefined, name: string) {
  const configuration = sampleConfiguration(undefined, undefined, { name });
  const created = await person.as.mutation(api.tests.create, { configuration, ...(teamId ? { teamId } : {}) });
  expect(created.paymentRequired).toBe(true);
  return created;
}

/** A Checkout Session recorded for the test and paid: what the webhook hands markPaid. */
async function pay(t: TestBackend, person: Person, testId: Id<"tests">, amountCents: number, sessionId: string) {
  await t.mutation(internal.payments.recordCheckout, { testId, userId: person.userId, sessionId, amountCents });
  return await t.mutation(internal.payments.markPaid, {
    sessionId,
    amountCents,
    currency: "usd",
    paymentIntentId: `pi_${sessionId}`,
  });
}

async function paymentOf(t: TestBackend, sessionId: string): Promise<Doc<"payments">> {
  return (await t.run((ctx) =>
    ctx.db
      .query("payments")
      .withIndex("by_session", (q) => q.eq("checkoutId", sessionId))
      .unique(),
  ))!;
}

/** What Stripe's refund, once made, records (payments.refundPayment after stripe.refunds.create). */
async function refunded(t: TestBackend, sessionId: string) {
  const payment = await paymentOf(t, sessionId);
  await t.mutation(internal.payments.recordRefund, {
    paymentId: payment._id,
    refundId: `re_${sessionId}`,
    amountCents: payment.amountCents,
  });
}

/** The spend by member worked out from the payments themselves: paid (or completed) team payments by payer. */
async function ledgerSpend(t: TestBackend, teamId: Id<"teams">) {
  const payments = await t.run((ctx) =>
    ctx.db
      .query("payments")
      .withIndex("by_team", (q) => q.eq("teamId", teamId))
      .collect(),
  );
  const byMember = new Map<Id<"users">, { spentCents: number; tests: number }>();
  for (const payment of payments) {
    if (payment.status !== "paid" && payment.status !== "completed") continue;
    const row = byMember.get(payment.userId) ?? { spentCents: 0, tests: 0 };
    row.spentCents += payment.amountCents - (payment.refundedCents ?? 0); // less partial refunds
    row.tests += 1;
    byMember.set(payment.userId, row);
  }
  return byMember;
}

function figuresOf(spend: { members: { userId: Id<"users">; spentCents: number; tests: number }[] }) {
  return new Map(
    spend.members.map((member) => [member.userId, { spentCents: member.spentCents, tests: member.tests }]),
  );
}

describe("team spend by member", () => {
  test("payments, a refund and a second payment for a paid test: each member's figures, the second payment counted once", async () => {
    const t = createBackend();
    const { teamId, owner, member } = await teamOf(t);
    const first = await started(member, teamId, "First");
    const second = await started(member, teamId, "Second");
    const owners = await started(owner, teamId, "Owner's");
    const personal = await started(member, undefined, "Personal");

    expect(await pay(t, member, first.testId, first.priceCents, "cs_first")).toMatchObject({ status: "paid" });
    expect(await pay(t, member, second.testId, second.priceCents, "cs_second")).toMatchObject({ status: "paid" });
    expect(await pay(t, owner, owners.testId, owners.priceCents, "cs_owner")).toMatchObject({ status: "paid" });
    await pay(t, member, personal.testId, personal.priceCents, "cs_personal"); // personal: not the team's
    expect(await owner.as.query(api.billing.teamSpend, { teamId })).toEqual({
      totalCents: first.priceCents + second.priceCents + owners.priceCents,
      members: [
        { userId: member.userId, name: "Max Member", spentCents: first.priceCents + second.priceCents, tests: 2 },
        { userId: owner.userId, name: "Olive Owner", spentCents: owners.priceCents, tests: 1 },
      ].sort((a, b) => b.spentCents - a.spentCents),
    });

    // The second test fails and its payment goes back: the member spent the first test's price, on one test.
    await t.mutation(internal.payments.requestRefund, {
      testId: second.testId,
      reason: "No responses were generated.",
    });
    await refunded(t, "cs_second");
    // A second payment for the first test (another tab) lands and is returned: counted once, not twice.
    expect(await pay(t, member, first.testId, first.priceCents, "cs_first_again")).toMatchObject({
      status: "refund_pending",
    });
    await refunded(t, "cs_first_again");
    // Stripe's refund reported twice changes nothing more.
    await refunded(t, "cs_second");

    const spend = await owner.as.query(api.billing.teamSpend, { teamId });
    expect(spend.members).toEqual(
      [
        { userId: member.userId, name: "Max Member", spentCents: first.priceCents, tests: 1 },
        { userId: owner.userId, name: "Olive Owner", spentCents: owners.priceCents, tests: 1 },
      ].sort((a, b) => b.spentCents - a.spentCents || a.name.localeCompare(b.name)),
    );
    expect(spend.totalCents).toBe(first.priceCents + owners.priceCents);
    expect(figuresOf(spend)).toEqual(await ledgerSpend(t, teamId));
    // The team's dashboard total moves with it.
    expect((await owner.as.query(api.dashboard.home, { teamId })).stats.totalSpentCents).toBe(spend.totalCents);
    // What went back is kept beside what was paid.
    const rows = await t.run((ctx) => ctx.db.query("teamSpend").collect());
    expect(rows.find((row) => row.userId === member.userId)).toMatchObject({
      paidCents: first.priceCents + second.priceCents,
      refundedCents: second.priceCents,
      tests: 1,
    });

    // Deleting the team deletes its spend rows; the payments stay with their payers.
    await owner.as.mutation(api.teams.remove, { teamId });
    expect(await t.run((ctx) => ctx.db.query("teamSpend").collect())).toEqual([]);
    expect((await member.as.query(api.billing.overview, {})).payments).toHaveLength(4);
  });

  test("a team test stopped early: its partial refund lowers its payer's spend, live and in the rebuild alike", async () => {
    const t = createBackend();
    const { teamId, owner, member } = await teamOf(t);
    const stopped = await started(member, teamId, "Stopped");
    await pay(t, member, stopped.testId, stopped.priceCents, "cs_stopped");
    const payment = await paymentOf(t, "cs_stopped");
    const refundId = await t.run((ctx) =>
      ctx.db.insert("partialRefunds", {
        paymentId: payment._id,
        userId: member.userId,
        reason: "The calls not made: the test was stopped",
        amountCents: 40,
        keptCents: stopped.priceCents - 40,
        status: "pending",
      }),
    );
    // Stripe's refund recorded, then reported again: counted once.
    await t.mutation(internal.refunds.recordPartialRefund, { refundId, providerRefundId: "re_part", amountCents: 40 });
    await t.mutation(internal.refunds.recordPartialRefund, { refundId, providerRefundId: "re_part", amountCents: 40 });
    const live = await owner.as.query(api.billing.teamSpend, { teamId });
    expect(live.members).toEqual([
      { userId: member.userId, name: "Max Member", spentCents: stopped.priceCents - 40, tests: 1 },
    ]);
    expect(figuresOf(live)).toEqual(await ledgerSpend(t, teamId));

    // The rebuild, from payments not yet counted, gives the same figures.
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("teamSpend").collect()) await ctx.db.delete("teamSpend", row._id);
      await ctx.db.patch("payments", payment._id, { teamSpendCounted: undefined });
    });
    await t.mutation(internal.billing.rebuildTeamSpend, {});
    expect(await owner.as.query(api.billing.teamSpend, { teamId })).toEqual(live);
  });

  test("the rebuild counts a deployment's earlier payments, more than 1,000 of them, beside live payments and refunds", async () => {
    const t = createBackend();
    const { teamId, owner, member } = await teamOf(t);
    const other = await owner.as.mutation(api.teams.create, { name: "Other team" });
    // Payments recorded before the counters existed: no teamSpend rows, nothing marked counted.
    const statuses = ["paid", "paid", "completed", "refunded", "pending", "refund_pending", "cancelled"] as const;
    const earlier = 1_400;
    await t.run(async (ctx) => {
      for (let index = 0; index < earlier; index++) {
        const userId = index % 3 === 0 ? owner.userId : member.userId;
        const place = index % 10 === 9 ? {} : { teamId: index % 10 === 8 ? other.teamId : teamId };
        await ctx.db.insert("payments", {
          userId,
          ...place,
          testName: `Earlier ${index}`,
          amountCents: 200 + (index % 50),
          currency: "usd",
          status: statuses[index % statuses.length]!,
        });
      }
    });
    expect(await owner.as.query(api.billing.teamSpend, { teamId })).toEqual({ totalCents: 0, members: [] });

    // The first batch, then a live payment and a live refund of an earlier payment not yet counted.
    expect(await t.mutation(internal.billing.rebuildTeamSpend, {})).toMatchObject({ isDone: false });
    const live = await started(member, teamId, "Live");
    await pay(t, member, live.testId, live.priceCents, "cs_live");
    const lastEarlierPaid = await t.run(async (ctx) =>
      (await ctx.db.query("payments").order("desc").collect()).find(
        (payment) => payment.teamId === teamId && payment.status === "paid" && payment.checkoutId === undefined,
      ),
    );
    await t.mutation(internal.payments.recordRefund, {
      paymentId: lastEarlierPaid!._id,
      refundId: "re_earlier",
      amountCents: lastEarlierPaid!.amountCents,
    });
    await t.finishAllScheduledFunctions(vi.runAllTimers);

    const spend = await owner.as.query(api.billing.teamSpend, { teamId });
    const ledger = await ledgerSpend(t, teamId);
    expect(figuresOf(spend)).toEqual(ledger);
    // More team payments than a summary over the payments read (the newest 1,000), paid ones among the oldest.
    const teamPayments = await t.run((ctx) =>
      ctx.db
        .query("payments")
        .withIndex("by_team", (q) => q.eq("teamId", teamId))
        .collect(),
    );
    expect(teamPayments.length).toBeGreaterThan(1_100);
    expect(teamPayments.slice(0, 100).some((payment) => payment.status === "paid")).toBe(true);
    expect(spend.totalCents).toBe([...ledger.values()].reduce((sum, row) => sum + row.spentCents, 0));
    // Another team's payments count in that team alone.
    expect(figuresOf(await owner.as.query(api.billing.teamSpend, { teamId: other.teamId }))).toEqual(
      await ledgerSpend(t, other.teamId),
    );

    // Run again: everything is counted already, nothing moves.
    expect(await t.mutation(internal.billing.rebuildTeamSpend, {})).toMatchObject({ counted: 0 });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(await owner.as.query(api.billing.teamSpend, { teamId })).toEqual(spend);
  });
});
