// @vitest-environment node
// The dev gateway's planted judges (catalog.ts PLANTED_JUDGES) behave as documented, can be
// configured or turned off, and the jury statistics find them in a simulated test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeJuryStats } from "../../convex/lib/stats";
import { findCatalogModel, PLANTED_JUDGES } from "./catalog";
import { simulateJuryTest } from "./jury";
import { generateAnswers } from "./answerWriting";
import { answerTextScore, rankingContent, ratingContent } from "./judgeReplies";
import { judgeProfileFor } from "./settings";
import { startGateway, type RunningGateway } from "./server";

const POSITION = "meta-llama/llama-3.1-8b-instruct";
const SELF = "google/gemini-2.5-flash";
const LENGTH = "qwen/qwq-32b";
const FAIR = ["anthropic/claude-sonnet-4", "openai/gpt-4o"];
const GENERATORS = [
  "anthropic/claude-opus-4",
  "openai/gpt-4.1",
  "google/gemini-2.5-pro",
  "perplexity/sonar-pro",
  "deepseek/deepseek-chat",
  "openai/gpt-4o-mini",
  "google/gemini-2.0-flash-001",
  "qwen/qwen-2.5-72b-instruct",
  "cohere/command-r7b-12-2024",
  "meta-llama/llama-3.2-3b-instruct:free",
];
const planted = { plantedJudges: true, judgeProfiles: {} };
const allFair = { plantedJudges: false, judgeProfiles: {} };
const model = (id: string) => findCatalogModel(id)!;
const parts = { system: "You are a busy parent.", user: "Write a short ad for a budgeting app for students." };

describe("planted judges", () => {
  it("the catalog names one judge for each imperfection", () => {
    expect(judgeProfileFor(POSITION, planted).positionBias).toBeGreaterThan(0);
    expect(judgeProfileFor(SELF, planted).selfPreference).toBeGreaterThan(0);
    expect(judgeProfileFor(LENGTH, planted).lengthBias).toBeGreaterThan(0);
    expect(judgeProfileFor(FAIR[0]!, planted)).toEqual({ noise: 1, positionBias: 0, selfPreference: 0, lengthBias: 0 });
    for (const id of Object.keys(PLANTED_JUDGES))
      expect(judgeProfileFor(id, allFair)).toEqual(judgeProfileFor(FAIR[0]!, planted));
  });

  it("the position-biased judge puts the first answer it is shown first far more often than chance; a fair judge does not", () => {
    const firstPicked = (judge: string) => {
      let hits = 0;
      for (let seed = 1; seed <= 60; seed++) {
        const answers = GENERATORS.map((id) => generateAnswers(model(id), parts, 1, seed)[0]!);
        const start = seed % answers.length;
        const shown = [...answers.slice(start), ...answers.slice(0, start)].map((text, index) => ({
          label: String.fromCharCode(65 + index),
          text,
        }));
        const { ranking } = JSON.parse(rankingContent(model(judge), shown, seed, judgeProfileFor(judge, planted))) as {
          ranking: string[];
        };
        if (ranking[0] === "A") hits++;
      }
      return hits / 60;
    };
    expect(firstPicked(POSITION)).toBeGreaterThan(0.3);
    expect(firstPicked(FAIR[1]!)).toBeLessThan(0.25);
  });

  it("the self-preferring judge scores its own family's answers higher, and only those", () => {
    const criteria = ["accuracy", "clarity"] as const;
    const total = (text: string, settings: typeof planted) => {
      const { scores } = JSON.parse(
        ratingContent(model(SELF), [...criteria], text, 1, judgeProfileFor(SELF, settings)),
      ) as { scores: Record<string, number> };
      return Object.values(scores).reduce((sum, value) => sum + value, 0);
    };
    let ownLift = 0;
    for (const id of ["google/gemini-2.5-pro", "google/gemma-2-9b-it:free"]) {
      for (const text of generateAnswers(model(id), parts, 4, 3))
        ownLift += total(text, planted) - total(text, allFair);
    }
    expect(ownLift).toBeGreaterThan(8);
    for (const id of ["openai/gpt-4.1", "anthropic/claude-opus-4"]) {
      for (const text of generateAnswers(model(id), parts, 4, 3))
        expect(total(text, planted)).toBe(total(text, allFair));
    }
  });

  it("verbose models pad their answers; fair judges do not count the padding, the length-favouring judge does", () => {
    const verbose = generateAnswers(model("perplexity/sonar-pro"), parts, 6, 5);
    const concise = generateAnswers(model("openai/o1"), parts, 6, 5);
    const words = (texts: string[]) => texts.join(" ").split(/\s+/).length / texts.length;
    expect(words(verbose)).toBeGreaterThan(words(concise) + 20);
    for (const text of verbose) {
      // The padding is the last three sentences: without them the fair text score is the same.
      const unpadded = text
        .split(/(?<=\.)\s+/)
        .slice(0, -3)
        .join(" ");
      expect(answerTextScore(text)).toBeCloseTo(answerTextScore(unpadded), 12);
    }
    const lengthJudge = (text: string, settings: typeof planted) =>
      (
        JSON.parse(ratingContent(model(LENGTH), ["clarity"], text, 1, judgeProfileFor(LENGTH, settings))) as {
          scores: { clarity: number };
        }
      ).scores.clarity;
    const lift = verbose.reduce((sum, text) => sum + lengthJudge(text, planted) - lengthJudge(text, allFair), 0);
    expect(lift / verbose.length).toBeGreaterThan(2);
  });
});

