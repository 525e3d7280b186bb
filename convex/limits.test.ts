// every field the server stores has a limit; over it the call is refused with the field
// and the limit named, and nothing is written. (Template limits: templates.test.ts.)
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { MAX_STORED_BYTES, storedBytes } from "./lib/limits";
import { createUser, createBackend, sampleConfiguration, seedCatalog, type TestBackend, errorOf } from "./test.helpers";
import type { TestConfiguration } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001"];

async function setup() {
  const t = createBackend();
  await seedCatalog(t, [...GENERATORS, ...EVALUATORS]);
  const ada = await createUser(t, "ada@example.com");
  const create = (overrides: Partial<TestConfiguration>) =>
    ada.as.mutation(api.tests.create, { configuration: sampleConfiguration(GENERATORS, EVALUATORS, overrides) });
  return { t, ada, create };
}

async function storedTests(t: TestBackend) {
  return await t.run(async (ctx) => ({
    tests: (await ctx.db.query("tests").collect()).length,
    jobs: (await ctx.db.query("jobs").collect()).length,
  }));
}

const persona = (id: string) => ({
  id,
  name: `Persona ${id.slice(0, 8)}`,
  description: "Someone",
  systemPrompt: "Be someone.",
});
const topic = (id: string) => ({ id, title: `Topic ${id}`, description: "Something", prompt: "Talk about something." });

describe("a test's configuration (tests.create)", () => {
  const cases: [string, Partial<TestConfiguration>, string, string][] = [
    [
      "the same persona twice",
      { personas: [persona("p1"), persona("p1")] },
      "personas",
      "Each persona can only be added once (two have the same id).",
    ],
    [
      "the same topic twice",
      { topics: [topic("t1"), topic("t2"), topic("t1")] },
      "topics",
      "Each topic can only be added once (two have the same id).",
    ],
    ["a topic without an id", { topics: [topic("")] }, "topics", "Every topic needs an id."],
    [
      "a task type of 51 characters",
      { taskType: "x".repeat(51) },
      "taskType",
      "Task type must be at most 50 characters.",
    ],
    [
      "a persona id of 101 characters",
      { personas: [persona("p".repeat(101))] },
      "personas.0.id",
      "A persona id must be at most 100 characters.",
    ],
    [
      "a model id of 201 characters",
      { evaluatorModels: [{ id: `${"m".repeat(201)}`, name: "Judge" }] },
      "evaluatorModels.0",
      "Evaluator model id must be at most 200 characters.",
    ],
  ];
  for (const [what, overrides, field, message] of cases) {
    test(`${what} is refused with the field and limit named, and nothing is stored`, async () => {
      const { t, create } = await setup();
      expect(await errorOf(create(overrides))).toEqual({ code: "INVALID_INPUT", field, message });
      expect(await storedTests(t)).toEqual({ tests: 0, jobs: 0 });
    });
  }

  test("responses per topic outside 1–10 (NaN, ±Infinity, -1, 1e9, 2.5) is refused", async () => {
    const { t, create } = await setup();
    for (const responsesPerTopic of [Number.NaN, Infinity, -Infinity, -1, 1e9, 2.5]) {
      expect([responsesPerTopic, await errorOf(create({ responsesPerTopic }))]).toEqual([
        responsesPerTopic,
        {
          code: "INVALID_INPUT",
          field: "responsesPerTopic",
          message: "Responses per topic must be a whole number from 1 to 10.",
        },
      ]);
    }
    expect(await storedTests(t)).toEqual({ tests: 0, jobs: 0 });
  });

  test("a configuration over 256 KB in total is refused by size; the largest plain-text one is accepted", async () => {
    const { t, create } = await setup();
    const personas = Array.from({ length: 10 }, (_, i) => ({ ...persona(`p${i}`), systemPrompt: "s".repeat(10_000) }));
    const topics = Array.from({ length: 10 }, (_, i) => ({ ...topic(`t${i}`), prompt: "p".repeat(10_000) }));
    const largest = {
      personas,
      topics,
      userPrompt: "u".repeat(10_000),
      rankingPrompt: "r".repeat(5_000),
      responsesPerTopic: 1,
    };
    const created = await create(largest);
    expect(created.testId).toBeTruthy();

    const wide = { ...largest, personas: personas.map((p) => ({ ...p, systemPrompt: "語".repeat(10_000) })) };
    expect(storedBytes(wide)).toBeGreaterThan(MAX_STORED_BYTES);
    const refused = await errorOf(create(wide));
    expect(refused).toMatchObject({ code: "INVALID_INPUT", field: "configuration" });
    expect(refused.message).toMatch(/^The test configuration must be at most 256 KB in total \(this one is \d+ KB\)/);
    expect(await storedTests(t)).toEqual({ tests: 1, jobs: 1 });
  });
});

describe("saved personas and topics", () => {
  test("a field over its limit is refused with the field and the limit; nothing is written", async () => {
    const { t, ada } = await setup();
    const persona = { name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." };
    expect(
      await errorOf(ada.as.mutation(api.personas.create, { ...persona, systemPrompt: "x".repeat(10_001) })),
    ).toEqual({
      code: "INVALID_INPUT",
      field: "systemPrompt",
      message: "System prompt must be 10,000 characters or fewer.",
    });
    expect(
      await errorOf(ada.as.mutation(api.topics.create, { title: "x".repeat(101), description: "d", prompt: "p" })),
    ).toEqual({
      code: "INVALID_INPUT",
      field: "title",
      message: "Topic title must be 100 characters or fewer.",
    });
    expect(
      await t.run(async (ctx) => [
        (await ctx.db.query("personas").collect()).length,
        (await ctx.db.query("topics").collect()).length,
      ]),
    ).toEqual([0, 0]);
  });
});
