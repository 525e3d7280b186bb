// Team tests: a test started in a team belongs to the team, its starter pays,
// and a member removed from the team loses the test at once.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { TEAM_MESSAGES } from "./lib/teams";
import {
  createUser,
  createBackend,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
  codeOf,
  settlePayment,
} from "./test.helpers";

async function team(t: TestBackend) {
  const owner = await createUser(t, "owner@example.com");
  const member = await createUser(t, "member@example.com");
  const viewer = await createUser(t, "viewer@example.com");
  const outsider = await createUser(t, "outsider@example.com");
  const { teamId } = await owner.as.mutation(api.teams.create, { name: "Team" });
  await t.run(async (ctx) => {
    await ctx.db.insert("memberships", { teamId, userId: member.userId, role: "member" });
    await ctx.db.insert("memberships", { teamId, userId: viewer.userId, role: "viewer" });
  });
  await seedCatalog(t, ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"]);
  return { teamId, owner, member, viewer, outsider };
}

describe("team tests", () => {
  test("members start tests in the team and pay for them; viewers and outsiders cannot start one", async () => {
    const t = createBackend();
    const { teamId, member, viewer, outsider } = await team(t);
    const configuration = sampleConfiguration();
    expect(await codeOf(viewer.as.mutation(api.tests.create, { configuration, teamId }))).toBe("FORBIDDEN");
    expect(await codeOf(outsider.as.mutation(api.tests.create, { configuration, teamId }))).toBe("NOT_FOUND");
    const { testId } = await member.as.mutation(api.tests.create, { configuration, teamId });
    const { test: row, job } = await t.run(async (ctx) => ({
      test: await ctx.db.get("tests", testId),
      job: await ctx.db
        .query("jobs")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique(),
    }));
    expect(row?.teamId).toBe(teamId);
    expect(row?.userId).toBe(member.userId);
    expect(job?.userId).toBe(member.userId);
    // A personal test stays its owner's alone, teammates included.
    const personal = await member.as.mutation(api.tests.create, { configuration });
    expect(await codeOf(viewer.as.query(api.results.get, { testId: personal.testId }))).toBe("NOT_FOUND");
  });

  test("the whole team reads a team test; a viewer cannot stop it; a removed member is refused at once", async () => {
    const t = createBackend();
    const { teamId, owner, member, viewer } = await team(t);
    const { testId } = await owner.as.mutation(api.tests.create, { configuration: sampleConfiguration(), teamId });
    expect((await viewer.as.query(api.results.get, { testId })).test.name).toBe("Coffee taglines");
    expect((await member.as.query(api.tests.monitor, { testId })).test._id).toBe(testId);
    expect(await member.as.query(api.tests.current, { testId })).toBe(testId);
    expect(await codeOf(viewer.as.mutation(api.tests.cancel, { testId }))).toBe("FORBIDDEN");
    await member.as.mutation(api.presence.heartbeat, {
      room: `test:${testId}`,
      clientId: "member-client-1",
      page: "monitor",
    });
    // Presence: the owner sees the teammate on the test's page.
    const present = await owner.as.query(api.presence.viewers, { room: `test:${testId}`, clientId: "owner-client-1" });
    expect(present.viewers.map((viewer) => viewer.label)).toEqual(["M"]);

    await owner.as.mutation(api.teams.removeMember, { teamId, userId: member.userId });
    expect(await codeOf(member.as.query(api.results.get, { testId }))).toBe("NOT_FOUND");
    await expect(member.as.query(api.results.get, { testId })).rejects.toMatchObject({
      data: { message: TEAM_MESSAGES.testAccessLost },
    });
    expect(await codeOf(member.as.query(api.tests.monitor, { testId }))).toBe("NOT_FOUND");
    expect(await codeOf(member.as.mutation(api.tests.cancel, { testId }))).toBe("NOT_FOUND");
    // The monitor's own lookup tells the lost access apart from "no test" (its access-lost screen).
    await expect(member.as.query(api.tests.current, { testId })).rejects.toMatchObject({
      data: { code: "NOT_FOUND", message: TEAM_MESSAGES.testAccessLost },
    });
    // Their open page's beat is told the room is gone (no error for the client to print).
    expect(
      await member.as.mutation(api.presence.heartbeat, {
        room: `test:${testId}`,
        clientId: "member-client-1",
        page: "monitor",
      }),
    ).toBe("gone");
  });

  test("the monitor's lookup of a test: lost access to a team test is told apart from no test", async () => {
    const t = createBackend();
    const { teamId, owner, member, outsider } = await team(t);
    const { testId } = await owner.as.mutation(api.tests.create, { configuration: sampleConfiguration(), teamId });
    const personal = await owner.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
    const lost = { data: { code: "NOT_FOUND", message: TEAM_MESSAGES.testAccessLost } };

    expect(await member.as.query(api.tests.current, { testId })).toBe(testId);
    await expect(outsider.as.query(api.tests.current, { testId })).rejects.toMatchObject(lost);
    await owner.as.mutation(api.teams.removeMember, { teamId, userId: member.userId });
    await expect(member.as.query(api.tests.current, { testId })).rejects.toMatchObject(lost);

    // Someone else's personal test, or a deleted one: simply no test to show, as before.
    expect(await member.as.query(api.tests.current, { testId: personal.testId })).toBeNull();
    await owner.as.mutation(api.tests.remove, { testId: personal.testId });
    expect(await owner.as.query(api.tests.current, { testId: personal.testId })).toBeNull();
  });

  test("lists show the chosen space: a team's history, dashboard and monitor hold its tests, the personal ones only personal tests", async () => {
    const t = createBackend();
    const { teamId, owner, member, viewer, outsider } = await team(t);
    const configuration = sampleConfiguration();
    const { testId: teamTest } = await member.as.mutation(api.tests.create, {
      configuration: { ...configuration, name: "Team run" },
      teamId,
    });
    const { testId: personal } = await member.as.mutation(api.tests.create, {
      configuration: { ...configuration, name: "Mine" },
    });

    const teamHistory = await viewer.as.query(api.history.list, { teamId });
    expect(teamHistory.tests.map((row) => row.name)).toEqual(["Team run"]);
    expect(teamHistory.total).toBe(1);
    expect((await member.as.query(api.history.list, {})).tests.map((row) => row.name)).toEqual(["Mine"]);
    expect((await owner.as.query(api.history.list, {})).tests).toEqual([]);

    const teamHome = await owner.as.query(api.dashboard.home, { teamId });
    expect(teamHome.recentTests.map((row) => row._id)).toEqual([teamTest]);
    expect(teamHome.stats.totalTests).toBe(1);
    expect((await owner.as.query(api.dashboard.home, {})).stats.totalTests).toBe(0);
    expect((await member.as.query(api.dashboard.home, {})).recentTests.map((row) => row._id)).toEqual([personal]);

    expect(await viewer.as.query(api.tests.current, { teamId })).toBe(teamTest);
    expect(await member.as.query(api.tests.current, {})).toBe(personal);
    expect(await owner.as.query(api.tests.current, {})).toBeNull();

    // Outsiders and removed members cannot read a team's lists.
    expect(await codeOf(outsider.as.query(api.history.list, { teamId }))).toBe("NOT_FOUND");
    expect(await codeOf(outsider.as.query(api.dashboard.home, { teamId }))).toBe("NOT_FOUND");
    expect(await codeOf(outsider.as.query(api.tests.current, { teamId }))).toBe("NOT_FOUND");
    await owner.as.mutation(api.teams.removeMember, { teamId, userId: viewer.userId });
    expect(await codeOf(viewer.as.query(api.history.list, { teamId }))).toBe("NOT_FOUND");

    // Deleting the team's test takes it off the team's figures.
    await member.as.mutation(api.tests.remove, { testId: teamTest });
    expect((await owner.as.query(api.dashboard.home, { teamId })).stats.totalTests).toBe(0);
  });

  test("billing: each payer keeps their own payments; team owners see the team's spend by member", async () => {
    const t = createBackend();
    const { teamId, owner, member } = await team(t);
    const configuration = sampleConfiguration();
    const paid = (userId: Id<"users">, testId: Id<"tests">, sessionId: string, amountCents: number) =>
      settlePayment(t, { userId, testId, sessionId, amountCents });
    const memberRun = await member.as.mutation(api.tests.create, { configuration, teamId });
    const ownerRun = await owner.as.mutation(api.tests.create, { configuration, teamId });
    const personal = await member.as.mutation(api.tests.create, { configuration });
    await paid(member.userId, memberRun.testId, "cs_member", 250);
    await paid(owner.userId, ownerRun.testId, "cs_owner", 100);
    await paid(member.userId, personal.testId, "cs_personal", 999);

    const spend = await owner.as.query(api.billing.teamSpend, { teamId });
    expect(spend).toEqual({
      totalCents: 350,
      members: [
        { userId: member.userId, name: "member@example.com", spentCents: 250, tests: 1 },
        { userId: owner.userId, name: "owner@example.com", spentCents: 100, tests: 1 },
      ],
    });
    expect((await owner.as.query(api.dashboard.home, { teamId })).stats.totalSpentCents).toBe(350);
    // The payer's own billing: both of their payments, the team's and the personal one.
    const mine = await member.as.query(api.billing.overview, {});
    expect(mine.payments.map((payment) => payment.amountCents).sort()).toEqual([250, 999]);
    expect(await codeOf(member.as.query(api.billing.teamSpend, { teamId }))).toBe("FORBIDDEN");
  });
});
