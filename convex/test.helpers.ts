/// <reference types="vite/client" />
// Shared convex-test setup (two dots in the name: Convex does not deploy this file).
import type { ConvexClient } from "convex/browser";
import { convexTest } from "convex-test";
import { ConvexError } from "convex/values";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll } from "vitest";
import type { Meter } from "../dev/backend/meter";
import { startGateway } from "../dev/gateway/server";
import { startStripe } from "../dev/stripe/server";
import { internal } from "./_generated/api";
import type { Id, TableNames } from "./_generated/dataModel";
import { testRoom } from "./core/run/tables";
import { recordPurchase } from "./core/payments";
import type { QueryCtx } from "./_generated/server";
import schema from "./schema";
import type { TestConfiguration } from "./validators";
import { countedTest } from "./core/pipeline/counterRow";
import { syncTestSummary } from "./core/testSummaries";

export const modules = import.meta.glob(["./**/*.ts", "./_generated/*.js", "!./**/*.test.ts"]);

/**
 * A fresh backend that enforces Convex's per-transaction limits (index ranges, documents read
 * and written, functions scheduled), so a function that would fail on a deployment fails here.
 */
export function createBackend() {
  return convexTest({ schema, modules, transactionLimits: true });
}

export type TestBackend = ReturnType<typeof createBackend>;

/** A user row and an auth session, plus a client acting as them (the auth library's subject is "userId|sessionId"). */
export async function createUser(
  t: TestBackend,
  email: string,
  extra: { isAdmin?: boolean; fullName?: string } = {},
): Promise<{ userId: Id<"users">; as: ReturnType<TestBackend["withIdentity"]> }> {
  const userId = await t.run((ctx) =>
    ctx.db.insert("users", {
      email,
      isAdmin: extra.isAdmin ?? false,
      fullName: extra.fullName ?? null,
      avatarUrl: null,
      totalSpentCents: 0,
      testCount: 0,
    }),
  );
  // A real auth session: the access builders refuse a token whose session has ended.
  const sessionId = await t.run((ctx) =>
    ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
  );
  return { userId, as: t.withIdentity({ subject: `${userId}|${sessionId}`, email }) };
}

/** A user row and its auth session in one transaction, for tests that sign in with their own token ("userId|sessionId"). */
export async function createUserSession(
  t: TestBackend,
  email: string,
): Promise<{ userId: Id<"users">; sessionId: Id<"authSessions"> }> {
  return await t.run(async (ctx) => {
    const userId = await ctx.db.insert("users", {
      email,
      isAdmin: false,
      fullName: null,
      avatarUrl: null,
      totalSpentCents: 0,
      testCount: 0,
    });
    const sessionId = await ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 });
    return { userId, sessionId };
  });
}

