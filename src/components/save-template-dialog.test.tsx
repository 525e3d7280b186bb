import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { callMock } from "@/test/convex-mock";

import type { TemplateData } from "../../convex/validators";
import { SaveTemplateDialog } from "./save-template-dialog";

const DATA: TemplateData = {
  userPrompt: "Write a tagline.",
  personas: [{ name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." }],
  topics: [{ title: "Coffee", description: "A coffee shop", prompt: "Sell coffee." }],
  evaluationConfig: {
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: true },
  },
  suggestedModels: { generators: [], evaluators: [] },
  responsesPerTopic: 2,
};

async function fillAndSave(templateData: TemplateData) {
  const user = userEvent.setup();
  render(<SaveTemplateDialog open onOpenChange={() => {}} templateData={templateData} defaultName="Launch copy" />);
  const dialog = screen.getByRole("dialog");
  await user.type(within(dialog).getByLabelText(/Description/), "Taglines for launches");
  await user.click(within(dialog).getByRole("button", { name: /Save Template/ }));
  return dialog;
}

describe("Save as Template limits", () => {
  it("names the field over its limit and sends nothing", async () => {
    const dialog = await fillAndSave({ ...DATA, userPrompt: "x".repeat(10_001) });
    expect(await within(dialog).findByText("The prompt must be at most 10,000 characters.")).toBeInTheDocument();
    expect(callMock("templates:create")).not.toHaveBeenCalled();
  });

  it("sends a template within the limits", async () => {
    await fillAndSave(DATA);
    await waitFor(() => expect(callMock("templates:create")).toHaveBeenCalledTimes(1));
  });
});

describe("Save as Template name", () => {
  async function saveWithName(defaultName: string) {
    const user = userEvent.setup();
    render(<SaveTemplateDialog open onOpenChange={() => {}} templateData={DATA} defaultName={defaultName} />);
    const dialog = screen.getByRole("dialog");
    await user.type(within(dialog).getByLabelText(/Description/), "Taglines for launches");
    await user.click(within(dialog).getByRole("button", { name: /Save Template/ }));
    return within(dialog).getByLabelText("Template Name");
  }

  it("refuses an empty name under the field and sends nothing", async () => {
    const name = await saveWithName("   ");
    await waitFor(() => expect(name).toHaveAttribute("aria-invalid", "true"));
    expect(name).toHaveAccessibleDescription("Please provide both a name and description for your template.");
    expect(callMock("templates:create")).not.toHaveBeenCalled();
  });

  it("refuses a name over 100 characters (a long test name) under the field and sends nothing", async () => {
    // The results page offers the test's name, which may be up to 200 characters.
    const name = await saveWithName("Tagline tone ".repeat(10));
    await waitFor(() => expect(name).toHaveAttribute("aria-invalid", "true"));
    expect(name).toHaveAccessibleDescription("Template name must be 100 characters or fewer.");
    expect(callMock("templates:create")).not.toHaveBeenCalled();
  });

  it("sends the trimmed name once it is fixed", async () => {
    const user = userEvent.setup();
    const name = await saveWithName("   ");
    await user.type(name, "  Launch copy ");
    await user.click(screen.getByRole("button", { name: /Save Template/ }));
    await waitFor(() => expect(callMock("templates:create")).toHaveBeenCalledTimes(1));
    expect(callMock("templates:create").mock.calls[0]![0]).toMatchObject({ name: "Launch copy" });
    expect(name).toHaveAttribute("aria-invalid", "false");
  });
});
