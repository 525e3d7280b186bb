// Notes on answers: members (and a personal test's owner) leave short notes on an answer of a
// test; everyone who may read the test sees them live, viewers included, and cannot add any.
// The author deletes their note; a team's owners may delete any note of the team's tests.
import { v } from "convex/values";
import { fail, userMutation, userQuery } from "./functions";
import { NOTE_MESSAGES } from "./lib/limits";
import { authorsOf, notesOfTest, ownsTestTeam, validNoteBody } from "./core/notes";
import { requireTestAccess, testAccessOf } from "./core/testAccess";

const noteView = v.object({
  _id: v.id("notes"),
  responseId: v.id("responses"),
  body: v.string(),
  authorInitials: v.string(),
  authorName: v.union(v.string(), v.null()),
  createdAt: v.number(),
  mine: v.boolean(),
  canDelete: v.boolean(),
});

/** The test's notes, oldest first (its newest 500). */
export const list = userQuery({
  args: { testId: v.id("tests") },
  returns: v.array(noteView),
  handler: async (ctx, { testId }) => {
    const test = await requireTestAccess(ctx, ctx.user._id, testId, "read");
    const notes = await notesOfTest(ctx, testId);
    const authors = await authorsOf(ctx, notes);
    const owner = await ownsTestTeam(ctx, test, ctx.user._id);
    return notes.map((note) => {
      const author = authors.get(note.userId);
      const mine = note.userId === ctx.user._id;
      return {
        _id: note._id,
        responseId: note.responseId,
        body: note.body,
        authorInitials: author?.initials ?? "?",
        authorName: author?.name ?? null,
        createdAt: note.createdAt,
        mine,
        canDelete: mine || owner,
      };
    });
  },
});

/** Whether the caller may add notes: owners and members (and a personal test's owner), not viewers. */
export const canAdd = userQuery({
  args: { testId: v.id("tests") },
  returns: v.boolean(),
  handler: async (ctx, { testId }) => {
    const test = await requireTestAccess(ctx, ctx.user._id, testId, "read");
    return (await testAccessOf(ctx, test, ctx.user._id)) === "act";
  },
});

/** Adds a note to one answer of the test; the body is trimmed, 1–500 characters. */
export const add = userMutation({
  args: { testId: v.id("tests"), responseId: v.id("responses"), body: v.string() },
  returns: v.id("notes"),
  handler: async (ctx, { testId, responseId, body }) => {
    await requireTestAccess(ctx, ctx.user._id, testId, "act");
    const response = await ctx.db.get("responses", responseId);
    if (response === null || response.testId !== testId) fail("NOT_FOUND", NOTE_MESSAGES.responseNotFound);
    return await ctx.db.insert("notes", {
      testId,
      responseId,
      userId: ctx.user._id,
      body: validNoteBody(body),
      createdAt: Date.now(),
    });
  },
});

/** Deletes a note: its author, or an owner of the test's team. */
export const remove = userMutation({
  args: { noteId: v.id("notes") },
  returns: v.null(),
  handler: async (ctx, { noteId }) => {
    const note = await ctx.db.get("notes", noteId);
    if (note === null) fail("NOT_FOUND", NOTE_MESSAGES.notFound);
    // Someone no longer in the team is refused like on every page of the test.
    const test = await requireTestAccess(ctx, ctx.user._id, note.testId, "read");
    if (note.userId !== ctx.user._id && !(await ownsTestTeam(ctx, test, ctx.user._id))) {
      fail("FORBIDDEN", NOTE_MESSAGES.notYours);
    }
    await ctx.db.delete("notes", noteId);
    return null;
  },
});
