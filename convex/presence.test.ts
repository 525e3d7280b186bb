import { afterEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { initialsOf } from "./lib/initials";
import { seedFinishedTest } from "./finishedTests.fixture";
import { createUser, createBackend, codeOf } from "./test.helpers";
import { syncTestSummaryOf } from "./core/testSummaries";

async function setup() {
  const t = createBackend();
  const owner = await createUser(t, "ada.lovelace@example.com");
  const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 2 });
  const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
  return { t, owner, testId, shareId };
}

const ANON = "anon-client-0001";
const ANON_2 = "anon-client-0002";

afterEach(() => {
  vi.useRealTimers();
});

describe("presence", () => {
  test("the owner sees share viewers as 'anonymous viewer'; an anonymous viewer sees how many watch, not who", async () => {
    const { t, owner, testId, shareId } = await setup();
    await owner.as.mutation(api.presence.heartbeat, {
      room: `test:${testId}`,
      clientId: "owner-tab-0001",
      page: "results",
    });
    await t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON, page: "shared" });

    expect(await owner.as.query(api.presence.viewers, { room: `test:${testId}`, clientId: "owner-tab-0001" })).toEqual({
      count: 1,
      viewers: [expect.objectContaining({ label: "anonymous viewer", anonymous: true })],
    });
    const seenByAnonymous = await t.query(api.presence.viewers, { room: `share:${shareId}`, clientId: ANON });
    expect(seenByAnonymous).toEqual({ count: 1, viewers: [] });
    expect(JSON.stringify(seenByAnonymous)).not.toMatch(/AL|example\.com|ada|lovelace/i);

    // A signed-in visitor holding the link sees initials.
    const bob = await createUser(t, "bob@example.com");
    await bob.as.mutation(api.presence.heartbeat, {
      room: `share:${shareId}`,
      clientId: "bob-tab-00001",
      page: "shared",
    });
    const seenByBob = await bob.as.query(api.presence.viewers, { room: `share:${shareId}`, clientId: "bob-tab-00001" });
    expect(seenByBob.count).toBe(2);
    expect(seenByBob.viewers.map((viewer) => viewer.label).sort()).toEqual(["AL", "anonymous viewer"]);
    expect(JSON.stringify(seenByBob)).not.toContain(owner.userId);
    expect(await t.query(api.presence.viewers, { room: `share:${shareId}`, clientId: ANON })).toEqual({
      count: 2,
      viewers: [],
    });
  });

  test("anonymous callers reach a room only through an active share", async () => {
    const { t, owner, testId, shareId } = await setup();
    expect(await t.mutation(api.presence.heartbeat, { room: `test:${testId}`, clientId: ANON, page: "results" })).toBe(
      "gone",
    );
    expect(await t.query(api.presence.viewers, { room: `test:${testId}`, clientId: ANON })).toEqual({
      count: 0,
      viewers: [],
    });
    expect(await t.mutation(api.presence.heartbeat, { room: "share:unknown", clientId: ANON, page: "shared" })).toBe(
      "gone",
    );
    expect(await t.mutation(api.presence.heartbeat, { room: "elsewhere", clientId: ANON, page: "results" })).toBe(
      "gone",
    );

    await owner.as.mutation(api.presence.heartbeat, {
      room: `test:${testId}`,
      clientId: "owner-tab-0001",
      page: "results",
    });
    // A share turned off under an open page: its next beat is told the room is gone, without an error.
    expect(await t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON, page: "shared" })).toBe(
      "present",
    );
    await owner.as.mutation(api.shares.disable, { testId });
    expect(await t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON, page: "shared" })).toBe(
      "gone",
    );
    expect(await t.query(api.presence.viewers, { room: `share:${shareId}`, clientId: ANON })).toEqual({
      count: 0,
      viewers: [],
    });
  });

  test("another signed-in user cannot join or read the owner's room by test id", async () => {
    const { t, testId } = await setup();
    const other = await createUser(t, "other@example.com");
    expect(
      await other.as.mutation(api.presence.heartbeat, {
        room: `test:${testId}`,
        clientId: "other-tab-0001",
        page: "results",
      }),
    ).toBe("gone");
    expect(await other.as.query(api.presence.viewers, { room: `test:${testId}` })).toEqual({ count: 0, viewers: [] });
  });

  test("anonymous client ids must look like ours", async () => {
    const { t, shareId } = await setup();
    expect(
      await codeOf(t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: "x", page: "shared" })),
    ).toBe("INVALID_INPUT");
  });

  test("a viewer who leaves is gone at once; one who vanishes is gone within 15 seconds", async () => {
    vi.useFakeTimers();
    const { t, owner, testId, shareId } = await setup();
    const room = `test:${testId}`;
    const ownerBeat = () =>
      owner.as.mutation(api.presence.heartbeat, { room, clientId: "owner-tab-0001", page: "results" });
    await ownerBeat();
    await t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON, page: "shared" });
    await t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON_2, page: "shared" });
    expect((await owner.as.query(api.presence.viewers, { room, clientId: "x" })).viewers).toHaveLength(2);

    await t.mutation(api.presence.leave, { room: `share:${shareId}`, clientId: ANON, page: "shared" });
    expect((await owner.as.query(api.presence.viewers, { room })).viewers).toHaveLength(1);

    // ANON_2 closes the tab without a goodbye; the owner keeps beating.
    for (let second = 0; second < 20; second += 5) {
      vi.advanceTimersByTime(5_000);
      await ownerBeat();
    }
    expect(await owner.as.query(api.presence.viewers, { room })).toEqual({ count: 0, viewers: [] });
  });

  test("a beat changes nothing the viewer list reads; joining, moving page and leaving do", async () => {
    vi.useFakeTimers();
    const { t, owner, testId, shareId } = await setup();
    const room = `test:${testId}`;
    // What presence.viewers reads: the room's membership rows (and the caller's access).
    const listed = () => t.run(async (ctx) => await ctx.db.query("presence").collect());
    const sessions = () => t.run(async (ctx) => await ctx.db.query("presenceSessions").collect());
    const ownerBeat = (page: "results" | "review" = "results") =>
      owner.as.mutation(api.presence.heartbeat, { room, clientId: "owner-tab-0001", page });
    const anonBeat = () =>
      t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON, page: "shared" });

    await ownerBeat();
    await anonBeat();
    const joined = await listed();
    expect(joined).toHaveLength(2);
    const beats = (await sessions()).map((row) => row.lastSeen);
    vi.advanceTimersByTime(5_000);
    await ownerBeat();
    await anonBeat();
    // The beats moved the sessions on and left every membership row as it was.
    expect((await sessions()).map((row) => row.lastSeen)).toEqual(beats.map((time) => time + 5_000));
    expect(await listed()).toEqual(joined);
    expect((await owner.as.query(api.presence.viewers, { room, clientId: "owner-tab-0001" })).count).toBe(1);

    // Moving to another page, a newcomer and a goodbye change the list.
    await ownerBeat("review");
    expect((await listed()).find((row) => row.viewerKey === `user:${owner.userId}`)!.page).toBe("review");
    await t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON_2, page: "shared" });
    expect((await owner.as.query(api.presence.viewers, { room, clientId: "owner-tab-0001" })).count).toBe(2);
    await t.mutation(api.presence.leave, { room: `share:${shareId}`, clientId: ANON_2, page: "shared" });
    expect((await owner.as.query(api.presence.viewers, { room, clientId: "owner-tab-0001" })).count).toBe(1);
    expect(await sessions()).toHaveLength(2);
  });

  test("a viewer who was listed before sessions keeps their place and loses the beat time once", async () => {
    const { t, owner, testId } = await setup();
    const room = `test:${testId}`;
    const rowId = await t.run((ctx) =>
      ctx.db.insert("presence", {
        room: `test:${testId}`,
        viewerKey: `user:${owner.userId}`,
        label: "AL",
        page: "results",
        lastSeen: Date.now(),
      }),
    );
    await owner.as.mutation(api.presence.heartbeat, { room, clientId: "owner-tab-0001", page: "results" });
    const rows = await t.run(async (ctx) => await ctx.db.query("presence").collect());
    expect(rows).toEqual([expect.objectContaining({ _id: rowId, page: "results" })]);
    expect(rows[0]!.lastSeen).toBeUndefined();
  });

  test("the cron sweeps rooms nobody beats in any more", async () => {
    vi.useFakeTimers();
    const { t, shareId } = await setup();
    await t.mutation(api.presence.heartbeat, { room: `share:${shareId}`, clientId: ANON, page: "shared" });
    vi.advanceTimersByTime(61_000);
    expect(await t.mutation(internal.presence.sweep, {})).toBe(1);
    expect(await t.run(async (ctx) => (await ctx.db.query("presence").collect()).length)).toBe(0);
    expect(await t.run(async (ctx) => (await ctx.db.query("presenceSessions").collect()).length)).toBe(0);
  });

  test("teammates see each other with the page each is on; the page is the one they arrived on last", async () => {
    const t = createBackend();
    const owner = await createUser(t, "ann@example.com", { fullName: "Ann Lee" });
    const member = await createUser(t, "bob@example.com", { fullName: "Bob Stone" });
    const { teamId } = await owner.as.mutation(api.teams.create, { name: "Team" });
    await t.run((ctx) => ctx.db.insert("memberships", { teamId, userId: member.userId, role: "member" }));
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 2 });
    await t.run(async (ctx) => {
      await ctx.db.patch("tests", testId, { teamId });
      await syncTestSummaryOf(ctx, testId); // its summary and access row, as a test created in the team has
    });
    const room = `test:${testId}`;

    await owner.as.mutation(api.presence.heartbeat, { room, clientId: "ann-tab-00001", page: "monitor" });
    await member.as.mutation(api.presence.heartbeat, { room, clientId: "bob-tab-00001", page: "results" });
    const seenByAnn = await owner.as.query(api.presence.viewers, { room, clientId: "ann-tab-00001" });
    expect(seenByAnn.viewers.map(({ label, page }) => ({ label, page }))).toEqual([{ label: "BS", page: "results" }]);
    const seenByBob = await member.as.query(api.presence.viewers, { room, clientId: "bob-tab-00001" });
    expect(seenByBob.viewers.map(({ label, page }) => ({ label, page }))).toEqual([{ label: "AL", page: "monitor" }]);

    // Bob opens the review page in a second tab; his results tab's later beats keep him listed
    // on the page he opened last, not flipping back at each beat.
    const resultsTab = { room, clientId: "bob-tab-00001", page: "results" as const, arrivedAt: 1_000 };
    const reviewTab = { room, clientId: "bob-tab-00002", page: "review" as const, arrivedAt: 2_000 };
    await member.as.mutation(api.presence.heartbeat, resultsTab);
    await member.as.mutation(api.presence.heartbeat, reviewTab);
    await member.as.mutation(api.presence.heartbeat, resultsTab);
    expect((await owner.as.query(api.presence.viewers, { room })).viewers).toEqual([
      expect.objectContaining({ label: "BS", page: "review" }),
    ]);
    // The leave of a page he moved from, landing late (after the results tab beat again), cannot
    // leave him shown there: the review tab's next beat puts him back on the review page.
    await member.as.mutation(api.presence.leave, { room, clientId: "bob-tab-00002", page: "review" });
    await member.as.mutation(api.presence.heartbeat, resultsTab);
    await member.as.mutation(api.presence.heartbeat, reviewTab);
    expect((await owner.as.query(api.presence.viewers, { room })).viewers).toEqual([
      expect.objectContaining({ label: "BS", page: "review" }),
    ]);
    // Closing the review tab: the results tab's next beat lists him there again.
    await member.as.mutation(api.presence.leave, { room, clientId: "bob-tab-00002", page: "review" });
    await member.as.mutation(api.presence.heartbeat, resultsTab);
    expect((await owner.as.query(api.presence.viewers, { room })).viewers).toEqual([
      expect.objectContaining({ label: "BS", page: "results" }),
    ]);

    // Bob moves to the review page; closing an older tab of another page does not hide him.
    await member.as.mutation(api.presence.heartbeat, { room, clientId: "bob-tab-00001", page: "review" });
    await member.as.mutation(api.presence.leave, { room, clientId: "bob-tab-00002", page: "results" });
    expect((await owner.as.query(api.presence.viewers, { room })).viewers).toEqual([
      expect.objectContaining({ label: "BS", page: "review" }),
    ]);
    await member.as.mutation(api.presence.leave, { room, clientId: "bob-tab-00001", page: "review" });
    expect((await owner.as.query(api.presence.viewers, { room })).viewers).toEqual([]);

    // Pages are a fixed list.
    const unknownPage = { room, clientId: "bob-tab-00001", page: "billing" } as unknown as { page: "results" } & {
      room: string;
      clientId: string;
    };
    await expect(member.as.mutation(api.presence.heartbeat, unknownPage)).rejects.toThrow(/billing/);
  });

  test("initials come from the full name, else the email's local part", () => {
    expect(initialsOf({ fullName: "Ada Lovelace", email: "x@y.z" })).toBe("AL");
    expect(initialsOf({ fullName: null, email: "grace.hopper@navy.mil" })).toBe("GH");
    expect(initialsOf({ fullName: "  ", email: "linus@example.com" })).toBe("L");
    expect(initialsOf({ email: undefined })).toBe("?");
  });
});
