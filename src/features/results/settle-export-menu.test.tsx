// The results page's Export on a test that stopped when settled (issue 35): the menu reads the
// settle words (settle.status) beside the rows, so the CSV says why the test stopped and the JSON
// carries the pairs' drawn order; a test without the setting never asks for them.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import Papa from "papaparse";
import { beforeEach, describe, expect, it } from "vitest";

import { makeViewer, oneShotQuery, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { makeResults, makeResultsOfTest, TEST_ID } from "@/test/fixtures/results";
import { captureDownloads } from "@/test/downloads";
import { renderApp } from "@/test/render-app";

import type { SettleStatusView } from "./settle-export";

const PATH = `/dashboard/results/${TEST_ID}`;
const SETTING = { question: "best" as const, confidence: 0.95, seed: "menu-seed" };
const REASON = "Settled after 1 of 2 pairs: the question was settled, so the calls of the other 1 pair were not made.";
const STATUS: SettleStatusView = {
  question: "Which model is best?",
  line: "Settled at 95%: Claude 3.5 Haiku is best",
  settled: true,
  pairsDone: 1,
  pairsTotal: 2,
  stopped: { reason: "settled", pairsDone: 1, pairsTotal: 2 },
  settledAfter: "Settled after 1 of 2 pairs",
  stoppedReason: REASON,
  setting: SETTING,
};
const ANSWER = {
  id: "k57response00000000000000000001",
  modelId: "openai/gpt-4o-mini",
  modelName: "GPT-4o Mini",
  personaId: "p1",
  personaName: "Pirate",
  topicId: "t1",
  topicTitle: "Coffee",
  content: "Arr",
  timestamp: Date.UTC(2026, 0, 1),
  tokens: 10,
  latencyMs: 100,
  costUsd: 0.0001,
  averageScore: 7,
};

/** Clicks Export, then each format, and returns the files' texts by name. */
async function exportBoth() {
  const downloads = captureDownloads();
  const user = userEvent.setup();
  for (const format of ["CSV", "JSON"]) {
    await user.click(await screen.findByRole("button", { name: "Export" }, { timeout: 10_000 }));
    await user.click(await screen.findByRole("menuitem", { name: `Export as ${format}` }));
    await screen.findByText(`Exported ${format}`);
  }
  return downloads;
}

describe("results export of a settled test", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    oneShotQuery.mockImplementation(async (name) => {
      if (name === "settle:status") return STATUS;
      if (name === "results:exportResponses") return { page: [ANSWER], isDone: true, continueCursor: "" };
      if (name === "results:exportEvaluations") return { page: [], isDone: true, continueCursor: "" };
      return null;
    });
  });

  it("says why it stopped on every row and gives the pairs' drawn order", async () => {
    const results = makeResults();
    setQueryResult(
      "results:get",
      makeResultsOfTest({ configuration: { ...results.test.configuration, stopWhenSettled: SETTING } }),
    );
    renderApp(PATH);
    const [csv, json] = await exportBoth();
    const [header, row] = Papa.parse<string[]>(await csv!.text, { skipEmptyLines: true }).data;
    expect(row![header!.indexOf("Stop Reason")]).toBe(REASON);
    expect(row![header!.indexOf("Stopped After Pairs")]).toBe("1");
    expect(["1", "2"]).toContain(row![header!.indexOf("Pair Order")]);
    const document = JSON.parse(await json!.text) as { results: { stopWhenSettled: { pairOrder: unknown[] } } };
    expect(document.results.stopWhenSettled.pairOrder).toHaveLength(2);
    expect(oneShotQuery).toHaveBeenCalledWith("settle:status", { testId: TEST_ID });
  });

  it("a test without the setting has no settle columns and never asks for them", async () => {
    setQueryResult("results:get", makeResults());
    renderApp(PATH);
    const [csv] = await exportBoth();
    expect(Papa.parse<string[]>(await csv!.text).data[0]).not.toContain("Stop Reason");
    expect(oneShotQuery).not.toHaveBeenCalledWith("settle:status", expect.anything());
  });
});
