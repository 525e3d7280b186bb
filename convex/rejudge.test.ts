// @vitest-environment node
// "Judge again" (issue 22 step 3) through the real pipeline and the dev gateway: a new test over a
// finished test's answers makes judge calls only, is priced as its judging alone through the same
// quote, is paid through the dev Stripe and refunded when it delivers nothing, and is refused to
// anyone who may not start a test in the original's space.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStripe } from "../dev/stripe/server";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { priceCents as priceOfCost, quote } from "./lib/pricing";
import {
  createBackend,
  createUser,
  errorOf,
  readTestRows,
  sampleConfiguration,
  seedCatalog,
  useDevGateway,
  waitFor,
  type TestBackend,
} from "./test.helpers";
import type { TestConfiguration } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001"];
const OTHER_EVALUATOR = "mistralai/mistral-large";
const PRICE_PER_TOKEN = 1e-4;
const gateway = useDevGateway();

const WEBHOOK_SECRET = "whsec_test_rejudge";
const stripe = new Stripe("sk_test_dev");
let stripeServer: Awaited<ReturnType<typeof startStripe>>;
beforeAll(async () => {
  stripeServer = await startStripe({
    port: 0,
    webhookUrl: "http://127.0.0.1:9/held-back",
    webhookSecret: WEBHOOK_SECRET,
  });
});
afterAll(async () => {
  await stripeServer.close();
});

function configuration(): TestConfiguration {
  return sampleConfiguration(GENERATORS, EVALUATORS, {
    personas: [
      { id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." },
      { id: "p2", name: "Poet", description: "Rhymes", systemPrompt: "Answer in verse." },
    ],
    topics: [
      { id: "t1", title: "Coffee", description: "Coffee shop", prompt: "We sell cold brew coffee." },
      { id: "t2", title: "Bikes", description: "Bike repair", prompt: "We repair city bikes." },
    ],
    checks: [
      { id: "oneWord", kind: "length", unit: "words", max: 1 },
      { id: "fast", kind: "latency", max: 600_000 },
    ],
  });
}

/** Another jury: a different evaluator, rating instead of ranking. */
const OTHER_JURY = {
  evaluatorModels: [{ id: OTHER_EVALUATOR, name: OTHER_EVALUATOR }],
  evaluationCriteria: { accuracy: true, creativity: true, clarity: false, relevance: false, style: false },
  scoringParameters: { scale: "rating" as const, includeExplanations: false },
};

async function runToEnd(t: TestBackend, testId: Id<"tests">, timeoutMs = 30_000) {
  await waitFor(
    () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status),
    (status) => status === "completed" || status === "failed" || status === "cancelled",
    timeoutMs,
  );
  await t.finishInProgressScheduledFunctions();
}

/** A user with a completed test (run unpaid on the dev gateway). */
async function finishedTest() {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...EVALUATORS, OTHER_EVALUATOR], PRICE_PER_TOKEN);
  const user = await createUser(t, "ada@example.com");
  const { testId } = await user.as.mutation(api.tests.create, { configuration: configuration() });
  await runToEnd(t, testId);
  const original = await t.run((ctx) => ctx.db.get("tests", testId));
  expect(original).toMatchObject({ status: "completed" });
  return { t, user, originalId: testId };
}

const catalog = Object.fromEntries(
  [...GENERATORS, ...EVALUATORS, OTHER_EVALUATOR].map((id) => [
    id,
    { prompt: PRICE_PER_TOKEN, completion: PRICE_PER_TOKEN },
  ]),
);

