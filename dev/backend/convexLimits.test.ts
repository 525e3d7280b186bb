// @vitest-environment node
// Convex's limits as the local backend models them (README "Convex's limits"), against the fixture
// functions (fixture/convex/limits.ts): the wait for a slot and TooManyConcurrentRequests after it,
// the slots of calls made from actions, scheduled mutations retried until they commit, document,
// array, argument and return value sizes, write throughput, and `_creationTime` as the
// transaction's begin time. Calls go through the HTTP function API, as a client's do.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlanSlots, SLOT_WAIT_MS } from "./plan";
import type { BackendOptions, RunningBackend } from "./server";
import { nodeClient, openGate, releaseGates, startFixtureBackend, untilWaiting } from "./testing";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped fixture api
const api = anyApi as any;

type Reply = { status: "success"; value: unknown } | { status: "error"; errorMessage: string };

/** A call through the deployment's HTTP function API. */
async function call(b: RunningBackend, kind: "query" | "mutation" | "action", path: string, args: object) {
  const response = await fetch(`${b.url}/api/${kind}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path, args, format: "json" }),
  });
  return (await response.json()) as Reply;
}

let keysDir: string;
let backend: RunningBackend | null = null;
const clients: ConvexClient[] = [];

/**
 * A fixture backend without its cron (a mutation every second): the tests here hold every slot for
 * as long as a loaded machine takes, and count each refusal and each byte written.
 */
async function start(options: BackendOptions = {}): Promise<RunningBackend> {
  backend = await startFixtureBackend(keysDir, { crons: false, ...options });
  return backend;
}

beforeAll(() => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-convex-limits-"));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  releaseGates();
  await backend?.close();
  backend = null;
});
afterAll(() => rmSync(keysDir, { recursive: true, force: true }));

/** Short waits for a slot, so a refusal comes quickly; the callers holding slots never let go before it. */
const SHORT_WAITS = { queries: 200, mutations: 200, actions: 200 };

describe("the wait for a slot", () => {
  it("waits 5 s for a query's or mutation's slot and 10 s for an action's, as Convex does", () => {
    expect(SLOT_WAIT_MS).toEqual({ queries: 5_000, mutations: 5_000, actions: 10_000 });
    const plan = new PlanSlots("starter");
    expect([plan.queries.waitMs, plan.mutations.waitMs, plan.actions.waitMs]).toEqual([5_000, 5_000, 10_000]);
  });

  it("refuses a 17th mutation on Starter with TooManyConcurrentRequests once its wait is over, and runs it once a slot is free", async () => {
    const b = await start({ plan: "starter", slotWaits: SHORT_WAITS });
    const held = Array.from({ length: 16 }, () => call(b, "mutation", "limits:heldMutation", { gate: "m" }));
    await untilWaiting("m", 16);
    expect(await call(b, "mutation", "limits:writeNote", { bytes: 1 })).toEqual({
      status: "error",
      errorMessage:
        "Too many concurrent requests. Your backend is limited to 16 concurrent mutations. To get more resources, upgrade to Convex Pro. If you are already on Convex Pro, please contact support.",
      logLines: [],
    });
    expect(b.plan.mutations.timeouts).toBe(1);
    // Benches in another process read it from the meter's route.
    const served = (await (await fetch(`${b.url}/_dev/meter`)).json()) as { slots: Record<string, unknown> };
    expect(served.slots.mutations).toEqual({ limit: 16, peak: 16, timeouts: 1 });
    openGate("m");
    for (const reply of await Promise.all(held)) expect(reply.status).toBe("success");
    expect((await call(b, "mutation", "limits:writeNote", { bytes: 1 })).status).toBe("success");
  });

  it("gives a waiting query the slot a finished one frees, within its wait", async () => {
    const b = await start({ plan: "starter", slotWaits: { queries: 120_000, mutations: 120_000, actions: 120_000 } });
    const held = Array.from({ length: 16 }, () => call(b, "query", "limits:heldQuery", { gate: "q" }));
    await untilWaiting("q", 16);
    const waiting = call(b, "query", "limits:returnText", { bytes: 3 });
    openGate("q");
    expect(await waiting).toMatchObject({ status: "success", value: "yyy" });
    await Promise.all(held);
  });

  it("refuses a 65th action on Starter after its wait", async () => {
    const b = await start({ plan: "starter", slotWaits: SHORT_WAITS });
    const held = Array.from({ length: 64 }, () => call(b, "action", "limits:heldAction", { gate: "a" }));
    await untilWaiting("a", 64);
    const refused = await call(b, "action", "limits:heldAction", { gate: "a" });
    expect(refused).toMatchObject({
      status: "error",
      errorMessage: expect.stringMatching(
        /^Too many concurrent requests\. Your backend is limited to 64 concurrent actions\./,
      ),
    });
    openGate("a");
    await Promise.all(held);
  });
});

describe("calls from actions", () => {
  it("counts a mutation an action runs against the mutation slots, for clients and other actions alike", async () => {
    const b = await start({ plan: "starter", slotWaits: SHORT_WAITS });
    const held = [
      ...Array.from({ length: 15 }, () => call(b, "mutation", "limits:heldMutation", { gate: "n" })),
      call(b, "action", "limits:actionRunsHeldMutation", { gate: "n" }),
    ];
    await untilWaiting("n", 16);
    // The 16th slot is the action's mutation's: a client's mutation has none.
    expect(await call(b, "mutation", "limits:writeNote", { bytes: 1 })).toMatchObject({
      status: "error",
      errorMessage: expect.stringMatching(
        /^Too many concurrent requests\. Your backend is limited to 16 concurrent mutations/,
      ),
    });
    // Nor has another action's ctx.runMutation: the error reaches the action's code.
    expect(await call(b, "action", "limits:actionRunsMutation", { note: "from an action" })).toMatchObject({
      status: "error",
      errorMessage: expect.stringContaining(
        "Too many concurrent requests. Your backend is limited to 16 concurrent mutations",
      ),
    });
    openGate("n");
    for (const reply of await Promise.all(held)) expect(reply).toMatchObject({ status: "success", value: "n" });
    expect(await call(b, "action", "limits:actionRunsMutation", { note: "later" })).toMatchObject({
      status: "success",
    });
  });
});

describe("scheduled mutations", () => {
  it("retries a scheduled mutation that conflicts 6 times (a client's fails after 4 retries) until it commits", async () => {
    const b = await start();
    await b.t.mutation(api.concurrency.create, { name: "contended", value: 0 });
    const jobId = (await call(b, "mutation", "limits:scheduleReadWaitWrite", { name: "contended", gate: "s" })) as {
      value: string;
    };
    const client = nodeClient(b.url, clients);
    const finished = new Promise<string>((resolve) =>
      client.onUpdate(api.limits.jobState, { id: jobId.value }, (kind: string | null) => {
        if (kind === "success" || kind === "failed") resolve(kind);
      }),
    );
    // Each time it has read the counter, another mutation changes it: its commit conflicts.
    for (let conflict = 1; conflict <= 6; conflict++) {
      // A backend that gives up on it ends the job instead of running it again.
      const ended = await Promise.race([untilWaiting("s", 1).then(() => null), finished]);
      expect(ended, `the job ended after ${conflict - 1} conflicts`).toBeNull();
      await b.t.mutation(api.concurrency.increment, { name: "contended" });
      openGate("s", conflict === 6);
    }
    const state = await finished;
    expect(state).toBe("success");
    expect(await b.t.query(api.concurrency.value, { name: "contended" })).toBe(106);
    expect(b.meter.read()["limits:readWaitWrite"]).toMatchObject({ retries: 6, failures: 0 });
  }, 60_000);
});

describe("sizes", () => {
  const MIB = 1024 * 1024;

  it("fails a mutation writing a 1.1 MiB document, as a deployment does, and keeps nothing; 1 MiB less a little is fine", async () => {
    const b = await start();
    expect(await call(b, "mutation", "limits:writeNote", { bytes: Math.round(1.1 * MIB) })).toMatchObject({
      status: "error",
      errorMessage: expect.stringContaining("Value is too large (1.10 MiB > maximum size 1 MiB)"),
    });
    expect(await b.t.query(api.concurrency.marks, {})).toEqual([]);
    expect(await call(b, "mutation", "limits:writeNote", { bytes: MIB - 100 })).toMatchObject({ status: "success" });
  });

  it("fails a document, an argument or a return value with an array of 8,193 elements; 8,192 are fine", async () => {
    const b = await start();
    expect(await call(b, "mutation", "limits:writeArray", { length: 8192 })).toMatchObject({ status: "success" });
    expect(await call(b, "mutation", "limits:writeArray", { length: 8193 })).toMatchObject({
      status: "error",
      errorMessage: expect.stringContaining("Array length is too long (8193 > maximum length 8192)"),
    });
    expect(await call(b, "query", "limits:returnArray", { length: 8193 })).toMatchObject({
      status: "error",
      errorMessage:
        "Function limits:returnArray return value invalid: Array length is too long (8193 > maximum length 8192)",
    });
    expect(await call(b, "mutation", "limits:echoLength", { text: "z", extra: new Array(8193).fill(1) })).toMatchObject(
      {
        status: "error",
        errorMessage: "Array length is too long (8193 > maximum length 8192)",
      },
    );
  });

  it("fails arguments and a return value over 16 MiB", async () => {
    const b = await start();
    expect(await call(b, "mutation", "limits:echoLength", { text: "z".repeat(17 * MIB) })).toEqual({
      status: "error",
      errorMessage: "Arguments for limits:echoLength are too large (actual: 17.00 MiB, limit: 16 MiB)",
      logLines: [],
    });
    expect(await call(b, "query", "limits:returnText", { bytes: 17 * MIB })).toEqual({
      status: "error",
      errorMessage: "Function limits:returnText return value is too large (actual: 17.00 MiB, limit: 16 MiB)",
      logLines: [],
    });
    expect(await call(b, "mutation", "limits:echoLength", { text: "z".repeat(15 * MIB) })).toMatchObject({
      status: "success",
      value: 15 * MIB,
    });
  }, 60_000);
});

describe("write throughput", () => {
  /** Writes `documents` notes of 0.9 MiB in as many mutations; the clock of the limit stands still meanwhile. */
  async function writeBurst(b: RunningBackend, documents: number) {
    const now = performance.now();
    b.writes.now = () => now;
    for (let index = 0; index < documents; index++) {
      const reply = await call(b, "mutation", "limits:writeNote", { bytes: Math.round(0.9 * 1024 * 1024) });
      if (reply.status === "error")
        return { written: index, refused: reply.errorMessage, later: () => (b.writes.now = () => now + 1001) };
    }
    return { written: documents, refused: null, later: () => (b.writes.now = () => now + 1001) };
  }

  it("refuses mutations on Starter once a second's writes pass 4 MiB, until the second is over", async () => {
    const b = await start({ plan: "starter" });
    const burst = await writeBurst(b, 6);
    // The fifth takes it past 4 MiB (each document is a little over 0.9 MiB); the sixth is refused.
    expect(burst).toMatchObject({
      written: 5,
      refused:
        "Too many writes per second. Your deployment is limited to 4 MiB bytes written per 1 second. Reduce your write rate or upgrade to a larger deployment.",
    });
    burst.later();
    expect((await call(b, "mutation", "limits:writeNote", { bytes: 1 })).status).toBe("success");
  }, 60_000);

  it("allows 8 MiB a second on Professional", async () => {
    const b = await start({ plan: "professional" });
    expect(await writeBurst(b, 10)).toMatchObject({ written: 9, refused: expect.stringContaining("limited to 8 MiB") });
  }, 60_000);
});

describe("_creationTime", () => {
  it("dates a document at its transaction's start: one inserted after another transaction committed sorts before that one's", async () => {
    const b = await start();
    const slow = call(b, "mutation", "limits:twoMarksApart", { gate: "c" });
    await untilWaiting("c", 1);
    // Committed while the slow one is under way, between its two inserts.
    expect((await call(b, "mutation", "limits:writeNote", { bytes: 5 })).status).toBe("success");
    openGate("c");
    expect((await slow).status).toBe("success");
    const marks = (await b.t.query(api.limits.marksByCreation, {})) as { note: string; creationTime: number }[];
    expect(marks.map((mark) => mark.note)).toEqual(["c first", "c second", "xxxxx"]);
    // Both of the slow transaction's documents carry its begin time, a float step apart.
    expect(marks[1]!.creationTime - marks[0]!.creationTime).toBeLessThan(0.001);
  });
});
