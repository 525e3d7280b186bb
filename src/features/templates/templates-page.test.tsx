import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { callMock, makeViewer, mockCall, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { filterTemplates, type TemplateView } from "./template-filter";

const data: TemplateView["templateData"] = {
  userPrompt: "Write a tagline.",
  personas: [{ name: "Pirate", description: "Arr", systemPrompt: "Arr." }],
  topics: [
    { title: "Coffee", description: "Shop", prompt: "Sell coffee." },
    { title: "Bikes", description: "Repair", prompt: "Fix bikes." },
  ],
  evaluationConfig: {
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: true },
  },
  suggestedModels: { generators: [], evaluators: [] },
};

function template(id: string, overrides: Partial<TemplateView> = {}): TemplateView {
  return {
    _id: id as TemplateView["_id"],
    _creationTime: 0,
    name: `Template ${id}`,
    description: "A description",
    category: "marketing",
    isPublic: false,
    tags: [],
    usageCount: 0,
    templateData: data,
    updatedAt: 0,
    isOwn: true,
    ...overrides,
  };
}

const OWN = [
  template("own1", { name: "Launch emails", tags: ["email", "launch", "b2b", "saas", "growth"], usageCount: 3 }),
  template("own2", { name: "API docs", category: "technical", description: "Reference pages", isPublic: true }),
];
const PUBLIC = [
  template("pub1", {
    name: "Support replies",
    category: "customer-service",
    isPublic: true,
    isOwn: false,
    usageCount: 42,
  }),
  OWN[1]!,
];

async function renderTemplates(own: TemplateView[] | undefined = OWN, pub: TemplateView[] | undefined = PUBLIC) {
  setSignedIn(makeViewer());
  setQueryResult("templates:listOwn", own);
  setQueryResult("templates:listPublic", pub);
  renderApp("/dashboard/templates");
  await screen.findByRole("heading", { name: "Templates", level: 1 });
}

describe("filterTemplates", () => {
  it("searches name, description and tags case-insensitively and filters by category", () => {
    expect(filterTemplates(OWN, "LAUNCH", "all").map((t) => t.name)).toEqual(["Launch emails"]);
    expect(filterTemplates(OWN, "reference", "all").map((t) => t.name)).toEqual(["API docs"]);
    expect(filterTemplates(OWN, "saas", "all").map((t) => t.name)).toEqual(["Launch emails"]);
    expect(filterTemplates(OWN, "", "technical").map((t) => t.name)).toEqual(["API docs"]);
    expect(filterTemplates(OWN, "launch", "technical")).toEqual([]);
  });
});

describe("templates page", () => {
  it("has the two tabs with counts and my templates first", async () => {
    await renderTemplates();
    expect(screen.getByRole("tab", { name: "My Templates (2)" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Public Library (2)" })).toBeInTheDocument();
    expect(screen.getAllByTestId("template-card")).toHaveLength(2);
  });

  it("shows the first 3 tags then +n, and Use leads to setup with the template", async () => {
    await renderTemplates();
    const tags = screen.getByRole("list", { name: "Tags of Launch emails" });
    expect(
      within(tags)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["email", "launch", "b2b", "+2"]);
    expect(screen.getByRole("link", { name: "Use Launch emails" })).toHaveAttribute(
      "href",
      "/dashboard/setup?template=own1",
    );
  });

  it("searches and filters by category, with the empty state when nothing matches", async () => {
    const user = userEvent.setup();
    await renderTemplates();
    await user.type(screen.getByRole("searchbox", { name: "Search templates" }), "docs");
    expect(screen.getAllByTestId("template-card")).toHaveLength(1);
    await user.clear(screen.getByRole("searchbox", { name: "Search templates" }));
    await user.click(screen.getByRole("button", { name: "Content" }));
    expect(screen.getByText("No Personal Templates")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "All" }));
    expect(screen.getAllByTestId("template-card")).toHaveLength(2);
  });

  it("makes a template public or private", async () => {
    const user = userEvent.setup();
    await renderTemplates();
    await user.click(screen.getByRole("button", { name: "Make Public: Launch emails" }));
    await waitFor(() =>
      expect(callMock("templates:setVisibility")).toHaveBeenCalledWith({ templateId: "own1", isPublic: true }),
    );
    await user.click(screen.getByRole("button", { name: "Make Private: API docs" }));
    await waitFor(() =>
      expect(callMock("templates:setVisibility")).toHaveBeenCalledWith({ templateId: "own2", isPublic: false }),
    );
  });

  it("deletes only after confirmation; a failure keeps the dialog open", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, "error").mockImplementation(() => {});
    mockCall("templates:remove", async () => {
      throw new Error("offline");
    });
    await renderTemplates();
    await user.click(screen.getByRole("button", { name: "Delete template Launch emails" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText("Launch emails")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await within(dialog).findByText("Failed to delete template. Please try again.")).toBeInTheDocument();
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();

    mockCall("templates:remove", async () => null);
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(callMock("templates:remove")).toHaveBeenLastCalledWith({ templateId: "own1" });
  });

  it("offers Use Template and Save Copy in the public library", async () => {
    const user = userEvent.setup();
    await renderTemplates();
    await user.click(screen.getByRole("tab", { name: "Public Library (2)" }));
    expect(await screen.findByRole("link", { name: "Use Template Support replies" })).toHaveAttribute(
      "href",
      "/dashboard/setup?template=pub1",
    );
    await user.click(screen.getByRole("button", { name: "Save Copy of Support replies" }));
    await waitFor(() => expect(callMock("templates:saveCopy")).toHaveBeenCalledWith({ templateId: "pub1" }));
    expect(screen.queryByRole("button", { name: /Make Public/ })).not.toBeInTheDocument();
  });

  it("has the empty states of both tabs", async () => {
    const user = userEvent.setup();
    await renderTemplates([], []);
    expect(screen.getByText("No Personal Templates")).toBeInTheDocument();
    await user.click(screen.getByRole("tab", { name: "Public Library (0)" }));
    expect(await screen.findByText("No Public Templates Found")).toBeInTheDocument();
  });
});
