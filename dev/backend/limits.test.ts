// The local backend enforces Convex's per-transaction limits, so a function that would fail on a
// deployment (here: more than 4,096 index ranges read) fails locally too, and changes nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MutationCtx } from "../../convex/_generated/server";
import { startBackend, type RunningBackend } from "./server";

let backend: RunningBackend;
let keysDir: string;

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-limits-"));
  backend = await startBackend({ port: 0, sitePort: 0, quiet: true, keysFile: join(keysDir, "jwt-keys.json") });
  // Loading every module of convex/ takes longer than the default 10 s on a loaded machine.
}, 120_000);
afterAll(async () => {
  await backend.close();
  rmSync(keysDir, { recursive: true, force: true });
});

/** Inserts a marker row, then reads `ranges` index ranges, in one transaction. */
async function readRanges(ranges: number) {
  return await backend.t.run(async (raw) => {
    const ctx = raw as unknown as MutationCtx;
    await ctx.db.insert("settings", { key: `marker-${ranges}`, value: 1 });
    for (let index = 0; index < ranges; index++) {
      await ctx.db
        .query("settings")
        .withIndex("by_key", (q) => q.eq("key", `key-${index}`))
        .first();
    }
    return ranges;
  });
}

async function markers() {
  return await backend.t.run(async (raw) => {
    const ctx = raw as unknown as MutationCtx;
    return (await ctx.db.query("settings").collect()).map((row) => row.key).sort();
  });
}

it("fails a transaction that reads more than 4,096 index ranges, as a deployment does, and keeps none of its writes", async () => {
  expect(await readRanges(4_000)).toBe(4_000);
  await expect(readRanges(4_097)).rejects.toThrow(
    /Too many index ranges read in a single function execution \(limit: 4096\)/,
  );
  expect(await markers()).toEqual(["marker-4000"]);
});
