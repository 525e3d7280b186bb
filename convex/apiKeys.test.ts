// @vitest-environment node
// The user's own gateway key: stored encrypted, shown masked, never returned, tested against the
// dev gateway, and used by the runner for tests created with it (which are not charged).
import { makeFunctionReference } from "convex/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startGateway } from "../dev/gateway/server";
import { api } from "./_generated/api";
import type { TableNames } from "./_generated/dataModel";
import { STORAGE_UNAVAILABLE_MESSAGE } from "./apiKeys";
import {
  createUser,
  createBackend,
  sampleConfiguration,
  seedCatalog,
  type TestBackend,
  errorOf,
  functionModules,
} from "./test.helpers";

const OWN_KEY = "sk-or-v1-own-key-of-ada-0123456789wxyz";
const DEPLOYMENT_KEY = "dev-gateway-key";
const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001"];
let gateway: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  gateway = await startGateway({ port: 0, latencyScale: 0 });
  process.env.GATEWAY_BASE_URL = gateway.url;
  process.env.OPENROUTER_API_KEY = DEPLOYMENT_KEY;
  process.env.GATEWAY_BACKOFF_SCALE = "0";
});
afterAll(async () => {
  await gateway.close();
});
beforeEach(() => {
  process.env.API_KEY_ENCRYPTION_SECRET = "test-secret-for-api-keys-0123456789";
  gateway.settings.apiKey = DEPLOYMENT_KEY;
});
afterEach(() => {
  delete process.env.API_KEY_ENCRYPTION_SECRET;
  delete process.env.STRIPE_SECRET_KEY;
});