/** A small valid template body. */
export const sampleTemplateData = {
  userPrompt: "Write a tagline.",
  personas: [{ name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." }],
  topics: [{ title: "Coffee", description: "A coffee shop", prompt: "Sell coffee." }],
  evaluationConfig: {
    rankingPrompt: "Rank them.",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking" as const, includeExplanations: true },
  },
  suggestedModels: { generators: [], evaluators: [] },
};

/** A small valid test configuration over the given models. */
export function sampleConfiguration(
  generators: string[] = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"],
  evaluators: string[] = ["google/gemini-2.0-flash-001"],
  overrides: Partial<TestConfiguration> = {},
): TestConfiguration {
  return {
    name: "Coffee taglines",
    taskType: "marketing",
    userPrompt: "Write a tagline for our new product.",
    personas: [{ id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." }],
    topics: [{ id: "t1", title: "Coffee", description: "A coffee shop", prompt: "We sell cold brew coffee." }],
    generatorModels: generators.map((id) => ({ id, name: id })),
    evaluatorModels: evaluators.map((id) => ({ id, name: id })),
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: true },
    ...overrides,
  };
}

/** Catalog rows for the given model ids at a flat price per token. */
export async function seedCatalog(t: TestBackend, ids: string[], pricePerToken = 1e-6) {
  await t.run(async (ctx) => {
    for (const modelId of ids) {
      await ctx.db.insert("llmModels", {
        modelId,
        name: modelId,
        provider: modelId.split("/")[0],
        contextLength: 128000,
        pricingPrompt: pricePerToken,
        pricingCompletion: pricePerToken,
        description: "",
        tier: "BUDGET",
        lastUpdated: Date.now(),
      });
    }
  });
}

/**
 * A fresh backend with the given models in its catalog (at `pricePerToken`) and one user,
 * ada@example.com unless named; `holdQueue` keeps queued jobs queued (no worker calls out).
 */
export async function backendWithUser(
  models: string[],
  options: { email?: string; pricePerToken?: number; holdQueue?: boolean } = {},
) {
  const t = createBackend();
  await seedCatalog(t, models, options.pricePerToken);
  if (options.holdQueue) await t.run((ctx) => ctx.db.insert("settings", { key: "maxProcessingJobs", value: 0 }));
  const user = await createUser(t, options.email ?? "ada@example.com");
  return { t, user };
}

/** A checkout for a test, recorded and then paid, as the Stripe webhook settles it. */
export async function settlePayment(
  t: TestBackend,
  payment: { userId: Id<"users">; testId: Id<"tests">; sessionId: string; amountCents: number },
): Promise<void> {
  await t.mutation(internal.payments.recordCheckout, payment);
  await t.run(async (ctx) => {
    const row = (await ctx.db
      .query("payments")
      .withIndex("by_session", (q) => q.eq("checkoutId", payment.sessionId))
      .unique())!;
    await recordPurchase(ctx, row, payment.amountCents);
  });
}

/** Runs the dispatcher until the queue or the free slots are used up (it takes one job per run). */
/** A finished test's jury statistics as the pipeline leaves them at its end: one pending run, then the full run. */
export async function computeFinalJuryStats(t: TestBackend, testId: Id<"tests">): Promise<void> {
  // The row requestJuryStats makes when the first judgement lands.
  await t.run((ctx) => ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: false }));
  await t.action(internal.juryStats.recompute, { testId });
}

/** As a settled test's end leaves it: asked which model is best, stopped after 38 of 100 pairs, its summary synced. */
export async function markSettled(t: TestBackend, testId: Id<"tests">): Promise<void> {
  await t.run(async (ctx) => {
    const test = (await ctx.db.get("tests", testId))!;
    await ctx.db.patch("tests", testId, {
      configuration: { ...test.configuration, stopWhenSettled: { question: "best", confidence: 0.95, seed: "s" } },
      stopped: { reason: "settled", pairsDone: 38, pairsTotal: 100 },
    });
    await syncTestSummary(ctx, (await ctx.db.get("tests", testId))!);
  });
}

export async function drainDispatch(t: TestBackend): Promise<void> {
  while ((await t.mutation(internal.runner.dispatch, {})) > 0);
}

/**
 * A test's row (with its counter row added while it runs: its figures as the pages show them),
 * its job, calls, answers and judgements, read in one transaction (inside `t.run`).
 */
export async function readTestRows(ctx: QueryCtx, testId: Id<"tests">) {
  return {
    test: (await countedTest(ctx, testId))!,
    job: await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique(),
    calls: await ctx.db
      .query("calls")
      .withIndex("by_test_status", (q) => q.eq("testId", testId))
      .collect(),
    responses: await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect(),
    evaluations: await ctx.db
      .query("evaluations")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect(),
  };
}

/** Reads until `done` says the value is there (the pipeline runs on its own), or fails after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`Timed out; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

type DevGateway = Awaited<ReturnType<typeof startGateway>>;

/**
 * The dev gateway for the calling test file: started before its tests (no latency), with the
 * deployment's gateway settings pointed at it and no Stripe key (tests run unpaid), closed after
 * them. Returns the running gateway, to read its stats or change its settings in a test.
 */
export function useDevGateway(
  settings: number | Omit<Parameters<typeof startGateway>[0] & object, "port"> = 0,
): () => DevGateway {
  const options = typeof settings === "number" ? { latencyScale: settings } : settings;
  let gateway: DevGateway | undefined;
  beforeAll(async () => {
    gateway = await startGateway({ port: 0, ...options });
    process.env.GATEWAY_BASE_URL = gateway.url;
    process.env.OPENROUTER_API_KEY = "dev-gateway-key";
    process.env.GATEWAY_BACKOFF_SCALE = "0";
    delete process.env.STRIPE_SECRET_KEY;
  });
  afterAll(async () => {
    await gateway?.close();
  });
  return () => gateway!;
}

type DevStripe = Awaited<ReturnType<typeof startStripe>>;

/**
 * The dev Stripe for the calling test file: started before its tests, with the deployment's
 * Stripe settings pointed at it (payments on, webhooks signed with `webhookSecret`; its own
 * webhook goes nowhere, tests deliver events themselves) and the gateway at a closed port (these
 * tests stop at the queue), closed after them. Returns the running Stripe twin.
 */
export function useDevStripe(webhookSecret: string): () => DevStripe {
  let stripe: DevStripe | undefined;
  beforeAll(async () => {
    stripe = await startStripe({ port: 0, webhookUrl: "http://127.0.0.1:9/unused", webhookSecret });
    process.env.STRIPE_SECRET_KEY = "sk_test_dev";
    process.env.STRIPE_WEBHOOK_SECRET = webhookSecret;
    process.env.STRIPE_API_HOST = "127.0.0.1";
    process.env.STRIPE_API_PORT = String(stripe.port);
    process.env.STRIPE_API_PROTOCOL = "http";
    process.env.SITE_URL = "http://127.0.0.1:5173";
    // Workers would call the real gateway; these tests stop at the queue.
    process.env.GATEWAY_BASE_URL = "http://127.0.0.1:9/api/v1";
  });
  afterAll(async () => {
    delete process.env.STRIPE_SECRET_KEY;
    await stripe?.close();
  });
  return () => stripe!;
}

/**
 * Signing keys for the auth library's session JWTs and the site's URLs, set before the calling
 * file's tests, as a deployment has them in its environment.
 */
export function useAuthKeys(): void {
  beforeAll(async () => {
    const keys = await generateKeyPair("RS256", { extractable: true });
    process.env.JWT_PRIVATE_KEY = (await exportPKCS8(keys.privateKey)).trimEnd().replace(/\n/g, " ");
    process.env.JWKS = JSON.stringify({ keys: [{ use: "sig", ...(await exportJWK(keys.publicKey)) }] });
    process.env.CONVEX_SITE_URL = "http://127.0.0.1:3211";
    process.env.SITE_URL = "http://127.0.0.1:5173";
  });
}

/** The local backend (dev/backend/server) as the tests of real subscriptions, OCC and the meter use it. */
export type LocalBackend = {
  t: TestBackend;
  url: string;
  siteUrl: string;
  meter: Meter;
  /** Resolves once every query update of the commits so far has been pushed to its clients. */
  settle(): Promise<void>;
  close(): Promise<void>;
};

/** A local backend's plan (dev/backend/plan.ts) and how long calls wait for a slot. */
export type LocalBackendOptions = {
  plan?: "starter" | "professional";
  slotWaits?: { queries: number; mutations: number; actions: number };
};

type LocalTesting = {
  startQuietBackend(keysFile: string, options?: LocalBackendOptions): Promise<LocalBackend>;
  signedInClient(backend: LocalBackend, subject: string): Promise<ConvexClient>;
};
/** dev/backend/testing, loaded at run time: imported, its code would be type-checked under convex/'s ES2022 lib. */
async function localTesting(): Promise<LocalTesting> {
  const testing = "../dev/backend/testing";
  return (await import(/* @vite-ignore */ testing)) as LocalTesting;
}

/** The local backend over convex/ on free ports, quiet, its JWT keys kept in `keysFile` (dev/backend/testing's). */
export async function startLocalBackend(keysFile: string, options: LocalBackendOptions = {}): Promise<LocalBackend> {
  return (await localTesting()).startQuietBackend(keysFile, options);
}

/** A WebSocket client of the local backend signed in as `subject`, "userId|sessionId" (dev/backend/testing's). */
export async function signedInClient(backend: LocalBackend, subject: string): Promise<ConvexClient> {
  return (await localTesting()).signedInClient(backend, subject);
}

/** The code, message and field a call is refused with (a ConvexError); throws when it is not refused. */
export async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message?: string; field?: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConvexError) return error.data as { code?: string; message?: string; field?: string };
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** What a call is refused with (a ConvexError's code, message and field), or undefined when it succeeds. */
export async function refusalOf(
  promise: Promise<unknown>,
): Promise<{ code?: string; message?: string; field?: string } | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof ConvexError) return error.data as { code?: string; message?: string; field?: string };
    throw error;
  }
}

