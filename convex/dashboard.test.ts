// @vitest-environment node
// The dashboard home: figures from the user's counters (kept as tests end and payments settle),
// bounded lists, and only the caller's rows.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { recordPurchase } from "./core/payments";
import {
  createUser,
  createBackend,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
  useDevGateway,
  settlePayment,
} from "./test.helpers";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001"];
useDevGateway();

async function waitForEnd(t: TestBackend, testId: Id<"tests">) {
  const started = Date.now();
  for (;;) {
    const test = await t.run(async (ctx) => (await ctx.db.get("tests", testId))!);
    if (test.status === "completed" || test.status === "failed" || test.status === "cancelled") {
      await t.finishInProgressScheduledFunctions();
      return await t.run(async (ctx) => (await ctx.db.get("tests", testId))!);
    }
    if (Date.now() - started > 45_000) throw new Error(`test still ${test.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("dashboard home", () => {
  test("a new user gets zeros and empty lists", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    expect(await ada.as.query(api.dashboard.home, {})).toEqual({
      stats: {
        totalTests: 0,
        completedTests: 0,
        totalSpentCents: 0,
        averageSpentCents: 0,
        responses: 0,
        evaluations: 0,
        savedAssets: 0,
      },
      recentTests: [],
      personas: { total: 0, items: [] },
      topics: { total: 0, items: [] },
      activity: [],
    });
  });

  test("saved assets are counted as they are created and removed, and from the rows for older accounts", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    // Saved before the counter existed: no personaCount on the user.
    await t.run(async (ctx) => {
      for (let index = 0; index < 3; index++) {
        await ctx.db.insert("personas", {
          userId: ada.userId,
          name: `Old ${index}`,
          description: "D",
          systemPrompt: "S",
          updatedAt: index,
        });
      }
    });
    expect((await ada.as.query(api.dashboard.home, {})).personas.total).toBe(3);
    const personaId = await ada.as.mutation(api.personas.create, { name: "New", description: "D", systemPrompt: "S" });
    const topicId = await ada.as.mutation(api.topics.create, { title: "T", description: "D", prompt: "P" });
    let home = await ada.as.query(api.dashboard.home, {});
    expect([home.personas.total, home.topics.total, home.stats.savedAssets]).toEqual([4, 1, 5]);
    await ada.as.mutation(api.personas.remove, { personaId });
    await ada.as.mutation(api.topics.remove, { topicId });
    home = await ada.as.query(api.dashboard.home, {});
    expect([home.personas.total, home.topics.total, home.stats.savedAssets]).toEqual([3, 0, 3]);
    expect(await t.run(async (ctx) => (await ctx.db.get("users", ada.userId))!.personaCount)).toBe(3);
  });

  test("completed runs, cancels and payments move the figures; lists are bounded and newest first", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");

    const first = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS),
    });
    const finished = await waitForEnd(t, first.testId);
    expect(finished.status).toBe("completed");

    // A test held in the queue (it cannot be stopped before it runs): counted as a test, not as completed.
    await t.run((ctx) => ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 }));
    const second = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS, { name: "Held back" }),
    });
    await expect(ada.as.mutation(api.tests.cancel, { testId: second.testId })).rejects.toThrow(
      "Only a running test can be stopped.",
    );

    // A settled payment of $4.00 (as the Stripe webhook settles it).
    await t.run(async (ctx) => {
      const paymentId = await ctx.db.insert("payments", {
        userId: ada.userId,
        testId: second.testId,
        testName: "Held back",
        amountCents: 400,
        currency: "usd",
        status: "pending",
      });
      await recordPurchase(ctx, (await ctx.db.get("payments", paymentId))!, 400);
    });

    for (let index = 0; index < 7; index++) {
      await ada.as.mutation(api.personas.create, { name: `Persona ${index}`, description: "D", systemPrompt: "S" });
    }
    await ada.as.mutation(api.topics.create, { title: "Coffee", description: "D", prompt: "P" });
    for (let index = 0; index < 10; index++) {
      await ada.as.mutation(api.tests.create, {
        configuration: sampleConfiguration(GENERATORS, EVALUATORS, { name: `Queued ${index}` }),
      });
    }

    const home = await ada.as.query(api.dashboard.home, {});
    expect(home.stats).toEqual({
      totalTests: 12,
      completedTests: 1,
      totalSpentCents: 400,
      averageSpentCents: Math.round(400 / 12),
      responses: finished.responsesCount,
      evaluations: finished.evaluationsCount,
      savedAssets: 8,
    });
    expect(finished.responsesCount).toBeGreaterThan(0);
    expect(finished.evaluationsCount).toBeGreaterThan(0);
    expect(home.recentTests).toHaveLength(10);
    expect(home.recentTests[0]).toMatchObject({ name: "Queued 9", status: "pending", modelCount: 2 });
    expect(home.recentTests.map((row) => row.createdAt)).toEqual(
      [...home.recentTests.map((row) => row.createdAt)].sort((a, b) => b - a),
    );
    expect(home.personas.total).toBe(7);
    expect(home.personas.items.map((persona) => persona.name)).toEqual([
      "Persona 6",
      "Persona 5",
      "Persona 4",
      "Persona 3",
      "Persona 2",
    ]);
    expect(home.topics).toMatchObject({ total: 1, items: [{ title: "Coffee", prompt: "P" }] });
    expect(home.activity.length).toBeLessThanOrEqual(8);
    expect(home.activity.map((entry) => entry.at)).toEqual(
      [...home.activity.map((entry) => entry.at)].sort((a, b) => b - a),
    );
    // Activity draws on 5 tests, 3 personas and 3 topics (spec part 1 §9).
    expect(home.activity.filter((entry) => entry.kind === "persona_saved").length).toBeLessThanOrEqual(3);
    expect(home.activity.filter((entry) => entry.kind.startsWith("test_")).length).toBeLessThanOrEqual(5);

    // Another user sees none of it.
    const other = await bob.as.query(api.dashboard.home, {});
    expect(other.stats.totalTests).toBe(0);
    expect(other.recentTests).toEqual([]);
    expect(other.personas.total).toBe(0);
  });
});

describe("dashboard home in each space", () => {
  test("the personal home counts only personal tests and payments; a team's home only the team's", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    const { teamId } = await ada.as.mutation(api.teams.create, { name: "Team" });
    await t.run((ctx) => ctx.db.insert("memberships", { teamId, userId: bob.userId, role: "member" }));

    const teamRun = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS, { name: "Team run" }),
      teamId,
    });
    const teamEnded = await waitForEnd(t, teamRun.testId);
    const bobRun = await bob.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS.slice(0, 1), { name: "Bob's team run" }),
      teamId,
    });
    const bobEnded = await waitForEnd(t, bobRun.testId);
    const personalRun = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS.slice(0, 1), EVALUATORS, { name: "Mine" }),
    });
    const personalEnded = await waitForEnd(t, personalRun.testId);
    expect([teamEnded.status, bobEnded.status, personalEnded.status]).toEqual(["completed", "completed", "completed"]);
    expect(personalEnded.responsesCount).not.toBe(teamEnded.responsesCount);

    // Payments as the Stripe webhook settles them: Ada pays $2.50 for her team run and $4.00 for her own, Bob $1.00.
    const pay = (userId: Id<"users">, testId: Id<"tests">, sessionId: string, amountCents: number) =>
      settlePayment(t, { userId, testId, sessionId, amountCents });
    await pay(ada.userId, teamRun.testId, "cs_team", 250);
    await pay(ada.userId, personalRun.testId, "cs_mine", 400);
    await pay(bob.userId, bobRun.testId, "cs_bob", 100);

    expect((await ada.as.query(api.dashboard.home, {})).stats).toEqual({
      totalTests: 1,
      completedTests: 1,
      totalSpentCents: 400,
      averageSpentCents: 400,
      responses: personalEnded.responsesCount,
      evaluations: personalEnded.evaluationsCount,
      savedAssets: 0,
    });
    expect((await ada.as.query(api.history.list, {})).total).toBe(1);
    const teamStats = {
      totalTests: 2,
      completedTests: 2,
      totalSpentCents: 350,
      averageSpentCents: 175,
      responses: teamEnded.responsesCount + bobEnded.responsesCount,
      evaluations: teamEnded.evaluationsCount + bobEnded.evaluationsCount,
      savedAssets: 0,
    };
    expect((await ada.as.query(api.dashboard.home, { teamId })).stats).toEqual(teamStats);
    expect((await bob.as.query(api.dashboard.home, { teamId })).stats).toEqual(teamStats);
    expect((await bob.as.query(api.dashboard.home, {})).stats).toMatchObject({ totalTests: 0, totalSpentCents: 0 });
    // Billing stays the payer's own payments, in every space.
    const billing = await ada.as.query(api.billing.overview, {});
    expect(billing.payments.map((payment) => payment.amountCents).sort()).toEqual([250, 400]);

    // A refund of the team run leaves the personal figures as they were; deleting it too.
    const teamPayment = await t.run(
      async (ctx) =>
        (await ctx.db
          .query("payments")
          .withIndex("by_session", (q) => q.eq("checkoutId", "cs_team"))
          .unique())!,
    );
    await t.mutation(internal.payments.recordRefund, {
      paymentId: teamPayment._id,
      refundId: "re_team",
      amountCents: 250,
    });
    expect((await ada.as.query(api.dashboard.home, { teamId })).stats.totalSpentCents).toBe(100);
    await ada.as.mutation(api.tests.remove, { testId: teamRun.testId });
    expect((await ada.as.query(api.dashboard.home, {})).stats).toMatchObject({
      totalTests: 1,
      completedTests: 1,
      totalSpentCents: 400,
      responses: personalEnded.responsesCount,
    });
    expect((await ada.as.query(api.dashboard.home, { teamId })).stats).toMatchObject({
      totalTests: 1,
      completedTests: 1,
      responses: bobEnded.responsesCount,
    });
  });
});

describe("rebuilding the team part of older accounts", () => {
  test("an account whose team tests predate the team part gets the figures live counting gives", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const ada = await createUser(t, "ada@example.com");
    const { teamId } = await ada.as.mutation(api.teams.create, { name: "Team" });
    const teamRun = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS, { name: "Team run" }),
      teamId,
    });
    await waitForEnd(t, teamRun.testId);
    const personalRun = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS.slice(0, 1), EVALUATORS, { name: "Mine" }),
    });
    await waitForEnd(t, personalRun.testId);
    for (const [testId, sessionId, amountCents] of [
      [teamRun.testId, "cs_team", 250],
      [personalRun.testId, "cs_mine", 400],
    ] as const) {
      await settlePayment(t, { testId, userId: ada.userId, sessionId, amountCents });
    }
    const counted = (await ada.as.query(api.dashboard.home, {})).stats;
    expect(counted).toMatchObject({ totalTests: 1, totalSpentCents: 400 });

    // As the row of an account from before: no team part, so its team test counts as personal.
    const teamPart = [
      "teamTestCount",
      "teamCompletedTestCount",
      "teamResponseCount",
      "teamEvaluationCount",
      "teamSpentCents",
    ] as const;
    await t.run((ctx) =>
      ctx.db.patch("users", ada.userId, Object.fromEntries(teamPart.map((field) => [field, undefined]))),
    );
    expect((await ada.as.query(api.dashboard.home, {})).stats).toMatchObject({ totalTests: 2, totalSpentCents: 650 });

    expect(await t.mutation(internal.dashboard.rebuildTeamFigures, {})).toEqual({ users: 1, isDone: true });
    expect((await ada.as.query(api.dashboard.home, {})).stats).toEqual(counted);
    // Run again, it changes nothing.
    await t.mutation(internal.dashboard.rebuildTeamFigures, {});
    expect((await ada.as.query(api.dashboard.home, {})).stats).toEqual(counted);
    expect((await ada.as.query(api.dashboard.home, { teamId })).stats.totalTests).toBe(1);
  });
});
