// Who else is looking at a test (ARCHITECTURE §6): pages send a heartbeat every few seconds and
// read the room's other viewers and the page each is on (monitor, results, review, shared). A
// room is named by the page: 'test:<testId>' for the monitor, results and review pages of those
// who may read the test, 'share:<shareId>' for a shared page; both resolve to the test's room, so
// teammates and share viewers see each other. Only initials are stored and returned,
// never an email or a user id, and only to signed-in callers: an anonymous caller can reach a
// room only through an active share, and learns there how many watch, not who.
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { currentUser, fail, internalMutation, publicMutation, publicQuery } from "./functions";
import { testAccessOf } from "./model/testAccess";
import { testRoom } from "./model/testDeletion";
import { initialsOf } from "./lib/initials";
import { presencePage } from "./model/presence";

/** A viewer unseen for this long has left (pages beat every 5 seconds). */
export const PRESENCE_TTL_MS = 15_000;
/** Rows older than this are swept by the cron. */
const SWEEP_AFTER_MS = 60_000;
const MAX_VIEWERS_PER_ROOM = 50;
const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
export const ANONYMOUS_LABEL = "anonymous viewer";

/**
 * The canonical room behind a page's room name, or null when the caller may not be there:
 * a test's own room for those who may read the test (its owner, or its team's members), a
 * share's room for anyone while the share is active.
 */
async function resolveRoom(
  ctx: QueryCtx,
  room: string,
  user: Doc<"users"> | null,
  options: { allowInactiveShare?: boolean } = {},
): Promise<string | null> {
  if (room.startsWith("test:")) {
    const testId = ctx.db.normalizeId("tests", room.slice("test:".length));
    if (!testId || !user) return null;
    const test = await ctx.db.get("tests", testId);
    return test && (await testAccessOf(ctx, test, user._id)) !== null ? testRoom(testId) : null;
  }
  if (room.startsWith("share:")) {
    const shareId = room.slice("share:".length);
    if (!shareId || shareId.length > 64) return null;
    const share = await ctx.db
      .query("shares")
      .withIndex("by_share_id", (q) => q.eq("shareId", shareId))
      .unique();
    if (!share || (!share.isActive && !options.allowInactiveShare)) return null;
    return testRoom(share.testId);
  }
  return null;
}

function viewerKeyOf(user: Doc<"users"> | null, clientId: string | undefined): string | null {
  if (user) return `user:${user._id}`;
  return clientId && CLIENT_ID.test(clientId) ? `anon:${clientId}` : null;
}

export const heartbeat = publicMutation({
  args: { room: v.string(), clientId: v.string(), page: presencePage },
  returns: v.null(),
  handler: async (ctx, { room, clientId, page }) => {
    const user = await currentUser(ctx);
    const canonical = await resolveRoom(ctx, room, user);
    if (!canonical) fail("NOT_FOUND", "This page is no longer available.");
    const viewerKey = viewerKeyOf(user, clientId);
    if (!viewerKey) fail("INVALID_INPUT", "Invalid client id.");
    const now = Date.now();
    const existing = await ctx.db
      .query("presence")
      .withIndex("by_room_viewer", (q) => q.eq("room", canonical).eq("viewerKey", viewerKey))
      .unique();
    if (existing) {
      // One row per viewer and room: the page of their latest beat is the one shown.
      await ctx.db.patch("presence", existing._id, { lastSeen: now, page });
    } else {
      const present = await ctx.db
        .query("presence")
        .withIndex("by_room_last_seen", (q) => q.eq("room", canonical))
        .take(MAX_VIEWERS_PER_ROOM);
      // A crowded room stops listing newcomers rather than growing without bound.
      if (present.length < MAX_VIEWERS_PER_ROOM) {
        await ctx.db.insert("presence", {
          room: canonical,
          viewerKey,
          label: user ? initialsOf(user) : ANONYMOUS_LABEL,
          page,
          lastSeen: now,
        });
      }
    }
    // Each beat clears the room of viewers who left without saying so.
    const stale = await ctx.db
      .query("presence")
      .withIndex("by_room_last_seen", (q) => q.eq("room", canonical).lt("lastSeen", now - PRESENCE_TTL_MS))
      .take(20);
    for (const row of stale) await ctx.db.delete("presence", row._id);
    return null;
  },
});

/**
 * Called when a page closes, so the others see the viewer go at once. Only the page they were
 * last seen on: closing the monitor leaves the viewer listed while their results tab still beats.
 */
export const leave = publicMutation({
  args: { room: v.string(), clientId: v.string(), page: presencePage },
  returns: v.null(),
  handler: async (ctx, { room, clientId, page }) => {
    const user = await currentUser(ctx);
    const canonical = await resolveRoom(ctx, room, user, { allowInactiveShare: true });
    const viewerKey = viewerKeyOf(user, clientId);
    if (!canonical || !viewerKey) return null;
    const existing = await ctx.db
      .query("presence")
      .withIndex("by_room_viewer", (q) => q.eq("room", canonical).eq("viewerKey", viewerKey))
      .unique();
    if (existing && (existing.page ?? page) === page) await ctx.db.delete("presence", existing._id);
    return null;
  },
});

/**
 * The room's other viewers seen within the last 15 seconds. Freshness is judged against the
 * caller's own last beat (or the newest one), so no clock is read here and client clocks do not
 * matter; the beats themselves delete the stale rows. A signed-in caller sees who they are
 * (initials, or 'anonymous viewer'); an anonymous caller, holding only a share link, sees how
 * many watch and not who: `viewers` is empty for them.
 */
export const viewers = publicQuery({
  args: { room: v.string(), clientId: v.optional(v.string()) },
  returns: v.object({
    count: v.number(),
    viewers: v.array(
      v.object({ id: v.string(), label: v.string(), anonymous: v.boolean(), page: v.union(presencePage, v.null()) }),
    ),
  }),
  handler: async (ctx, { room, clientId }) => {
    const user = await currentUser(ctx);
    const canonical = await resolveRoom(ctx, room, user);
    if (!canonical) return { count: 0, viewers: [] };
    const rows = await ctx.db
      .query("presence")
      .withIndex("by_room_last_seen", (q) => q.eq("room", canonical))
      .order("desc")
      .take(MAX_VIEWERS_PER_ROOM);
    const self = viewerKeyOf(user, clientId);
    const reference = rows.find((row) => row.viewerKey === self)?.lastSeen ?? rows[0]?.lastSeen ?? 0;
    const others = rows.filter((row) => row.viewerKey !== self && row.lastSeen >= reference - PRESENCE_TTL_MS);
    return {
      count: others.length,
      viewers: user
        ? others.map((row) => ({
            id: row._id,
            label: row.label,
            anonymous: row.viewerKey.startsWith("anon:"),
            page: row.page ?? null,
          }))
        : [],
    };
  },
});

/** Cron: rows of rooms that nobody heartbeats any more. */
export const sweep = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const stale = await ctx.db
      .query("presence")
      .withIndex("by_last_seen", (q) => q.lt("lastSeen", Date.now() - SWEEP_AFTER_MS))
      .take(500);
    for (const row of stale) await ctx.db.delete("presence", row._id);
    return stale.length;
  },
});
