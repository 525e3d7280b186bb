// @vitest-environment node
// The local backend's mechanics against a small fixture convex/ directory:
// scheduled functions, crons, writes from actions and HTTP actions, batching,
// and the raw sync protocol.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import type { RunningBackend } from "./server";
import { nodeClient, startFixtureBackend } from "./testing";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped fixture api
const api = anyApi as any;

let backend: RunningBackend;
let keysDir: string;
const clients: ConvexClient[] = [];
const sockets: WebSocket[] = [];

const newClient = () => nodeClient(backend.url, clients);

function watch<T>(client: ConvexClient, query: unknown): { values: T[]; until(p: (v: T) => boolean): Promise<T> } {
  const values: T[] = [];
  const waiters: { predicate: (v: T) => boolean; resolve: (v: T) => void }[] = [];
  client.onUpdate(query as never, {} as never, (value: T) => {
    values.push(value);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(value)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(value);
      }
    }
  });
  return {
    values,
    until: (predicate) =>
      new Promise((resolve) => {
        const seen = values.find(predicate);
        if (seen !== undefined) resolve(seen);
        else waiters.push({ predicate, resolve });
      }),
  };
}

type ServerMessage = { type: string; [key: string]: unknown };

/** A bare sync-protocol connection of `sessionId` (Connect sent), to check the messages themselves. */
async function rawConnection(sessionId: string, connectionCount = 0) {
  const socket = new WebSocket(`${backend.url.replace("http", "ws")}/api/1.48.0/sync`);
  sockets.push(socket);
  const received: ServerMessage[] = [];
  const listeners: (() => void)[] = [];
  socket.on("message", (data) => {
    received.push(JSON.parse(data.toString()) as ServerMessage);
    for (const listener of listeners) listener();
  });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  const send = (message: object) => socket.send(JSON.stringify(message));
  send({ type: "Connect", sessionId, connectionCount, lastCloseReason: null, clientTs: Date.now() });
  return {
    received,
    send,
    /** Subscribes to one query: the query set's first version. */
    addQuery: (queryId: number, udfPath: string, args: Record<string, unknown>) =>
      send({
        type: "ModifyQuerySet",
        baseVersion: 0,
        newVersion: 1,
        modifications: [{ type: "Add", queryId, udfPath, args: [args] }],
      }),
    next: (predicate: (m: ServerMessage) => boolean, from = 0) =>
      new Promise<ServerMessage>((resolve) => {
        const check = () => {
          const found = received.slice(from).find(predicate);
          if (found) resolve(found);
          return found !== undefined;
        };
        if (!check()) listeners.push(check);
      }),
    close: () => socket.close(),
  };
}

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "backend-keys-"));
  backend = await startFixtureBackend(keysDir);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  for (const socket of sockets) socket.terminate();
  await backend?.close();
  rmSync(keysDir, { recursive: true, force: true });
});

