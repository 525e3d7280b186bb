// The presence tables (the design of Convex's presence component): a room's membership rows
// change only when a viewer joins, leaves or moves to another page, and are all the viewer list
// reads; each viewer's heartbeat touches only its session row, which no query reads, so a beat
// re-runs nothing. A session unseen for PRESENCE_TTL_MS is ended (its membership goes) by the
// beats of the others in the room, or by the cron for a room nobody beats in any more.
import { presencePage } from "../tables/presence";
export { presencePage };
