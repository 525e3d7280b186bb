// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  buildGenerationMessages,
  buildRankingMessages,
  buildRatingMessages,
  buildRetryMessages,
  combinePrompt,
  DEFAULT_RANKING_PROMPT,
  evaluationPromptPreview,
  generationPromptPreview,
  labelFor,
  PREVIEW_TEXTS,
  reverseRankingKey,
  seededShuffle,
} from "./prompts";
import { DEFAULT_EVALUATION_CRITERIA } from "./types";

describe("generation prompt", () => {
  it("uses the persona as system message and asks for exactly N answers as a JSON array", () => {
    const messages = buildGenerationMessages({
      systemPrompt: "You are a sarcastic teenager.",
      topicPrompt: "You are ordering coffee.",
      userPrompt: "Describe the experience in two sentences.",
      count: 3,
    });
    expect(messages).toEqual([
      { role: "system", content: "You are a sarcastic teenager." },
      {
        role: "user",
        content:
          "You are ordering coffee.\n\nDescribe the experience in two sentences.\n\n" +
          "Write exactly 3 different responses to the request above. Reply with only a JSON array of exactly 3 strings, " +
          "one complete response per string, and nothing else: no introduction, no numbering, no code fences.",
      },
    ]);
  });

  it("asks for a single answer in the singular", () => {
    const [, user] = buildGenerationMessages({ systemPrompt: "S", topicPrompt: "T", userPrompt: "", count: 1 });
    expect(user.content).toContain("Write exactly 1 response to the request above.");
    expect(user.content).toContain("a JSON array of exactly 1 string,");
  });

  it("combines the topic with the user prompt", () => {
    expect(combinePrompt(" Topic ", " Prompt ")).toBe("Topic\n\nPrompt");
    expect(combinePrompt("Topic", "  ")).toBe("Topic");
  });
});

