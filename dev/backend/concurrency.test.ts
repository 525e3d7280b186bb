// @vitest-environment node
// Concurrent transactions under optimistic concurrency control, plan caps and the meter, against
// the fixture functions (fixture/convex/concurrency.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { BackendOptions, RunningBackend } from "./server";
import { nodeClient, openGate, releaseGates, startFixtureBackend, untilWaiting } from "./testing";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped fixture api
const api = anyApi as any;

let keysDir: string;
let backend: RunningBackend | null = null;
const clients: ConvexClient[] = [];

async function start(options: BackendOptions = {}): Promise<RunningBackend> {
  backend = await startFixtureBackend(keysDir, options);
  return backend;
}

beforeAll(() => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-concurrency-"));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  releaseGates();
  await backend?.close();
  backend = null;
});
afterAll(() => rmSync(keysDir, { recursive: true, force: true }));

describe("optimistic concurrency control", () => {
  it("ends a counter incremented 200 times at once at 200, retrying the mutations that conflicted", async () => {
    const b = await start();
    await b.t.mutation(api.concurrency.create, { name: "hits", value: 0 });
    await Promise.all(Array.from({ length: 200 }, () => b.t.mutation(api.concurrency.increment, { name: "hits" })));
    expect(await b.t.query(api.concurrency.value, { name: "hits" })).toBe(200);
    const figures = b.meter.read()["concurrency:increment"]!;
    expect(figures.calls).toBe(200);
    expect(figures.failures).toBe(0);
    expect(figures.retries).toBeGreaterThanOrEqual(1);
    expect(figures.conflicts).toBeGreaterThanOrEqual(figures.retries);
    // The same figures over HTTP, for benches in another process.
    const served = (await (await fetch(`${b.url}/_dev/meter`)).json()) as {
      plan: string;
      functions: Record<string, { calls: number; retries: number }>;
    };
    expect(served.plan).toBe("professional");
    expect(served.functions["concurrency:increment"]).toMatchObject({ calls: 200, retries: figures.retries });
  });

  it("runs mutations on different documents at once without a single conflict", async () => {
    const b = await start();
    const names = Array.from({ length: 50 }, (_, index) => `counter-${index}`);
    for (const name of names) {
      for (const suffix of ["", "-from", "-to"]) {
        await b.t.mutation(api.concurrency.create, { name: name + suffix, value: 0 });
      }
    }
    await Promise.all(
      names.flatMap((name) => [
        b.t.mutation(api.concurrency.increment, { name }),
        b.t.mutation(api.concurrency.transfer, { from: `${name}-from`, to: `${name}-to` }),
      ]),
    );
    for (const name of names) {
      expect(await b.t.query(api.concurrency.value, { name })).toBe(1);
      expect(await b.t.query(api.concurrency.value, { name: `${name}-to` })).toBe(1);
    }
    const reading = b.meter.read();
    expect(reading["concurrency:increment"]).toMatchObject({ calls: 50, conflicts: 0, retries: 0 });
    expect(reading["concurrency:transfer"]).toMatchObject({ calls: 50, conflicts: 0, retries: 0 });
  });

  it("fails a mutation that conflicts on every retry with the deployment's error, and keeps none of its writes", async () => {
    const b = await start();
    await b.t.mutation(api.concurrency.create, { name: "hot", value: 0 });
    const client = nodeClient(b.url, clients);
    const seenMarks: string[][] = [];
    client.onUpdate(api.concurrency.marks, {}, (marks: string[]) => seenMarks.push(marks));

    // 1,000 reads between its read and its write: a window wide enough that an increment commits in
    // it on every retry also when the machine is busy (300 let one retry through once in CI).
    const slow = b.t.mutation(api.concurrency.slowIncrement, { name: "hot", awaits: 1_000 });
    let settled = false;
    const outcome = slow.then(
      () => "succeeded",
      (error: Error) => error.message,
    );
    void outcome.then(() => (settled = true));
    // One call after another: they never conflict with each other, and each commits while the
    // slow mutation is between its read and its write.
    let bumps = 0;
    while (!settled) {
      await b.t.mutation(api.concurrency.increment, { name: "hot" });
      bumps++;
      // Calls from clients arrive as I/O: let timers (the slow mutation's back-off) run between.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await outcome).toMatch(
      /^Documents read from or written to the table "counters" changed while this mutation was being run and on every subsequent retry\. A call to "concurrency:increment" changed the document with ID "[^"]+"\./,
    );
    await b.settle();
    // Its mark never committed, and its increment is not in the counter.
    expect(await b.t.query(api.concurrency.marks, {})).toEqual([]);
    expect(await b.t.query(api.concurrency.value, { name: "hot" })).toBe(bumps);
    expect(seenMarks.flat()).toEqual([]);
    expect(b.meter.read()["concurrency:slowIncrement"]).toMatchObject({
      calls: 1,
      conflicts: 5,
      retries: 4,
      failures: 1,
      documentsWritten: 0,
    });
  });

  it("never shows a subscribed query a state between commits", async () => {
    const b = await start();
    await b.t.mutation(api.concurrency.create, { name: "left", value: 500 });
    await b.t.mutation(api.concurrency.create, { name: "right", value: 500 });
    const client = nodeClient(b.url, clients);
    const sums: number[] = [];
    client.onUpdate(api.concurrency.sum, { first: "left", second: "right", awaits: 50 }, (sum: number) =>
      sums.push(sum),
    );
    // Each round's transfers commit while the query is between its two reads.
    for (let round = 0; round < 20; round++) {
      await Promise.all([
        ...Array.from({ length: 5 }, () => b.t.mutation(api.concurrency.transfer, { from: "left", to: "right" })),
        b.t.query(api.concurrency.sum, { first: "left", second: "right", awaits: 50 }).then((sum: number) => {
          sums.push(sum);
        }),
      ]);
    }
    await b.settle();
    expect(await b.t.query(api.concurrency.value, { name: "right" })).toBe(600);
    expect(sums.length).toBeGreaterThan(20);
    expect(new Set(sums)).toEqual(new Set([1000]));
  });

  it("runs transactions one at a time with MJ_SERIAL_MUTATIONS' setting, so nothing conflicts", async () => {
    const b = await start({ serialMutations: true });
    await b.t.mutation(api.concurrency.create, { name: "hits", value: 0 });
    await Promise.all(Array.from({ length: 50 }, () => b.t.mutation(api.concurrency.increment, { name: "hits" })));
    expect(await b.t.query(api.concurrency.value, { name: "hits" })).toBe(50);
    expect(b.meter.read()["concurrency:increment"]).toMatchObject({ calls: 50, conflicts: 0 });
  });
});

