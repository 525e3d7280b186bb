// Rerun Test names its original: the test created from ?rerun={testId} records it (tests.rerunOf),
// so its results can offer "Compare with the original" (issue 22 step 2).
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";

import { callMock, makeViewer, oneShotQuery, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { CATALOG, catalogResult, completeState } from "@/test/fixtures/setup";
import { renderApp } from "@/test/render-app";
import { buildTestConfiguration, loadStoredSetup } from "./setup-state";

const byId = new Map(CATALOG.map((model) => [model.id, model]));

beforeEach(() => {
  setSignedIn(makeViewer());
  setQueryResult("models:list", catalogResult());
  setQueryResult("tests:paymentMode", { mode: "free" });
  callMock("models:requestRefresh").mockResolvedValue(false);
});

describe("a rerun's original", () => {
  it("is sent with Run Test and kept with the draft", async () => {
    const configuration = buildTestConfiguration(completeState({ name: "Weekly check" }), byId);
    oneShotQuery.mockResolvedValue({ test: { _id: "test42", name: "Weekly check", configuration } });
    callMock("tests:create").mockResolvedValue({ testId: "test43", priceCents: 0, paymentRequired: false });
    const { router } = renderApp("/dashboard/setup?rerun=test42");
    expect(await screen.findByDisplayValue("Weekly check (Rerun)", {}, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(loadStoredSetup(window.localStorage).state.rerunOf).toBe("test42"));
    await userEvent.setup().click(screen.getByRole("button", { name: "Run Test" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/monitor"));
    expect(callMock("tests:create")).toHaveBeenCalledWith({
      configuration: expect.objectContaining({ name: "Weekly check (Rerun)" }),
      rerunOf: "test42",
    });
  });
});
