// @vitest-environment node
// The HTTP API under /api/v1 with personal access tokens: the token's lifecycle (shown once,
// hashed at rest, revoked refused at once), its space (another space's test is not found), every
// endpoint's validation errors, quotes identical to the app's, and a paid test that waits for
// its payment.
import Stripe from "stripe";
import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { API_TOKEN_LIMITS } from "./lib/limits";
import { hashToken, slidingWindow } from "./core/apiTokens";
import { backendWithUser, createUser, errorOf, sampleConfiguration, useDevStripe } from "./test.helpers";
import type { TestBackend } from "./test.helpers";

const WEBHOOK_SECRET = "whsec_test_public_api";
const stripeServer = useDevStripe(WEBHOOK_SECRET);
const stripe = new Stripe("sk_test_dev");

const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];

/** What a runner sends: gateway ids, personas and topics without ids, defaults for the rest. */
const API_CONFIGURATION = {
  name: "Coffee taglines",
  userPrompt: "Write a tagline for our new product.",
  personas: [{ name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." }],
  topics: [{ title: "Coffee", description: "A coffee shop", prompt: "We sell cold brew coffee." }],
  generatorModels: [MODELS[0], MODELS[1]],
  evaluatorModels: [MODELS[2]],
  responsesPerTopic: 2,
};

async function setUp() {
  const { t, user: ada } = await backendWithUser(MODELS, { pricePerToken: 1e-5, holdQueue: true });
  return { t, ada };
}

async function tokenOf(user: Awaited<ReturnType<typeof createUser>>, teamId?: Id<"teams">) {
  return await user.as.action(api.apiTokens.create, { name: "CI", ...(teamId ? { teamId } : {}) });
}

function call(t: TestBackend, token: string | null, method: "GET" | "POST", path: string, body?: unknown) {
  return t.fetch(`/api/v1${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

async function jsonOf(response: Response) {
  return (await response.json()) as Record<string, unknown> & {
    error?: { code: string; field?: string; problems?: { field: string; message: string }[] };
  };
}

async function giveOwnKey(t: TestBackend, userId: Id<"users">) {
  await t.run((ctx) =>
    ctx.db.insert("apiKeys", { userId, ciphertext: "x", iv: "x", last4: "abcd", savedAt: Date.now() }),
  );
}

describe("personal access tokens", () => {
  test("shown once, stored as its SHA-256 only, listed with its last use, revoked refused at once", async () => {
    const { t, ada } = await setUp();
    const { token, tokenId } = await tokenOf(ada);
    expect(token).toMatch(/^mj_pat_[A-Za-z0-9_-]{43}$/);

    const row = await t.run((ctx) => ctx.db.get("apiTokens", tokenId));
    expect(row?.tokenHash).toBe(await hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token.slice("mj_pat_".length, 20));
    const [listed] = await ada.as.query(api.apiTokens.list, {});
    expect(JSON.stringify(listed)).not.toContain(token.slice(11));
    expect(listed).toMatchObject({ name: "CI", team: null, lastUsedAt: null });
    const models = await jsonOf(await call(t, token, "GET", "/models"));
    expect((models.models as { id: string }[]).map((model) => model.id)).toEqual([...MODELS].sort());

    expect((await call(t, token, "GET", "/tests")).status).toBe(200);
    const [used] = await ada.as.query(api.apiTokens.list, {});
    expect(used.lastUsedAt).toEqual(expect.any(Number));

    await ada.as.mutation(api.apiTokens.revoke, { tokenId });
    const refused = await call(t, token, "POST", "/tests", API_CONFIGURATION);
    expect(refused.status).toBe(401);
    expect((await jsonOf(refused)).error?.code).toBe("UNAUTHENTICATED");
    expect(await ada.as.query(api.apiTokens.list, {})).toEqual([]);
    const tests = await t.run((ctx) => ctx.db.query("tests").take(5));
    expect(tests).toEqual([]);
  });

  test("an unknown, malformed or missing token gets 401 and changes nothing", async () => {
    const { t } = await setUp();
    for (const token of ["mj_pat_" + "A".repeat(43), "not-a-token", null]) {
      const response = await call(t, token, "POST", "/tests", API_CONFIGURATION);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
    }
    const rows = await t.run(async (ctx) => ({
      tests: await ctx.db.query("tests").take(1),
      windows: await ctx.db.query("apiTokenRequests").take(1),
    }));
    expect(rows).toEqual({ tests: [], windows: [] });
  });

  test("a name is required and bounded; another user's token cannot be revoked", async () => {
    const { t, ada } = await setUp();
    expect(await errorOf(ada.as.action(api.apiTokens.create, { name: "  " }))).toMatchObject({
      code: "INVALID_INPUT",
      field: "name",
    });
    expect(
      await errorOf(ada.as.action(api.apiTokens.create, { name: "x".repeat(API_TOKEN_LIMITS.maxNameLength + 1) })),
    ).toMatchObject({ code: "INVALID_INPUT", field: "name" });
    const { tokenId } = await tokenOf(ada);
    const eve = await createUser(t, "eve@example.com");
    expect(await errorOf(eve.as.mutation(api.apiTokens.revoke, { tokenId }))).toMatchObject({ code: "NOT_FOUND" });
  });

  test("no 60 s span holds more than the limit: 120 requests at a minute's end leave none for the next minute's start", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { t, ada } = await setUp();
      const { token, tokenId } = await tokenOf(ada);
      const minute = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
      vi.setSystemTime(minute - 500);
      for (let i = 0; i < API_TOKEN_LIMITS.requestsPerMinute; i++) {
        expect((await call(t, token, "GET", "/tests?limit=1")).status).toBe(200);
      }
      // A new clock minute: a fixed window would start counting again here.
      vi.setSystemTime(minute + 500);
      const over = await call(t, token, "GET", "/tests?limit=1");
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toBe("59");
      expect((await jsonOf(over)).error).toMatchObject({ code: "RATE_LIMITED", problems: [] });
      // A minute after the first of them, the window has room again.
      vi.setSystemTime(minute - 500 + 60_001);
      expect((await call(t, token, "GET", "/tests?limit=1")).status).toBe(200);
      const rows = await t.run((ctx) =>
        ctx.db
          .query("apiTokenRequests")
          .withIndex("by_token", (q) => q.eq("tokenId", tokenId))
          .collect(),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].times).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  test("the sliding window, hand-worked: a limit of 3 in 10 s", () => {
    expect(slidingWindow([], 0, 3, 10_000)).toEqual({ ok: true, times: [0] });
    expect(slidingWindow([0, 4_000], 9_000, 3, 10_000)).toEqual({ ok: true, times: [0, 4_000, 9_000] });
    // Full at 9.5 s: the oldest (0 s) leaves at 10 s, so wait 1 s.
    expect(slidingWindow([0, 4_000, 9_000], 9_500, 3, 10_000)).toEqual({ ok: false, retryAfter: 1 });
    // At 10 s the one at 0 s is out of the window (it counts requests after now − 10 s).
    expect(slidingWindow([0, 4_000, 9_000], 10_000, 3, 10_000)).toEqual({ ok: true, times: [4_000, 9_000, 10_000] });
    // Full at 10.5 s: the one at 4 s leaves at 14 s: 3.5 s, rounded up.
    expect(slidingWindow([4_000, 9_000, 10_000], 10_500, 3, 10_000)).toEqual({ ok: false, retryAfter: 4 });
  });

  test("last used is right to the minute: a later use within the minute is not written, one a minute on is", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { t, ada } = await setUp();
      const { token } = await tokenOf(ada);
      const start = Date.now();
      const lastUsed = async () => (await ada.as.query(api.apiTokens.list, {}))[0].lastUsedAt;
      await call(t, token, "GET", "/models");
      expect(await lastUsed()).toBe(start);
      vi.setSystemTime(start + 59_000);
      await call(t, token, "GET", "/models");
      expect(await lastUsed()).toBe(start);
      vi.setSystemTime(start + 60_000);
      await call(t, token, "GET", "/models");
      expect(await lastUsed()).toBe(start + 60_000);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("spaces", () => {
  test("a token sees only its space: another person's test and a personal test from a team token are 404", async () => {
    const { t, ada } = await setUp();
    const eve = await createUser(t, "eve@example.com");
    const { testId } = await ada.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
    const { token: eveToken } = await tokenOf(eve);
    for (const path of [`/tests/${testId}`, `/tests/${testId}/quote`, `/tests/${testId}/results`]) {
      expect((await call(t, eveToken, "GET", path)).status).toBe(404);
    }
    expect((await call(t, eveToken, "POST", `/tests/${testId}/start`)).status).toBe(404);

    const { teamId } = await ada.as.mutation(api.teams.create, { name: "Team" });
    const { token: teamToken } = await tokenOf(ada, teamId);
    expect((await call(t, teamToken, "GET", `/tests/${testId}`)).status).toBe(404);
    const { token: personalToken } = await tokenOf(ada);
    expect((await call(t, personalToken, "GET", `/tests/${testId}`)).status).toBe(200);

    // A team token's tests belong to the team, and its list holds only them.
    const created = await jsonOf(await call(t, teamToken, "POST", "/tests", API_CONFIGURATION));
    const teamTest = await t.run((ctx) => ctx.db.get("tests", created.testId as Id<"tests">));
    expect(teamTest?.teamId).toBe(teamId);
    const teamList = await jsonOf(await call(t, teamToken, "GET", "/tests"));
    expect((teamList.tests as { testId: string }[]).map((row) => row.testId)).toEqual([created.testId]);
  });

  test("a viewer's token reads but cannot create; a removed member's token is refused at once", async () => {
    const { t, ada } = await setUp();
    const viewer = await createUser(t, "viewer@example.com");
    const { teamId } = await ada.as.mutation(api.teams.create, { name: "Team" });
    const membershipId = await t.run((ctx) =>
      ctx.db.insert("memberships", { teamId, userId: viewer.userId, role: "viewer" }),
    );
    const { testId } = await ada.as.mutation(api.tests.create, { configuration: sampleConfiguration(), teamId });
    const { token } = await tokenOf(viewer, teamId);
    expect((await call(t, token, "GET", `/tests/${testId}`)).status).toBe(200);
    const refused = await call(t, token, "POST", "/tests", API_CONFIGURATION);
    expect(refused.status).toBe(403);
    expect((await call(t, token, "POST", `/tests/${testId}/start`)).status).toBe(403);
    await t.run((ctx) => ctx.db.delete("memberships", membershipId));
    expect((await call(t, token, "GET", `/tests/${testId}`)).status).toBe(401);
  });
});

describe("validation", () => {
  test("create reports every problem under its field and stores nothing", async () => {
    const { t, ada } = await setUp();
    const { token } = await tokenOf(ada);
    const shape = await call(t, token, "POST", "/tests", { personas: "Pirate", generatorModels: [42], scale: "best" });
    expect(shape.status).toBe(400);
    const shapeProblems = (await jsonOf(shape)).error?.problems?.map((problem) => problem.field);
    expect(shapeProblems).toEqual(expect.arrayContaining(["personas", "generatorModels[0]", "scale"]));

    const rules = await call(t, token, "POST", "/tests", {
      ...API_CONFIGURATION,
      personas: [],
      topics: [{ title: "", description: "d", prompt: "p" }],
      evaluatorModels: [],
      responsesPerTopic: 11,
    });
    expect(rules.status).toBe(400);
    const body = await jsonOf(rules);
    expect(body.error).toMatchObject({ code: "INVALID_INPUT", field: "evaluatorModels" });
    expect(body.error?.problems).toEqual(
      expect.arrayContaining([
        { field: "personas", message: "Add at least one persona." },
        { field: "evaluatorModels", message: "Select at least one evaluator model." },
        { field: "responsesPerTopic", message: "Responses per topic must be a whole number from 1 to 10." },
        expect.objectContaining({ field: "topics[0].title" }),
      ]),
    );

    const unknownModel = await call(t, token, "POST", "/tests", {
      ...API_CONFIGURATION,
      evaluatorModels: ["nope/none"],
    });
    expect(unknownModel.status).toBe(400);
    expect((await jsonOf(unknownModel)).error).toMatchObject({
      code: "INVALID_INPUT",
      field: "evaluatorModels[0]",
      problems: [
        {
          field: "evaluatorModels[0]",
          message: "The model nope/none is not available. Choose another model (GET /models lists them).",
        },
      ],
    });
    const badCheck = await call(t, token, "POST", "/tests", {
      ...API_CONFIGURATION,
      checks: [{ id: "c1", kind: "regex", value: "(unclosed" }],
    });
    expect(badCheck.status).toBe(400);
    expect((await jsonOf(badCheck)).error?.problems).toEqual([
      { field: "checks[0].value", message: expect.stringMatching(/^Check 1: This pattern does not compile/) },
    ]);
    const badShapes = await call(t, token, "POST", "/tests", {
      ...API_CONFIGURATION,
      checks: [
        { id: "c1", kind: "equals", value: "x" },
        { kind: "contains", value: "x", weight: 2 },
      ],
    });
    expect(badShapes.status).toBe(400);
    expect((await jsonOf(badShapes)).error?.problems).toEqual([
      {
        field: "checks[0].kind",
        message:
          "checks[0].kind must be one of: contains, notContains, regex, startsWith, json, jsonSchema, length, latency, cost.",
      },
      {
        field: "checks[1].id",
        message:
          "checks[1].id is required: a text unique among the test's checks (gates and results name the check by it).",
      },
      {
        field: "checks[1].weight",
        message:
          "checks[1].weight is not a field of a check (id, kind, value, caseSensitive, unit, min, max, topicId).",
      },
    ]);
    const notJson = await call(t, token, "POST", "/tests", "{personas:");
    expect(notJson.status).toBe(400);
    expect((await jsonOf(notJson)).error?.code).toBe("INVALID_INPUT");
    expect(await t.run((ctx) => ctx.db.query("tests").take(1))).toEqual([]);
  });

  test("quote, list, ids, unknown endpoints and methods are refused with their reasons", async () => {
    const { t, ada } = await setUp();
    const { token } = await tokenOf(ada);
    const quote = await call(t, token, "POST", "/quote", { ...API_CONFIGURATION, topics: [] });
    expect(quote.status).toBe(400);
    expect((await jsonOf(quote)).error?.problems).toContainEqual({
      field: "topics",
      message: "Add at least one topic.",
    });
    const limit = await call(t, token, "GET", "/tests?limit=0");
    expect(limit.status).toBe(400);
    expect((await jsonOf(limit)).error?.field).toBe("limit");
    for (const path of ["/tests/not-an-id", "/tests/not-an-id/results", "/tests/not-an-id/quote"]) {
      expect((await call(t, token, "GET", path)).status).toBe(404);
    }
    expect((await call(t, token, "GET", "/nothing")).status).toBe(404);
    const wrongMethod = await call(t, token, "GET", "/quote");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const response = await t.fetch("/api/v1/tests", { method, headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, POST");
      expect(await response.json()).toEqual({
        error: { code: "METHOD_NOT_ALLOWED", message: "Use GET or POST here.", problems: [] },
      });
    }
    const unknown = await t.fetch("/api/v1/nothing", { method: "DELETE" });
    expect(unknown.status).toBe(404);
    expect((await jsonOf(unknown)).error).toMatchObject({ code: "NOT_FOUND", problems: [] });
    // Bad percent-encoding in a path: 400, not a 500 with a stack trace.
    const malformed = await call(t, token, "GET", "/tests/%E0%A4%A/results");
    expect(malformed.status).toBe(400);
    expect((await jsonOf(malformed)).error).toEqual({
      code: "INVALID_INPUT",
      message: "The path is not valid percent-encoding.",
      field: "path",
      problems: [{ field: "path", message: "The path is not valid percent-encoding." }],
    });
    const huge = await call(t, token, "POST", "/quote", { ...API_CONFIGURATION, userPrompt: "x".repeat(600 * 1024) });
    expect(huge.status).toBe(413);
    expect((await jsonOf(huge)).error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", problems: [] });
  });

  test("the OpenAPI description is served without a token and names every endpoint", async () => {
    const { t } = await setUp();
    const response = await call(t, null, "GET", "/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual([
      "/models",
      "/openapi.json",
      "/quote",
      "/tests",
      "/tests/{testId}",
      "/tests/{testId}/quote",
      "/tests/{testId}/results",
      "/tests/{testId}/start",
    ]);
  });
});

describe("quotes and payment", () => {
  test("the API's quotes are the app's: before creating, and stored on the test", async () => {
    const { t, ada } = await setUp();
    const { token } = await tokenOf(ada);
    const app = await ada.as.mutation(api.tests.create, {
      configuration: sampleConfiguration([MODELS[0], MODELS[1]], [MODELS[2]]),
    });
    const appTest = await t.run((ctx) => ctx.db.get("tests", app.testId));
    const before = await jsonOf(await call(t, token, "POST", "/quote", API_CONFIGURATION));
    expect(before.priceCents).toBe(app.priceCents);
    expect(before.estimate).toEqual(appTest?.estimate);
    const created = await jsonOf(await call(t, token, "POST", "/tests", API_CONFIGURATION));
    const stored = await jsonOf(await call(t, token, "GET", `/tests/${String(created.testId)}/quote`));
    expect(stored).toMatchObject({ priceCents: app.priceCents, estimate: appTest?.estimate, paymentRequired: true });
    const appQuote = await jsonOf(await call(t, token, "GET", `/tests/${app.testId}/quote`));
    expect(appQuote).toMatchObject({ priceCents: app.priceCents, estimate: appTest?.estimate });
  });

  test("a paid test gets a checkout address and does not start until it is paid", async () => {
    const { t, ada } = await setUp();
    const { token } = await tokenOf(ada);
    const created = await call(t, token, "POST", "/tests", API_CONFIGURATION);
    expect(created.status).toBe(201);
    const test = await jsonOf(created);
    expect(test).toMatchObject({ status: "pending", paymentRequired: true, awaitingPayment: true, chargedCents: 0 });
    const testId = test.testId as Id<"tests">;

    const start = await call(t, token, "POST", `/tests/${testId}/start`);
    expect(start.status).toBe(202);
    const started = await jsonOf(start);
    expect(started).toMatchObject({ started: false, status: "pending", awaitingPayment: true });
    expect(String(started.checkoutUrl)).toContain(stripeServer().url);
    const job = () =>
      t.run((ctx) =>
        ctx.db
          .query("jobs")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .unique(),
      );
    expect((await job())?.status).toBe("pending_payment");
    // Asking again hands back the same checkout, still unpaid.
    const again = await jsonOf(await call(t, token, "POST", `/tests/${testId}/start`));
    expect(again.checkoutUrl).toBe(started.checkoutUrl);
    expect((await job())?.status).toBe("pending_payment");

    // The person pays: the signed webhook queues the test, and start then says so.
    const payment = await t.run((ctx) =>
      ctx.db
        .query("payments")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .first(),
    );
    const payload = JSON.stringify({
      id: "evt_api",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: payment!.checkoutId,
          object: "checkout.session",
          payment_status: "paid",
          amount_total: test.priceCents,
          currency: "usd",
        },
      },
    });
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const webhook = await t.fetch("/stripe/webhook", {
      method: "POST",
      body: payload,
      headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
    });
    expect(webhook.status).toBe(200);
    expect((await job())?.status).toBe("queued");
    const afterPayment = await call(t, token, "POST", `/tests/${testId}/start`);
    expect(afterPayment.status).toBe(200);
    expect(await jsonOf(afterPayment)).toMatchObject({ started: true, awaitingPayment: false });
  });

  test("on the user's own key the test is queued at once and costs nothing", async () => {
    const { t, ada } = await setUp();
    await giveOwnKey(t, ada.userId);
    const { token } = await tokenOf(ada);
    const checks = [{ id: "c1", kind: "contains", value: "coffee", caseSensitive: false }];
    const test = await jsonOf(await call(t, token, "POST", "/tests", { ...API_CONFIGURATION, checks }));
    expect(test).toMatchObject({ paymentRequired: false, awaitingPayment: false, usesOwnKey: true });
    const start = await call(t, token, "POST", `/tests/${String(test.testId)}/start`);
    expect(start.status).toBe(200);
    expect(await jsonOf(start)).toMatchObject({ started: true, chargedCents: 0 });
    const results = await jsonOf(await call(t, token, "GET", `/tests/${String(test.testId)}/results`));
    expect(results).toMatchObject({ rankings: expect.any(Array), topGroup: [], jury: null });
    // The check's pass rates per model, empty until answers arrive.
    expect(results.checks).toMatchObject({
      checks: [{ id: "c1" }],
      models: [
        { modelId: MODELS[0], overall: { answers: 0, rate: null } },
        { modelId: MODELS[1], overall: { answers: 0, rate: null } },
      ],
    });
  });
});