describe("local backend mechanics", () => {
  it("subscribes, mutates and shows the update to two clients", async () => {
    const [first, second] = [newClient(), newClient()];
    const a = watch<string[]>(first, api.messages.list);
    const b = watch<string[]>(second, api.messages.list);
    await Promise.all([a.until(() => true), b.until(() => true)]);
    await first.mutation(api.messages.send, { body: "hello" });
    await b.until((list) => list.includes("hello"));
    expect(a.values.at(-1)).toContain("hello");
  });

  it("carries ConvexError data, bigints included", async () => {
    const error = await newClient()
      .mutation(api.messages.reject, {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConvexError);
    expect((error as { data: unknown }).data).toEqual({ code: "NOPE", detail: [1, 2n] });
  });

  it("runs scheduled functions in real time and pushes their writes", async () => {
    const client = newClient();
    const list = watch<string[]>(client, api.messages.list);
    await client.mutation(api.messages.sendLater, { body: "later", delayMs: 100 });
    expect(list.values.at(-1) ?? []).not.toContain("later");
    await list.until((messages) => messages.includes("later"));
  });

  it("logs a failing scheduled function and carries on", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const client = newClient();
      await client.mutation(api.messages.failLater, {});
      await vi.waitFor(() => expect(errors.mock.calls.flat().join(" ")).toMatch(/scheduled failure/));
      await client.mutation(api.messages.send, { body: "still alive" });
      expect(await client.query(api.messages.list, {})).toContain("still alive");
    } finally {
      errors.mockRestore();
    }
  });

  it("pushes writes made by an action's runMutation, an HTTP action and the seeding handle", async () => {
    const client = newClient();
    const list = watch<string[]>(client, api.messages.list);
    expect(await client.action(api.messages.sendViaAction, { body: "from action" })).toBe("done");
    await list.until((messages) => messages.includes("from action"));

    const response = await fetch(`${backend.siteUrl}/echo`, {
      method: "POST",
      headers: { "x-test": "header value" },
      body: "from http",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-reply")).toBe("yes");
    expect(await response.json()).toEqual({ body: "from http", header: "header value" });
    await list.until((messages) => messages.includes("from http"));

    await backend.t.run(async (ctx) => {
      await ctx.db.insert("messages", { body: "seeded" });
    });
    await list.until((messages) => messages.includes("seeded"));
  });

  it("runs crons.ts jobs on their schedule", async () => {
    const ticks = watch<number>(newClient(), api.messages.ticks);
    await ticks.until((count) => count >= 1);
  });

  it("gathers a burst of writes into few updates", async () => {
    const connection = await rawConnection("burst");
    connection.addQuery(0, "messages:count", {});
    await connection.next((m) => m.type === "Transition");
    const before = connection.received.length;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => backend.t.mutation(api.messages.insert, { body: `burst ${i}` })),
    );
    const total = await backend.t.query(api.messages.count, {});
    await connection.next(
      (m) => m.type === "Transition" && (m.modifications as { value?: number }[]).some((mod) => mod.value === total),
      before,
    );
    const updates = connection.received.slice(before).filter((m) => m.type === "Transition");
    expect(updates.length).toBeLessThan(50);
    connection.close();
  });

  it("speaks the protocol: versions chain, mutations answer with a covered ts, resent mutations run once", async () => {
    const connection = await rawConnection("session-1");
    connection.addQuery(7, "messages:whoami", {});
    const added = await connection.next((m) => m.type === "Transition");
    expect(added).toMatchObject({
      startVersion: { querySet: 0, identity: 0, ts: "AAAAAAAAAAA=" },
      endVersion: { querySet: 1, identity: 0 },
      modifications: [{ type: "QueryUpdated", queryId: 7, value: null, logLines: [], journal: null }],
    });

    const count = await backend.t.query(api.messages.count, {});
    const mutation = { type: "Mutation", requestId: 0, udfPath: "messages:send", args: [{ body: "once" }] };
    connection.send(mutation);
    const response = await connection.next((m) => m.type === "MutationResponse");
    expect(response).toMatchObject({ requestId: 0, success: true, logLines: [] });
    const decode = (ts: unknown) => Buffer.from(ts as string, "base64").readBigUInt64LE();
    const covering = await connection.next(
      (m) => m.type === "Transition" && decode((m.endVersion as { ts: string }).ts) >= decode(response.ts),
    );
    expect(covering.startVersion).toEqual(
      (connection.received.filter((m) => m.type === "Transition").at(-2) as ServerMessage).endVersion,
    );

    // Bad token: AuthError answering the attempted version.
    connection.send({ type: "Authenticate", tokenType: "User", value: "bad", baseVersion: 0 });
    expect(await connection.next((m) => m.type === "AuthError")).toMatchObject({
      baseVersion: 0,
      authUpdateAttempted: true,
    });

    // A reconnecting client resends its mutations; they must not run twice.
    const again = await rawConnection("session-1", 1);
    again.send(mutation);
    const resent = await again.next((m) => m.type === "MutationResponse");
    expect(resent).toEqual(response);
    await again.next((m) => m.type === "Transition");
    expect(await backend.t.query(api.messages.count, {})).toBe(count + 1);

    const unknown = { type: "Mutation", requestId: 1, udfPath: "messages:insert", args: [{ body: "x" }] };
    again.send(unknown);
    expect(await again.next((m) => m.type === "MutationResponse" && m.requestId === 1)).toMatchObject({
      success: false,
      result: expect.stringMatching(/Could not find public function for 'messages:insert'/),
    });
    connection.close();
    again.close();
  });

  it("pins a paginated page's end with a journal, so new documents grow the page instead of shifting it", async () => {
    const connection = await rawConnection("pages");
    connection.addQuery(0, "messages:newestFirst", { paginationOpts: { numItems: 2, cursor: null } });
    type Page = { page: string[] };
    const first = (await connection.next((m) => m.type === "Transition")).modifications as {
      value: Page;
      journal: string | null;
    }[];
    expect(first[0]!.value.page).toHaveLength(2);
    expect(first[0]!.journal).toEqual(expect.any(String));
    const before = connection.received.length;
    await backend.t.mutation(api.messages.insert, { body: "newest" });
    const update = await connection.next((m) => m.type === "Transition", before);
    const page = (update.modifications as { value: Page }[])[0]!.value.page;
    expect(page).toEqual(["newest", ...first[0]!.value.page]);
    connection.close();
  });

  it("answers requests while a burst of scheduled functions runs", async () => {
    const count = async () => (await backend.t.query(api.messages.count, {})) as number;
    const before = await count();
    // Released together, as a settled payment's tests schedule their workers and batches.
    await backend.t.run(async (ctx) => {
      for (let i = 0; i < 400; i++) await ctx.scheduler.runAfter(0, api.messages.insert, { body: `burst ${i}` });
    });
    const response = await fetch(`${backend.url}/version`);
    expect(response.status).toBe(200);
    // Answered between jobs, not after all of them (before: all 400 had run).
    expect((await count()) - before).toBeLessThan(400);
    await vi.waitFor(async () => expect((await count()) - before).toBe(400), { timeout: 10_000 });
  });

  it("cancels pending scheduled functions on close", async () => {
    const other = await startFixtureBackend(keysDir);
    // Time moves only when the test says: a job's time passes without a real wait, however busy
    // the machine. (Faked timers once let convex-test's own timer run a job after the close.)
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      // The fake clock drives the backend's scheduler: a job due in 50 ms runs once it has passed.
      await other.t.mutation(api.messages.sendLater, { body: "soon", delayMs: 50 });
      await vi.advanceTimersByTimeAsync(100);
      await vi.waitFor(async () => expect(await other.t.query(api.messages.list, {})).toEqual(["soon"]), {
        timeout: 30_000,
      });
      await other.t.mutation(api.messages.sendLater, { body: "never", delayMs: 150 });
      await other.close();
      await vi.advanceTimersByTimeAsync(300);
    } finally {
      vi.useRealTimers();
    }
    expect(await other.t.query(api.messages.list, {})).toEqual(["soon"]);
    // Kept pending for the next start of the same data, as a deployment's would be.
    const states = await other.t.run(async (ctx) =>
      (await ctx.db.system.query("_scheduled_functions").collect()).map((job) => job.state.kind),
    );
    expect(states).toEqual(["success", "pending"]);
  });
});
