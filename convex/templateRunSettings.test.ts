// Templates carry a test's run settings (issue 35): its repeats and its "stop when settled" question,
// as a rerun does; stored without the settle seed, checked as a test's are, and older templates
// without them still read.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { REPEATS_MESSAGE } from "./lib/repeats";
import { createBackend, createUser, errorOf, sampleTemplateData } from "./test.helpers";

const base = {
  name: "Support replies",
  description: "Which model answers support mail best",
  category: "customer-service" as const,
  isPublic: false,
  tags: [] as string[],
};
const generators = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const withSettings = {
  ...sampleTemplateData,
  suggestedModels: { generators, evaluators: ["google/gemini-2.0-flash-001"] },
  stopWhenSettled: {
    question: "withinDelta" as const,
    confidence: 0.9,
    modelId: "anthropic/claude-3.5-haiku",
    delta: 0.5,
    seed: "a-test-s-own-order",
  },
  repeats: 3,
};
const { seed: _seed, ...settleWithoutSeed } = withSettings.stopWhenSettled;

describe("a template's run settings", () => {
  test("are kept (the settle question without its seed), in the public library and in a copy", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    const templateId = await ada.as.mutation(api.templates.create, { ...base, templateData: withSettings });
    const [own] = await ada.as.query(api.templates.listOwn, {});
    expect(own!.templateData.repeats).toBe(3);
    expect(own!.templateData.stopWhenSettled).toEqual(settleWithoutSeed);

    await ada.as.mutation(api.templates.setVisibility, { templateId, isPublic: true });
    const [shared] = await t.query(api.templates.listPublic, {});
    expect(shared!.templateData).toMatchObject({ repeats: 3, stopWhenSettled: settleWithoutSeed });
    const opened = await bob.as.query(api.templates.get, { templateId });
    expect(opened!.templateData).toMatchObject({ repeats: 3, stopWhenSettled: settleWithoutSeed });
    await bob.as.mutation(api.templates.saveCopy, { templateId });
    const [copy] = await bob.as.query(api.templates.listOwn, {});
    expect(copy!.templateData).toMatchObject({ repeats: 3, stopWhenSettled: settleWithoutSeed });
  });

  test("are checked as a test's: nothing is saved with bad repeats or a δ question about a model it does not suggest", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    for (const repeats of [0, 2.5, 11]) {
      expect(
        await errorOf(ada.as.mutation(api.templates.create, { ...base, templateData: { ...withSettings, repeats } })),
      ).toMatchObject({ code: "INVALID_INPUT", message: REPEATS_MESSAGE, field: "templateData.repeats" });
    }
    const elsewhere = { ...withSettings.stopWhenSettled, modelId: "mistralai/mistral-small" };
    expect(
      await errorOf(
        ada.as.mutation(api.templates.create, {
          ...base,
          templateData: { ...withSettings, stopWhenSettled: elsewhere },
        }),
      ),
    ).toMatchObject({
      code: "INVALID_INPUT",
      message: "Choose one of the test's models to compare with the best.",
      field: "templateData.stopWhenSettled.modelId",
    });
    expect(await ada.as.query(api.templates.listOwn, {})).toEqual([]);
  });

  test("are optional: a template saved before them reads as before", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    await ada.as.mutation(api.templates.create, { ...base, templateData: sampleTemplateData });
    const [plain] = await ada.as.query(api.templates.listOwn, {});
    expect(plain!.templateData).not.toHaveProperty("repeats");
    expect(plain!.templateData).not.toHaveProperty("stopWhenSettled");
  });
});
