// @vitest-environment node
// The dev gateway's planted variance between repeats (repeatVariance.ts): a generation request
// with a `seed` is answered anew, at a quality drawn with the planted SD; without one, as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGenerationMessages } from "../../convex/lib/prompts";
import { catalog } from "./catalog";
import { repeatedRun } from "./repeatVariance";
import { startGateway, type RunningGateway } from "./server";

const MODEL = catalog.find((model) => model.quality > 0.4 && model.quality < 0.6) ?? catalog[0]!;

describe("planted variance between repeats", () => {
  it("draws each repeat's quality around the model's with the planted SD", () => {
    const qualities = Array.from(
      { length: 4000 },
      (_, seed) => repeatedRun(MODEL, "prompt", { seed: 1, repeatVariance: 0.1 }, seed).model.quality,
    );
    const mean = qualities.reduce((sum, value) => sum + value, 0) / qualities.length;
    const sd = Math.sqrt(qualities.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (qualities.length - 1));
    expect(mean).toBeCloseTo(MODEL.quality, 2);
    expect(sd).toBeGreaterThan(0.095);
    expect(sd).toBeLessThan(0.105);
    expect(repeatedRun(MODEL, "prompt", { seed: 1, repeatVariance: 0 }, 7).model.quality).toBe(MODEL.quality);
    expect(repeatedRun(MODEL, "prompt", { seed: 1, repeatVariance: 0.1 }, undefined)).toEqual({
      model: MODEL,
      seed: 1,
    });
  });

  describe("over HTTP", () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway({ port: 0, latencyScale: 0 });
    });
    afterAll(async () => {
      await gateway.close();
    });
    const generate = async (seed?: number) => {
      const response = await fetch(`${gateway.url}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${gateway.settings.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: MODEL.id,
          // A generation request as the pipeline sends it (a plain chat is answered as text).
          messages: buildGenerationMessages({
            systemPrompt: "You are a barista.",
            topicPrompt: "Cold brew coffee.",
            userPrompt: "Write one tagline.",
            count: 1,
          }),
          ...(seed === undefined ? {} : { seed }),
        }),
      });
      const body = (await response.json()) as { choices: { message: { content: string } }[] };
      return body.choices[0]!.message.content;
    };

    it("answers a request without a seed the same each time, and each seed anew", async () => {
      expect(await generate()).toBe(await generate());
      expect(await generate(1)).toBe(await generate(1));
      expect(await generate(1)).not.toBe(await generate(2));
    });

    it("takes repeatVariance through its settings", async () => {
      const post = (body: unknown) =>
        fetch(gateway.url.replace("/api/v1", "/__settings"), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      expect((await post({ repeatVariance: -1 })).status).toBe(400);
      expect((await post({ repeatVariance: 0.3 })).status).toBe(200);
      expect(gateway.settings.repeatVariance).toBe(0.3);
    });
  });
});
