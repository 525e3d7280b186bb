// Templates carry the run settings a rerun keeps (issue 35): Save Template stores the repeats and
// the "stop when settled" question, and applying a template, own or public, restores them.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";

import { callMock, makeViewer, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { completeState } from "@/test/fixtures/setup";
import { catalogResult } from "@/test/fixtures/setup";
import { loadStoredSetup, saveStoredSetup, templateDataOfState } from "./setup-state";
import type { SavedTemplate } from "./template-sources";

const viewer = makeViewer();
const settle = { question: "best" as const, confidence: 0.99 };

beforeEach(() => {
  setSignedIn(viewer);
  setQueryResult("models:list", catalogResult());
  setQueryResult("tests:paymentMode", { mode: "free" });
  callMock("models:requestRefresh").mockResolvedValue(false);
});

describe("a template's run settings", () => {
  it("Save Template keeps the repeats and the stop-when-settled question", async () => {
    saveStoredSetup(window.localStorage, {
      ownerId: viewer._id,
      state: completeState({ repeats: 3, stopWhenSettled: settle }),
    });
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Save Template" }, { timeout: 5000 }));
    const dialog = await screen.findByRole("dialog", { name: "Save as Template" });
    await user.click(within(dialog).getByLabelText("Template Name"));
    await user.paste("Careful support check");
    await user.click(within(dialog).getByLabelText("Description"));
    await user.paste("Three runs of each, stopping once the best is clear");
    await user.click(within(dialog).getByRole("button", { name: "Save Template" }));
    await waitFor(() => expect(callMock("templates:create")).toHaveBeenCalledTimes(1));
    expect(callMock("templates:create").mock.calls[0][0].templateData).toMatchObject({
      repeats: 3,
      stopWhenSettled: settle,
    });
  });

  it("applying a public template restores them on the page", async () => {
    const template: SavedTemplate = {
      _id: "tmpl9" as SavedTemplate["_id"],
      _creationTime: 1,
      name: "Settled support check",
      description: "Stops once the best is clear",
      category: "customer-service",
      isPublic: true,
      tags: [],
      usageCount: 0,
      templateData: templateDataOfState(completeState({ repeats: 4, stopWhenSettled: settle })),
      updatedAt: 1,
      isOwn: false,
    };
    setQueryResult("templates:listOwn", []);
    setQueryResult("templates:listPublic", [template]);
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Template Library" }, { timeout: 5000 }));
    const dialog = await screen.findByRole("dialog", { name: "Template Library" });
    await user.click(within(dialog).getByRole("tab", { name: "Public Library (1)" }));
    await user.click(await within(dialog).findByRole("button", { name: "Preview Settled support check" }));
    const preview = within(dialog).getByTestId("template-preview");
    expect(preview).toHaveTextContent("Each persona × topic 4 times");
    expect(preview).toHaveTextContent("Stop when settled: Which model is best?");
    await user.click(await within(dialog).findByRole("button", { name: "Apply Settled support check" }));
    await waitFor(() => expect(loadStoredSetup(window.localStorage).state.appliedTemplate?.id).toBe("tmpl9"));
    expect(loadStoredSetup(window.localStorage).state).toMatchObject({ repeats: 4, stopWhenSettled: settle });
    expect(await screen.findByLabelText("Repeats")).toHaveValue(4);
    expect(screen.getByRole("switch", { name: "Stop when settled" })).toBeChecked();
  });
});
