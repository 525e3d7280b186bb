// @vitest-environment node
// The gateway against the app's own prompt builders and reply parsers (convex/lib): if either
// side changes its wording or format, this fails before the offline stack does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildGenerationMessages,
  buildRankingMessages,
  buildRatingMessages,
  buildRetryMessages,
  type ChatMessage,
} from "../../convex/lib/prompts";
import { EVALUATION_CRITERIA } from "../../convex/lib/criteria";
import { parseGenerationReply, parseRankingReply, parseRatingReply } from "../../convex/lib/replies";
import { startGateway, type RunningGateway } from "./server";

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ latencyScale: 0, seed: 11 });
});

afterAll(async () => {
  await gateway.close();
});

async function complete(model: string, messages: readonly ChatMessage[]): Promise<string> {
  const response = await fetch(`${gateway.url}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${gateway.settings.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages, temperature: 0.7, max_tokens: 3000 }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? "";
}

const persona = { name: "Busy Parent", description: "Short on time, values practical advice" };
const question =
  "Everyday situations: mornings before school.\n\nSuggest a breakfast routine that saves time on school days.";

async function generate(model: string, count: number): Promise<string[]> {
  const messages = buildGenerationMessages({
    systemPrompt: "You are a busy parent of three who values practical, time-saving advice.",
    topicPrompt: "Everyday situations: mornings before school.",
    userPrompt: "Suggest a breakfast routine that saves time on school days.",
    count,
  });
  const parsed = parseGenerationReply(await complete(model, messages), count);
  expect(parsed.malformed).toBe(false);
  return parsed.answers;
}

describe("the app's prompts", () => {
  it("generation: every count parses to exactly that many distinct answers on topic", async () => {
    for (const count of [1, 2, 3, 10]) {
      const answers = await generate("openai/gpt-4o", count);
      expect(answers).toHaveLength(count);
      expect(new Set(answers).size).toBe(count);
      expect(answers.join(" ")).toMatch(/breakfast|school|mornings|routine/i);
    }
  });

  it("ranking: every label once, through the app parser", async () => {
    const answers = [
      ...(await generate("anthropic/claude-opus-4", 3)),
      ...(await generate("meta-llama/llama-3.1-8b-instruct", 3)),
    ].map((content, index) => ({ responseId: `r${index}`, content }));
    for (const includeExplanations of [true, false]) {
      const { messages, labels } = buildRankingMessages({
        question,
        answers,
        criteria: ["accuracy", "clarity"],
        persona,
        includeExplanations,
        seed: `call-${String(includeExplanations)}`,
      });
      const parsed = parseRankingReply(
        await complete("google/gemini-2.5-pro", messages),
        labels.map((entry) => entry.label),
      );
      expect(parsed.malformed).toBe(false);
      if (!parsed.malformed) {
        expect([...parsed.ranking].sort()).toEqual(["A", "B", "C", "D", "E", "F"]);
        // The strong model's answers fill the top half.
        const strongLabels = labels
          .filter((entry) => Number(entry.responseId.slice(1)) < 3)
          .map((entry) => entry.label);
        expect(
          parsed.ranking.slice(0, 3).filter((label) => strongLabels.includes(label)).length,
        ).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it("rating: exactly the selected criteria, through the app parser", async () => {
    const [answer = ""] = await generate("openai/gpt-4.1", 1);
    for (const criteria of [
      ["accuracy"],
      ["creativity", "style"],
      ["accuracy", "creativity", "clarity", "relevance", "style"],
    ] as const) {
      const messages = buildRatingMessages({ question, answer, criteria, persona, includeExplanations: true });
      const reply = await complete("anthropic/claude-sonnet-4", messages);
      expect(Object.keys((JSON.parse(reply) as { scores: object }).scores)).toEqual([...criteria]);
      expect(parseRatingReply(reply, criteria).malformed).toBe(false);
    }
  });

  it("rating: every criterion the app's registry has is scored, alone and all together", async () => {
    const answer = "Overnight oats in jars, made on Sunday, with fruit added in the morning.";
    for (const criteria of [...EVALUATION_CRITERIA.map((criterion) => [criterion]), EVALUATION_CRITERIA]) {
      const messages = buildRatingMessages({ question, answer, criteria, persona, includeExplanations: false });
      const reply = await complete("openai/gpt-4o", messages);
      expect(Object.keys((JSON.parse(reply) as { scores: object }).scores)).toEqual([...criteria]);
      expect(parseRatingReply(reply, criteria).malformed).toBe(false);
    }
  });

  it('retry: the "reply again" follow-up gets the original kind of reply', async () => {
    const generation = buildGenerationMessages({
      systemPrompt: "",
      topicPrompt: "",
      userPrompt: "Name a good houseplant.",
      count: 2,
    });
    const retry = buildRetryMessages(generation, '["half', "The reply was not a JSON array of strings.");
    expect(parseGenerationReply(await complete("openai/gpt-4o-mini", retry), 2)).toMatchObject({
      malformed: false,
      missing: 0,
    });

    const rating = buildRatingMessages({
      question,
      answer: "Overnight oats.",
      criteria: ["clarity"],
      includeExplanations: false,
    });
    const ratingRetry = buildRetryMessages(rating, '{"scores":', "The reply was not JSON.");
    expect(parseRatingReply(await complete("openai/gpt-4o-mini", ratingRetry), ["clarity"]).malformed).toBe(false);
  });

  it("malformed faults are reported as malformed by the app parser", async () => {
    gateway.settings.faults.rateMalformed = 1;
    try {
      const generation = buildGenerationMessages({
        systemPrompt: "",
        topicPrompt: "",
        userPrompt: "Name a good houseplant.",
        count: 3,
      });
      expect(parseGenerationReply(await complete("openai/gpt-4o", generation), 3).malformed).toBe(true);
      const { messages, labels } = buildRankingMessages({
        question,
        answers: [
          { responseId: "a", content: "Overnight oats prepared on Sunday." },
          { responseId: "b", content: "Cereal." },
        ],
        includeExplanations: true,
        seed: 1,
      });
      expect(
        parseRankingReply(
          await complete("openai/gpt-4o", messages),
          labels.map((entry) => entry.label),
        ).malformed,
      ).toBe(true);
    } finally {
      gateway.settings.faults.rateMalformed = 0;
    }
  });
});
