// How each compared test ran, on the compare page (issue 35): a test that stopped when settled
// says why and that its scores rest on fewer pairs; a repeated one its repeats and each model's
// spread between them, as its results page shows them; a plain one neither.
import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { makeViewer, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { B_ID, comparison, PLAIN_RUN, SETTLED_RUN } from "@/test/fixtures/compare";
import { makeResponse, TEST_ID } from "@/test/fixtures/results";
import { renderApp } from "@/test/render-app";

import type { Comparison } from "./compare-page";

const PATH = `/compare?a=${TEST_ID}&b=${B_ID}`;

const spread = (byRepeat: number[], scoreSd: number, cellSd: number) => ({
  repeats: 3,
  pairs: 4,
  byRepeat,
  scoreSd,
  cellSd,
});
const REPEATED_RUN: Comparison["runs"]["a"] = {
  repeats: 3,
  repeatSpread: [
    { modelId: "openai/gpt-4o-mini", modelName: "GPT-4o Mini", repeatSpread: spread([6.5, 7, 7.5], 0.5, 0.75) },
    { modelId: "anthropic/claude-3.5-haiku", modelName: "Claude 3.5 Haiku", repeatSpread: spread([8, 8, 8], 0, 0.25) },
  ],
  settle: null,
};

async function renderWith(runs: Comparison["runs"], answers: { a: unknown[]; b: unknown[] } = { a: [], b: [] }) {
  setQueryResult("compare:get", comparison({ runs }));
  setQueryResult("compare:answers", answers);
  renderApp(PATH);
  await screen.findByRole("heading", { level: 1, name: "Compare two tests" }, { timeout: 10_000 });
}

describe("compare page: how each test ran", () => {
  beforeEach(() => setSignedIn(makeViewer()));

  it("a settled test says it stopped early, why, and that its scores rest on fewer pairs", async () => {
    await renderWith({ a: SETTLED_RUN, b: PLAIN_RUN });
    const notice = within(screen.getByRole("region", { name: "Test A" })).getByRole("region", {
      name: "Test A: stop when settled",
    });
    expect(notice).toHaveTextContent("Stop when settled: Which model is best?");
    expect(notice).toHaveTextContent(
      "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.",
    );
    expect(notice).toHaveTextContent("Settled at 95%: Claude 3.5 Haiku is best");
    expect(within(screen.getByRole("region", { name: "Test B" })).queryByText(/Stop when settled/)).toBeNull();
    expect(
      within(screen.getByRole("region", { name: "Scores by model" })).getByTestId("compare-fewer-pairs"),
    ).toHaveTextContent(
      "Test A stopped early (Settled after 38 of 100 pairs): its scores rest on those 38 pairs, not all 100.",
    );
    expect(screen.queryByRole("heading", { name: "Between-Repeat Spread" })).toBeNull();
  });

  it("a repeated test shows ×3 and each model's spread between repeats; the other says it was not repeated", async () => {
    const repeats = [0, 1, 2].map((repeat) => ({ ...makeResponse(repeat + 1), repeat }));
    await renderWith({ a: PLAIN_RUN, b: REPEATED_RUN }, { a: [makeResponse(9)], b: repeats });
    expect(within(screen.getByRole("region", { name: "Test B" })).getByTestId("compare-repeats-b")).toHaveTextContent(
      "Repeats ×3",
    );
    expect(within(screen.getByRole("region", { name: "Test A" })).queryByText(/Repeats/)).toBeNull();
    expect(screen.getByRole("heading", { level: 2, name: "Between-Repeat Spread" })).toBeVisible();
    expect(screen.getByRole("region", { name: "Between-repeat spread in test A" })).toHaveTextContent(
      "Not repeated: each persona × topic ran once.",
    );
    const inB = screen.getByRole("region", { name: "Between-repeat spread in test B" });
    expect(inB).toHaveTextContent("Each persona × topic ran 3 times in fresh calls.");
    const table = within(inB).getByRole("table", { name: "Spread of each model's score between repeats in test B" });
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ["GPT-4o Mini", "3", "6.50 · 7.00 · 7.50", "±0.50", "±0.75"],
      ["Claude 3.5 Haiku", "3", "8.00 · 8.00 · 8.00", "±0.00", "±0.25"],
    ]);
    expect(screen.queryByTestId("compare-fewer-pairs")).toBeNull();
    // Side by side, each of the repeated test's answers names its repeat; the other test's none.
    const answersB = await screen.findByRole("region", { name: "Answers in test B" });
    expect(within(answersB).getByText("· Repeat 1")).toBeInTheDocument();
    expect(within(answersB).getByText("· Repeat 3")).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Answers in test A" })).queryByText(/Repeat/)).toBeNull();
  });

  it("two plain tests show neither repeats nor a settle notice", async () => {
    await renderWith({ a: PLAIN_RUN, b: PLAIN_RUN });
    expect(screen.queryByText(/Stop when settled/)).toBeNull();
    expect(screen.queryByText(/Repeats/)).toBeNull();
    expect(screen.queryByRole("heading", { name: "Between-Repeat Spread" })).toBeNull();
    expect(screen.queryByTestId("compare-fewer-pairs")).toBeNull();
  });
});
