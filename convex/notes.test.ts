// Notes on answers: members leave them, everyone in the team reads them, viewers cannot add any,
// someone removed from the team is refused at once, and a personal test's notes are its owner's.
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { seedFinishedTest } from "./finishedTests.fixture";
import { NOTE_LIMITS, NOTE_MESSAGES } from "./lib/limits";
import { TEAM_MESSAGES } from "./lib/teams";
import { createBackend, createUser, type TestBackend } from "./test.helpers";
import { syncTestSummaryOf } from "./core/testSummaries";

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof ConvexError) return error.data as { code: string; message: string };
    throw error;
  }
}

async function answersOf(t: TestBackend, testId: Id<"tests">): Promise<Id<"responses">[]> {
  return await t.run(async (ctx) =>
    (
      await ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .collect()
    ).map((row) => row._id),
  );
}

/** A team (owner Ann Lee, member Bob Stone, a viewer, a removed member), a finished team test, an outsider. */
async function teamTest() {
  const t = createBackend();
  const owner = await createUser(t, "ann@example.com", { fullName: "Ann Lee" });
  const member = await createUser(t, "bob@example.com", { fullName: "Bob Stone" });
  const viewer = await createUser(t, "vic@example.com", { fullName: "Vic Tor" });
  const removed = await createUser(t, "rex@example.com");
  const outsider = await createUser(t, "otto@example.com");
  const { teamId } = await owner.as.mutation(api.teams.create, { name: "Team" });
  const testId = await seedFinishedTest(t, { userId: member.userId, responses: 3 });
  await t.run(async (ctx) => {
    await ctx.db.patch("tests", testId, { teamId });
    await syncTestSummaryOf(ctx, testId); // its summary and access row, as a test created in the team has
    await ctx.db.insert("memberships", { teamId, userId: member.userId, role: "member" });
    await ctx.db.insert("memberships", { teamId, userId: viewer.userId, role: "viewer" });
    await ctx.db.insert("memberships", { teamId, userId: removed.userId, role: "member" });
  });
  const [first, second] = await answersOf(t, testId);
  return { t, teamId, testId, first: first!, second: second!, owner, member, viewer, removed, outsider };
}