describe("Judge again", () => {
  test("makes judge calls only, over copies of the original's answers; its statistics and pass rates come from them", async () => {
    const { t, user, originalId } = await finishedTest();
    const stats = gateway().stats;
    const before = { chat: stats.chatCalls, generation: stats.byKind.generation ?? 0 };
    // One persona × topic pair per copy batch (its 4 answers and 4 judge calls): four scheduled batches.
    await t.run((ctx) => ctx.db.insert("settings", { key: "callsPerBatch", value: 8 }));

    const { testId, paymentRequired } = await user.as.mutation(api.rejudge.create, {
      testId: originalId,
      ...OTHER_JURY,
    });
    expect(paymentRequired).toBe(false);
    await runToEnd(t, testId);

    const [original, rejudge] = await t.run(async (ctx) => [
      await readTestRows(ctx, originalId),
      await readTestRows(ctx, testId),
    ]);
    expect(rejudge.test).toMatchObject({
      status: "completed",
      rejudgeOf: originalId,
      name: "Coffee taglines (judged again)",
    });
    // Its run had its own run row, as a test that generates has (its recordings read that row,
    // not the test's row, which the progress folds write while it runs), closed at its end.
    const runRow = await t.run((ctx) =>
      ctx.db
        .query("testRuns")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .unique(),
    );
    expect(runRow).toMatchObject({
      running: false,
      configuration: { evaluatorModels: [{ id: OTHER_EVALUATOR }], scoringParameters: { scale: "rating" } },
    });
    // No generation call: not in the pipeline's call rows, not at the gateway.
    expect(rejudge.calls.length).toBeGreaterThan(0);
    expect(rejudge.calls.filter((call) => call.kind !== "evaluate")).toEqual([]);
    expect((stats.byKind.generation ?? 0) - before.generation).toBe(0);
    expect(stats.chatCalls - before.chat).toBe(rejudge.calls.length);
    // One rating call per answer by the new evaluator, none by the original's.
    expect(rejudge.calls).toHaveLength(original.responses.length);
    expect(new Set(rejudge.calls.map((call) => call.modelId))).toEqual(new Set([OTHER_EVALUATOR]));

    // The same answers, with their check results, as rows of the new test.
    const answer = (row: (typeof original.responses)[number]) =>
      [
        row.modelId,
        row.personaId,
        row.topicId,
        row.content,
        row.latencyMs,
        JSON.stringify(row.checkFailures ?? []),
      ].join("|");
    expect(rejudge.responses.map(answer).sort()).toEqual(original.responses.map(answer).sort());
    expect(rejudge.responses.every((row) => row.failedCheck === true)).toBe(true); // "oneWord" fails them all
    // Every judgement is of a copied answer, by the new jury.
    const copied = new Set(rejudge.responses.map((row) => row._id));
    expect(rejudge.evaluations).toHaveLength(original.responses.length);
    expect(
      rejudge.evaluations.every((row) => copied.has(row.responseId) && row.evaluatorModelId === OTHER_EVALUATOR),
    ).toBe(true);

    // The results read the copies: every model with its answers, scored by the new jury only.
    const results = await user.as.query(api.results.get, { testId });
    const originalResults = await user.as.query(api.results.get, { testId: originalId });
    expect(results.metrics).toMatchObject({ totalResponses: original.responses.length, completionRate: 1 });
    expect(results.rankings.map((row) => [row.modelId, row.totalResponses, row.evaluationCount]).sort()).toEqual(
      GENERATORS.map((id) => {
        const answers = original.responses.filter((row) => row.modelId === id).length;
        return [id, answers, answers];
      }).sort(),
    );
    expect(results.rankings.map((row) => [row.modelId, row.totalResponses]).sort()).toEqual(
      originalResults.rankings.map((row) => [row.modelId, row.totalResponses]).sort(),
    );
    // The jury statistics are computed over the copied answers and the new judgements.
    const jury = await waitFor(
      () => user.as.query(api.results.juryStats, { testId }),
      (view) => JSON.stringify(view).includes(OTHER_EVALUATOR),
    );
    expect(JSON.stringify(jury)).not.toContain(EVALUATORS[0]);
    // History shows it as a re-judging of the original, named and linked; the original as itself.
    const history = await user.as.query(api.history.list, {});
    expect(history.tests.map((row) => [row._id, row.rejudgeOf])).toEqual([
      [testId, { testId: originalId, name: "Coffee taglines" }],
      [originalId, undefined],
    ]);
    // The results page offers "Judge again" on both, names the original on the re-judging, and
    // links the original to its re-judging.
    expect(await user.as.query(api.rejudge.about, { testId: originalId })).toEqual({
      canJudgeAgain: true,
      original: null,
      rejudgings: [{ testId, name: "Coffee taglines (judged again)" }],
    });
    expect(await user.as.query(api.rejudge.about, { testId })).toEqual({
      canJudgeAgain: true,
      original: { testId: originalId, name: "Coffee taglines" },
      rejudgings: [],
    });
    // Pass rates: the original's, from the copied check results.
    const checks = await user.as.query(api.checks.summary, { testId });
    const originalChecks = await user.as.query(api.checks.summary, { testId: originalId });
    expect(checks?.models).toEqual(originalChecks?.models);
    expect(checks?.models.map((model) => [model.overall.answers, model.overall.passed])).toEqual([
      [8, 0],
      [8, 0],
    ]); // 2 personas × 2 topics × 2 answers each, all failing "oneWord"
  }, 60_000);

  test("is priced as judging alone through the same quote: the same jury costs the original's judging part", async () => {
    const { t, user, originalId } = await finishedTest();
    const original = (await t.run((ctx) => ctx.db.get("tests", originalId)))!;
    const sameJury = {
      evaluatorModels: original.configuration.evaluatorModels,
      evaluationCriteria: original.configuration.evaluationCriteria,
      scoringParameters: original.configuration.scoringParameters,
    };
    const same = await user.as.mutation(api.rejudge.create, { testId: originalId, ...sameJury });
    // The judging part of the original's own quote, marked up as any price is.
    expect(same.priceCents).toBe(priceOfCost(original.estimate.evaluationCost));
    expect(same.priceCents).toBeLessThan(original.priceCents);
    const sameRow = (await t.run((ctx) => ctx.db.get("tests", same.testId)))!;
    expect(sameRow.estimate).toMatchObject({ generationCost: 0, totalCost: original.estimate.evaluationCost });

    const other = await user.as.mutation(api.rejudge.create, { testId: originalId, ...OTHER_JURY });
    const withOtherJury = { ...configuration(), ...OTHER_JURY };
    expect(other.priceCents).toBe(quote(withOtherJury, catalog, "judging").priceCents);
    expect(other.priceCents).toBeLessThan(quote(withOtherJury, catalog).priceCents);
  }, 60_000);

  test("a paid re-judging whose judges all fail is failed and refunded like any test", async () => {
    const { t, user, originalId } = await finishedTest();
    Object.assign(process.env, {
      STRIPE_SECRET_KEY: "sk_test_dev",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: "127.0.0.1",
      STRIPE_API_PORT: String(stripeServer.port),
      STRIPE_API_PROTOCOL: "http",
      SITE_URL: "http://127.0.0.1:5173",
    });
    const faults = gateway().settings.faults;
    try {
      const { testId, priceCents, paymentRequired } = await user.as.mutation(api.rejudge.create, {
        testId: originalId,
        ...OTHER_JURY,
      });
      expect(paymentRequired).toBe(true);
      const { sessionId } = await user.as.action(api.payments.createCheckout, { testId });
      const before = stripeServer.events.length;
      await fetch(`${stripeServer.url}/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" });
      faults.rate500 = 1; // every judge call fails
      for (const event of stripeServer.events.slice(before)) {
        const payload = JSON.stringify(event);
        const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
        const response = await t.fetch("/stripe/webhook", {
          method: "POST",
          body: payload,
          headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
        });
        expect(response.status).toBe(200);
      }
      await runToEnd(t, testId);
      const paymentIntent = stripeServer.sessions.get(sessionId)!.payment_intent;
      await waitFor(
        () =>
          Promise.resolve(
            [...stripeServer.refunds.values()].filter((refund) => refund.payment_intent === paymentIntent),
          ),
        (refunds) => refunds.length === 1,
      );
      const { test: rejudge, payment } = await waitFor(
        () =>
          t.run(async (ctx) => ({
            test: (await ctx.db.get("tests", testId))!,
            payment: await ctx.db
              .query("payments")
              .withIndex("by_test", (q) => q.eq("testId", testId))
              .unique(),
          })),
        (state) => state.payment?.status === "refunded",
      );
      expect(rejudge.status).toBe("failed");
      expect(rejudge.errorMessage).toMatch(/^No evaluations were made/);
      expect(payment).toMatchObject({
        status: "refunded",
        amountCents: priceCents,
        refundReason: rejudge.errorMessage,
      });
      expect(await user.as.query(api.payments.testRefund, { testId })).toMatchObject({
        state: "refunded",
        amountCents: priceCents,
      });
    } finally {
      faults.rate500 = 0;
      delete process.env.STRIPE_SECRET_KEY;
    }
  }, 60_000);

  test("is refused for a stranger's test and for a test that has not completed; nothing is created", async () => {
    const { t, user, originalId } = await finishedTest();
    const stranger = await createUser(t, "eve@example.com");
    expect(
      await errorOf(stranger.as.mutation(api.rejudge.create, { testId: originalId, ...OTHER_JURY })),
    ).toMatchObject({
      code: "NOT_FOUND",
    });
    await t.run((ctx) => ctx.db.patch("tests", originalId, { status: "failed" }));
    const refused = await errorOf(user.as.mutation(api.rejudge.create, { testId: originalId, ...OTHER_JURY }));
    expect(refused).toMatchObject({ code: "CONFLICT", message: "Only a completed test can be judged again." });
    expect(await t.run((ctx) => ctx.db.query("tests").collect())).toHaveLength(1);
  }, 60_000);
});
