// Personal access tokens for the HTTP API (/api/v1). A token is 32 random bytes, base64url, behind a
// recognisable prefix ("mj_pat_"); only its SHA-256 is stored, so a leaked database holds nothing
// that can call the API. A token acts for its user within one space (personal, or one team) and
// never beyond the user's role there, read again on every request: a removed member's token stops
// at once, a revoked token too. Requests are counted per token in a sliding minute, on a row of
// the token's own, so requests of different tokens never write the same row.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { API_TOKEN_LIMITS } from "../lib/limits";
import { hasRole, type TeamRole } from "../lib/teams";
import { membershipOf } from "./teams";

export const TOKEN_PREFIX = "mj_pat_";
const TOKEN_BYTES = 32;
/** How much of the token the list shows ("mj_pat_AbCd…"). */
const SHOWN_CHARACTERS = TOKEN_PREFIX.length + 4;
export const RATE_WINDOW_MS = 60_000;

export const API_TOKEN_MESSAGES = {
  unauthorized: "Missing, unknown or revoked access token.",
  rateLimited: (seconds: number) =>
    `Too many requests with this token. Wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`,
  nameRequired: "Give the token a name.",
  nameTooLong: `A token name must be at most ${API_TOKEN_LIMITS.maxNameLength} characters.`,
  tooMany: `You can have at most ${API_TOKEN_LIMITS.maxTokensPerUser} tokens. Revoke one you no longer use.`,
  notFound: "Token not found.",
} as const;

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A new token (to show once) with its hash and its shown start (to store). Actions only: real randomness. */
export async function newToken(): Promise<{ token: string; tokenHash: string; shown: string }> {
  const token = TOKEN_PREFIX + base64Url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)));
  return { token, tokenHash: await hashToken(token), shown: `${token.slice(0, SHOWN_CHARACTERS)}…` };
}

export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The bearer token of an Authorization header, or null when there is none of our shape. */
export function bearerTokenOf(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match || !match[1].startsWith(TOKEN_PREFIX) || match[1].length > 200) return null;
  return match[1];
}

/** The trimmed name, or the reason it is refused. */
export function tokenNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return API_TOKEN_MESSAGES.nameRequired;
  if (trimmed.length > API_TOKEN_LIMITS.maxNameLength) return API_TOKEN_MESSAGES.nameTooLong;
  return null;
}

/** Who a live token acts for: its user and space, and the user's role in that space. */
export interface Principal {
  tokenId: Id<"apiTokens">;
  user: Doc<"users">;
  teamId: Id<"teams"> | undefined;
  /** "owner" in the personal space. */
  role: TeamRole;
}

/**
 * The token's principal, or null when the token is revoked, its user gone, or its user no longer
 * in its team. Read on every request, inside the transaction that acts, so a revocation or a
 * removal takes effect at once.
 */
export async function principalOf(ctx: QueryCtx, tokenId: Id<"apiTokens">): Promise<Principal | null> {
  const token = await ctx.db.get("apiTokens", tokenId);
  if (token === null || token.revokedAt !== undefined) return null;
  const user = await ctx.db.get("users", token.userId);
  if (user === null) return null;
  if (token.teamId === undefined) return { tokenId, user, teamId: undefined, role: "owner" };
  const membership = await membershipOf(ctx, token.teamId, user._id);
  if (membership === null) return null;
  return { tokenId, user, teamId: token.teamId, role: membership.role };
}

export function principalMay(principal: Principal, role: TeamRole): boolean {
  return hasRole(principal.role, role);
}

/** Whether a test is in the token's space (a team test of its team, or a personal test of its user). */
export function inSpace(principal: Principal, test: Doc<"tests">): boolean {
  if (principal.teamId === undefined) return test.teamId === undefined && test.userId === principal.user._id;
  return test.teamId === principal.teamId;
}

/**
 * The sliding window of a token's requests: after one at `now`, the times of those in the last
 * `windowMs` (oldest first); or, when the window already holds `limit`, the whole seconds until
 * its oldest leaves it. No `windowMs` span ever holds more than `limit` requests, unlike minutes
 * counted from the clock's, which let twice the limit through around a minute's end.
 */
export function slidingWindow(
  times: readonly number[],
  now: number,
  limit: number,
  windowMs: number,
): { ok: true; times: number[] } | { ok: false; retryAfter: number } {
  const recent = times.filter((time) => time > now - windowMs);
  if (recent.length >= limit) {
    const freedAt = recent[recent.length - limit] + windowMs;
    return { ok: false, retryAfter: Math.max(1, Math.ceil((freedAt - now) / 1000)) };
  }
  return { ok: true, times: [...recent, now] };
}

/** How stale the shown "last used" may be: it is written when the stored time is this old. */
export const LAST_USED_PRECISION_MS = 60_000;

/**
 * Counts one request of the token in its sliding minute (one row per token, holding the times of
 * its requests in the last minute). Returns the seconds to wait when the minute already holds
 * the token's requests (nothing is counted then). The token's "last used" is written when the
 * stored one is a minute old, so it is right to the minute without a write per request.
 */
export async function countRequest(ctx: MutationCtx, token: Doc<"apiTokens">, now: number): Promise<number | null> {
  const row = await ctx.db
    .query("apiTokenRequests")
    .withIndex("by_token", (q) => q.eq("tokenId", token._id))
    .unique();
  const window = slidingWindow(row?.times ?? [], now, API_TOKEN_LIMITS.requestsPerMinute, RATE_WINDOW_MS);
  if (!window.ok) return window.retryAfter;
  if (row === null) await ctx.db.insert("apiTokenRequests", { tokenId: token._id, times: window.times });
  else await ctx.db.patch("apiTokenRequests", row._id, { times: window.times });
  if (token.lastUsedAt === undefined || now - token.lastUsedAt >= LAST_USED_PRECISION_MS) {
    await ctx.db.patch("apiTokens", token._id, { lastUsedAt: now });
  }
  return null;
}
