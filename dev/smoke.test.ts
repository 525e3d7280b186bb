// @vitest-environment node
// The deployment smoke test (dev/smoke.ts) against the local backend over the project's functions:
// every check passes on a deployment that answers as the app needs, and fails on one that does not.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningBackend } from "./backend/server";
import { startQuietBackend } from "./backend/testing";
import { siteUrlOf, smoke } from "./smoke";

let backend: RunningBackend;
let keysDir: string;

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-smoke-"));
  backend = await startQuietBackend(join(keysDir, "jwt-keys.json"));
}, 120_000);
afterAll(async () => {
  await backend.close();
  rmSync(keysDir, { recursive: true, force: true });
});

it("passes every check against a running deployment", async () => {
  const results = await smoke(backend.url, backend.siteUrl);
  expect(results.filter((result) => !result.ok)).toEqual([]);
  expect(results.map((result) => result.check)).toHaveLength(6);
});

it("fails the checks of HTTP actions when the site address answers nothing of the app", async () => {
  // The API address given as the site: no issuer, no HTTP API, no webhook there.
  const results = await smoke(backend.url, backend.url);
  expect(results.filter((result) => !result.ok).map((result) => result.check)).toEqual([
    "the auth issuer (/.well-known/openid-configuration and its keys)",
    "the HTTP API (/api/v1/openapi.json)",
    "the Stripe webhook refuses an unsigned body (POST /stripe/webhook)",
  ]);
});

it("finds a cloud deployment's HTTP-actions address from its API address", () => {
  expect(siteUrlOf("https://happy-otter-123.convex.cloud")).toBe("https://happy-otter-123.convex.site");
  expect(siteUrlOf("http://127.0.0.1:3210")).toBeNull();
});