describe("the jury statistics on a simulated test", () => {
  it("flag each planted judge for its bias and no fair judge", () => {
    const stats = computeJuryStats(
      simulateJuryTest({ generators: GENERATORS, judges: [POSITION, SELF, LENGTH, ...FAIR], topics: 50, seed: 4 }),
    );
    const judge = (id: string) => stats.judges.find((entry) => entry.judgeModelId === id)!;
    expect(judge(POSITION).position!.flagged).toBe(true);
    expect(judge(SELF).selfPreference.flagged).toBe(true);
    expect(judge(LENGTH).length.flagged).toBe(true);
    for (const id of FAIR) expect(judge(id).flagged).toBe(false);
    // The best generator by hidden quality is in the top tie group.
    expect(stats.models.find((entry) => entry.modelId === "anthropic/claude-opus-4")!.rank!.best).toBe(1);
  });

  it('says "tied" when two generators share the same hidden quality, and names the best when one is clearly better', () => {
    // google/gemini-2.5-flash and mistralai/mistral-large both have hidden quality 0.74.
    const judges = ["anthropic/claude-sonnet-4", "openai/gpt-4o", "deepseek/deepseek-chat"];
    const twins = computeJuryStats(
      simulateJuryTest({
        generators: [
          "google/gemini-2.5-flash",
          "mistralai/mistral-large",
          "openai/gpt-4o-mini",
          "meta-llama/llama-3.2-3b-instruct:free",
        ],
        judges,
        topics: 30,
        seed: 8,
      }),
    );
    expect(twins.summary.kind).toBe("tied");
    expect(twins.summary.text).toContain("are statistically tied; run more topics or judges to separate them");
    expect([...twins.summary.leaders].sort()).toEqual(["google/gemini-2.5-flash", "mistralai/mistral-large"]);
    const clear = computeJuryStats(
      simulateJuryTest({
        generators: ["anthropic/claude-opus-4", "openai/gpt-4o-mini", "meta-llama/llama-3.2-3b-instruct:free"],
        judges,
        topics: 30,
        seed: 8,
      }),
    );
    expect(clear.summary.text).toBe("Anthropic: Claude Opus 4 is best: its 95% interval is above every other model's.");
  });

  it("with planted judges off, nobody is flagged", () => {
    const stats = computeJuryStats(
      simulateJuryTest({
        generators: GENERATORS,
        judges: [POSITION, SELF, LENGTH, ...FAIR],
        topics: 50,
        seed: 4,
        judgeSettings: allFair,
      }),
    );
    expect(stats.judges.filter((entry) => entry.flagged).map((entry) => entry.judgeModelId)).toEqual([]);
  });

  it("in both orders the position-biased judge's first-shown favourite no longer wins, and its consistency is measured", () => {
    const options = { generators: GENERATORS, judges: [POSITION, ...FAIR], topics: 30, seed: 9 };
    const once = computeJuryStats(simulateJuryTest(options));
    const twice = computeJuryStats(simulateJuryTest({ ...options, bothOrders: true }));
    const biased = (stats: typeof once) => stats.judges.find((entry) => entry.judgeModelId === POSITION)!;
    expect(biased(once).positionConsistency).toBeNull();
    expect(biased(twice).positionConsistency!).toBeLessThan(
      twice.judges.find((entry) => entry.judgeModelId === FAIR[0])!.positionConsistency!,
    );
    // Its agreement with the fair judges rises when its two calls are averaged.
    expect(biased(twice).agreement.value!).toBeGreaterThan(biased(once).agreement.value!);
  });

  it("with the guard on, the self-preferring judge scores no answer of its own family", () => {
    const input = simulateJuryTest({
      generators: GENERATORS,
      judges: [SELF, ...FAIR],
      topics: 10,
      seed: 2,
      skipOwnFamily: true,
    });
    const googleIds = new Set(
      input.responses.filter((response) => response.modelId.startsWith("google/")).map((response) => response.id),
    );
    const mine = input.rankings!.filter((ranking) => ranking.judgeModelId === SELF);
    expect(mine.length).toBe(10);
    for (const ranking of mine) expect(ranking.ranking.some((id) => googleIds.has(id))).toBe(false);
    const stats = computeJuryStats(input);
    expect(stats.judges.find((entry) => entry.judgeModelId === SELF)!.selfPreference).toMatchObject({
      value: null,
      answers: 0,
      flagged: false,
    });
  });
});

describe("judge settings over HTTP", () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ latencyScale: 0 });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it("merges judgeProfiles per model, turns planted judges off, and rejects unknown keys", async () => {
    const url = gateway.url.replace("/api/v1", "/__settings");
    const post = (body: unknown) => fetch(url, { method: "POST", body: JSON.stringify(body) });
    expect(gateway.settings.plantedJudges).toBe(true);
    expect((await post({ judgeProfiles: { "openai/gpt-4o": { positionBias: 0.5 } } })).status).toBe(200);
    expect((await post({ judgeProfiles: { "openai/gpt-4o": { noise: 2 } } })).status).toBe(200);
    expect(judgeProfileFor("openai/gpt-4o", gateway.settings)).toEqual({
      noise: 2,
      positionBias: 0.5,
      selfPreference: 0,
      lengthBias: 0,
    });
    expect((await post({ judgeProfiles: { "openai/gpt-4o": { charm: 1 } } })).status).toBe(400);
    expect((await post({ judgeProfiles: { "openai/gpt-4o": null }, plantedJudges: false })).status).toBe(200);
    expect(judgeProfileFor(POSITION, gateway.settings).positionBias).toBe(0);
    expect(gateway.settings.judgeProfiles).toEqual({});
  });
});
