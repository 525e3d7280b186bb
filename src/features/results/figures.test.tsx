// Figures that add up as the results page shows them: the total cost split into
// generation and judging, every judge call's cost and labels, and latency as the data.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";

import { makeViewer, setPaginated, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import type { EvaluationRow, ResponseRow } from "@/components/results/results-model";
import { makeEvaluation, makeResponse, makeResults, TEST_ID } from "@/test/fixtures/results";

const PATH = `/dashboard/results/${TEST_ID}`;
const CALL = "k57call0000000000000000000001" as NonNullable<EvaluationRow["callId"]>;

function answer(index: number, modelName: string, content: string): ResponseRow {
  return { ...makeResponse(index), modelName, content };
}

/** One ranking call over three answers, shown as A, B, C; its explanation names them by label. */
function rankingCall(): EvaluationRow[] {
  const answers = [
    answer(1, "GPT-4o Mini", "Cold brew, warm hearts."),
    answer(2, "Claude 3.5 Haiku", "Brewed for pirates."),
    answer(3, "Llama 3.3 70B", "Coffee, but colder."),
  ];
  const explanation = "B is the most specific; A is generic; C repeats the prompt.";
  const labels = ["A", "B", "C"];
  const ranks = [2, 1, 3];
  return answers.map((response, index) => ({
    ...makeEvaluation(index + 1),
    scores: { overall: [6.67, 10, 3.33][index]! },
    rank: ranks[index]!,
    explanation,
    response,
    costUsd: 0.0001,
    callId: CALL,
    order: "forward" as const,
    label: labels[index]!,
    ...(index === 0
      ? {
          batchLabels: answers.map((entry, position) => ({
            label: labels[position]!,
            responseId: entry._id,
            modelName: entry.modelName,
            preview: entry.content,
          })),
        }
      : {}),
  }));
}

describe("results figures", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
  });

  it("shows the total cost History shows, split into generation and judging", async () => {
    setQueryResult(
      "results:get",
      makeResults({
        metrics: {
          ...makeResults().metrics,
          totalCostUsd: 0.1166,
          generationCostUsd: 0.0173,
          judgingCostUsd: 0.0993,
        },
      }),
    );
    renderApp(PATH);
    const cost = await screen.findByRole("region", { name: "Cost" }, { timeout: 10_000 });
    expect(within(cost).getByTestId("cost-total")).toHaveTextContent("$0.1166");
    expect(within(cost).getByTestId("cost-generation")).toHaveTextContent("$0.0173");
    expect(within(cost).getByTestId("cost-judging")).toHaveTextContent("$0.0993");
  });

  it("shows each judge call once: its judge, cost and explanation, and which label was which answer", async () => {
    const user = userEvent.setup();
    setQueryResult("results:get", makeResults());
    setPaginated("results:evaluations", [...rankingCall(), makeEvaluation(9)]);
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /^Evaluations/ }, { timeout: 10_000 }));
    const list = screen.getByRole("list", { name: "Evaluations" });
    // The batch text is shown once, not on each of the three rows.
    expect(within(list).getAllByText("B is the most specific; A is generic; C repeats the prompt.")).toHaveLength(1);
    const batch = within(list).getByTestId("evaluation-batch");
    expect(batch).toHaveTextContent("Gemini 2.0 Flash ranked 3 answers · $0.000300");
    const labels = within(batch).getAllByTestId("answer-label");
    expect(labels.map((entry) => entry.textContent)).toEqual([
      "AGPT-4o Mini — “Cold brew, warm hearts.”",
      "BClaude 3.5 Haiku — “Brewed for pirates.”",
      "CLlama 3.3 70B — “Coffee, but colder.”",
    ]);
    const rows = within(batch).getAllByTestId("evaluation-row");
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByLabelText("Label B")).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent("Gemini 2.0 Flash on Claude 3.5 Haiku · ranked #1 · $0.000100");
    // A rating evaluation stands alone with its own explanation and cost.
    const allRows = within(list).getAllByTestId("evaluation-row");
    expect(allRows).toHaveLength(4);
    expect(allRows[3]).toHaveTextContent("Verdict 9: vivid and on brand.");
    expect(allRows[3]).toHaveTextContent("$0.000125");

    await user.click(within(rows[1]!).getByRole("button", { name: /View evaluation/ }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Shown to the judge as").nextSibling).toHaveTextContent("B");
    expect(within(dialog).getByText("Cost").nextSibling).toHaveTextContent("$0.000100");
  });

  it("groups rows recorded before evaluations named their call by judge and explanation", async () => {
    const user = userEvent.setup();
    setQueryResult("results:get", makeResults());
    const older = rankingCall().map((row) => {
      const { callId: _callId, order: _order, label: _label, batchLabels: _labels, ...rest } = row;
      return rest;
    });
    setPaginated("results:evaluations", older);
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /^Evaluations/ }, { timeout: 10_000 }));
    const list = screen.getByRole("list", { name: "Evaluations" });
    expect(within(list).getAllByText("B is the most specific; A is generic; C repeats the prompt.")).toHaveLength(1);
  });

  it("draws latency from the data, fastest model first, and says when older figures are estimates", async () => {
    const results = makeResults();
    setQueryResult("results:get", results);
    const { unmount } = renderApp(PATH);
    const chart = await screen.findByLabelText(/^Latency per model, fastest first/, {}, { timeout: 10_000 });
    expect(chart.getAttribute("aria-label")).toBe(
      "Latency per model, fastest first: GPT-4o Mini median 0.7s, p95 1.0s, slowest 1.0s; " +
        "Claude 3.5 Haiku median 1.1s, p95 1.4s, slowest 1.5s",
    );
    expect(screen.getByTestId("latency-caption")).toHaveTextContent(
      "Median and 95th percentile of every answer's latency",
    );
    unmount();

    // An older test kept only latency ranges: its figures are marked as estimates, with the error.
    setQueryResult(
      "results:get",
      makeResults({
        models: results.models.map((model) => ({
          ...model,
          latencyExact: false,
          maxLatencyMs: null,
          p95LatencyMs: 7250,
        })),
      }),
    );
    renderApp(PATH);
    expect(await screen.findByTestId("latency-caption", {}, { timeout: 10_000 })).toHaveTextContent(
      "each figure may be off by up to 2.5s",
    );
  });
});
