// Slowing down password and code guessing without locking owners out.
//
// - Per account (by email): the first few failures are free; after that each further attempt
//   waits an exponentially growing delay (capped), which a correct secret from a device that has
//   signed in to the account before ignores. A stranger can slow an account down, never lock its
//   owner out; the owner's own browser goes straight through.
// - Across accounts: at most GLOBAL_LIMITS.failedSignInsPerMinute failed sign-ins and
//   GLOBAL_LIMITS.signUpsPerMinute sign-ups per minute on the deployment; over it, unknown
//   devices wait for the next minute. Known devices are never refused.
//
// - Per client address: each password or code tried from one address (Convex's request
//   metadata, ctx.meta.getRequestMetadata().ip, read by the signIn action) takes a token from
//   that address's bucket (lib/tokenBucket.ts, CLIENT_ATTEMPTS); a success gives it back. A spray
//   of one guess on each of many accounts meets this limit, which no account's back-off sees.
//   Known devices are never refused. Addresses are stored as SHA-256 hashes.
//
// "Known device": the sign-in form sends a random id kept in the browser (`params.device`);
// after a successful sign-in its SHA-256 is stored for the account. It proves nothing beyond
// "this browser signed in here before", which is all the bypass needs.
import type { MutationCtx } from "../_generated/server";
import { takeToken, tokensAt, waitForToken, type TokenBucketRule } from "../lib/tokenBucket";

export const BACKOFF = {
  /** Failures allowed before any wait. */
  freeFailures: 5,
  /** The wait after the first failure past the free ones; doubles with each further failure. */
  baseDelayMs: 5_000,
  maxDelayMs: 15 * 60_000,
  /** An account's failures are forgotten this long after the last one. */
  forgetAfterMs: 60 * 60_000,
} as const;

/** Sign-in attempts per client address: a burst of 10, then 10 a minute. */
export const CLIENT_ATTEMPTS: TokenBucketRule = { capacity: 10, rate: 10, periodMs: 60_000 };

// A launch or a workshop signs up a hundred people within a minute: all of them get in.
export const GLOBAL_LIMITS = { failedSignInsPerMinute: 60, signUpsPerMinute: 120, emailRequestsPerMinute: 30 } as const;

const WINDOW_MS = 60_000;
const MAX_KNOWN_DEVICES_CHECKED = 1;

type WindowName = "failedSignIns" | "signUps" | "emailRequests";

export const THROTTLE_MESSAGES = {
  account: (seconds: number) =>
    `Too many failed attempts for this account. Please wait ${formatWait(seconds)} and try again, or sign in from a browser you have used here before.`,
  signIns: "Too many failed sign-ins on ModelJury right now. Please wait a minute and try again.",
  client: (seconds: number) =>
    `Too many sign-in attempts from your network. Please wait ${formatWait(seconds)} and try again.`,
  signUps: "Too many new accounts are being created right now. Please wait a minute and try again.",
  emailRequests: "Too many emails have been asked for right now. Please wait a minute and try again.",
} as const;

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** How long an account with `failures` failures, the last at `lastFailureAt`, must still wait. */
export function backoffRemainingMs(failures: number, lastFailureAt: number, now: number): number {
  if (now - lastFailureAt >= BACKOFF.forgetAfterMs) return 0;
  const over = failures - BACKOFF.freeFailures;
  if (over < 0) return 0;
  const delay = Math.min(BACKOFF.maxDelayMs, BACKOFF.baseDelayMs * 2 ** Math.min(over, 20));
  return Math.max(0, lastFailureAt + delay - now);
}

export async function hashDevice(device: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(device));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function isKnownDevice(ctx: MutationCtx, email: string, deviceHash: string | null): Promise<boolean> {
  if (deviceHash === null) return false;
  const rows = await ctx.db
    .query("authKnownDevices")
    .withIndex("by_email_device", (q) => q.eq("email", email).eq("deviceHash", deviceHash))
    .take(MAX_KNOWN_DEVICES_CHECKED);
  return rows.length > 0;
}

async function windowOf(ctx: MutationCtx, name: WindowName, now: number) {
  const row = await ctx.db
    .query("authRateWindows")
    .withIndex("by_name", (q) => q.eq("name", name))
    .unique();
  const current = row !== null && now - row.windowStart < WINDOW_MS ? row.count : 0;
  return { row, current };
}

async function countInWindow(ctx: MutationCtx, name: WindowName, now: number): Promise<void> {
  const { row, current } = await windowOf(ctx, name, now);
  if (row === null) await ctx.db.insert("authRateWindows", { name, windowStart: now, count: 1 });
  else if (current === 0) await ctx.db.patch("authRateWindows", row._id, { windowStart: now, count: 1 });
  else await ctx.db.patch("authRateWindows", row._id, { count: current + 1 });
}

export type Attempt = {
  /** Normalized email of the account tried. */
  email: string;
  /** signIn: a password or code is tried; signUp: an account is created; emailRequest: a code or link is sent. */
  kind: "signIn" | "signUp" | "emailRequest";
  deviceHash: string | null;
  /** SHA-256 of the client's address, when the request came with one. */
  clientHash?: string | null;
};

