// The local backend's own indexes and read sets (items 7 and 8): index ranges give
// exactly convex-test's answers (its in-memory engine is the reference), a transaction's own
// writes included; and a commit re-runs only the subscribed queries whose reads it touched.
import { fileURLToPath } from "node:url";
import type { ConvexClient } from "convex/browser";
import { convexTest } from "convex-test";
import type { GenericMutationCtx, GenericDataModel } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import type { MutationCtx } from "../../convex/_generated/server";
import { seedFinishedTest, type Runner } from "../../convex/finishedTests.fixture";
import schema from "../../convex/schema";
import { versionsRead } from "./readSet";
import { collectModules, invocationCounts } from "./modules";
import { startBackend, type RunningBackend } from "./server";
import { nodeClient } from "./testing";

const CONVEX_DIR = fileURLToPath(new URL("../../convex", import.meta.url));
let backend: RunningBackend;
const clients: ConvexClient[] = [];

beforeAll(async () => {
  backend = await startBackend({ port: 0, sitePort: 0, quiet: true, env: { AUTH_LOG_LEVEL: "ERROR" } });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await backend.close();
});

type Run = <T>(fn: (ctx: MutationCtx) => Promise<T>) => Promise<T>;
const runnerOf =
  (t: { run: (fn: (ctx: GenericMutationCtx<GenericDataModel>) => Promise<unknown>) => Promise<unknown> }): Run =>
  (fn) =>
    t.run((ctx) => fn(ctx as unknown as MutationCtx)) as never;

/** A small deterministic random sequence, the same for both databases. */
function sequence(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor(state / 65536) % n;
  };
}

const ROOMS = ["room-a", "room-b", "room-c", "room-d"];
// Keys that sort differently by UTF-16 code units than by UTF-8 bytes (Convex's order).
const VIEWER_PREFIXES = ["viewer-", "vïewer-", "v\u{1F600}ewer-", "v\uE000ewer-"];

async function populate(run: Run) {
  const random = sequence(7);
  await run(async (ctx) => {
    for (let i = 0; i < 400; i++) {
      await ctx.db.insert("presenceSessions", {
        room: ROOMS[random(4)]!,
        viewerKey: `${VIEWER_PREFIXES[i % 4]}${i}`,
        lastSeen: 1000 + random(60),
      });
    }
  });
  // Some rows change and some go, in separate commits.
  await run(async (ctx) => {
    const rows = await ctx.db.query("presenceSessions").collect();
    for (const row of rows) {
      const pick = random(10);
      if (pick === 0) await ctx.db.delete("presenceSessions", row._id);
      else if (pick === 1)
        await ctx.db.patch("presenceSessions", row._id, { lastSeen: row.lastSeen + 30, room: ROOMS[random(4)]! });
    }
  });
}

