// @vitest-environment node
// A burst of sign-ups on the offline stack (the local backend with its deployment limits at their
// defaults: the 1 s limit on a query's or mutation's own code, the plan's caps; the dev gateway;
// the dev Stripe), each through a client of the sync protocol as the app signs up: 50 at once all
// get an account and a session; 20 at once then each create, pay for and run a test, and the
// counters, payments and costs come out exact. Convex Auth checks each password with scrypt inside
// `auth:store` (~110 ms of CPU), so these calls' code interleaves on the backend's one thread.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvexClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, internal } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { readCounter } from "../../convex/core/counters";
import { sampleConfiguration } from "../../convex/test.helpers";
import { DEFAULT_GATEWAY_API_KEY, startGateway } from "../gateway/server";
import { DEFAULT_STRIPE_SECRET_KEY, DEFAULT_WEBHOOK_SECRET, startStripe } from "../stripe/server";
import { meterDifference, meterTotal } from "./meter";
import type { RunningBackend } from "./server";
import { nodeClient, startQuietBackend } from "./testing";

const PASSWORD = "a burst of new accounts";

let keysDir: string;
let backend: RunningBackend;
let gateway: Awaited<ReturnType<typeof startGateway>>;
let stripe: Awaited<ReturnType<typeof startStripe>>;
let models: string[];
const clients: ConvexClient[] = [];

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-sign-up-burst-"));
  gateway = await startGateway({ port: 0, latencyScale: 0 });
  stripe = await startStripe({
    port: 0,
    secretKey: DEFAULT_STRIPE_SECRET_KEY,
    webhookUrl: "http://127.0.0.1:9/backend-not-started",
    webhookSecret: DEFAULT_WEBHOOK_SECRET,
  });
  // The environment dev/stack.ts gives the backend, limits left at their defaults.
  backend = await startQuietBackend(join(keysDir, "jwt-keys.json"), {
    env: {
      GATEWAY_BASE_URL: gateway.url,
      OPENROUTER_API_KEY: DEFAULT_GATEWAY_API_KEY,
      GATEWAY_BACKOFF_SCALE: "0",
      STRIPE_SECRET_KEY: DEFAULT_STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: DEFAULT_WEBHOOK_SECRET,
      STRIPE_API_HOST: "127.0.0.1",
      STRIPE_API_PORT: String(stripe.port),
      STRIPE_API_PROTOCOL: "http",
      SITE_URL: "http://127.0.0.1:5173",
      AUTH_LOG_LEVEL: "ERROR",
    },
  });
  stripe.webhook.url = `${backend.siteUrl}/stripe/webhook`;
  await backend.t.action(internal.models.refresh, {});
  models = (await backend.t.run(async (ctx) =>
    (await ctx.db.query("llmModels").take(3)).map((row) => row.modelId),
  )) as string[];
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await backend?.close();
  await stripe?.close();
  await gateway?.close();
  rmSync(keysDir, { recursive: true, force: true });
});

/** Signs `email` up as the sign-up form does, and returns a client signed in with the session's token. */
async function signUp(email: string): Promise<ConvexClient> {
  const client = nodeClient(backend.url, clients);
  const { tokens } = await client.action(api.auth.signIn, {
    provider: "password",
    params: { email, password: PASSWORD, flow: "signUp" },
  });
  if (!tokens) throw new Error(`no session for ${email}`);
  client.setAuth(async () => tokens.token);
  return client;
}

const readUsersCounter = () => backend.t.run((ctx) => readCounter(ctx, "users")) as Promise<number>;