async function clientBucket(ctx: MutationCtx, clientHash: string) {
  return await ctx.db
    .query("authClientBuckets")
    .withIndex("by_client", (q) => q.eq("clientHash", clientHash))
    .unique();
}

/** Takes one of the address's tokens; the wait in ms when none is left (nothing is taken then). */
async function takeClientToken(ctx: MutationCtx, clientHash: string, now: number): Promise<number> {
  const row = await clientBucket(ctx, clientHash);
  const wait = waitForToken(row, CLIENT_ATTEMPTS, now);
  if (wait > 0) return wait;
  const next = takeToken(row, CLIENT_ATTEMPTS, now);
  if (row === null) await ctx.db.insert("authClientBuckets", { clientHash, ...next });
  else await ctx.db.patch("authClientBuckets", row._id, next);
  return 0;
}

async function hasPasswordAccount(ctx: MutationCtx, email: string): Promise<boolean> {
  const account = await ctx.db
    .query("authAccounts")
    .withIndex("providerAndAccountId", (q) => q.eq("provider", "password").eq("providerAccountId", email))
    .first();
  return account !== null;
}

/** Null when the attempt may go ahead, else the sentence to show. Counts sign-ups and emails asked for. */
export async function admit(ctx: MutationCtx, attempt: Attempt, now: number): Promise<string | null> {
  if (attempt.kind === "signUp" || attempt.kind === "emailRequest") {
    const name = attempt.kind === "signUp" ? "signUps" : "emailRequests";
    const limit = attempt.kind === "signUp" ? GLOBAL_LIMITS.signUpsPerMinute : GLOBAL_LIMITS.emailRequestsPerMinute;
    const { current } = await windowOf(ctx, name, now);
    if (current >= limit) return THROTTLE_MESSAGES[name];
    await countInWindow(ctx, name, now);
    // A sign-up for an existing account signs in when the password is right: a guess too.
    if (attempt.kind === "emailRequest") return null;
  }
  if (await isKnownDevice(ctx, attempt.email, attempt.deviceHash)) return null;
  const { current } = await windowOf(ctx, "failedSignIns", now);
  if (current >= GLOBAL_LIMITS.failedSignInsPerMinute) return THROTTLE_MESSAGES.signIns;
  // A sign-up for a new address guesses nothing: a workshop behind one address signs up at once.
  if (attempt.clientHash && (attempt.kind !== "signUp" || (await hasPasswordAccount(ctx, attempt.email)))) {
    const wait = await takeClientToken(ctx, attempt.clientHash, now);
    if (wait > 0) return THROTTLE_MESSAGES.client(Math.ceil(wait / 1000));
  }
  const backoff = await ctx.db
    .query("authBackoff")
    .withIndex("by_email", (q) => q.eq("email", attempt.email))
    .unique();
  if (backoff === null) return null;
  const remaining = backoffRemainingMs(backoff.failures, backoff.lastFailureAt, now);
  return remaining > 0 ? THROTTLE_MESSAGES.account(Math.ceil(remaining / 1000)) : null;
}

/** A wrong password or code for `email`. */
export async function recordFailure(ctx: MutationCtx, email: string, now: number): Promise<void> {
  await countInWindow(ctx, "failedSignIns", now);
  const backoff = await ctx.db
    .query("authBackoff")
    .withIndex("by_email", (q) => q.eq("email", email))
    .unique();
  if (backoff === null) {
    await ctx.db.insert("authBackoff", { email, failures: 1, lastFailureAt: now });
    return;
  }
  const forgotten = now - backoff.lastFailureAt >= BACKOFF.forgetAfterMs;
  await ctx.db.patch("authBackoff", backoff._id, {
    failures: forgotten ? 1 : backoff.failures + 1,
    lastFailureAt: now,
  });
}

/** A successful sign-in: the account's failures are cleared, the browser becomes known, the address gets its token back. */
export async function recordSuccess(
  ctx: MutationCtx,
  email: string,
  deviceHash: string | null,
  now: number,
  clientHash: string | null = null,
): Promise<void> {
  const bucket = clientHash ? await clientBucket(ctx, clientHash) : null;
  if (bucket !== null) {
    const tokens = Math.min(CLIENT_ATTEMPTS.capacity, tokensAt(bucket, CLIENT_ATTEMPTS, now) + 1);
    await ctx.db.patch("authClientBuckets", bucket._id, { tokens, updatedAt: now });
  }
  const backoff = await ctx.db
    .query("authBackoff")
    .withIndex("by_email", (q) => q.eq("email", email))
    .unique();
  if (backoff !== null) await ctx.db.delete("authBackoff", backoff._id);
  if (deviceHash === null) return;
  const known = await ctx.db
    .query("authKnownDevices")
    .withIndex("by_email_device", (q) => q.eq("email", email).eq("deviceHash", deviceHash))
    .unique();
  if (known === null) await ctx.db.insert("authKnownDevices", { email, deviceHash, lastSeenAt: now });
  else await ctx.db.patch("authKnownDevices", known._id, { lastSeenAt: now });
}
