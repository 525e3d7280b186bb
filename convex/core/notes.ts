// Notes on a test's answers: the table and the reads convex/notes.ts builds on. A test's notes
// are read by one index range bounded by NOTE_LIMITS.maxListed, and their authors once each.
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { fail } from "../functions";
import { initialsOf } from "../lib/initials";
import { NOTE_LIMITS, NOTE_MESSAGES } from "../lib/limits";
import { membershipOf } from "./teams";

/** The body as stored (trimmed), or INVALID_INPUT saying what is wrong. */
export function validNoteBody(raw: string): string {
  const body = raw.trim();
  if (body === "") fail("INVALID_INPUT", NOTE_MESSAGES.empty);
  if (body.length > NOTE_LIMITS.maxBodyLength) fail("INVALID_INPUT", NOTE_MESSAGES.tooLong);
  return body;
}

/** The test's newest notes (at most NOTE_LIMITS.maxListed), oldest first. */
export async function notesOfTest(ctx: QueryCtx, testId: Id<"tests">): Promise<Doc<"notes">[]> {
  const newest = await ctx.db
    .query("notes")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .order("desc")
    .take(NOTE_LIMITS.maxListed);
  return newest.reverse();
}

/** How each author is shown: initials and name, never an email or an id. */
export async function authorsOf(
  ctx: QueryCtx,
  notes: readonly Doc<"notes">[],
): Promise<Map<Id<"users">, { initials: string; name: string | null }>> {
  const authors = new Map<Id<"users">, { initials: string; name: string | null }>();
  for (const note of notes) {
    if (authors.has(note.userId)) continue;
    const user = await ctx.db.get("users", note.userId);
    authors.set(note.userId, {
      initials: user ? initialsOf(user) : "?",
      name: user?.fullName?.trim() || user?.name?.trim() || null,
    });
  }
  return authors;
}

/** True when the user owns the test's team: owners may delete anyone's note. */
export async function ownsTestTeam(
  ctx: QueryCtx,
  test: Pick<Doc<"tests">, "teamId">,
  userId: Id<"users">,
): Promise<boolean> {
  if (test.teamId === undefined) return false;
  return (await membershipOf(ctx, test.teamId, userId))?.role === "owner";
}