// Convex's limits page: 8 scheduled jobs at once on Free/Starter (S16), 256 on Professional (S256).
describe("plan caps", () => {
  async function runHeldJobs(plan: "starter" | "professional", slots: number) {
    const b = await start({ plan });
    // Each job holds its slot until the gate opens: the slots fill however slow the machine is.
    await b.t.mutation(api.limits.scheduleHeldJobs, { count: 9, gate: `jobs-${plan}` });
    const states = async () => (await b.t.query(api.concurrency.jobStates, {})) as string[];
    const running = Math.min(9, slots);
    await untilWaiting(`jobs-${plan}`, running);
    // A 9th that may not start is in the queue; one that may has started too.
    await vi.waitFor(
      async () =>
        expect({
          running: (await states()).filter((state) => state === "inProgress").length,
          queued: b.plan.scheduledJobs.queued,
        }).toEqual({
          running,
          queued: 9 - running,
        }),
      { timeout: 60_000, interval: 20 },
    );
    const atOnce = { running, queued: b.plan.scheduledJobs.queued };
    openGate(`jobs-${plan}`, true);
    await vi.waitFor(async () => expect((await states()).filter((state) => state === "success")).toHaveLength(9), {
      timeout: 60_000,
      interval: 20,
    });
    return { ...atOnce, peak: b.plan.scheduledJobs.peak, finished: (await states()).length };
  }

  it("lets the 9th scheduled job wait for a slot on starter, and runs all 9 at once on professional", async () => {
    expect(await runHeldJobs("starter", 8)).toEqual({ running: 8, queued: 1, peak: 8, finished: 9 });
    await backend?.close();
    backend = null;
    expect(await runHeldJobs("professional", 256)).toEqual({ running: 9, queued: 0, peak: 9, finished: 9 });
  }, 150_000);
});

