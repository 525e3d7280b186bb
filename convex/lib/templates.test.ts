// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  addTag,
  COMPLEXITY_LABELS,
  DEFAULT_TEMPLATE_CATEGORY,
  normalizeTag,
  TEMPLATE_CATEGORIES,
  TEMPLATE_CATEGORY_FILTERS,
  templateCategoryLabel,
  validatePersona,
  validateTemplateInput,
  validateTopic,
} from "./templates";

const valid = { name: "Launch copy", description: "Marketing copy for launches", personas: [{}], topics: [{}] };

describe("validateTemplateInput", () => {
  it("accepts a complete template", () => {
    expect(validateTemplateInput(valid)).toBeNull();
    expect(validateTemplateInput({ ...valid, name: "n".repeat(100), description: "d".repeat(500) })).toBeNull();
  });

  it("requires a trimmed name and description", () => {
    const message = "Please provide both a name and description for your template.";
    expect(validateTemplateInput({ ...valid, name: "   " })).toBe(message);
    expect(validateTemplateInput({ ...valid, description: "" })).toBe(message);
    // checked before the persona and topic rule
    expect(validateTemplateInput({ ...valid, name: "", personas: [] })).toBe(message);
  });

  it("requires a persona and a topic", () => {
    const message = "Your configuration must have at least one persona and one topic to save as a template.";
    expect(validateTemplateInput({ ...valid, personas: [] })).toBe(message);
    expect(validateTemplateInput({ ...valid, topics: [] })).toBe(message);
  });

  it("limits the name to 100 and the description to 500 characters", () => {
    expect(validateTemplateInput({ ...valid, name: "n".repeat(101) })).toBe(
      "Template name must be 100 characters or fewer.",
    );
    expect(validateTemplateInput({ ...valid, description: "d".repeat(501) })).toBe(
      "Template description must be 500 characters or fewer.",
    );
    expect(validateTemplateInput({ ...valid, name: `  ${"n".repeat(100)}  ` })).toBeNull();
  });

  it("checks tags when given", () => {
    expect(validateTemplateInput({ ...valid, tags: ["a", "b", "c", "d", "e", "f"] })).toBe("You can add up to 5 tags.");
    expect(validateTemplateInput({ ...valid, tags: ["SEO", " seo "] })).toBe("That tag has already been added.");
    expect(validateTemplateInput({ ...valid, tags: ["x".repeat(21)] })).toBe("Tags must be 20 characters or fewer.");
  });
});

describe("tags", () => {
  it("normalizes by trimming and lowercasing", () => {
    expect(normalizeTag("  Email Marketing ")).toBe("email marketing");
  });

  it("adds up to 5 unique tags of at most 20 characters", () => {
    expect(addTag(["seo"], " Blog ")).toEqual({ tags: ["seo", "blog"] });
    expect(addTag(["seo"], "SEO")).toEqual({ tags: ["seo"], error: "That tag has already been added." });
    expect(addTag([], "x".repeat(21))).toEqual({ tags: [], error: "Tags must be 20 characters or fewer." });
    expect(addTag([], "x".repeat(20))).toEqual({ tags: ["x".repeat(20)] });
    expect(addTag(["a", "b", "c", "d", "e"], "f")).toEqual({
      tags: ["a", "b", "c", "d", "e"],
      error: "You can add up to 5 tags.",
    });
    expect(addTag(["a"], "   ")).toEqual({ tags: ["a"] });
  });

  it("does not change the list it is given", () => {
    const tags = ["a"];
    addTag(tags, "b");
    expect(tags).toEqual(["a"]);
  });
});

describe("categories and labels", () => {
  it("lists the spec's categories, with general shown as Custom", () => {
    expect(TEMPLATE_CATEGORIES).toEqual(["marketing", "technical", "customer-service", "content", "general"]);
    expect(TEMPLATE_CATEGORY_FILTERS[0]).toBe("all");
    expect(DEFAULT_TEMPLATE_CATEGORY).toBe("general");
    expect(templateCategoryLabel("general")).toBe("Custom");
    expect(templateCategoryLabel("customer-service")).toBe("Customer Service");
    expect(templateCategoryLabel("all")).toBe("All");
    expect(COMPLEXITY_LABELS).toEqual({ low: "Simple", medium: "Moderate", high: "Complex" });
  });
});

describe("validatePersona and validateTopic", () => {
  it("requires every persona field", () => {
    expect(
      validatePersona({ name: "Sarcastic Teenager", description: "Eye-rolling", systemPrompt: "You are..." }),
    ).toEqual([]);
    expect(validatePersona({ name: " ", description: "", systemPrompt: "" })).toEqual([
      { field: "name", message: "Persona name is required." },
      { field: "description", message: "Persona description is required." },
      { field: "systemPrompt", message: "System prompt is required." },
    ]);
  });

  it("limits persona lengths", () => {
    expect(
      validatePersona({ name: "n".repeat(101), description: "d".repeat(501), systemPrompt: "s".repeat(10_001) }),
    ).toEqual([
      { field: "name", message: "Persona name must be 100 characters or fewer." },
      { field: "description", message: "Persona description must be 500 characters or fewer." },
      { field: "systemPrompt", message: "System prompt must be 10,000 characters or fewer." },
    ]);
  });

  it("requires every topic field and limits their lengths", () => {
    expect(
      validateTopic({ title: "Everyday Situations", description: "Daily life", prompt: "Ordering coffee" }),
    ).toEqual([]);
    expect(validateTopic({ title: "", description: "d".repeat(501), prompt: "" })).toEqual([
      { field: "title", message: "Topic title is required." },
      { field: "description", message: "Topic description must be 500 characters or fewer." },
      { field: "prompt", message: "Topic content is required." },
    ]);
  });
});