/** The code a call is refused with (a ConvexError's), undefined when it succeeds, the text of any other error. */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof ConvexError ? (error.data as { code: string }).code : String(error);
  }
}

/** Each module that can hold public functions (not generated code, helpers, fixtures or lib/), by name, with its exports. */
export async function* functionModules(): AsyncGenerator<[moduleName: string, exports: Record<string, unknown>]> {
  for (const [path, load] of Object.entries(modules)) {
    if (
      path.includes("_generated") ||
      path.includes(".helpers.") ||
      path.includes(".fixture.") ||
      path.startsWith("./lib/")
    )
      continue;
    const moduleName = path.replace(/^\.\//, "").replace(/\.ts$/, "");
    yield [moduleName, await (load as () => Promise<Record<string, unknown>>)()];
  }
}

/** The value with every key matching `pattern` left out, at any depth. */
export function withoutKeys(value: unknown, pattern: RegExp): unknown {
  if (Array.isArray(value)) return value.map((inner) => withoutKeys(inner, pattern));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !pattern.test(key))
      .map(([key, inner]) => [key, withoutKeys(inner, pattern)]),
  );
}

/**
 * Every table with an index that begins with the test (or, for presence, its room): its rows of
 * the test, counted page by page (a test's rows may be more than one transaction can read).
 */
