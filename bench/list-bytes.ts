// Bytes the lists read for a user with many tests of ~220 KB configurations each (issue 20 item 1).
// For 100 and 500 tests it prints, per list, the bytes it reads now (summary rows, bounded by
// LIST_READ_BYTES) and the bytes the same rows read as whole test documents, as the lists did
// before summaries (read here in chunks of 50, since one transaction cannot: 16 MiB), with the
// ratio and whether the whole-test read fits Convex's 16 MiB read limit per transaction.
//   npx tsx bench/list-bytes.ts
import { fileURLToPath } from "node:url";
import { convexTest } from "convex-test";
import { api, internal } from "../convex/_generated/api";
import type { Doc, Id } from "../convex/_generated/dataModel";
import schema from "../convex/schema";
import { bytesReadBy, seedBigTests, type Runner } from "../convex/bigTests.fixture";
import { RECENT_TESTS_LOADED } from "../convex/dashboard";
import { HISTORY_LIMIT } from "../convex/history";
import { ADMIN_LIST_LIMIT } from "../convex/lib/jobAnalysis";
import { LIST_READ_BYTES } from "../convex/lib/limits";
import { collectModules } from "../dev/backend/modules";

const modules = collectModules(fileURLToPath(new URL("../convex", import.meta.url)));
const READ_LIMIT = 16 * 1024 * 1024;
const CHUNK = 50;

/** Bytes of the user's newest `count` tests read whole, newest first (chunks of CHUNK per transaction). */
async function wholeTestBytes(t: Runner, userId: Id<"users">, count: number): Promise<number> {
  let bytes = 0;
  let before = Number.POSITIVE_INFINITY;
  while (count > 0) {
    const chunk: Doc<"tests">[] = await t.run(async (ctx) =>
      ctx.db
        .query("tests")
        .withIndex("by_user_team", (q) => q.eq("userId", userId).eq("teamId", undefined).lt("_creationTime", before))
        .order("desc")
        .take(Math.min(CHUNK, count)),
    );
    if (chunk.length === 0) break;
    for (const test of chunk)
      bytes += (await bytesReadBy(() => t.run(async (ctx) => ctx.db.get("tests", test._id)))).bytes;
    before = chunk.at(-1)!._creationTime;
    count -= chunk.length;
  }
  return bytes;
}

/** The tests whose jobs the admin's list shows: the newest ADMIN_LIST_LIMIT jobs' tests. */
async function jobTestBytes(t: Runner, count: number): Promise<number> {
  const jobs: Doc<"jobs">[] = await t.run(async (ctx) => ctx.db.query("jobs").order("desc").take(count));
  let bytes = 0;
  for (const job of jobs)
    bytes += (await bytesReadBy(() => t.run(async (ctx) => ctx.db.get("tests", job.testId)))).bytes;
  return bytes;
}

const fmt = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
console.log(`list budget ${fmt(LIST_READ_BYTES)}, Convex read limit ${fmt(READ_LIMIT)} per transaction`);
console.log("tests  list               now (summaries)   whole tests (before)   before/now   before fits 16 MiB");
for (const tests of [100, HISTORY_LIMIT]) {
  const t = convexTest({ schema, modules, transactionLimits: true });
  const userId = await t.run(async (ctx) => ctx.db.insert("users", { email: "ada@example.com", testCount: tests }));
  const sessionId = await t.run(async (ctx) =>
    ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
  );
  const adminId = await t.run(async (ctx) => ctx.db.insert("users", { email: "admin@example.com", isAdmin: true }));
  const adminSession = await t.run(async (ctx) =>
    ctx.db.insert("authSessions", { userId: adminId, expirationTime: Date.now() + 3_600_000 }),
  );
  const as = t.withIdentity({ subject: `${userId}|${sessionId}` });
  const admin = t.withIdentity({ subject: `${adminId}|${adminSession}` });
  await seedBigTests(t as unknown as Runner, userId, tests);
  // The migration: a batch per run, each scheduling the next.
  await t.mutation(internal.history.migrateTestSummaries, {});
  while ((await t.run(async (ctx) => (await ctx.db.query("testSummaries").take(tests + 1)).length)) < tests)
    await new Promise((resolve) => setTimeout(resolve, 50));
  await t.finishInProgressScheduledFunctions();
  const rows: [string, number, number][] = [];
  const history = await bytesReadBy(() => as.query(api.history.list, {}));
  rows.push(["history.list", history.bytes, await wholeTestBytes(t as unknown as Runner, userId, HISTORY_LIMIT)]);
  const home = await bytesReadBy(() => as.query(api.dashboard.home, {}));
  rows.push(["dashboard.home", home.bytes, await wholeTestBytes(t as unknown as Runner, userId, RECENT_TESTS_LOADED)]);
  const jobs = await bytesReadBy(() => admin.query(api.admin.listJobs, {}));
  rows.push(["admin.listJobs", jobs.bytes, await jobTestBytes(t as unknown as Runner, ADMIN_LIST_LIMIT)]);
  for (const [name, now, before] of rows) {
    console.log(
      `${String(tests).padEnd(7)}${name.padEnd(19)}${fmt(now).padEnd(18)}${fmt(before).padEnd(23)}${(before / now).toFixed(0).padStart(10)}   ${before <= READ_LIMIT ? "yes" : "no"}`,
    );
  }
}
