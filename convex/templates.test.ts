import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { createUser, newTest, sampleTemplateData } from "./test.helpers";

const base = { name: "Launch copy", description: "Taglines for launches", category: "marketing" as const, isPublic: false, tags: [] as string[] };

describe("templates", () => {
  test("name and description are required, trimmed", async () => {
    const t = newTest();
    const ada = await createUser(t, "ada@example.com");
    await expect(
      ada.as.mutation(api.templates.create, { ...base, name: "   ", templateData: sampleTemplateData }),
    ).rejects.toThrow("Please provide both a name and description for your template.");
  });

  test("at least one persona and one topic are required", async () => {
    const t = newTest();
    const ada = await createUser(t, "ada@example.com");
    await expect(
      ada.as.mutation(api.templates.create, { ...base, templateData: { ...sampleTemplateData, topics: [] } }),
    ).rejects.toThrow("Your configuration must have at least one persona and one topic to save as a template.");
  });

  test("name ≤ 100, description ≤ 500, up to 5 unique tags of ≤ 20 characters, stored lowercased and trimmed", async () => {
    const t = newTest();
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
    const t = newTest();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    const quiet = await ada.as.mutation(api.templates.create, { ...base, name: "Quiet", templateData: sampleTemplateData });
    const popular = await ada.as.mutation(api.templates.create, { ...base, name: "Popular", templateData: sampleTemplateData });
    expect(await t.query(api.templates.listPublic, {})).toEqual([]);
    expect(await bob.as.query(api.templates.get, { templateId: quiet })).toBeNull();
    await ada.as.mutation(api.templates.setVisibility, { templateId: quiet, isPublic: true });
    await ada.as.mutation(api.templates.setVisibility, { templateId: popular, isPublic: true });
    await bob.as.mutation(api.templates.recordUse, { templateId: popular });
    await bob.as.mutation(api.templates.recordUse, { templateId: popular });
    const library = await t.query(api.templates.listPublic, {});
    expect(library.map((row) => [row.name, row.usageCount])).toEqual([["Popular", 2], ["Quiet", 0]]);
    expect(library.every((row) => !("userId" in row))).toBe(true);
    // Only the owner may change or delete; another user can copy a public one.
    await expect(bob.as.mutation(api.templates.remove, { templateId: popular })).rejects.toThrow(/not found/);
    await expect(bob.as.mutation(api.templates.setVisibility, { templateId: popular, isPublic: false })).rejects.toThrow(/not found/);
    const copy = await bob.as.mutation(api.templates.saveCopy, { templateId: popular });
    expect((await bob.as.query(api.templates.listOwn, {})).map((row) => [row._id, row.isPublic, row.isOwn])).toEqual([[copy, false, true]]);
    await ada.as.mutation(api.templates.remove, { templateId: quiet });
    expect((await t.query(api.templates.listPublic, {})).map((row) => row.name)).toEqual(["Popular"]);
  });
});
