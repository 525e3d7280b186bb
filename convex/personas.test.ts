import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { createUser, createBackend } from "./test.helpers";

describe("personas and topics", () => {
  test("each user lists only their own saved personas, newest first", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    await ada.as.mutation(api.personas.create, {
      name: "Pirate",
      description: "Arr",
      systemPrompt: "Talk like a pirate.",
    });
    await ada.as.mutation(api.personas.create, {
      name: "Poet",
      description: "Rhymes",
      systemPrompt: "Answer in verse.",
    });
    await bob.as.mutation(api.personas.create, { name: "Robot", description: "Beeps", systemPrompt: "Beep." });
    const mine = await ada.as.query(api.personas.list, {});
    expect(mine.total).toBe(2);
    expect(mine.items.map((p) => p.name)).toEqual(["Poet", "Pirate"]);
    expect((await ada.as.query(api.personas.list, { limit: 1 })).items).toHaveLength(1);
    expect((await bob.as.query(api.personas.list, {})).items.map((p) => p.name)).toEqual(["Robot"]);
  });

  test("a persona with an empty field is refused with the field named and nothing saved", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const error = await ada.as
      .mutation(api.personas.create, { name: "Pirate", description: "  ", systemPrompt: "Arr." })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvexError);
    expect((error as ConvexError<{ code: string; field: string; message: string }>).data).toMatchObject({
      code: "INVALID_INPUT",
      field: "description",
      message: "Persona description is required.",
    });
    expect((await ada.as.query(api.personas.list, {})).total).toBe(0);
  });

  test("another user can neither edit nor delete someone's persona or topic", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    const personaId = await ada.as.mutation(api.personas.create, {
      name: "Pirate",
      description: "Arr",
      systemPrompt: "Arr.",
    });
    const topicId = await ada.as.mutation(api.topics.create, {
      title: "Coffee",
      description: "Shop",
      prompt: "Sell coffee.",
    });
    await expect(
      bob.as.mutation(api.personas.update, { personaId, name: "Hacked", description: "x", systemPrompt: "x" }),
    ).rejects.toThrow(/not found/);
    await expect(bob.as.mutation(api.topics.remove, { topicId })).rejects.toThrow(/not found/);
    expect((await ada.as.query(api.personas.list, {})).items[0].name).toBe("Pirate");
    expect((await ada.as.query(api.topics.list, {})).total).toBe(1);
  });

  test("the owner edits and deletes a topic", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const topicId = await ada.as.mutation(api.topics.create, {
      title: "Coffee",
      description: "Shop",
      prompt: "Sell coffee.",
    });
    await ada.as.mutation(api.topics.update, { topicId, title: " Tea ", description: "Shop", prompt: "Sell tea." });
    expect((await ada.as.query(api.topics.list, {})).items[0]).toMatchObject({ title: "Tea", prompt: "Sell tea." });
    await ada.as.mutation(api.topics.remove, { topicId });
    expect((await ada.as.query(api.topics.list, {})).total).toBe(0);
  });
});
