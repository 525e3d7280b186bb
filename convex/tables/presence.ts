// The presence tables: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { PRESENCE_PAGES } from "../lib/presence";

/** Which page of the test a viewer is on. */
export const presencePage = v.union(...PRESENCE_PAGES.map((page) => v.literal(page)));

export const presenceTables = {
  /** Room membership: one row per viewer and room; the viewer list reads these. */
  presence: defineTable({
    room: v.string(),
    viewerKey: v.string(),
    label: v.string(),
    /** The page the viewer is on (rows from before pages were told have none). */
    page: v.optional(presencePage),
    /**
     * When the viewer opened that page (its tab's clock): of two tabs of one viewer, the page
     * opened last is shown, whichever beat last or whatever order a leave and a beat landed in.
     */
    arrivedAt: v.optional(v.number()),
    /**
     * Rows from before sessions: the time of the viewer's latest beat (the cron sweeps them).
     * Membership rows written since have none: beats go to presenceSessions.
     */
    lastSeen: v.optional(v.number()),
  })
    .index("by_room_viewer", ["room", "viewerKey"])
    .index("by_last_seen", ["lastSeen"]),

  /** A viewer's heartbeat in a room: patched every beat, read by no query. */
  presenceSessions: defineTable({
    room: v.string(),
    viewerKey: v.string(),
    lastSeen: v.number(),
  })
    .index("by_room_viewer", ["room", "viewerKey"])
    .index("by_room_last_seen", ["room", "lastSeen"])
    .index("by_last_seen", ["lastSeen"]),
};