/** Queries over presence sessions, answered as lists of viewer keys. */
async function answers(run: Run) {
  const keys = (rows: { viewerKey: string }[]) => rows.map((row) => row.viewerKey);
  const results: Record<string, unknown> = {};
  await run(async (ctx) => {
    const q = () => ctx.db.query("presenceSessions");
    results.scanDesc = keys(await q().order("desc").take(7));
    results.roomAll = keys(
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "room-b"))
        .collect(),
    );
    results.roomRange = keys(
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "room-a").gt("lastSeen", 1020).lte("lastSeen", 1070))
        .collect(),
    );
    results.roomRangeDesc = keys(
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "room-c").gte("lastSeen", 1010))
        .order("desc")
        .take(9),
    );
    results.lowerOnly = keys(
      await q()
        .withIndex("by_last_seen", (r) => r.lt("lastSeen", 1012))
        .collect(),
    );
    results.first = (
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "room-d"))
        .order("desc")
        .first()
    )?.viewerKey;
    results.filtered = keys(
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "room-a"))
        .filter((f) => f.gt(f.field("lastSeen"), 1030))
        .take(5),
    );
    results.missing = keys(
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "nowhere"))
        .collect(),
    );
    results.unique =
      (
        await q()
          .withIndex("by_room_viewer", (r) => r.eq("room", "room-b").eq("viewerKey", "viewer-4"))
          .unique()
      )?.lastSeen ?? null;
    results.byViewer = keys(
      await q()
        .withIndex("by_room_viewer", (r) => r.eq("room", "room-a"))
        .collect(),
    );
    results.viewerRange = keys(
      await q()
        .withIndex("by_room_viewer", (r) => r.eq("room", "room-c").gt("viewerKey", "v\u{1F600}").lt("viewerKey", "vz"))
        .collect(),
    );
    results.count = (await q().collect()).length;
    // The transaction's own writes: a new row, a moved row and a deleted row.
    const moved = (await q()
      .withIndex("by_room_last_seen", (r) => r.eq("room", "room-a"))
      .first())!;
    const gone = (await q()
      .withIndex("by_room_last_seen", (r) => r.eq("room", "room-a"))
      .order("desc")
      .first())!;
    await ctx.db.insert("presenceSessions", { room: "room-a", viewerKey: "new", lastSeen: 1035 });
    await ctx.db.patch("presenceSessions", moved._id, { lastSeen: 1050 });
    await ctx.db.delete("presenceSessions", gone._id);
    results.ownWrites = keys(
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "room-a").gte("lastSeen", 1030))
        .collect(),
    );
    results.ownWritesDesc = keys(
      await q()
        .withIndex("by_room_last_seen", (r) => r.eq("room", "room-a"))
        .order("desc")
        .take(4),
    );
    throw new Error("roll back");
  }).catch((error: unknown) => {
    if (!(error instanceof Error && error.message.includes("roll back"))) throw error;
  });
  // Pages, and nothing of the rolled-back transaction.
  const first = await run((ctx) =>
    ctx.db
      .query("presenceSessions")
      .withIndex("by_room_last_seen", (r) => r.eq("room", "room-b"))
      .paginate({ numItems: 10, cursor: null }),
  );
  const second = await run((ctx) =>
    ctx.db
      .query("presenceSessions")
      .withIndex("by_room_last_seen", (r) => r.eq("room", "room-b"))
      .paginate({ numItems: 10, cursor: first.continueCursor }),
  );
  results.pages = [keys(first.page), keys(second.page), second.isDone];
  results.afterRollback = keys(
    await run((ctx) =>
      ctx.db
        .query("presenceSessions")
        .withIndex("by_room_viewer", (r) => r.eq("room", "room-a").eq("viewerKey", "new"))
        .collect(),
    ),
  );
  return results;
}

describe("the local backend's indexes", () => {
  test("answer index ranges, orders, limits, filters, pages and a transaction's own writes exactly as convex-test does", async () => {
    const reference = convexTest({ schema, modules: collectModules(CONVEX_DIR) });
    await populate(runnerOf(reference));
    await populate(runnerOf(backend.t));
    const expected = await answers(runnerOf(reference));
    expect((expected.roomAll as string[]).length).toBeGreaterThan(50);
    expect(await answers(runnerOf(backend.t))).toEqual(expected);
  });
});

