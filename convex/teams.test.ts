import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { TEAM_LIMITS, TEAM_MESSAGES } from "./lib/teams";
import { createUser, createBackend, type TestBackend, refusalOf } from "./test.helpers";

/** Ann owns "Acme"; Bob (member) and Vic (viewer) joined through their invitations. */
async function acme(t: TestBackend) {
  const ann = await createUser(t, "ann@example.com");
  const bob = await createUser(t, "bob@example.com");
  const vic = await createUser(t, "vic@example.com");
  const { teamId } = await ann.as.mutation(api.teams.create, { name: "  Acme  " });
  const forBob = await ann.as.mutation(api.teams.invite, { teamId, email: " Bob@Example.com ", role: "member" });
  await bob.as.mutation(api.teams.accept, { token: forBob.token });
  const forVic = await ann.as.mutation(api.teams.invite, { teamId, email: "vic@example.com", role: "viewer" });
  await vic.as.mutation(api.teams.accept, { token: forVic.token });
  return { teamId, ann, bob, vic };
}

describe("teams", () => {
  test("the creator owns the new team; invited people join with their role and see the members", async () => {
    const t = createBackend();
    const { teamId, ann, bob, vic } = await acme(t);
    expect(await ann.as.query(api.teams.mine, {})).toEqual([{ teamId, name: "Acme", role: "owner" }]);
    expect(await vic.as.query(api.teams.mine, {})).toEqual([{ teamId, name: "Acme", role: "viewer" }]);
    const team = await vic.as.query(api.teams.get, { teamId });
    expect(team.myRole).toBe("viewer");
    expect(team.members.map((m) => [m.email, m.role])).toEqual([
      ["ann@example.com", "owner"],
      ["bob@example.com", "member"],
      ["vic@example.com", "viewer"],
    ]);
    expect(await ann.as.query(api.teams.invitations, { teamId })).toEqual([]);
    void bob;
  });

  test("an invitation is 128 random bits, pending for 7 days, and listed for owners only", async () => {
    const t = createBackend();
    const { teamId, ann, bob } = await acme(t);
    const before = Date.now();
    const { token } = await ann.as.mutation(api.teams.invite, { teamId, email: "new@example.com", role: "member" });
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const [pending] = await ann.as.query(api.teams.invitations, { teamId });
    expect(pending).toMatchObject({ email: "new@example.com", role: "member", token });
    expect(pending.expiresAt - before).toBeGreaterThanOrEqual(TEAM_LIMITS.invitationTtlMs);
    expect(pending.expiresAt - Date.now()).toBeLessThanOrEqual(TEAM_LIMITS.invitationTtlMs);
    expect(await refusalOf(bob.as.query(api.teams.invitations, { teamId }))).toMatchObject({ code: "FORBIDDEN" });
  });

  test("an invitation for one email cannot be accepted by another, and stays open for the right one", async () => {
    const t = createBackend();
    const { teamId, ann } = await acme(t);
    const eve = await createUser(t, "eve@example.com");
    const { token } = await ann.as.mutation(api.teams.invite, { teamId, email: "carol@example.com", role: "member" });
    expect(await refusalOf(eve.as.mutation(api.teams.accept, { token }))).toEqual({
      code: "FORBIDDEN",
      message: TEAM_MESSAGES.invitationOtherEmail("carol@example.com", "eve@example.com"),
    });
    expect(await refusalOf(eve.as.mutation(api.teams.decline, { token }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await eve.as.query(api.teams.mine, {})).toEqual([]);
    expect(await eve.as.query(api.teams.invitation, { token })).toMatchObject({ forCaller: false, state: "open" });

    const carol = await createUser(t, "carol@example.com");
    await carol.as.mutation(api.teams.accept, { token });
    expect(await carol.as.query(api.teams.mine, {})).toEqual([{ teamId, name: "Acme", role: "member" }]);
    expect(await refusalOf(carol.as.mutation(api.teams.accept, { token }))).toEqual({
      code: "CONFLICT",
      message: TEAM_MESSAGES.invitationUsed,
    });
  });

  test("an expired invitation is refused; a revoked or declined one too, and an unknown token says so", async () => {
    vi.useFakeTimers();
    try {
      const t = createBackend();
      const { teamId, ann } = await acme(t);
      const dan = await createUser(t, "dan@example.com");
      const { token } = await ann.as.mutation(api.teams.invite, { teamId, email: "dan@example.com", role: "viewer" });
      vi.advanceTimersByTime(TEAM_LIMITS.invitationTtlMs + 1);
      expect(await refusalOf(dan.as.mutation(api.teams.accept, { token }))).toEqual({
        code: "CONFLICT",
        message: TEAM_MESSAGES.invitationExpired,
      });
      expect(await dan.as.query(api.teams.mine, {})).toEqual([]);

      const again = await ann.as.mutation(api.teams.invite, { teamId, email: "dan@example.com", role: "viewer" });
      const [pending] = await ann.as.query(api.teams.invitations, { teamId });
      await ann.as.mutation(api.teams.revokeInvitation, { invitationId: pending.invitationId });
      expect(await refusalOf(dan.as.mutation(api.teams.accept, { token: again.token }))).toEqual({
        code: "CONFLICT",
        message: TEAM_MESSAGES.invitationRevoked,
      });

      const third = await ann.as.mutation(api.teams.invite, { teamId, email: "dan@example.com", role: "viewer" });
      await dan.as.mutation(api.teams.decline, { token: third.token });
      expect(await refusalOf(dan.as.mutation(api.teams.accept, { token: third.token }))).toMatchObject({
        code: "CONFLICT",
      });
      expect(await refusalOf(dan.as.mutation(api.teams.accept, { token: "not-a-real-token" }))).toEqual({
        code: "NOT_FOUND",
        message: TEAM_MESSAGES.invitationNotFound,
      });
      expect(await dan.as.query(api.teams.mine, {})).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("inviting the same address again replaces the earlier link; inviting a member is refused", async () => {
    const t = createBackend();
    const { teamId, ann } = await acme(t);
    const first = await ann.as.mutation(api.teams.invite, { teamId, email: "zed@example.com", role: "viewer" });
    const second = await ann.as.mutation(api.teams.invite, { teamId, email: "ZED@example.com", role: "member" });
    expect((await ann.as.query(api.teams.invitations, { teamId })).map((row) => row.token)).toEqual([second.token]);
    const zed = await createUser(t, "zed@example.com");
    expect(await refusalOf(zed.as.mutation(api.teams.accept, { token: first.token }))).toMatchObject({
      code: "CONFLICT",
    });
    await zed.as.mutation(api.teams.accept, { token: second.token });
    expect(
      await refusalOf(ann.as.mutation(api.teams.invite, { teamId, email: "zed@example.com", role: "viewer" })),
    ).toEqual({
      code: "CONFLICT",
      message: TEAM_MESSAGES.alreadyMember,
    });
  });

  test("a removed member's queries are refused at once, and so are their mutations", async () => {
    const t = createBackend();
    const { teamId, ann, bob } = await acme(t);
    expect((await bob.as.query(api.teams.get, { teamId })).name).toBe("Acme");
    await ann.as.mutation(api.teams.removeMember, { teamId, userId: bob.userId });
    expect(await refusalOf(bob.as.query(api.teams.get, { teamId }))).toEqual({
      code: "NOT_FOUND",
      message: TEAM_MESSAGES.notFound,
    });
    expect(await refusalOf(bob.as.mutation(api.teams.leave, { teamId }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await bob.as.query(api.teams.mine, {})).toEqual([]);
  });

  test("the last owner cannot leave, be removed or be demoted; with a second owner they can", async () => {
    const t = createBackend();
    const { teamId, ann, bob } = await acme(t);
    expect(await refusalOf(ann.as.mutation(api.teams.leave, { teamId }))).toEqual({
      code: "CONFLICT",
      message: TEAM_MESSAGES.lastOwnerLeave,
    });
    expect(await refusalOf(ann.as.mutation(api.teams.removeMember, { teamId, userId: ann.userId }))).toEqual({
      code: "CONFLICT",
      message: TEAM_MESSAGES.lastOwnerRemove,
    });
    expect(await refusalOf(ann.as.mutation(api.teams.setRole, { teamId, userId: ann.userId, role: "member" }))).toEqual(
      {
        code: "CONFLICT",
        message: TEAM_MESSAGES.lastOwnerDemote,
      },
    );
    expect((await ann.as.query(api.teams.get, { teamId })).myRole).toBe("owner");

    await ann.as.mutation(api.teams.setRole, { teamId, userId: bob.userId, role: "owner" });
    await ann.as.mutation(api.teams.leave, { teamId });
    expect(await ann.as.query(api.teams.mine, {})).toEqual([]);
    expect((await bob.as.query(api.teams.get, { teamId })).members.map((m) => [m.email, m.role])).toEqual([
      ["bob@example.com", "owner"],
      ["vic@example.com", "viewer"],
    ]);
  });

  test("roles: a viewer cannot invite, rename or change roles; a member cannot manage members; anyone can leave", async () => {
    const t = createBackend();
    const { teamId, bob, vic } = await acme(t);
    const invite = { teamId, email: "x@example.com", role: "member" as const };
    expect(await refusalOf(vic.as.mutation(api.teams.invite, invite))).toEqual({
      code: "FORBIDDEN",
      message: TEAM_MESSAGES.ownersOnly,
    });
    expect(await refusalOf(bob.as.mutation(api.teams.invite, invite))).toMatchObject({ code: "FORBIDDEN" });
    expect(await refusalOf(vic.as.mutation(api.teams.rename, { teamId, name: "Mine" }))).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(
      await refusalOf(bob.as.mutation(api.teams.setRole, { teamId, userId: bob.userId, role: "owner" })),
    ).toMatchObject({ code: "FORBIDDEN" });
    expect(await refusalOf(bob.as.mutation(api.teams.removeMember, { teamId, userId: vic.userId }))).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await refusalOf(bob.as.mutation(api.teams.remove, { teamId }))).toMatchObject({ code: "FORBIDDEN" });
    await vic.as.mutation(api.teams.leave, { teamId });
    expect(await vic.as.query(api.teams.mine, {})).toEqual([]);
  });

  test("rename checks the name; deleting the team ends everyone's access and removes its rows", async () => {
    const t = createBackend();
    const { teamId, ann, bob } = await acme(t);
    expect(await refusalOf(ann.as.mutation(api.teams.rename, { teamId, name: "   " }))).toEqual({
      code: "INVALID_INPUT",
      message: TEAM_MESSAGES.nameRequired,
    });
    await ann.as.mutation(api.teams.rename, { teamId, name: "Acme Labs" });
    expect((await bob.as.query(api.teams.mine, {}))[0].name).toBe("Acme Labs");
    await ann.as.mutation(api.teams.invite, { teamId, email: "late@example.com", role: "viewer" });

    await ann.as.mutation(api.teams.remove, { teamId });
    expect(await refusalOf(bob.as.query(api.teams.get, { teamId }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await bob.as.query(api.teams.mine, {})).toEqual([]);
    const left = await t.run(async (ctx) => ({
      memberships: (await ctx.db.query("memberships").collect()).length,
      invitations: (await ctx.db.query("invitations").collect()).length,
    }));
    expect(left).toEqual({ memberships: 0, invitations: 0 });
  });

  test("a team with more rows than one batch is deleted over several transactions", async () => {
    vi.useFakeTimers();
    try {
      const t = createBackend();
      const ann = await createUser(t, "ann@example.com");
      const { teamId } = await ann.as.mutation(api.teams.create, { name: "Big" });
      await t.run(async (ctx) => {
        for (let i = 0; i < TEAM_LIMITS.deletionBatch + 50; i++) {
          await ctx.db.insert("invitations", {
            teamId,
            email: `p${i}@example.com`,
            role: "viewer",
            token: `token-${i}`,
            expiresAt: 0,
            invitedBy: ann.userId,
            revokedAt: 0,
            closedAt: 0,
          });
        }
      });
      await ann.as.mutation(api.teams.remove, { teamId });
      expect(await t.run(async (ctx) => (await ctx.db.query("invitations").take(1000)).length)).toBe(51);
      await t.finishAllScheduledFunctions(vi.runAllTimers);
      expect(await t.run(async (ctx) => (await ctx.db.query("invitations").take(1000)).length)).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test("the acceptance page's view says whose invitation it is without an account", async () => {
    const t = createBackend();
    const { teamId, ann } = await acme(t);
    const { token } = await ann.as.mutation(api.teams.invite, { teamId, email: "new@example.com", role: "member" });
    expect(await t.query(api.teams.invitation, { token })).toMatchObject({
      teamName: "Acme",
      email: "new@example.com",
      role: "member",
      inviter: "ann@example.com",
      state: "open",
      forCaller: null,
    });
    expect(await t.query(api.teams.invitation, { token: "nope" })).toBeNull();
  });
});

describe("teams and the rest of the app", () => {
  test("one person sends at most TEAM_LIMITS.invitationsPerHour invitations an hour (each may be an email)", async () => {
    const t = createBackend();
    const ann = await createUser(t, "ann@example.com");
    const { teamId } = await ann.as.mutation(api.teams.create, { name: "Acme" });
    for (let i = 0; i < TEAM_LIMITS.invitationsPerHour; i++) {
      await ann.as.mutation(api.teams.invite, { teamId, email: `p${i}@example.com`, role: "viewer" });
    }
    expect(
      await refusalOf(ann.as.mutation(api.teams.invite, { teamId, email: "one-more@example.com", role: "viewer" })),
    ).toEqual({
      code: "RATE_LIMITED",
      message: TEAM_MESSAGES.tooManyInvitations,
    });
  });

  test("deleting an account hands its teams on: the longest-standing member becomes owner, an empty team goes", async () => {
    vi.useFakeTimers();
    try {
      const t = createBackend();
      const { teamId, ann, bob, vic } = await acme(t);
      const { teamId: soloId } = await ann.as.mutation(api.teams.create, { name: "Solo" });
      const admin = await createUser(t, "admin@example.com", { isAdmin: true });
      await admin.as.mutation(api.admin.deleteUser, { userId: ann.userId });
      await t.finishAllScheduledFunctions(vi.runAllTimers);

      const team = await vic.as.query(api.teams.get, { teamId });
      expect(team.members.map((m) => [m.email, m.role])).toEqual([
        ["bob@example.com", "owner"],
        ["vic@example.com", "viewer"],
      ]);
      expect(await bob.as.query(api.teams.mine, {})).toEqual([{ teamId, name: "Acme", role: "owner" }]);
      expect(await t.run((ctx) => ctx.db.get("teams", soloId))).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