describe("notes on answers", () => {
  test("a member's note reaches everyone in the team with the author's initials; a viewer reads but cannot add", async () => {
    const { testId, first, owner, member, viewer } = await teamTest();
    const noteId = await member.as.mutation(api.notes.add, {
      testId,
      responseId: first,
      body: "  Too formal for a barista.  ",
    });

    const seenByOwner = await owner.as.query(api.notes.list, { testId });
    expect(seenByOwner).toEqual([
      {
        _id: noteId,
        responseId: first,
        body: "Too formal for a barista.",
        authorInitials: "BS",
        authorName: "Bob Stone",
        createdAt: expect.any(Number),
        mine: false,
        // Owners keep the team's notes tidy.
        canDelete: true,
      },
    ]);
    expect(await member.as.query(api.notes.list, { testId })).toEqual([
      expect.objectContaining({ _id: noteId, mine: true, canDelete: true }),
    ]);
    expect(await viewer.as.query(api.notes.list, { testId })).toEqual([
      expect.objectContaining({ _id: noteId, body: "Too formal for a barista.", mine: false, canDelete: false }),
    ]);
    expect(JSON.stringify(seenByOwner)).not.toMatch(/bob@example\.com|users/);

    expect(await failure(viewer.as.mutation(api.notes.add, { testId, responseId: first, body: "Agreed" }))).toEqual({
      code: "FORBIDDEN",
      message: TEAM_MESSAGES.viewersRead,
    });
    expect(await owner.as.query(api.notes.list, { testId })).toHaveLength(1);
    // What the dialog asks before showing its form.
    expect(await owner.as.query(api.notes.canAdd, { testId })).toBe(true);
    expect(await member.as.query(api.notes.canAdd, { testId })).toBe(true);
    expect(await viewer.as.query(api.notes.canAdd, { testId })).toBe(false);
  });

  test("outsiders are refused, and a removed member at once, on the list and on adding", async () => {
    const { t, teamId, testId, first, removed, outsider, owner } = await teamTest();
    await removed.as.mutation(api.notes.add, { testId, responseId: first, body: "Before I left" });
    expect(await removed.as.query(api.notes.list, { testId })).toHaveLength(1);

    await owner.as.mutation(api.teams.removeMember, { teamId, userId: removed.userId });
    const lost = { code: "NOT_FOUND", message: TEAM_MESSAGES.testAccessLost };
    expect(await failure(removed.as.query(api.notes.list, { testId }))).toEqual(lost);
    expect(
      await failure(removed.as.mutation(api.notes.add, { testId, responseId: first, body: "Still here?" })),
    ).toEqual(lost);
    const [note] = await owner.as.query(api.notes.list, { testId });
    expect(await failure(removed.as.mutation(api.notes.remove, { noteId: note!._id }))).toEqual(lost);
    expect(await failure(outsider.as.query(api.notes.list, { testId }))).toEqual(lost);
    expect(await failure(outsider.as.mutation(api.notes.add, { testId, responseId: first, body: "Hi" }))).toEqual(lost);
    expect(await t.run((ctx) => ctx.db.query("notes").collect())).toHaveLength(1);
  });

  test("a note is 1 to 500 characters after trimming, on an answer of the same test", async () => {
    const { t, testId, first, member } = await teamTest();
    const add = (body: string, responseId = first) => member.as.mutation(api.notes.add, { testId, responseId, body });
    expect(await failure(add("   \n "))).toEqual({ code: "INVALID_INPUT", message: NOTE_MESSAGES.empty });
    expect(await failure(add("x".repeat(NOTE_LIMITS.maxBodyLength + 1)))).toEqual({
      code: "INVALID_INPUT",
      message: "A note must be at most 500 characters.",
    });
    await add(` ${"x".repeat(NOTE_LIMITS.maxBodyLength)} `);

    const otherTest = await seedFinishedTest(t, { userId: member.userId, responses: 1 });
    const [elsewhere] = await answersOf(t, otherTest);
    expect(await failure(add("Wrong test", elsewhere))).toEqual({
      code: "NOT_FOUND",
      message: NOTE_MESSAGES.responseNotFound,
    });
    const notes = await member.as.query(api.notes.list, { testId });
    expect(notes.map((note) => note.body.length)).toEqual([500]);
  });

  test("the author deletes their note, a team owner any note; another member and a viewer cannot", async () => {
    const t = await teamTest();
    const { testId, first, second, owner, member, viewer } = t;
    const other = await createUser(t.t, "cy@example.com");
    await t.t.run((ctx) => ctx.db.insert("memberships", { teamId: t.teamId, userId: other.userId, role: "member" }));
    const bobs = await member.as.mutation(api.notes.add, { testId, responseId: first, body: "Bob's" });
    const cys = await other.as.mutation(api.notes.add, { testId, responseId: second, body: "Cy's" });

    expect(await failure(other.as.mutation(api.notes.remove, { noteId: bobs }))).toEqual({
      code: "FORBIDDEN",
      message: NOTE_MESSAGES.notYours,
    });
    expect(await failure(viewer.as.mutation(api.notes.remove, { noteId: bobs }))).toEqual({
      code: "FORBIDDEN",
      message: NOTE_MESSAGES.notYours,
    });
    expect((await other.as.query(api.notes.list, { testId })).map((note) => note.canDelete)).toEqual([false, true]);

    await member.as.mutation(api.notes.remove, { noteId: bobs });
    await owner.as.mutation(api.notes.remove, { noteId: cys });
    expect(await viewer.as.query(api.notes.list, { testId })).toEqual([]);
    expect(await failure(member.as.mutation(api.notes.remove, { noteId: bobs }))).toEqual({
      code: "NOT_FOUND",
      message: NOTE_MESSAGES.notFound,
    });
  });

  test("a personal test's notes are its owner's alone", async () => {
    const t = createBackend();
    const owner = await createUser(t, "solo@example.com", { fullName: "Sol O" });
    const stranger = await createUser(t, "stranger@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 1 });
    const [answer] = await answersOf(t, testId);
    const noteId = await owner.as.mutation(api.notes.add, { testId, responseId: answer!, body: "Keep this one" });
    expect(await owner.as.query(api.notes.list, { testId })).toEqual([
      expect.objectContaining({ _id: noteId, authorInitials: "SO", mine: true, canDelete: true }),
    ]);

    const notFound = { code: "NOT_FOUND", message: "Test not found." };
    expect(await failure(stranger.as.query(api.notes.list, { testId }))).toEqual(notFound);
    expect(await failure(stranger.as.mutation(api.notes.add, { testId, responseId: answer!, body: "Mine?" }))).toEqual(
      notFound,
    );
    expect(await failure(stranger.as.mutation(api.notes.remove, { noteId }))).toEqual(notFound);
    expect(await owner.as.query(api.notes.list, { testId })).toHaveLength(1);
  });

  test("the list is oldest first and holds the 500 newest notes", async () => {
    const { t, testId, first, member } = await teamTest();
    await t.run(async (ctx) => {
      for (let index = 0; index < NOTE_LIMITS.maxListed + 2; index++) {
        await ctx.db.insert("notes", {
          testId,
          responseId: first,
          userId: member.userId,
          body: `Note ${index}`,
          createdAt: index,
        });
      }
    });
    const notes = await member.as.query(api.notes.list, { testId });
    expect(notes).toHaveLength(500);
    expect(notes[0]!.body).toBe("Note 2");
    expect(notes.at(-1)!.body).toBe("Note 501");
  });
});