describe("subscribed queries", () => {
  test("a presence heartbeat re-runs the presence query, not the shared results; a change to the test does", async () => {
    const t = backend.t;
    const owner = (await t.run(
      async (ctx) => await ctx.db.insert("users", { email: "owner@example.com" }),
    )) as Id<"users">;
    const testId = await seedFinishedTest(t as unknown as Runner, {
      userId: owner,
      responses: 40,
      evaluationsPerResponse: 2,
    });
    await t.run(async (ctx) => {
      await ctx.db.insert("shares", { testId, userId: owner, shareId: "read-set-share-0001", isActive: true });
    });
    const client = nodeClient(backend.url, clients);
    const room = "share:read-set-share-0001";
    const names: string[] = [];
    const counts: number[] = [];
    client.onUpdate(api.shares.view, { shareId: "read-set-share-0001" }, (view) => {
      if (view) names.push(view.testName);
    });
    client.onUpdate(api.presence.viewers, { room, clientId: "reader-client-1" }, (viewers) =>
      counts.push(viewers.count),
    );
    const until = async (check: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error("timed out");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await until(() => names.length > 0 && counts.length > 0);
    await backend.settle();

    const runs = (name: string) => invocationCounts.get(name) ?? 0;
    const viewRuns = runs("shares:view");
    const presenceRuns = runs("presence:viewers");
    for (let i = 0; i < 3; i++) {
      await client.mutation(api.presence.heartbeat, { room, clientId: `other-client-${i}`, page: "shared" });
    }
    await until(() => counts.at(-1) === 3);
    await backend.settle();
    expect(runs("presence:viewers")).toBeGreaterThan(presenceRuns);
    expect(runs("shares:view")).toBe(viewRuns);

    await t.run(async (ctx) => {
      await ctx.db.patch("tests", testId, { name: "Renamed while watched" });
    });
    await until(() => names.at(-1) === "Renamed while watched");
    expect(runs("shares:view")).toBe(viewRuns + 1);
  });
});

describe("query updates", () => {
  const runs = (name: string) => invocationCounts.get(name) ?? 0;
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const newClient = () => nodeClient(backend.url, clients);
  /** A shared test whose room `watchers` anonymous clients watch (each its own presence query). */
  async function watchedRoom(shareId: string, watchers: number) {
    const t = backend.t;
    const owner = (await t.run(
      async (ctx) => await ctx.db.insert("users", { email: `${shareId}@example.com` }),
    )) as Id<"users">;
    const testId = await seedFinishedTest(t as unknown as Runner, { userId: owner, responses: 20 });
    await t.run(async (ctx) => {
      await ctx.db.insert("shares", { testId, userId: owner, shareId, isActive: true });
    });
    const room = `share:${shareId}`;
    const counts = new Map<string, number>();
    for (let i = 0; i < watchers; i++) {
      const clientId = `${shareId}-watcher-${i}`;
      newClient().onUpdate(api.presence.viewers, { room, clientId }, (viewers) => counts.set(clientId, viewers.count));
    }
    await until(() => counts.size === watchers);
    await backend.settle();
    return { room, counts };
  }

  test("a mutation's answer comes before the other clients' queries it changed have all re-run", async () => {
    const watchers = 12;
    const { room, counts } = await watchedRoom("answer-first-share-01", watchers);
    const client = newClient();
    let own: number | undefined;
    client.onUpdate(api.presence.viewers, { room, clientId: "answer-first-beater" }, (viewers) => {
      own = viewers.count;
    });
    await until(() => own !== undefined);
    await backend.settle();
    const before = runs("presence:viewers");
    // Every watcher's query reads the row this heartbeat writes.
    await client.mutation(api.presence.heartbeat, { room, clientId: "answer-first-beater", page: "shared" });
    const atAnswer = runs("presence:viewers") - before;
    await until(() => [...counts.values()].every((count) => count === 1));
    await backend.settle();
    expect(runs("presence:viewers") - before).toBeGreaterThanOrEqual(watchers + 1);
    // The beater's own query first; the others' after the answer (before: all 13 ran first).
    expect(atAnswer).toBeLessThan(watchers / 2);
  });

  test("a commit that writes nothing re-runs no query", async () => {
    const { room } = await watchedRoom("empty-commit-share-01", 3);
    const before = runs("presence:viewers");
    // A transaction that only reads, as the scheduler's bookkeeping often is.
    await backend.t.run(async (ctx) => {
      await ctx.db.query("presence").first();
    });
    // The backend's safety-net poll (every second by itself) looks now, and anything it asked for runs.
    await backend.pollNow();
    await backend.settle();
    expect(runs("presence:viewers")).toBe(before);
    expect(room).toBeTruthy();
  });
});

describe("versions kept for running transactions' snapshots", () => {
  // Versions end at commits 3, 5, 8 and 9: a snapshot at s reads the first that ends after s.
  const versions = [3, 5, 8, 9].map((until) => ({ until }));
  const kept = (snapshots: number[]) =>
    versionsRead(versions, (version) => version.until, snapshots).map((v) => v.until);

  test("keep one version per snapshot, not every version since the oldest", () => {
    // One long transaction at 2 while commits 3 to 9 ran: it reads the version ending at 3 only.
    expect(kept([2])).toEqual([3]);
    expect(kept([4, 2, 8])).toEqual([3, 5, 9]);
    // Snapshots reading the same version keep it once; one at or past the newest needs none.
    expect(kept([5, 6, 7])).toEqual([8]);
    expect(kept([9, 12])).toEqual([]);
    expect(kept([])).toEqual([]);
  });
});
