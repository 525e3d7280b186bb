// @vitest-environment node
// A sign-in whose store mutation times out (here: a 50 ms limit on its own code, which Convex
// Auth's ~110 ms password hash passes) reaches the client as "Signing in failed" with the reason
// (`serverFailure`), so the app tries once more; the backend's log says which failure it was and
// whether it was the client's retry. Nothing is written.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvexClient } from "convex/browser";
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "../../convex/_generated/api";
import type { RunningBackend } from "./server";
import { nodeClient, startQuietBackend } from "./testing";

let keysDir: string;
let backend: RunningBackend;
const clients: ConvexClient[] = [];

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-sign-in-failure-"));
  backend = await startQuietBackend(join(keysDir, "jwt-keys.json"), {
    userCodeLimitMs: 50,
    env: { SITE_URL: "http://127.0.0.1:5173", AUTH_LOG_LEVEL: "ERROR" },
  });
});

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await backend?.close();
  rmSync(keysDir, { recursive: true, force: true });
});

async function refusal(params: Record<string, string>): Promise<unknown> {
  try {
    await nodeClient(backend.url, clients).action(api.auth.signIn, { provider: "password", params });
  } catch (error) {
    if (error instanceof ConvexError) return error.data;
    throw error;
  }
  throw new Error("expected the sign-in to fail");
}

describe("a sign-in failing for a reason of the server's", () => {
  it("says so to the client with its reason, and the log says which failure and which try it was", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const params = { email: "ada@example.com", password: "correct horse battery", flow: "signUp" };
      expect(await refusal(params)).toEqual({
        code: "UNAVAILABLE",
        message: "Signing in failed. Please try again.",
        serverFailure: "time-out",
      });
      expect(await refusal({ ...params, retryAfter: "time-out" })).toMatchObject({ serverFailure: "time-out" });
      const lines = logged.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith("auth:signIn"));
      expect(lines).toEqual([
        "auth:signIn failed (time-out; the client tries once more): Function execution timed out (maximum duration: 50ms)",
        "auth:signIn failed (time-out; the client's retry after a time-out): Function execution timed out (maximum duration: 50ms)",
      ]);
    } finally {
      logged.mockRestore();
    }
    // The store mutation wrote nothing.
    expect(await backend.t.run(async (ctx) => (await ctx.db.query("users").collect()).length)).toBe(0);
  });
});