describe("seeded shuffle and labels", () => {
  it("labels A to Z, then AA", () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(labelFor)).toEqual(["A", "B", "Z", "AA", "AB", "AZ", "BA"]);
  });

  it("shuffles deterministically by seed", () => {
    const items = Array.from({ length: 10 }, (_, index) => index);
    const first = seededShuffle(items, "call-key-1");
    expect(seededShuffle(items, "call-key-1")).toEqual(first);
    expect([...first].sort((a, b) => a - b)).toEqual(items);
    expect(first).not.toEqual(items);
    expect(seededShuffle(items, "call-key-2")).not.toEqual(first);
    expect(items).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe("ranking prompt", () => {
  const answers = [
    { responseId: "r1", content: "Answer one" },
    { responseId: "r2", content: "Answer two" },
    { responseId: "r3", content: "Answer three" },
  ];

  it("the reversed call of 'Judge in both orders' shows the same answers back to front, still labelled A, B, C in the order shown", () => {
    const key = "test-1:rank:judge:p1:t1";
    const forward = buildRankingMessages({ question: "Q", answers, includeExplanations: false, seed: key });
    const reverse = buildRankingMessages({
      question: "Q",
      answers,
      includeExplanations: false,
      seed: reverseRankingKey(key),
    });
    expect(reverse.labels.map((entry) => entry.responseId)).toEqual(
      forward.labels.map((entry) => entry.responseId).reverse(),
    );
    expect(reverse.labels.map((entry) => entry.label)).toEqual(["A", "B", "C"]);
    const firstShown = answers.find((answer) => answer.responseId === reverse.labels[0]!.responseId)!;
    expect(reverse.messages[1]!.content).toContain(`[A]\n${firstShown.content}`);
  });

  it("shows shuffled answers under neutral labels and asks for the ranking JSON", () => {
    const { messages, labels } = buildRankingMessages({
      question: "Describe ordering coffee.",
      answers,
      includeExplanations: true,
      seed: "test-1:p1:t1:judge",
    });
    expect(labels.map((entry) => entry.label)).toEqual(["A", "B", "C"]);
    expect(labels.map((entry) => entry.responseId).sort()).toEqual(["r1", "r2", "r3"]);
    const user = messages[1].content;
    expect(messages[0].role).toBe("system");
    expect(user.startsWith(DEFAULT_RANKING_PROMPT)).toBe(true);
    expect(DEFAULT_RANKING_PROMPT).toBe(
      "Rank the following responses from best to worst based on overall quality, accuracy, and helpfulness.",
    );
    for (const { label, responseId } of labels) {
      const content = answers.find((answer) => answer.responseId === responseId)?.content;
      expect(user).toMatch(new RegExp(`^\\[${label}\\]\\n${content}$`, "m"));
    }
    expect(user).toContain('{"ranking":["B","A",...],"explanation":"..."}');
    expect(user).toContain("every label (A, B, C) exactly once, from best to worst");
    // the same seed shows the same order again (a retry sees what the first call saw)
    expect(
      buildRankingMessages({ question: "q", answers, includeExplanations: true, seed: "test-1:p1:t1:judge" }).labels,
    ).toEqual(labels);
  });

  it("uses the test's ranking prompt, criteria and persona", () => {
    const { messages } = buildRankingMessages({
      question: "Q",
      answers: answers.slice(0, 2),
      rankingPrompt: "Rank by persuasiveness.",
      criteria: ["accuracy", "style"],
      persona: { name: "Sarcastic Teenager", description: "Eye-rolling" },
      includeExplanations: false,
      seed: 1,
    });
    const user = messages[1].content;
    expect(user.startsWith("Rank by persuasiveness.")).toBe(true);
    expect(user).toContain("Weigh in particular: accuracy (");
    expect(user).toContain('persona "Sarcastic Teenager" (Eye-rolling)');
    expect(user).toContain('{"ranking":["B","A"]}');
    expect(user).not.toContain("explanation");
  });
});

describe("rating prompt", () => {
  it("asks for 1-10 scores on exactly the selected criteria", () => {
    const [system, user] = buildRatingMessages({
      question: "Describe ordering coffee.",
      answer: "It was fine.",
      criteria: ["accuracy", "clarity"],
      includeExplanations: true,
    });
    expect(system.role).toBe("system");
    expect(user.content).toContain("from 1 (poor) to 10 (excellent)");
    expect(user.content).toContain("- accuracy: ");
    expect(user.content).toContain("- clarity: ");
    expect(user.content).not.toContain("- style");
    expect(user.content).toContain("<answer>\nIt was fine.\n</answer>");
    expect(user.content).toContain('{"scores":{"accuracy":<1-10>,"clarity":<1-10>},"explanation":"..."}');
  });
});

describe("retry messages", () => {
  it("replays the conversation with the problem", () => {
    const original = [{ role: "user" as const, content: "Rank" }];
    expect(buildRetryMessages(original, "B > A", "No JSON object was found.")).toEqual([
      { role: "user", content: "Rank" },
      { role: "assistant", content: "B > A" },
      {
        role: "user",
        content:
          "That reply could not be used: No JSON object was found. Reply again in exactly the format asked for, with JSON only.",
      },
    ]);
  });
});

describe("previews", () => {
  const persona = { name: "Teacher", description: "Patient", systemPrompt: "You teach." };
  const topic = { title: "Fractions", prompt: "Explain fractions." };

  it("asks for a persona and a topic first", () => {
    expect(generationPromptPreview({ personas: [], topics: [topic], userPrompt: "", responsesPerTopic: 2 })).toBe(
      "Add at least one persona and one topic to see the generation prompt.",
    );
    expect(generationPromptPreview({ personas: [persona], topics: [], userPrompt: "", responsesPerTopic: 2 })).toBe(
      PREVIEW_TEXTS.noPersonaOrTopic,
    );
  });

  it("previews the first persona and topic", () => {
    const preview = generationPromptPreview({
      personas: [persona],
      topics: [topic],
      userPrompt: "Keep it short.",
      responsesPerTopic: 2,
    });
    expect(preview).toContain('Persona "Teacher", topic "Fractions".');
    expect(preview).toContain("System:\nYou teach.");
    expect(preview).toContain("User:\nExplain fractions.\n\nKeep it short.\n\nWrite exactly 2 different responses");
    const many = generationPromptPreview({
      personas: [persona, persona],
      topics: [topic, topic, topic],
      userPrompt: "",
      responsesPerTopic: 1,
    });
    expect(many).toContain("each of the 6 persona and topic pairs");
  });

  it("says when no criteria are selected", () => {
    const base = {
      evaluationCriteria: { ...DEFAULT_EVALUATION_CRITERIA, accuracy: false },
      scoringParameters: { scale: "rating" as const, includeExplanations: true },
      userPrompt: "",
      topics: [topic],
      personas: [persona],
    };
    expect(evaluationPromptPreview(base)).toBe(
      "No evaluation criteria are selected. Select at least one criterion to see the evaluation prompt.",
    );
  });

  it("previews the ranking and rating prompts with placeholder answers", () => {
    const base = {
      evaluationCriteria: DEFAULT_EVALUATION_CRITERIA,
      userPrompt: "Keep it short.",
      topics: [topic],
      personas: [persona],
    };
    const ranking = evaluationPromptPreview({
      ...base,
      scoringParameters: { scale: "ranking", includeExplanations: true },
    });
    expect(ranking).toContain(DEFAULT_RANKING_PROMPT);
    expect(ranking).toContain("[A]\n(an answer from a generator model)");
    expect(ranking).toContain("<question>\nExplain fractions.\n\nKeep it short.\n</question>");
    const rating = evaluationPromptPreview({
      ...base,
      scoringParameters: { scale: "rating", includeExplanations: false },
    });
    expect(rating).toContain('{"scores":{"accuracy":<1-10>}}');
  });
});
