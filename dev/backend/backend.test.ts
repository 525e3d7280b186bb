// @vitest-environment node
// The local backend against the project's own convex/ functions, driven by the
// unmodified clients of the pinned `convex` package.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConvexHttpClient } from "convex/browser";
import type { ConvexClient } from "convex/browser";
import { anyApi } from "convex/server";
import { ConvexError } from "convex/values";
import { SignJWT, importPKCS8 } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend } from "./server";
import type { RunningBackend } from "./server";
import { nodeClient } from "./testing";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generated api is untyped offline
const api = anyApi as any;
const PASSWORD = "correct horse battery";

let backend: RunningBackend;
let keysDir: string;
const clients: ConvexClient[] = [];

const newClient = () => nodeClient(backend.url, clients);

/** Resolves with the first value of `query` that satisfies `predicate`. */
function nextValue<T>(
  client: ConvexClient,
  query: unknown,
  args: Record<string, unknown>,
  predicate: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out; last value ${JSON.stringify(last)}`));
    }, timeoutMs);
    let last: unknown;
    const unsubscribe = client.onUpdate(
      query as never,
      args as never,
      (value: T) => {
        last = value;
        if (predicate(value)) {
          clearTimeout(timer);
          unsubscribe();
          resolve(value);
        }
      },
      (error: Error) => {
        last = error;
      },
    );
  });
}

async function signUp(email: string): Promise<{ token: string; refreshToken: string }> {
  const client = newClient();
  const result = await client.action(api.auth.signIn, {
    provider: "password",
    params: { email, password: PASSWORD, flow: "signUp" },
  });
  expect(result.tokens?.token).toEqual(expect.any(String));
  return result.tokens;
}

function authenticated(token: string): Promise<ConvexClient> {
  const client = newClient();
  return new Promise((resolve, reject) => {
    client.setAuth(
      async () => token,
      (isAuthenticated) => (isAuthenticated ? resolve(client) : reject(new Error("auth refused"))),
    );
  });
}

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "backend-keys-"));
  backend = await startBackend({
    port: 0,
    sitePort: 0,
    quiet: true,
    keysFile: join(keysDir, "jwt-keys.json"),
    env: { SITE_URL: "http://localhost:5999" },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await backend?.close();
  rmSync(keysDir, { recursive: true, force: true });
});

describe("local backend", () => {
  it("signs up with the Password provider and answers users:viewer under the token", async () => {
    const result = await signUp("ada@example.com");
    const { token } = result;
    const client = await authenticated(token);
    const viewer = await client.query(api.users.viewer, {});
    expect(viewer).toMatchObject({ email: "ada@example.com", isAdmin: false });

    const anonymous = newClient();
    expect(await anonymous.query(api.users.viewer, {})).toBeNull();

    // ConvexAuthProvider refreshes through the same action with the refresh token.
    const refreshed = await client.action(api.auth.signIn, { refreshToken: result.refreshToken });
    expect(refreshed.tokens?.token).toEqual(expect.any(String));
    expect(await (await authenticated(refreshed.tokens.token)).query(api.users.viewer, {})).toMatchObject({
      email: "ada@example.com",
    });
  });

  it("pushes a mutation's change to every subscribed client, and resolves it after the change", async () => {
    const { token } = await signUp("grace@example.com");
    const [first, second] = await Promise.all([authenticated(token), authenticated(token)]);
    // Keep a subscription open on the first client while it mutates.
    const unsubscribe = first.onUpdate(api.users.viewer, {}, () => {});
    await nextValue(first, api.users.viewer, {}, (v: { fullName: string | null }) => v?.fullName === null);
    const seenBySecond = nextValue(
      second,
      api.users.viewer,
      {},
      (v: { fullName: string | null }) => v?.fullName === "Grace Hopper",
    );

    await first.mutation(api.profile.update, { fullName: "Grace Hopper", avatarUrl: null });
    // The client resolves a mutation only once a Transition covering its
    // timestamp arrived, so its own subscription already shows the write.
    expect(first.client.localQueryResult("users:viewer", {})).toMatchObject({
      fullName: "Grace Hopper",
    });
    await expect(seenBySecond).resolves.toMatchObject({ fullName: "Grace Hopper" });
    unsubscribe();
  });

  it("delivers a thrown ConvexError with its data, for mutations and queries", async () => {
    const { token } = await signUp("linus@example.com");
    const client = await authenticated(token);
    const error = await client
      .mutation(api.profile.update, { fullName: null, avatarUrl: "not a url" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConvexError);
    expect((error as ConvexError<{ code: string }>).data).toMatchObject({
      code: "INVALID_INPUT",
      field: "avatarUrl",
    });

    const anonymous = newClient();
    const queryError = await anonymous.query(api.profile.get, {}).catch((caught: unknown) => caught);
    expect((queryError as ConvexError<{ code: string }>).data).toMatchObject({
      code: "UNAUTHENTICATED",
    });
  });

  it("answers AuthError for a bad or expired token, and the client's refresh gets it back in", async () => {
    const { token } = await signUp("barbara@example.com");
    const expired = await new SignJWT({ sub: JSON.parse(atob(token.split(".")[1]!)).sub })
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer(backend.siteUrl)
      .setAudience("convex")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(await importPKCS8(process.env.JWT_PRIVATE_KEY!, "RS256"));

    for (const bad of [expired, "not-a-jwt", token.slice(0, -4) + "AAAA"]) {
      const fetches: boolean[] = [];
      const client = newClient();
      const isAuthenticated = await new Promise<boolean>((resolve) => {
        client.setAuth(async ({ forceRefreshToken }) => {
          fetches.push(forceRefreshToken);
          // The cached token is bad; a forced refresh yields a good one.
          return forceRefreshToken ? token : bad;
        }, resolve);
      });
      expect(isAuthenticated).toBe(true);
      expect(fetches.slice(0, 2)).toEqual([false, true]);
      expect(await client.query(api.users.viewer, {})).toMatchObject({
        email: "barbara@example.com",
      });
    }

    // A token that stays bad ends signed out rather than looping.
    const client = newClient();
    const outcome = await new Promise<boolean>((resolve) => {
      client.setAuth(async () => "not-a-jwt", resolve);
    });
    expect(outcome).toBe(false);
    expect(await client.query(api.users.viewer, {})).toBeNull();
  });

  it("clears the identity when the client clears auth", async () => {
    const { token } = await signUp("edsger@example.com");
    const client = await authenticated(token);
    await nextValue(client, api.users.viewer, {}, (v) => v !== null);
    const signedOut = nextValue(client, api.users.viewer, {}, (v) => v === null);
    client.client.clearAuth();
    await expect(signedOut).resolves.toBeNull();
  });

  it("serves the HTTP function API as ConvexHttpClient calls it", async () => {
    const { token } = await signUp("margaret@example.com");
    const http = new ConvexHttpClient(backend.url, { logger: false });
    expect(await http.query(api.users.viewer, {})).toBeNull();
    http.setAuth(token);
    await http.mutation(api.profile.update, { fullName: "Margaret", avatarUrl: null });
    expect(await http.query(api.users.viewer, {})).toMatchObject({ fullName: "Margaret" });
    const error = await http
      .mutation(api.profile.update, { fullName: null, avatarUrl: "nope" })
      .catch((caught: unknown) => caught);
    expect((error as ConvexError<{ code: string }>).data).toMatchObject({ code: "INVALID_INPUT" });
    await expect(http.action(api.users.viewer, {})).rejects.toThrow(/defined as Query/);
    await expect(http.query(api.auth.store, {})).rejects.toThrow(/Could not find public function/);
  });

  it("serves convex/http.ts on the site URL", async () => {
    const response = await fetch(`${backend.siteUrl}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(JSON.parse(process.env.JWKS!));
    const missing = await fetch(`${backend.siteUrl}/no/such/route`);
    expect(missing.status).toBe(404);
  });

  it("refuses a taken port by name", async () => {
    const port = Number(new URL(backend.url).port);
    await expect(startBackend({ port, sitePort: 0, quiet: true })).rejects.toThrow(
      new RegExp(`Port ${port} .*already in use`),
    );
  });

  it("starts afresh in the same process after close, trusting its own new site URL", async () => {
    const oldSiteUrl = backend.siteUrl;
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await backend.close();
    backend = await startBackend({ port: 0, sitePort: 0, quiet: true, keysFile: join(keysDir, "jwt-keys.json") });
    expect(backend.siteUrl).not.toBe(oldSiteUrl);
    const { token } = await signUp("ada@example.com");
    const client = await authenticated(token);
    expect(await client.query(api.users.viewer, {})).toMatchObject({ email: "ada@example.com" });
  });
});

describe("the client's address", () => {
  it("reaches actions over the WebSocket and the HTTP API: a sign-in spray from one address is throttled", async () => {
    const spray = (client: { action: ConvexClient["action"] }, i: number) =>
      client
        .action(api.auth.signIn, {
          provider: "password",
          params: { email: `sprayed${i}@example.com`, password: "Spring2024!", flow: "signIn" },
        })
        .then(
          () => "signed in",
          (error: unknown) =>
            error instanceof ConvexError ? (error.data as { message: string }).message : String(error),
        );
    const socket = newClient();
    const outcomes: string[] = [];
    // One address's bucket holds 10 attempts (convex/core/authThrottle.ts CLIENT_ATTEMPTS).
    for (let i = 0; i < 11; i++) outcomes.push(await spray(socket, i));
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill("Invalid email or password."));
    expect(outcomes[10]).toMatch(/^Too many sign-in attempts from your network/);
    // The HTTP API's calls come from the same address, so they meet the same bucket.
    expect(await spray(new ConvexHttpClient(backend.url), 11)).toMatch(/^Too many sign-in attempts from your network/);
  });
});