/** Saves a key the gateway accepts (the dev gateway accepts one key at a time). */
async function saveAccepted(user: { as: { action: TestBackend["action"] } }, key: string) {
  gateway.settings.apiKey = key;
  return await user.as.action(api.apiKeys.save, { key });
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 45_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`Timed out; last value: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("own API key", () => {
  test("is stored encrypted and shown masked, last 4 only", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    expect(await ada.as.query(api.apiKeys.status, {})).toEqual({ storageAvailable: true, key: null });
    gateway.settings.apiKey = OWN_KEY;
    expect(await ada.as.action(api.apiKeys.save, { key: `  ${OWN_KEY}  ` })).toEqual({ masked: "••••••••wxyz" });
    const status = await ada.as.query(api.apiKeys.status, {});
    expect(status.key?.masked).toBe("••••••••wxyz");
    const rows = await t.run((ctx) => ctx.db.query("apiKeys").collect());
    expect(rows).toHaveLength(1);
    expect(rows[0]!.last4).toBe("wxyz");
    expect(JSON.stringify(rows[0])).not.toContain(OWN_KEY);
    expect(JSON.stringify(rows[0])).not.toContain(OWN_KEY.slice(0, 12));
  });

  test("saving again replaces the key; remove deletes it; each user sees only their own", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    await saveAccepted(ada, OWN_KEY);
    await saveAccepted(ada, "sk-or-v1-second-key-9999");
    expect((await ada.as.query(api.apiKeys.status, {})).key?.masked).toBe("••••••••9999");
    expect(await t.run((ctx) => ctx.db.query("apiKeys").collect())).toHaveLength(1);
    expect((await bob.as.query(api.apiKeys.status, {})).key).toBeNull();
    await bob.as.mutation(api.apiKeys.remove, {});
    expect((await ada.as.query(api.apiKeys.status, {})).key).not.toBeNull();
    await ada.as.mutation(api.apiKeys.remove, {});
    expect((await ada.as.query(api.apiKeys.status, {})).key).toBeNull();
  });

  test("a malformed key is refused", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    expect(await errorOf(ada.as.action(api.apiKeys.save, { key: "short" }))).toMatchObject({
      code: "INVALID_INPUT",
      field: "key",
    });
    expect(await errorOf(ada.as.action(api.apiKeys.save, { key: "has a space inside it" }))).toMatchObject({
      code: "INVALID_INPUT",
    });
  });

  test("a key the gateway refuses is not saved: the gateway's reason is shown and the saved key stays", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    await saveAccepted(ada, OWN_KEY);
    gateway.settings.apiKey = OWN_KEY; // the gateway knows only Ada's first key
    expect(await errorOf(ada.as.action(api.apiKeys.save, { key: "sk-or-v1-mistyped-key-0000" }))).toEqual({
      code: "INVALID_INPUT",
      field: "key",
      message: "Invalid API key. Please check your OpenRouter API key configuration.",
    });
    expect((await ada.as.query(api.apiKeys.status, {})).key?.masked).toBe("••••••••wxyz");

    const bob = await createUser(t, "bob@example.com");
    expect(await errorOf(bob.as.action(api.apiKeys.save, { key: "sk-or-v1-not-a-real-key-1234" }))).toMatchObject({
      code: "INVALID_INPUT",
      field: "key",
    });
    expect((await bob.as.query(api.apiKeys.status, {})).key).toBeNull();
    expect(await t.run((ctx) => ctx.db.query("apiKeys").collect())).toHaveLength(1);
  });

  test("when the gateway cannot be reached the key is not saved, and the user is told why", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const reachable = process.env.GATEWAY_BASE_URL;
    process.env.GATEWAY_BASE_URL = "http://127.0.0.1:9/api/v1"; // nothing listens on the discard port
    try {
      const refused = await errorOf(ada.as.action(api.apiKeys.save, { key: OWN_KEY }));
      expect(refused).toMatchObject({ code: "UNAVAILABLE", field: "key" });
      expect(refused.message).toMatch(
        /^The key was not saved: it could not be checked with the gateway \(Network error/,
      );
    } finally {
      process.env.GATEWAY_BASE_URL = reachable;
    }
    expect((await ada.as.query(api.apiKeys.status, {})).key).toBeNull();
  });

  test("without API_KEY_ENCRYPTION_SECRET saving says keys can't be stored here", async () => {
    delete process.env.API_KEY_ENCRYPTION_SECRET;
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    expect((await ada.as.query(api.apiKeys.status, {})).storageAvailable).toBe(false);
    expect(await errorOf(ada.as.action(api.apiKeys.save, { key: OWN_KEY }))).toEqual({
      code: "UNAVAILABLE",
      message: STORAGE_UNAVAILABLE_MESSAGE,
    });
    expect(await t.run((ctx) => ctx.db.query("apiKeys").collect())).toHaveLength(0);
  });

  test("a ciphertext moved onto another user's row does not decrypt", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    await saveAccepted(ada, OWN_KEY);
    await t.run(async (ctx) => {
      const row = (await ctx.db.query("apiKeys").first())!;
      await ctx.db.patch("apiKeys", row._id, { userId: bob.userId });
    });
    gateway.settings.apiKey = OWN_KEY;
    const result = await bob.as.action(api.apiKeys.check, {});
    expect(result.ok).toBe(false);
  });

  test("Test key: the model count when the gateway accepts it, the gateway's error when not", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    expect(await errorOf(ada.as.action(api.apiKeys.check, {}))).toMatchObject({ code: "NOT_FOUND" });
    await saveAccepted(ada, OWN_KEY);
    gateway.settings.apiKey = OWN_KEY;
    const ok = await ada.as.action(api.apiKeys.check, {});
    expect(ok).toMatchObject({ ok: true });
    expect(ok.ok && ok.modelCount).toBeGreaterThan(10);
    expect(ok.message).toMatch(/^Your key works: it can see \d+ models\.$/);
    gateway.settings.apiKey = "some-other-key";
    expect(await ada.as.action(api.apiKeys.check, {})).toEqual({
      ok: false,
      message: "Invalid API key. Please check your OpenRouter API key configuration.",
    });
  });

  test("a test created with an own key is not charged and its calls use that key", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_dummy";
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const ada = await createUser(t, "ada@example.com");
    await saveAccepted(ada, OWN_KEY);
    // The gateway accepts only the user's key: a call on the deployment's key would fail.
    gateway.settings.apiKey = OWN_KEY;
    const created = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS),
    });
    expect(created.paymentRequired).toBe(false);
    const final = await waitFor(
      () => t.run(async (ctx) => (await ctx.db.get("tests", created.testId))!),
      (test) => test.status === "completed" || test.status === "failed",
    );
    await t.finishInProgressScheduledFunctions();
    expect(final.status).toBe("completed");
    expect(final.failedCalls).toBe(0);
    expect(final.responsesCount).toBe(final.expectedResponses);
  });

  test("when the own key is removed before the run, the calls fail with the reason instead of using ours", async () => {
    const t = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const ada = await createUser(t, "ada@example.com");
    await saveAccepted(ada, OWN_KEY);
    await t.run(async (ctx) => {
      // Hold the dispatcher back: the key is removed between creation and the first call.
      await ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 });
    });
    const created = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS),
    });
    await ada.as.mutation(api.apiKeys.remove, {});
    await t.run(async (ctx) => {
      const row = (await ctx.db
        .query("settings")
        .withIndex("by_key", (q) => q.eq("key", "maxProcessingJobs"))
        .first())!;
      await ctx.db.delete("settings", row._id);
    });
    await t.mutation(makeFunctionReference<"mutation">("runner:dispatch"), {});
    const final = await waitFor(
      () => t.run(async (ctx) => (await ctx.db.get("tests", created.testId))!),
      (test) => test.status === "completed" || test.status === "failed",
    );
    await t.finishInProgressScheduledFunctions();
    expect(final.status).toBe("failed");
    expect(final.errorMessage).toContain("your own API key, which has been removed");
  });
});

/** Arguments for any public query, built from its validator with ids from the fixture. */
function argsFor(exportArgs: string, ids: Partial<Record<TableNames, string>>): Record<string, unknown> | null {
  const parsed = JSON.parse(exportArgs) as {
    type: string;
    value?: Record<string, { fieldType: { type: string; tableName?: string }; optional: boolean }>;
  };
  if (parsed.type !== "object") return {};
  const args: Record<string, unknown> = {};
  for (const [name, { fieldType, optional }] of Object.entries(parsed.value ?? {})) {
    if (fieldType.type === "id") {
      const id = ids[fieldType.tableName as TableNames];
      if (id) args[name] = id;
      else if (!optional) return null;
    } else if (fieldType.type === "string") args[name] = ids.shares ?? "x";
    else if (fieldType.type === "number") args[name] = 10;
    else if (fieldType.type === "boolean") args[name] = false;
    else if (!optional) return null;
  }
  return args;
}

describe("a saved key is never returned", () => {
  test("no public query's output holds the plaintext or the ciphertext", async () => {
    const t: TestBackend = createBackend();
    await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
    const ada = await createUser(t, "ada@example.com", { isAdmin: true });
    await saveAccepted(ada, OWN_KEY);
    const { testId } = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration(GENERATORS, EVALUATORS),
    });
    const ids: Partial<Record<TableNames, string>> = await t.run(async (ctx) => ({
      tests: testId,
      users: ada.userId,
      personas: await ctx.db.insert("personas", {
        userId: ada.userId,
        name: "P",
        description: "D",
        systemPrompt: "S",
        updatedAt: 0,
      }),
      topics: await ctx.db.insert("topics", {
        userId: ada.userId,
        title: "T",
        description: "D",
        prompt: "P",
        updatedAt: 0,
      }),
      apiKeys: (await ctx.db.query("apiKeys").first())!._id,
    }));
    const ciphertext = await t.run(async (ctx) => (await ctx.db.query("apiKeys").first())!.ciphertext);
    let checked = 0;
    for await (const [moduleName, exports] of functionModules()) {
      for (const [name, value] of Object.entries(exports)) {
        const fn = value as { isPublic?: boolean; isQuery?: boolean; exportArgs?: () => string };
        if (typeof value !== "function" || !fn.isPublic || !fn.isQuery) continue;
        const args = argsFor(fn.exportArgs?.() ?? "{}", ids);
        if (args === null) continue;
        let output: unknown;
        try {
          output = await ada.as.query(makeFunctionReference<"query">(`${moduleName}:${name}`), args);
        } catch {
          continue; // a refusal returns nothing
        }
        const text = JSON.stringify(output) ?? "";
        expect([`${moduleName}:${name}`, text.includes(OWN_KEY) || text.includes(ciphertext)]).toEqual([
          `${moduleName}:${name}`,
          false,
        ]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    // The masked form is what the owner sees.
    expect((await ada.as.query(api.apiKeys.status, {})).key?.masked).toBe("••••••••wxyz");
  });
});
