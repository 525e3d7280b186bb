import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";

import { callMock, makeViewer, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { catalogResult, completeState } from "@/test/fixtures/setup";
import { saveStoredSetup } from "./setup-state";

const viewer = makeViewer();

beforeEach(() => {
  setSignedIn(viewer);
  setQueryResult("models:list", catalogResult());
  setQueryResult("tests:paymentMode", { mode: "free" });
  callMock("models:requestRefresh").mockResolvedValue(false);
});

describe("the setup page's time estimate for a test set to stop when settled", () => {
  it("runs from settling early to every pair a pair at a time, and says why it is longer", async () => {
    // 2 personas × 20 topics = 40 pairs; 2 generators (10 s answers) and 1 ranking judge (5 s).
    const topics = Array.from({ length: 20 }, (_, index) => ({
      id: `temp-topic-${index}`,
      title: `Topic ${index}`,
      description: "A question",
      prompt: `Question ${index}?`,
    }));
    saveStoredSetup(window.localStorage, { ownerId: viewer._id, state: completeState({ topics }) });
    setQueryResult("models:timing", {
      concurrency: 64,
      latencies: [
        { key: "generate:openai/gpt-4o-mini", latencyMs: 10_000 },
        { key: "generate:google/gemini-2.0-flash-001", latencyMs: 10_000 },
        { key: "evaluate:openai/gpt-4o", latencyMs: 5_000 },
      ],
    });
    renderApp("/dashboard/setup");
    const time = await screen.findByTestId("setup-time-range", {}, { timeout: 5000 });
    // Run side by side: 80 answers on 64 slots, then the judgements: well under a minute.
    expect(time).toHaveTextContent(/seconds$/);
    expect(screen.queryByTestId("setup-time-note")).toBeNull();

    await userEvent.setup().click(screen.getByRole("switch", { name: "Stop when settled" }));
    // By hand, every pair slow (× 1.6): answers 16 s, the judgement 8 s beside the next pair's
    // answers: 16 + 39 × 16 + 8 + 40 × 0.3 = 660 s. Settled after the fewest pairs (12), fast
    // (× 0.8): 8 + 11 × 8 + 4 + 12 × 0.3 = 103.6 s.
    await waitFor(() => expect(time).toHaveTextContent("1-11 minutes"));
    expect(screen.getByTestId("setup-time-note")).toHaveTextContent(
      "Stop when settled runs pairs one after another to look between them: about 2 minutes if it settles early, about 11 minutes if it runs every pair.",
    );
  });
});
