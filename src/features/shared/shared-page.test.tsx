import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";

import { callMock, setQueryResult } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import { makeResults } from "@/test/fixtures/results";

function shared() {
  const results = makeResults();
  return {
    testName: "Coffee taglines",
    taskType: "marketing",
    status: "running",
    createdAt: results.test._creationTime,
    startedAt: results.test.startedAt,
    valid: true,
    configuration: results.test.configuration,
    metrics: results.metrics,
    missingWork: { missingResponses: 0, missingEvaluations: 0 } as {
      missingResponses: number;
      missingEvaluations: number;
      lastCallError?: string;
    },
    rankings: results.rankings,
    sampleResponses: Array.from({ length: 10 }, (_, index) => ({
      key: String(index),
      modelName: "GPT-4o Mini",
      personaName: "Pirate",
      topicTitle: "Coffee",
      content: `Sample **${index + 1}**`,
      tokens: 100,
      latencyMs: 900,
      timestamp: results.test._creationTime + index,
    })),
  };
}

describe("shared results page", () => {
  beforeEach(() => {
    // What the server tells an anonymous visitor: how many watch, not who.
    setQueryResult("presence:viewers", { count: 2, viewers: [] });
  });

  it("says how many answers and judgements are missing and why", async () => {
    setQueryResult("shares:view", {
      ...shared(),
      missingWork: { missingResponses: 1, missingEvaluations: 3, lastCallError: "Max retry attempts exceeded" },
    });
    renderApp("/shared/abc123");
    const notice = await screen.findByTestId("missing-work");
    expect(notice).toHaveTextContent(
      "1 answer and 3 judgements are missing. Last gateway error: Max retry attempts exceeded",
    );
  });

  it("shows the header, stats, rankings open and the 10 samples closed, with who else is viewing", async () => {
    const user = userEvent.setup();
    setQueryResult("shares:view", shared());
    renderApp("/shared/abc123");
    expect(await screen.findByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
    expect(screen.getByText("Running", { selector: "[data-slot=status-badge]" })).toBeInTheDocument();
    expect(screen.getByTestId("stat-completion-rate")).toHaveTextContent("87.5%");
    const rankings = screen.getByRole("list", { name: "Model rankings" });
    expect(within(rankings).getAllByTestId("ranking-row")[0]).toHaveTextContent("Claude 3.5 Haiku");
    expect(within(rankings).getAllByTestId("ranking-row")[0]).toHaveTextContent("7.50");
    expect(screen.getByRole("group", { name: "2 others viewing" })).toHaveTextContent("2 others viewing");
    expect(callMock("presence:heartbeat")).toHaveBeenCalledWith({
      room: "share:abc123",
      clientId: expect.any(String),
      page: "shared",
      arrivedAt: expect.any(Number),
    });

    expect(screen.queryByTestId("sample-response")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /Sample Responses/ }));
    expect(screen.getAllByTestId("sample-response")).toHaveLength(10);
    expect(screen.getByText("1", { selector: "strong" })).toBeInTheDocument();
  });

  it("shows a running test's progress and time left, and numbers no model before it is scored", async () => {
    const view = shared();
    setQueryResult("shares:view", {
      ...view,
      progress: {
        currentPhase: "Generating Responses",
        percentage: 38,
        estimatedTimeRemaining: "About 3 min",
        endsAt: Date.now() + 150_000,
      },
      rankings: view.rankings.map((row) => ({ ...row, averageScore: 0, evaluationCount: 0 })),
    });
    renderApp("/shared/abc123");
    const progress = await screen.findByTestId("shared-progress");
    expect(progress).toHaveTextContent("Generating Responses");
    expect(progress).toHaveTextContent("38%");
    expect(within(progress).getByRole("progressbar", { name: "Test progress" })).toBeInTheDocument();
    // 150 s left, in whole minutes rounded up.
    expect(screen.getByTestId("shared-time-left")).toHaveTextContent("About 3 min");
    const rankings = screen.getByRole("list", { name: "Model rankings" });
    const rows = within(rankings).getAllByTestId("ranking-row");
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row).toHaveTextContent("not scored yet");
      expect(within(row).getByLabelText("Not ranked yet")).toHaveTextContent("—");
    }
    expect(within(rankings).queryByLabelText(/^Rank \d/)).not.toBeInTheDocument();
  });

  it("shows no progress once the test has ended", async () => {
    setQueryResult("shares:view", { ...shared(), status: "completed", completedAt: Date.now() });
    renderApp("/shared/abc123");
    await screen.findByRole("heading", { level: 1, name: "Coffee taglines" });
    expect(screen.queryByTestId("shared-progress")).not.toBeInTheDocument();
  });

  it("switches to 'Shared Test Not Found' when sharing is turned off", async () => {
    setQueryResult("shares:view", shared());
    renderApp("/shared/abc123");
    expect(await screen.findByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
    act(() => setQueryResult("shares:view", null));
    expect(await screen.findByRole("heading", { name: "Shared Test Not Found" })).toBeInTheDocument();
    expect(screen.getByText("Shared test not found or no longer available")).toBeInTheDocument();
    expect(screen.queryByText("Coffee taglines")).not.toBeInTheDocument();
  });

  it("shows 'Shared Test Not Found' for an unknown link", async () => {
    setQueryResult("shares:view", null);
    renderApp("/shared/nope");
    expect(await screen.findByRole("heading", { name: "Shared Test Not Found" })).toBeInTheDocument();
  });
});