/** Resolves once every scheduled job has ended (each new user is counted by one), read as they end. */
async function scheduledJobsEnded(): Promise<void> {
  const unfinished = () =>
    backend.t.run(
      async (ctx) =>
        (await ctx.db.system.query("_scheduled_functions").collect()).filter(
          (job) => job.state.kind === "pending" || job.state.kind === "inProgress",
        ).length,
    ) as Promise<number>;
  while ((await unfinished()) > 0) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe("a burst of sign-ups on the offline stack", () => {
  it("gives 50 people signing up at once an account and a session each", async () => {
    const usersBefore = await readUsersCounter();
    const meterBefore = backend.meter.read();
    const emails = Array.from({ length: 50 }, (_, index) => `person-${index}@example.com`);
    const outcomes = await Promise.allSettled(emails.map(signUp));
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    const viewers = await Promise.all(
      outcomes.map((outcome) => (outcome as PromiseFulfilledResult<ConvexClient>).value.query(api.users.viewer, {})),
    );
    expect(viewers.map((viewer) => viewer?.email)).toEqual(emails);
    await scheduledJobsEnded();
    expect(await readUsersCounter()).toBe(usersBefore + 50);
    const rows = (await backend.t.run(async (ctx) => ({
      users: (await ctx.db.query("users").collect()).filter((user) => emails.includes(user.email as string)).length,
      sessions: (await ctx.db.query("authSessions").collect()).length,
    }))) as { users: number; sessions: number };
    expect(rows).toEqual({ users: 50, sessions: 50 });
    // Nothing failed or timed out on the way, retries included.
    const during = meterTotal(meterDifference(backend.meter.read(), meterBefore));
    expect({ failures: during.failures, timeouts: during.timeouts }).toEqual({ failures: 0, timeouts: 0 });
  }, 300_000);

  it("lets 20 people who sign up at once each pay for and run a test, with exact counters, payments and costs", async () => {
    const before = (await backend.t.run(async (ctx) => ({
      users: await readCounter(ctx, "users"),
      revenueCents: await readCounter(ctx, "revenueCents"),
      completed: await readCounter(ctx, "jobs:completed"),
    }))) as { users: number; revenueCents: number; completed: number };
    const gatewayBefore = { ...gateway.stats.byKind };
    // 2 generators, 1 judge, 1 persona, 1 topic, 2 answers per call.
    const configuration = sampleConfiguration(models.slice(0, 2), models.slice(2, 3), { name: "Launch day" });

    const runs = await Promise.allSettled(
      Array.from({ length: 20 }, async (_, index) => {
        const client = await signUp(`payer-${index}@example.com`);
        const { testId, paymentRequired } = await client.mutation(api.tests.create, { configuration });
        expect(paymentRequired).toBe(true);
        const { sessionId } = await client.action(api.payments.createCheckout, { testId });
        // The dev Stripe posts the signed webhook to the backend before it redirects.
        const paid = await fetch(`${stripe.url}/checkout/${encodeURIComponent(sessionId)}/pay`, {
          method: "POST",
          redirect: "manual",
        });
        await paid.arrayBuffer();
        expect(paid.status).toBe(303);
        await new Promise<void>((resolve, reject) => {
          const unsubscribe = client.onUpdate(api.tests.monitor, { testId }, ({ test }) => {
            if (test.status === "completed") resolve();
            else if (test.status === "failed" || test.status === "cancelled") reject(new Error(`test ${test.status}`));
            else return;
            unsubscribe();
          });
        });
        return testId;
      }),
    );
    expect(runs.filter((run) => run.status === "rejected")).toEqual([]);
    const testIds = runs.map((run) => (run as PromiseFulfilledResult<Id<"tests">>).value);
    await scheduledJobsEnded();

    const after = (await backend.t.run(async (ctx) => {
      const tests = await Promise.all(testIds.map(async (testId) => (await ctx.db.get("tests", testId))!));
      const perTest = await Promise.all(
        tests.map(async (test) => {
          const responses = await ctx.db
            .query("responses")
            .withIndex("by_test", (q) => q.eq("testId", test._id))
            .collect();
          const evaluations = await ctx.db
            .query("evaluations")
            .withIndex("by_test", (q) => q.eq("testId", test._id))
            .collect();
          const payments = await ctx.db
            .query("payments")
            .withIndex("by_user", (q) => q.eq("userId", test.userId))
            .collect();
          const user = (await ctx.db.get("users", test.userId as Id<"users">))!;
          return {
            test,
            user,
            payments,
            responses: responses.length,
            evaluations: evaluations.length,
            rowsCostUsd: [...responses, ...evaluations].reduce((sum, row) => sum + (row.costUsd as number), 0),
          };
        }),
      );
      return {
        perTest,
        users: await readCounter(ctx, "users"),
        revenueCents: await readCounter(ctx, "revenueCents"),
        completed: await readCounter(ctx, "jobs:completed"),
      };
    })) as {
      perTest: {
        test: {
          status: string;
          priceCents: number;
          totalCalls: number;
          finishedCalls: number;
          failedCalls: number;
          totalCostUsd: number;
        };
        user: { testCount?: number; totalSpentCents?: number };
        payments: { status: string; amountCents: number; testId?: Id<"tests"> }[];
        responses: number;
        evaluations: number;
        rowsCostUsd: number;
      }[];
      users: number;
      revenueCents: number;
      completed: number;
    };

    // Each test: 2 generators × 1 persona × 1 topic (2 answers each) and 1 judge: 3 calls, all done.
    let priceCentsTotal = 0;
    for (const { test, user, payments, responses, evaluations, rowsCostUsd } of after.perTest) {
      expect(test).toMatchObject({ status: "completed", totalCalls: 3, finishedCalls: 3, failedCalls: 0 });
      expect(test.priceCents).toBeGreaterThanOrEqual(200);
      expect(responses).toBe(4);
      expect(evaluations).toBe(4);
      // The cost is the recorded calls' cost, counted once.
      expect(test.totalCostUsd).toBeGreaterThan(0);
      expect(test.totalCostUsd).toBeCloseTo(rowsCostUsd, 12);
      // One payment each, of the test's price, and the user's figures count it once.
      expect(payments.map(({ status, amountCents }) => ({ status, amountCents }))).toEqual([
        { status: "paid", amountCents: test.priceCents },
      ]);
      expect(user).toMatchObject({ testCount: 1, totalSpentCents: test.priceCents });
      priceCentsTotal += test.priceCents;
    }
    expect(after.users - before.users).toBe(20);
    expect(after.completed - before.completed).toBe(20);
    expect(after.revenueCents - before.revenueCents).toBe(priceCentsTotal);
    // The gateway answered each call once: 2 generations and 1 ranking per test.
    const byKind = gateway.stats.byKind;
    expect((byKind.generation ?? 0) - (gatewayBefore.generation ?? 0)).toBe(40);
    expect((byKind.ranking ?? 0) - (gatewayBefore.ranking ?? 0)).toBe(20);
  }, 300_000);
});
