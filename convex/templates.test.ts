import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { MAX_STORED_BYTES, storedBytes } from "./lib/limits";
import type { TemplateData } from "./validators";
import { createUser, createBackend, sampleTemplateData, errorOf } from "./test.helpers";

const base = {
  name: "Launch copy",
  description: "Taglines for launches",
  category: "marketing" as const,
  isPublic: false,
  tags: [] as string[],
};

describe("templates", () => {
  test("name and description are required, trimmed", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    await expect(
      ada.as.mutation(api.templates.create, { ...base, name: "   ", templateData: sampleTemplateData }),
    ).rejects.toThrow("Please provide both a name and description for your template.");
  });

  test("at least one persona and one topic are required", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    await expect(
      ada.as.mutation(api.templates.create, { ...base, templateData: { ...sampleTemplateData, topics: [] } }),
    ).rejects.toThrow("Your configuration must have at least one persona and one topic to save as a template.");
  });

  test("name ≤ 100, description ≤ 500, up to 5 unique tags of ≤ 20 characters, stored lowercased and trimmed", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const make = (over: Partial<typeof base> & { tags?: string[] }) =>
      ada.as.mutation(api.templates.create, { ...base, ...over, templateData: sampleTemplateData });
    await expect(make({ name: "x".repeat(101) })).rejects.toThrow(/100 characters/);
    await expect(make({ description: "x".repeat(501) })).rejects.toThrow(/500 characters/);
    await expect(make({ tags: ["a", "b", "c", "d", "e", "f"] })).rejects.toThrow(/up to 5 tags/);
    await expect(make({ tags: ["x".repeat(21)] })).rejects.toThrow(/20 characters/);
    await expect(make({ tags: ["Seo", " seo "] })).rejects.toThrow(/already been added/);
    const id = await make({ name: "x".repeat(100), description: "y".repeat(500), tags: [" SEO ", "Ads"] });
    const [saved] = await ada.as.query(api.templates.listOwn, {});
    expect(saved._id).toBe(id);
    expect(saved.tags).toEqual(["seo", "ads"]);
    expect(saved.isPublic).toBe(false);
  });

  test("private templates are invisible to others; public ones are listed to everyone by usage", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    const quiet = await ada.as.mutation(api.templates.create, {
      ...base,
      name: "Quiet",
      templateData: sampleTemplateData,
    });
    const popular = await ada.as.mutation(api.templates.create, {
      ...base,
      name: "Popular",
      templateData: sampleTemplateData,
    });
    expect(await t.query(api.templates.listPublic, {})).toEqual([]);
    expect(await bob.as.query(api.templates.get, { templateId: quiet })).toBeNull();
    await ada.as.mutation(api.templates.setVisibility, { templateId: quiet, isPublic: true });
    await ada.as.mutation(api.templates.setVisibility, { templateId: popular, isPublic: true });
    await bob.as.mutation(api.templates.recordUse, { templateId: popular });
    await bob.as.mutation(api.templates.recordUse, { templateId: popular });
    const library = await t.query(api.templates.listPublic, {});
    expect(library.map((row) => [row.name, row.usageCount])).toEqual([
      ["Popular", 2],
      ["Quiet", 0],
    ]);
    expect(library.every((row) => !("userId" in row))).toBe(true);
    // Only the owner may change or delete; another user can copy a public one.
    await expect(bob.as.mutation(api.templates.remove, { templateId: popular })).rejects.toThrow(/not found/);
    await expect(
      bob.as.mutation(api.templates.setVisibility, { templateId: popular, isPublic: false }),
    ).rejects.toThrow(/not found/);
    const copy = await bob.as.mutation(api.templates.saveCopy, { templateId: popular });
    expect((await bob.as.query(api.templates.listOwn, {})).map((row) => [row._id, row.isPublic, row.isOwn])).toEqual([
      [copy, false, true],
    ]);
    await ada.as.mutation(api.templates.remove, { templateId: quiet });
    expect((await t.query(api.templates.listPublic, {})).map((row) => row.name)).toEqual(["Popular"]);
  });

  describe("limits on the template data", () => {
    const persona = { name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." };
    const topic = { title: "Coffee", description: "A coffee shop", prompt: "Sell coffee." };
    const cases: [string, Partial<TemplateData>, string, RegExp][] = [
      [
        "a huge prompt",
        { userPrompt: "x".repeat(10_001) },
        "templateData.userPrompt",
        /^The prompt must be at most 10,000 characters\.$/,
      ],
      [
        "a huge ranking prompt",
        { evaluationConfig: { ...sampleTemplateData.evaluationConfig, rankingPrompt: "x".repeat(5_001) } },
        "templateData.evaluationConfig.rankingPrompt",
        /at most 5,000 characters/,
      ],
      [
        "11 personas",
        { personas: Array.from({ length: 11 }, () => persona) },
        "templateData.personas",
        /^Personas: at most 10 allowed \(got 11\)\.$/,
      ],
      ["11 topics", { topics: Array.from({ length: 11 }, () => topic) }, "templateData.topics", /at most 10 allowed/],
      [
        "a persona's system prompt over 10,000",
        { personas: [{ ...persona, systemPrompt: "x".repeat(10_001) }] },
        "templateData.personas.0.systemPrompt",
        /^Persona 1: System prompt must be 10,000 characters or fewer\.$/,
      ],
      [
        "11 suggested generators",
        { suggestedModels: { generators: Array.from({ length: 11 }, (_, i) => `p/m${i}`), evaluators: [] } },
        "templateData.suggestedModels.generators",
        /Suggested generator models: at most 10/,
      ],
      [
        "a model id of 201 characters",
        { suggestedModels: { generators: ["p/" + "m".repeat(199)], evaluators: [] } },
        "templateData.suggestedModels.generators.0",
        /^A model id must be at most 200 characters\.$/,
      ],
      [
        "a model listed twice",
        { suggestedModels: { generators: [], evaluators: ["p/m", "p/m"] } },
        "templateData.suggestedModels.evaluators",
        /only be listed once/,
      ],
    ];
    for (const [what, over, field, message] of cases) {
      test(`${what} is refused with the field named, and nothing is stored`, async () => {
        const t = createBackend();
        const ada = await createUser(t, "ada@example.com");
        const refused = await errorOf(
          ada.as.mutation(api.templates.create, { ...base, templateData: { ...sampleTemplateData, ...over } }),
        );
        expect(refused).toMatchObject({ code: "INVALID_INPUT", field });
        expect(refused.message).toMatch(message);
        expect(await t.run((ctx) => ctx.db.query("templates").collect())).toEqual([]);
      });
    }

    test("responses per topic is a whole number from 1 to 10: NaN, ±Infinity, -1, 1e9 and 2.5 are refused", async () => {
      const t = createBackend();
      const ada = await createUser(t, "ada@example.com");
      for (const responsesPerTopic of [Number.NaN, Infinity, -Infinity, -1, 0, 1e9, 2.5, 11]) {
        const refused = await errorOf(
          ada.as.mutation(api.templates.create, {
            ...base,
            templateData: { ...sampleTemplateData, responsesPerTopic },
          }),
        );
        expect([responsesPerTopic, refused]).toEqual([
          responsesPerTopic,
          {
            code: "INVALID_INPUT",
            field: "templateData.responsesPerTopic",
            message: "Responses per topic must be a whole number from 1 to 10.",
          },
        ]);
      }
      expect(await t.run((ctx) => ctx.db.query("templates").collect())).toEqual([]);
      await ada.as.mutation(api.templates.create, {
        ...base,
        templateData: { ...sampleTemplateData, responsesPerTopic: 10 },
      });
      expect((await ada.as.query(api.templates.listOwn, {}))[0]?.templateData.responsesPerTopic).toBe(10);
    });

    test("the largest template the fields allow fits; one over 256 KB in total is refused by size", async () => {
      const t = createBackend();
      const ada = await createUser(t, "ada@example.com");
      const full = {
        ...sampleTemplateData,
        userPrompt: "u".repeat(10_000),
        personas: Array.from({ length: 10 }, () => ({
          name: "n".repeat(100),
          description: "d".repeat(500),
          systemPrompt: "s".repeat(10_000),
        })),
        topics: Array.from({ length: 10 }, () => ({
          title: "t".repeat(100),
          description: "d".repeat(500),
          prompt: "p".repeat(10_000),
        })),
      };
      await ada.as.mutation(api.templates.create, { ...base, templateData: full });
      // The same number of characters as three-byte text (e.g. CJK) is over 600 KB.
      const wide = { ...full, personas: full.personas.map((p) => ({ ...p, systemPrompt: "語".repeat(10_000) })) };
      expect(storedBytes(wide)).toBeGreaterThan(MAX_STORED_BYTES);
      const refused = await errorOf(ada.as.mutation(api.templates.create, { ...base, templateData: wide }));
      expect(refused).toMatchObject({ code: "INVALID_INPUT", field: "templateData" });
      expect(refused.message).toMatch(/^A template must be at most 256 KB in total \(this one is \d+ KB\)/);
      expect(await t.run((ctx) => ctx.db.query("templates").collect())).toHaveLength(1);
    });

    /** Template data of about 200 KB: ten long personas and ten long topics. */
    const BIG = {
      ...sampleTemplateData,
      personas: Array.from({ length: 10 }, () => ({ name: "n", description: "d", systemPrompt: "s".repeat(10_000) })),
      topics: Array.from({ length: 10 }, () => ({ title: "t", description: "d", prompt: "p".repeat(10_000) })),
    };

    test("a user's templates together stay within 8 MB: past it saving is refused and says so", async () => {
      const t = createBackend();
      const ada = await createUser(t, "ada@example.com");
      let saved = 0;
      let refused: { code?: string; message?: string; field?: string } | undefined;
      while (!refused && saved < 60) {
        try {
          await ada.as.mutation(api.templates.create, { ...base, templateData: BIG });
          saved++;
        } catch (error) {
          refused = (error as ConvexError<{ code: string; message: string; field: string }>).data;
        }
      }
      expect(refused).toEqual({
        code: "INVALID_INPUT",
        field: "templateData",
        message: "Your templates can take up at most 8 MB together. Delete some to save more.",
      });
      expect(saved * storedBytes(BIG)).toBeLessThanOrEqual(8 * 1024 * 1024);
      expect(saved).toBeGreaterThan(35);
      expect(await ada.as.query(api.templates.listOwn, {})).toHaveLength(saved);
      // About 40 saves of 200 KB each: close to 5 s on a quiet 2-core machine, so it gets its own time.
    }, 30_000);

    test("an anonymous caller is never sent more than 4 MB of public templates", async () => {
      const t = createBackend();
      const ada = await createUser(t, "ada@example.com");
      for (let i = 0; i < 24; i++)
        await ada.as.mutation(api.templates.create, { ...base, isPublic: true, templateData: BIG });
      const library = await t.query(api.templates.listPublic, {});
      const bytes = storedBytes(library);
      expect(bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
      expect(library.length).toBeGreaterThan(15);
      expect(library.length).toBeLessThan(24);
    });
  });
});
