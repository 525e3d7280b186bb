// The user's own gateway (OpenRouter) key, the "usage" section of account settings (spec part 1
// §1 FAQ). Stored AES-GCM encrypted, shown masked (last 4 characters), never sent back; tests run
// on it are not charged by us (tests.create) and their calls use it (runner.work).
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { fail, internalMutation, internalQuery, userAction, userMutation, userQuery } from "./functions";
import {
  decryptApiKey,
  encryptApiKey,
  isKeyStorageConfigured,
  maskApiKey,
  type EncryptedKey,
} from "./core/apiKeyCrypto";
import { apiKeySchema, problemsOf } from "./lib/forms";
import { rejectProblems } from "./core/validation";
import { UNREADABLE_KEY_MESSAGE } from "./core/testGateway";
import { checkKey, gatewayConfig, GatewayError, listModels, MAX_RETRIES_MESSAGE } from "./core/gateway";

export const STORAGE_UNAVAILABLE_MESSAGE =
  "Own API keys can't be stored on this deployment: the server has no API_KEY_ENCRYPTION_SECRET set.";
const NO_KEY_MESSAGE = "No API key is saved.";

/** What the settings page may know: whether keys can be stored, and the masked saved key. */
export const status = userQuery({
  args: {},
  returns: v.object({
    storageAvailable: v.boolean(),
    key: v.union(v.null(), v.object({ masked: v.string(), savedAt: v.number() })),
  }),
  handler: async (ctx) => {
    const row = await ctx.db
      .query("apiKeys")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .first();
    return {
      storageAvailable: isKeyStorageConfigured(),
      key: row ? { masked: maskApiKey(row.last4), savedAt: row.savedAt ?? row._creationTime } : null,
    };
  },
});

/** The gateway's reason, without the retry wrapper's prefix. */
function gatewayReason(error: unknown): string {
  return error instanceof GatewayError
    ? error.message.replace(`${MAX_RETRIES_MESSAGE}: `, "")
    : `Could not reach the model gateway: ${String(error)}`;
}

/**
 * Asks the gateway whether it accepts the key, once (the user is waiting). OpenRouter answers
 * `GET /key`; a gateway without that endpoint is asked for its model list with the key instead.
 * A refusal (401, 403, or any error) keeps the key from being saved, with the gateway's reason.
 */
async function verifyKeyWithGateway(key: string): Promise<void> {
  const config = { ...gatewayConfig(key), maxAttempts: 1 };
  try {
    if ((await checkKey(config)) === "unknown") await listModels(config);
  } catch (error) {
    const rejected = error instanceof GatewayError && (error.status === 401 || error.status === 403);
    const reason = gatewayReason(error);
    if (rejected) fail("INVALID_INPUT", reason, { field: "key" });
    fail("UNAVAILABLE", `The key was not saved: it could not be checked with the gateway (${reason}). Try again.`, {
      field: "key",
    });
  }
}

/**
 * Checks the key with the gateway first (new tests run on a saved key, so an invalid one is
 * never saved), then encrypts it in the action (true randomness for the IV) and stores only the
 * ciphertext.
 */
export const save = userAction({
  args: { key: v.string() },
  returns: v.object({ masked: v.string() }),
  handler: async (ctx, args): Promise<{ masked: string }> => {
    // The API key form's schema: trimmed, 8 to 512 characters, no spaces.
    rejectProblems(problemsOf(apiKeySchema, args));
    const { key } = apiKeySchema.parse(args);
    if (!isKeyStorageConfigured()) fail("UNAVAILABLE", STORAGE_UNAVAILABLE_MESSAGE);
    await verifyKeyWithGateway(key);
    const encrypted = await encryptApiKey(key, ctx.userId);
    const last4 = key.slice(-4);
    await ctx.runMutation(internal.apiKeys.store, { userId: ctx.userId, ...encrypted, last4 });
    return { masked: maskApiKey(last4) };
  },
});

export const store = internalMutation({
  args: { userId: v.id("users"), ciphertext: v.string(), iv: v.string(), last4: v.string() },
  returns: v.null(),
  handler: async (ctx, { userId, ...key }) => {
    const existing = await ctx.db
      .query("apiKeys")
      .withIndex("by_user", (q) => q.eq("userId", userId))
      .collect(); // at most one per user; a stray duplicate is cleaned up here
    for (const row of existing) await ctx.db.delete("apiKeys", row._id);
    await ctx.db.insert("apiKeys", { userId, ...key, savedAt: Date.now() });
    return null;
  },
});

export const remove = userMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("apiKeys")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .collect(); // at most one per user
    for (const row of rows) await ctx.db.delete("apiKeys", row._id);
    return null;
  },
});

/** The ciphertext, for actions of this module and the runner only. */
export const encryptedKeyOf = internalQuery({
  args: { userId: v.id("users") },
  returns: v.union(v.null(), v.object({ ciphertext: v.string(), iv: v.string() })),
  handler: async (ctx, { userId }) => {
    const row = await ctx.db
      .query("apiKeys")
      .withIndex("by_user", (q) => q.eq("userId", userId))
      .first();
    return row ? { ciphertext: row.ciphertext, iv: row.iv } : null;
  },
});

/** Whether a test runs on its owner's key, and that key's ciphertext. */
export const keyOfTest = internalQuery({
  args: { testId: v.id("tests") },
  returns: v.object({
    usesOwnKey: v.boolean(),
    userId: v.union(v.null(), v.id("users")),
    key: v.union(v.null(), v.object({ ciphertext: v.string(), iv: v.string() })),
  }),
  handler: async (ctx, { testId }) => {
    const test = await ctx.db.get("tests", testId);
    if (!test || !test.usesOwnKey) return { usesOwnKey: false, userId: null, key: null };
    const row = await ctx.db
      .query("apiKeys")
      .withIndex("by_user", (q) => q.eq("userId", test.userId))
      .first();
    return { usesOwnKey: true, userId: test.userId, key: row ? { ciphertext: row.ciphertext, iv: row.iv } : null };
  },
});

/** Tries the saved key against the gateway: is it accepted, and how many models it can see. */
export const check = userAction({
  args: {},
  returns: v.union(
    v.object({ ok: v.literal(true), modelCount: v.number(), message: v.string() }),
    v.object({ ok: v.literal(false), message: v.string() }),
  ),
  handler: async (ctx): Promise<{ ok: true; modelCount: number; message: string } | { ok: false; message: string }> => {
    const encrypted: EncryptedKey | null = await ctx.runQuery(internal.apiKeys.encryptedKeyOf, { userId: ctx.userId });
    if (!encrypted) fail("NOT_FOUND", NO_KEY_MESSAGE);
    if (!isKeyStorageConfigured()) fail("UNAVAILABLE", STORAGE_UNAVAILABLE_MESSAGE);
    let plaintext: string;
    try {
      plaintext = await decryptApiKey(encrypted, ctx.userId);
    } catch {
      return { ok: false, message: UNREADABLE_KEY_MESSAGE };
    }
    // One attempt each: the user is waiting on the button.
    const config = { ...gatewayConfig(plaintext), maxAttempts: 1 };
    try {
      await checkKey(config);
      const models = await listModels(config);
      const count = models.length;
      return {
        ok: true,
        modelCount: count,
        message: `Your key works: it can see ${count} model${count === 1 ? "" : "s"}.`,
      };
    } catch (error) {
      return { ok: false, message: gatewayReason(error) };
    }
  },
});
