import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";

import { makeViewer, setQueryError, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { makeResults, TEST_ID } from "@/test/fixtures/results";
import { catalogResult } from "@/test/fixtures/setup";
import { renderApp } from "@/test/render-app";
import { withJudges } from "@/features/setup/use-start-from";

const GEMINI = { id: "google/gemini-2.0-flash-001", name: "Gemini 2.0 Flash" };
const MINI = { id: "openai/gpt-4o-mini", name: "GPT-4o mini" };
const HAIKU = { id: "anthropic/claude-3.5-haiku", name: "Claude 3.5 Haiku" };

const advised = {
  outcome: "advised",
  decision: { kind: "best", leaders: ["m/a"] },
  costBasis: "usd",
  judges: [
    { judgeModelId: GEMINI.id, name: GEMINI.name, costUsd: 0.62, calls: 40, leftOut: true },
    { judgeModelId: MINI.id, name: MINI.name, costUsd: 0.2, calls: 40, leftOut: false },
    { judgeModelId: HAIKU.id, name: HAIKU.name, costUsd: 0.18, calls: 40, leftOut: false },
  ],
  advised: { judges: [MINI.id, HAIKU.id], costShare: 0.38, agreement: 1 },
  independentVotes: 1.8,
};

describe("jury advice on the results page", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    setQueryResult("results:get", makeResults());
    setQueryResult("models:list", catalogResult());
    setQueryResult("tests:paymentMode", { mode: "stripe" });
    setQueryResult("rejudge:about", { canJudgeAgain: true, original: null, rejudgings: [] });
  });

  it("says which smaller jury reaches the same verdict at what share of the cost, and how many votes the jury carried", async () => {
    setQueryResult("juryAdvice:forTest", advised);
    renderApp(`/dashboard/results/${TEST_ID}`);
    const card = await screen.findByTestId("jury-advice");
    expect(
      await within(card).findByText(
        "The same verdict with GPT-4o mini and Claude 3.5 Haiku alone: 38% of the judging cost",
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText("3 judges, worth 1.8 independent votes")).toBeInTheDocument();
    const nextRun = within(card).getByRole("link", { name: /Use this jury for the next run/ });
    const search = new URL(nextRun.getAttribute("href")!, "http://x").searchParams;
    expect(search.get("rerun")).toBe(TEST_ID);
    expect(search.get("judges")).toBe(`${MINI.id},${HAIKU.id}`);
  }, 30_000); // the first render of the results page loads its whole tree on a busy machine

  it("opens Judge Again with the advised judges selected", async () => {
    setQueryResult("juryAdvice:forTest", advised);
    const user = userEvent.setup();
    renderApp(`/dashboard/results/${TEST_ID}`);
    await user.click(await screen.findByRole("button", { name: /Judge Again with this jury/ }));
    const dialog = await screen.findByRole("dialog", { name: "Judge Again" });
    expect(within(dialog).getByRole("checkbox", { name: /GPT-4o mini/ })).toBeChecked();
    expect(within(dialog).getByTestId("evaluator-selected-count")).toHaveTextContent(/^2 of \d+ selected$/);
  }, 30_000);

  it("says when the evidence is too thin to advise, without offering a jury", async () => {
    setQueryResult("juryAdvice:forTest", { ...advised, outcome: "thin", decision: null, advised: null });
    renderApp(`/dashboard/results/${TEST_ID}`);
    const card = await screen.findByTestId("jury-advice");
    expect(
      await within(card).findByText(
        "Too little evidence to advise a smaller jury: the full jury's own verdict is not settled",
      ),
    ).toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: /Judge Again with this jury/ })).not.toBeInTheDocument();
  });

  it("says the evidence is too little when the full jury's own verdict is close, with the pairs that would do", async () => {
    setQueryResult("juryAdvice:forTest", {
      ...advised,
      outcome: "close",
      decision: null,
      advised: null,
      judges: advised.judges.map((judge) => ({ ...judge, leftOut: false })),
      evidence: { replication: 0.71, pairs: 60, pairsNeeded: 140 },
    });
    renderApp(`/dashboard/results/${TEST_ID}`);
    const card = await screen.findByTestId("jury-advice");
    expect(
      await within(card).findByText(
        "Too little evidence to advise a smaller jury: the full jury's own verdict is close, and a fresh run of this test could reach another one (advice needs it to hold in 95% of fresh runs; about 140 persona × topic pairs would show that, this test judged 60)",
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText("3 judges, worth 1.8 independent votes")).toBeInTheDocument();
    expect(within(card).queryByText(/every judge counted/)).not.toBeInTheDocument();
    expect(within(card).queryByRole("link", { name: /Use this jury for the next run/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: /Judge Again with this jury/ })).not.toBeInTheDocument();
  }, 30_000);

  it("prefills the next run with the advised judges of the test's own jury, all of them when none match", () => {
    const configuration = { ...makeResults().test.configuration, evaluatorModels: [GEMINI, MINI, HAIKU] };
    expect(withJudges(configuration, `${MINI.id},${HAIKU.id}`).evaluatorModels).toEqual([MINI, HAIKU]);
    expect(withJudges(configuration, "someone/else").evaluatorModels).toEqual([GEMINI, MINI, HAIKU]);
  });
});