describe("the time limit on a query's or mutation's own code", () => {
  it("fails a mutation whose own code runs past 1 s with the deployment's error, and keeps none of its writes", async () => {
    const b = await start();
    // Through the HTTP function API, as ConvexHttpClient calls it: the message clients get.
    const response = await fetch(`${b.url}/api/mutation`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "concurrency:spin", args: { cpuMs: 1500 }, format: "json" }),
    });
    expect(await response.json()).toMatchObject({
      status: "error",
      errorMessage: "Function execution timed out (maximum duration: 1s)",
    });
    // The mark written before the spin is gone, and the one after (its error swallowed) never came.
    expect(await b.t.query(api.concurrency.marks, {})).toEqual([]);
    const figures = b.meter.read()["concurrency:spin"]!;
    expect(figures).toMatchObject({
      calls: 1,
      timeouts: 1,
      failures: 1,
      conflicts: 0,
      retries: 0,
      documentsWritten: 0,
    });
    expect(figures.ownCodeMsMax).toBeGreaterThan(1000);
  });

  it("lets a mutation whose database reads take over 1 s, with little code of its own, succeed, also three at once", async () => {
    const b = await start();
    // Enough marks that a scan takes over a millisecond: 1.5 s of scans stays far below Convex's
    // 4,096 index ranges a transaction (with 2,000, a faster filter made ~4,100 scans).
    await b.t.run(async (ctx) => {
      for (let index = 0; index < 8000; index++) await ctx.db.insert("marks", { note: `mark ${index}` });
    });
    // 1.5 s of the process's CPU time, nearly all of it in the database (its filter runs there).
    expect(await b.t.mutation(api.concurrency.scanMarks, { cpuMs: 1500 })).toBeGreaterThan(0);
    // Their code interleaves at every read; each is charged only its own.
    const reads = (await Promise.all(
      Array.from({ length: 3 }, () => b.t.mutation(api.concurrency.scanMarks, { cpuMs: 1500 })),
    )) as number[];
    for (const count of reads) expect(count).toBeGreaterThan(0);
    const figures = b.meter.read()["concurrency:scanMarks"]!;
    expect(figures).toMatchObject({ calls: 4, timeouts: 0, failures: 0 });
    expect(figures.ownCodeMsMax).toBeLessThan(1000);
  });
});

describe("each transaction's clock, whatever interleaves with its code", () => {
  /**
   * `count` calls at once, each keeping its own code busy for `cpuMs` of CPU time in 10 ms chunks
   * with awaits (not database calls) between them. The fixture times each chunk in CPU time, so a
   * busy loop beside the test stretches the wall time but not the work each call does.
   */
  async function busyAtOnce(b: RunningBackend, count: number, cpuMs: number) {
    return await Promise.allSettled(
      Array.from({ length: count }, () => b.t.mutation(api.concurrency.busyInChunks, { cpuMs, chunkMs: 10 })),
    );
  }

  it("charges 2, then 20 transactions interleaving 300 ms of work each only their own: none times out", async () => {
    const b = await start();
    for (const count of [2, 20]) {
      const outcomes = await busyAtOnce(b, count, 300);
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    }
    const figures = b.meter.read()["concurrency:busyInChunks"]!;
    expect(figures).toMatchObject({ calls: 22, timeouts: 0, failures: 0, documentsWritten: 44 });
    // Each was charged its own 300 ms: not nothing, and not the others' (20 × 300 ms ran meanwhile).
    expect(figures.ownCodeMsMax).toBeGreaterThan(250);
    expect(figures.ownCodeMsMax).toBeLessThan(1000);
    // 6.6 s of CPU: about a minute of wall time on a machine as loaded as load average 16 on 2 cores.
  }, 240_000);

  it("still times out a transaction doing 1.2 s of the same work alone, and keeps none of its writes", async () => {
    const b = await start();
    const [outcome] = await busyAtOnce(b, 1, 1200);
    expect(outcome).toMatchObject({
      status: "rejected",
      reason: expect.objectContaining({ message: "Function execution timed out (maximum duration: 1s)" }),
    });
    expect(await b.t.query(api.concurrency.marks, {})).toEqual([]);
    expect(b.meter.read()["concurrency:busyInChunks"]).toMatchObject({ calls: 1, timeouts: 1, failures: 1 });
  }, 60_000);
});