export async function rowsEverywhere(t: TestBackend, testId: Id<"tests">): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [table, definition] of Object.entries(schema.tables)) {
    const indexes = (definition as unknown as { " indexes": () => { indexDescriptor: string; fields: string[] }[] })[
      " indexes"
    ]();
    const byTest = indexes.find((index) => index.fields[0] === "testId");
    const index = byTest ?? indexes.find((index) => index.fields[0] === "room");
    if (!index) continue;
    counts[table] = 0;
    for (let cursor: string | null = null, done = false; !done;) {
      const page: { page: unknown[]; isDone: boolean; continueCursor: string } = await t.run((ctx: QueryCtx) =>
        (
          ctx.db.query(table as TableNames) as unknown as {
            withIndex: (
              name: string,
              range: (q: { eq: (field: string, value: unknown) => unknown }) => unknown,
            ) => { paginate: (options: { cursor: string | null; numItems: number }) => Promise<typeof page> };
          }
        )
          .withIndex(index.indexDescriptor, (q) => q.eq(byTest ? "testId" : "room", byTest ? testId : testRoom(testId)))
          .paginate({ cursor, numItems: 40 }),
      );
      counts[table] += page.page.length;
      [cursor, done] = [page.continueCursor, page.isDone];
    }
  }
  return counts;
}