describe("the space's Judges page", () => {
  beforeEach(() => setSignedIn(makeViewer()));

  it("shows how often each judge was left out and what it cost where it was not needed", async () => {
    setQueryResult("juryAdvice:ofSpace", {
      tests: 3,
      advised: 2,
      allNeeded: 1,
      noAdvice: 0,
      tooLittleEvidence: 0,
      savableUsd: 1.24,
      truncated: false,
      judges: [
        {
          judgeModelId: GEMINI.id,
          name: GEMINI.name,
          tests: 3,
          decided: 3,
          leftOut: 2,
          costUsd: 1.86,
          leftOutCostUsd: 1.24,
          meanVotes: 1.8,
        },
        {
          judgeModelId: MINI.id,
          name: MINI.name,
          tests: 3,
          decided: 3,
          leftOut: 0,
          costUsd: 0.6,
          leftOutCostUsd: 0,
          meanVotes: 1.8,
        },
      ],
    });
    renderApp("/dashboard/judges");
    const row = (await screen.findByRole("rowheader", { name: GEMINI.name })).closest("tr")!;
    expect(within(row).getByText("2 of 3 tests")).toBeInTheDocument();
    expect(within(row).getByText("$1.8600")).toBeInTheDocument();
    expect(within(row).getByText("$1.2400")).toBeInTheDocument();
    expect(screen.getByTestId("judges-summary")).toHaveTextContent(
      "3 tests with advice: a smaller jury reached the same verdict in 2, every judge counted in 1. The advised juries would have saved $1.2400 of judging.",
    );
  });

  it("counts the tests with too little evidence apart from those that needed every judge", async () => {
    setQueryResult("juryAdvice:ofSpace", {
      tests: 5,
      advised: 1,
      allNeeded: 1,
      noAdvice: 3,
      tooLittleEvidence: 2,
      savableUsd: 0.5,
      truncated: false,
      judges: [
        {
          judgeModelId: GEMINI.id,
          name: GEMINI.name,
          tests: 5,
          decided: 2,
          leftOut: 1,
          costUsd: 2.5,
          leftOutCostUsd: 0.5,
          meanVotes: null,
        },
      ],
    });
    renderApp("/dashboard/judges");
    const row = (await screen.findByRole("rowheader", { name: GEMINI.name })).closest("tr")!;
    // Left out of 1 of the 2 tests with a decision to advise on, not of all 5 it judged.
    expect(within(row).getByText("1 of 2 tests")).toBeInTheDocument();
    expect(screen.getByTestId("judges-summary")).toHaveTextContent(
      "5 tests with advice: a smaller jury reached the same verdict in 1, every judge counted in 1, too little evidence to advise in 2, no advice in 1. The advised juries would have saved $0.5000 of judging.",
    );
  });

  it("has an empty state and an error state", async () => {
    setQueryResult("juryAdvice:ofSpace", {
      tests: 0,
      advised: 0,
      allNeeded: 0,
      noAdvice: 0,
      tooLittleEvidence: 0,
      savableUsd: 0,
      truncated: false,
      judges: [],
    });
    const { unmount } = renderApp("/dashboard/judges");
    expect(await screen.findByText("No finished tests with jury advice yet")).toBeInTheDocument();
    unmount();
    setQueryError("juryAdvice:ofSpace", new Error("boom"));
    renderApp("/dashboard/judges");
    expect(await screen.findByText("The judges could not be loaded.")).toBeInTheDocument();
  });
});
