// Who else is looking at a test (ARCHITECTURE §6): pages send a heartbeat every few seconds and
// read the room's other viewers and the page each is on (monitor, results, review, shared). A
// room is named by the page: 'test:<testId>' for the monitor, results and review pages of those
// who may read the test, 'share:<shareId>' for a shared page; both resolve to the test's room, so
// teammates and share viewers see each other. Only initials are stored and returned,
// never an email or a user id, and only to signed-in callers: an anonymous caller can reach a
// room only through an active share, and learns there how many watch, not who.
//
// A beat re-runs no query (the design of Convex's presence component, core/presence.ts): the
// list reads only the room's membership rows, which change when a viewer joins, leaves or moves
// to another page; the beat itself patches the viewer's session row, which no query reads. A
// session unseen for PRESENCE_TTL_MS is ended by the next beat of anyone in the room, or by the
// cron, and only then does the list change. A share viewer's beat reads the share, never the test.
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import type { MutationCtx, QueryCtx } from "./_generated/server";
import { currentUser, fail, internalMutation, publicMutation, publicQuery } from "./functions";
import { testAccessOf } from "./core/testAccess";
import { testRoom } from "./core/run/tables";
import { initialsOf } from "./lib/initials";
import { presencePage } from "./core/presence";

/** A viewer unseen for this long has left (pages beat every 5 seconds). */
export const PRESENCE_TTL_MS = 15_000;
/** Membership rows from before sessions, beaten no more for this long, are swept by the cron. */
const SWEEP_AFTER_MS = 60_000;
/** Sessions one beat or one cron run ends at most. */
const STALE_BATCH = 20;
const SWEEP_BATCH = 200;
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

/** The viewer's session and membership rows in a room (either may be missing). */
async function rowsOf(ctx: QueryCtx, room: string, viewerKey: string) {
  const [session, member] = await Promise.all([
    ctx.db
      .query("presenceSessions")
      .withIndex("by_room_viewer", (q) => q.eq("room", room).eq("viewerKey", viewerKey))
      .unique(),
    ctx.db
      .query("presence")
      .withIndex("by_room_viewer", (q) => q.eq("room", room).eq("viewerKey", viewerKey))
      .unique(),
  ]);
  return { session, member };
}

/** Ends a session: the viewer leaves the room's list. */
async function endSession(ctx: MutationCtx, session: Doc<"presenceSessions">) {
  const { member } = await rowsOf(ctx, session.room, session.viewerKey);
  if (member) await ctx.db.delete("presence", member._id);
  await ctx.db.delete("presenceSessions", session._id);
}

/**
 * A page's beat, with `arrivedAt`, when the page was opened: a viewer with two tabs (monitor and
 * review) is shown on the page opened last, not flipping between the two at each tab's beat, and
 * a late leave of the tab they moved from cannot leave them shown on an older page (the newer
 * page's next beat puts it back). Returns "gone" when the page's room is no more (its test
 * deleted, its share turned off, access lost): the page stops beating, quietly, where an error
 * would be printed by the Convex client.
 */
export const heartbeat = publicMutation({
  args: { room: v.string(), clientId: v.string(), page: presencePage, arrivedAt: v.optional(v.number()) },
  returns: v.union(v.literal("present"), v.literal("gone")),
  handler: async (ctx, { room, clientId, page, arrivedAt }) => {
    const user = await currentUser(ctx);
    const canonical = await resolveRoom(ctx, room, user);
    if (!canonical) return "gone";
    const viewerKey = viewerKeyOf(user, clientId);
    if (!viewerKey) fail("INVALID_INPUT", "Invalid client id.");
    const now = Date.now();
    const { session, member } = await rowsOf(ctx, canonical, viewerKey);
    // The beat: only the session row, which no query reads.
    if (session) await ctx.db.patch("presenceSessions", session._id, { lastSeen: now });
    else await ctx.db.insert("presenceSessions", { room: canonical, viewerKey, lastSeen: now });
    if (!member) {
      // Joining. A crowded room stops listing newcomers rather than growing without bound.
      const present = await ctx.db
        .query("presence")
        .withIndex("by_room_viewer", (q) => q.eq("room", canonical))
        .take(MAX_VIEWERS_PER_ROOM);
      if (present.length < MAX_VIEWERS_PER_ROOM) {
        await ctx.db.insert("presence", {
          room: canonical,
          viewerKey,
          label: user ? initialsOf(user) : ANONYMOUS_LABEL,
          page,
          arrivedAt,
        });
      }
    } else {
      // One row per viewer and room, showing the page they opened last; written only when that
      // changes (a row from before sessions loses its beat time once).
      // A client that does not say when its page opened moves the viewer with each beat.
      const newer = arrivedAt === undefined || arrivedAt >= (member.arrivedAt ?? 0);
      const arrival = arrivedAt ?? member.arrivedAt;
      if (member.lastSeen !== undefined || (newer && (member.page !== page || member.arrivedAt !== arrival))) {
        await ctx.db.replace("presence", member._id, {
          room: member.room,
          viewerKey: member.viewerKey,
          label: member.label,
          page: newer ? page : (member.page ?? page),
          arrivedAt: newer ? arrival : member.arrivedAt,
        });
      }
    }
    // Each beat ends the sessions of viewers who left the room without saying so.
    const stale = await ctx.db
      .query("presenceSessions")
      .withIndex("by_room_last_seen", (q) => q.eq("room", canonical).lt("lastSeen", now - PRESENCE_TTL_MS))
      .take(STALE_BATCH);
    for (const row of stale) await endSession(ctx, row);
    return "present";
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
    const { session, member } = await rowsOf(ctx, canonical, viewerKey);
    if (member && (member.page ?? page) !== page) return null;
    if (member) await ctx.db.delete("presence", member._id);
    if (session) await ctx.db.delete("presenceSessions", session._id);
    return null;
  },
});

/**
 * The room's other viewers. Reads only the membership rows (no clock, no session), so it re-runs
 * when someone joins, leaves or changes page, never on a beat. A signed-in caller sees who they
 * are (initials, or 'anonymous viewer'); an anonymous caller, holding only a share link, sees how
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
      .withIndex("by_room_viewer", (q) => q.eq("room", canonical))
      .take(MAX_VIEWERS_PER_ROOM);
    const self = viewerKeyOf(user, clientId);
    const others = rows.filter((row) => row.viewerKey !== self);
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

/**
 * Cron: ends the sessions nobody beats any more (rooms where no one else beats to end them),
 * and sweeps membership rows from before sessions. Returns how many viewers left.
 */
export const sweep = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const now = Date.now();
    const stale = await ctx.db
      .query("presenceSessions")
      .withIndex("by_last_seen", (q) => q.lt("lastSeen", now - PRESENCE_TTL_MS))
      .take(SWEEP_BATCH);
    for (const row of stale) await endSession(ctx, row);
    const old = await ctx.db
      .query("presence")
      .withIndex("by_last_seen", (q) => q.gt("lastSeen", 0).lt("lastSeen", now - SWEEP_AFTER_MS))
      .take(SWEEP_BATCH);
    for (const row of old) await ctx.db.delete("presence", row._id);
    return stale.length + old.length;
  },
});
