// Many viewers on one big test: N signed-in viewers (50) keep the shared
// results page of a test of R responses (5,000, 3 evaluations each) open over WebSockets, as
// the page does: subscribed to shares.test, shares.live and presence.viewers, a presence heartbeat every 5 s.
// Prints each heartbeat's round trip (the client resolves a mutation once its effect reached
// it, so the time includes the query updates it caused) at the median and p95, and the CPU the
// backend used, and how many times the subscribed queries re-ran per heartbeat (the local
// backend's meter). Targets: p95 under 250 ms; 0 viewer-list re-runs per heartbeat.
//   npx tsx bench/viewers.ts [--viewers 50] [--responses 5000] [--seconds 30] [--store]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ConvexClient } from "convex/browser";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { seedFinishedTest, type Runner } from "../convex/finishedTests.fixture";
import { startBackend } from "../dev/backend/server";
import { signedInClient } from "./helpers";

const { values } = parseArgs({
  options: {
    viewers: { type: "string", default: "50" },
    responses: { type: "string", default: "5000" },
    seconds: { type: "string", default: "30" },
    store: { type: "boolean", default: false },
  },
});
const VIEWERS = Number(values.viewers);
const RESPONSES = Number(values.responses);
const SECONDS = Number(values.seconds);
const HEARTBEAT_MS = 5_000;

const dataDir = values.store ? mkdtempSync(join(tmpdir(), "mj-bench-viewers-")) : undefined;
const backend = await startBackend({ port: 0, sitePort: 0, quiet: true, dataDir, env: { AUTH_LOG_LEVEL: "ERROR" } });
const t = backend.t;
const clients: ConvexClient[] = [];
try {
  const owner = (await t.run(
    async (ctx) => await ctx.db.insert("users", { email: "owner@example.com" }),
  )) as Id<"users">;
  const seeded = Date.now();
  const testId = await seedFinishedTest(t as unknown as Runner, {
    userId: owner,
    responses: RESPONSES,
    evaluationsPerResponse: 3,
    chunk: 500,
  });
  console.log(`seeded a test of ${RESPONSES} responses in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  const shareId = (await t.run(async (ctx) => {
    const id = "bench-share-0123456789";
    await ctx.db.insert("shares", { testId, userId: owner, shareId: id, isActive: true });
    return id;
  })) as string;
  const room = `share:${shareId}`;

  const viewers = [];
  for (let i = 0; i < VIEWERS; i++) {
    const { userId, sessionId } = (await t.run(async (ctx) => {
      const userId = await ctx.db.insert("users", { email: `viewer${i}@example.com` });
      const sessionId = await ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 });
      return { userId, sessionId };
    })) as { userId: string; sessionId: string };
    const client = await signedInClient(backend, userId, sessionId);
    clients.push(client);
    const clientId = `bench-viewer-${i}-abcdef`;
    await new Promise<void>((resolve, reject) => {
      const unsubscribe = client.onUpdate(
        api.shares.test,
        { shareId },
        (stored) => {
          if (stored) {
            unsubscribe();
            resolve();
          }
        },
        reject,
      );
    });
    client.onUpdate(api.shares.test, { shareId }, () => {});
    client.onUpdate(api.shares.live, { shareId }, () => {});
    client.onUpdate(api.presence.viewers, { room, clientId }, () => {});
    viewers.push({ client, clientId });
  }
  console.log(`${VIEWERS} viewers subscribed`);

  // Every viewer joins the room (its first beat), the joins' re-runs settle; then count only
  // what the beats cause.
  for (const { client, clientId } of viewers)
    await client.mutation(api.presence.heartbeat, { room, clientId, page: "shared" });
  await new Promise((resolve) => setTimeout(resolve, 500));
  backend.meter.reset();
  const samples: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  const beats = viewers.map(({ client, clientId }, i) =>
    (async () => {
      // Spread the viewers' beats over the interval, as tabs opened at different times do.
      await new Promise((resolve) => setTimeout(resolve, (HEARTBEAT_MS * i) / VIEWERS));
      while (Date.now() - started < SECONDS * 1000) {
        const sent = performance.now();
        await client.mutation(api.presence.heartbeat, { room, clientId, page: "shared" });
        samples.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, HEARTBEAT_MS - (performance.now() - sent))));
      }
    })(),
  );
  await Promise.all(beats);
  const wallMs = Date.now() - started;
  const reading = backend.meter.read();
  const cpu = process.cpuUsage(cpuBefore);
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  console.log(
    `store: ${dataDir ? "SQLite (data folder)" : "in memory"}; ${VIEWERS} viewers, ${RESPONSES} responses, ${samples.length} heartbeats in ${(wallMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `heartbeat round trip  median ${at(0.5).toFixed(0)} ms   p95 ${at(0.95).toFixed(0)} ms   (target p95 < 250 ms)`,
  );
  const reruns = (path: string): number =>
    path === "shares:page" ? reruns("shares:test") + reruns("shares:live") : (reading[path]?.subscriptionReruns ?? 0);
  console.log(
    `re-runs per heartbeat  viewer list ${(reruns("presence:viewers") / samples.length).toFixed(2)} (target 0)   shared page ${(reruns("shares:page") / samples.length).toFixed(2)}   (${reruns("presence:viewers")} and ${reruns("shares:page")} over ${samples.length} beats)`,
  );
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(
    `backend CPU           ${((cpuMs / wallMs) * 100).toFixed(0)}% of a core, ${(cpuMs / samples.length).toFixed(1)} ms per heartbeat (viewers' clients included)`,
  );
} finally {
  await Promise.all(clients.map((client) => client.close()));
  await backend.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
