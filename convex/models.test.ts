// @vitest-environment node
// The catalog synced from the dev gateway's real /models payload, and the quote the setup page
// shows against the one tests.create stores.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { catalog as gatewayCatalog, toOpenRouterModel } from "../dev/gateway/catalog";
import { startGateway } from "../dev/gateway/server";
import { api, internal } from "./_generated/api";
import { quote } from "./lib/pricing";
import { compareModels, tierOf } from "./lib/tiers";
import { createUser, createBackend, sampleConfiguration } from "./test.helpers";

let gateway: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  gateway = await startGateway({ port: 0, latencyScale: 0 });
  process.env.GATEWAY_BASE_URL = gateway.url;
  process.env.OPENROUTER_API_KEY = "dev-gateway-key";
  process.env.GATEWAY_BACKOFF_SCALE = "0";
  // The quote is what matters here; the run itself is covered by runner.test.ts.
  process.env.STRIPE_SECRET_KEY = "sk_test_unused";
});
afterAll(async () => {
  delete process.env.STRIPE_SECRET_KEY;
  await gateway.close();
});

describe("model catalog", () => {
  test("sync keeps priced models under the filter, drops FREE, tiers them and sorts them", async () => {
    const t = createBackend();
    const result = await t.action(internal.models.refresh, {});
    expect(result.fetched).toBe(gatewayCatalog.length);
    const { models, lastUpdated } = await t.query(api.models.list, {});
    expect(lastUpdated).not.toBeNull();
    expect(models.length).toBe(result.listed);

    const ids = new Set(models.map((model) => model.id));
    for (const entry of gatewayCatalog.map(toOpenRouterModel)) {
      const prompt = Number(entry.pricing.prompt);
      const completion = Number(entry.pricing.completion);
      const listed = prompt > 0 && completion > 0 && prompt < 0.0001 && completion < 0.0001;
      expect([entry.id, ids.has(entry.id)]).toEqual([entry.id, listed]);
    }
    expect(ids.has("mistralai/mistral-7b-instruct:free")).toBe(false); // FREE
    expect(ids.has("openai/o1-pro")).toBe(false); // above the price filter
    expect(models.every((model) => model.tier !== "FREE" && model.tier === tierOf(model.pricing))).toBe(true);
    expect(new Set(models.map((model) => model.tier))).toEqual(
      new Set(["BUDGET", "STANDARD", "PREMIUM", "ENTERPRISE"]),
    );
    expect(models.find((model) => model.id === "qwen/qwq-32b")?.contextLength).toBe(4096);
    expect([...models].sort(compareModels).map((model) => model.id)).toEqual(models.map((model) => model.id));
  });

  test("a refresh replaces the cache: a model the gateway stops listing leaves the pickers", async () => {
    const t = createBackend();
    await t.action(internal.models.refresh, {});
    await t.run(async (ctx) => {
      await ctx.db.insert("llmModels", {
        modelId: "gone/retired-model",
        name: "Retired",
        provider: "gone",
        contextLength: 4096,
        pricingPrompt: 1e-6,
        pricingCompletion: 1e-6,
        description: "",
        tier: "BUDGET",
        lastUpdated: 0,
      });
    });
    await t.action(internal.models.refresh, {});
    const { models } = await t.query(api.models.list, {});
    expect(models.some((model) => model.id === "gone/retired-model")).toBe(false);
  });

  test("the setup page asks for a refresh only when the cache is empty or older than 24 hours", async () => {
    const t = createBackend();
    const { as } = await createUser(t, "ada@example.com");
    expect(await as.mutation(api.models.requestRefresh, {})).toBe(true); // empty
    await t.action(internal.models.refresh, {});
    expect(await as.mutation(api.models.requestRefresh, {})).toBe(false); // fresh
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("llmModels").collect()) {
        await ctx.db.patch("llmModels", row._id, { lastUpdated: Date.now() - 25 * 60 * 60 * 1000 });
      }
    });
    expect(await as.mutation(api.models.requestRefresh, {})).toBe(true); // stale
  });

  test("the page's price (quote over models.list) equals tests.create's quote for several configurations", async () => {
    const t = createBackend();
    await t.action(internal.models.refresh, {});
    const { as } = await createUser(t, "ada@example.com");
    const { models } = await t.query(api.models.list, {});
    const pagePrices = Object.fromEntries(models.map((model) => [model.id, model.pricing]));
    const configurations = [
      sampleConfiguration(["openai/gpt-4o-mini"], ["google/gemini-2.0-flash-001"]),
      sampleConfiguration(["anthropic/claude-opus-4", "openai/gpt-4.1"], ["google/gemini-2.5-pro"], {
        responsesPerTopic: 5,
      }),
      sampleConfiguration(
        ["x-ai/grok-3", "anthropic/claude-sonnet-4", "mistralai/mistral-large"],
        ["openai/gpt-4o", "deepseek/deepseek-chat"],
        {
          responsesPerTopic: 10,
          personas: [1, 2, 3].map((n) => ({
            id: `p${n}`,
            name: `Persona ${n}`,
            description: "A voice",
            systemPrompt: `You are voice ${n}.`,
          })),
          topics: [1, 2, 3].map((n) => ({
            id: `t${n}`,
            title: `Topic ${n}`,
            description: "A scenario",
            prompt: `Scenario ${n}.`,
          })),
          scoringParameters: { scale: "rating", includeExplanations: true },
          evaluationCriteria: { accuracy: true, creativity: true, clarity: true, relevance: false, style: false },
        },
      ),
    ];
    const prices = [];
    for (const configuration of configurations) {
      const { priceCents } = await as.mutation(api.tests.create, { configuration });
      expect(priceCents).toBe(quote(configuration, pagePrices).priceCents);
      prices.push(priceCents);
    }
    expect(prices[0]).toBe(200); // the $2.00 minimum
    expect(prices[2]).toBeGreaterThan(200);
  });
});
