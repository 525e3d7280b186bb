import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { redirectToCheckout } from "@/lib/checkout-redirect";
import { callMock, makeViewer, mockCall, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { makeMonitorData, NOW, TEST_ID as MONITOR_TEST_ID } from "@/test/fixtures/monitor";
import { makeResults, TEST_ID } from "@/test/fixtures/results";
import { catalogResult, CATALOG } from "@/test/fixtures/setup";
import { renderApp } from "@/test/render-app";
import type { Id } from "../../../convex/_generated/dataModel";
import { markedUpCents, quote } from "../../../convex/lib/pricing";
import { formatCents } from "../../../convex/lib/format";

vi.mock("@/lib/checkout-redirect", () => ({ redirectToCheckout: vi.fn() }));

const ORIGINAL_ID = "k57testid0000000000000000000009" as Id<"tests">;
const NEW_ID = "k57testid0000000000000000000002" as Id<"tests">;
const PATH = `/dashboard/results/${TEST_ID}`;
const prices = Object.fromEntries(CATALOG.map((model) => [model.id, model.pricing]));

describe("Judge again on the results page", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    setQueryResult("results:get", makeResults());
    setQueryResult("models:list", catalogResult());
    setQueryResult("tests:paymentMode", { mode: "stripe" });
    vi.mocked(redirectToCheckout).mockReset();
  });

  it("picks another evaluator and settings, shows the judging-only price, creates the re-judging and goes to checkout", async () => {
    setQueryResult("rejudge:about", { canJudgeAgain: true, original: null, rejudgings: [] });
    mockCall("rejudge:create", async () => ({ testId: NEW_ID, priceCents: 0, paymentRequired: true }));
    mockCall("payments:createCheckout", async () => ({ url: "https://checkout.example/cs_1", sessionId: "cs_1" }));
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /Judge Again/ }));
    const dialog = await screen.findByRole("dialog", { name: "Judge Again" });
    expect(within(dialog).getByText("This test's jury: Gemini 2.0 Flash.")).toBeInTheDocument();
    expect(within(dialog).getByTestId("rejudge-price")).toHaveTextContent("Pick at least one evaluator model.");
    expect(within(dialog).getByRole("button", { name: /Pay|Judge Again/ })).toBeDisabled();

    await user.click(within(dialog).getByRole("checkbox", { name: /GPT-4o mini/ }));
    await user.click(within(dialog).getByRole("radio", { name: "Ranking" }));
    const base = makeResults().test.configuration;
    const next = {
      ...base,
      evaluatorModels: [{ id: "openai/gpt-4o-mini", name: "GPT-4o mini" }],
      scoringParameters: { ...base.scoringParameters, scale: "ranking" as const },
    };
    const judged = quote(next, prices, "judging");
    const price = judged.priceCents;
    // The $2.00 minimum is named, with what this jury's calls come to before it.
    expect(price).toBe(200);
    expect(within(dialog).getByTestId("rejudge-price")).toHaveTextContent(
      `Judging only: $2.00 — the minimum; this jury's calls cost about ${formatCents(markedUpCents(judged.estimate.totalCost))}`,
    );

    await user.click(within(dialog).getByRole("button", { name: `Pay ${formatCents(price)}` }));
    await waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith("https://checkout.example/cs_1"));
    expect(callMock("rejudge:create")).toHaveBeenCalledWith({
      testId: TEST_ID,
      evaluatorModels: next.evaluatorModels,
      evaluationCriteria: base.evaluationCriteria,
      scoringParameters: next.scoringParameters,
    });
    expect(callMock("payments:createCheckout")).toHaveBeenCalledWith({ testId: NEW_ID });
  }, 30_000); // a dialog with the whole model list, clicked through on a busy machine

  it("is not offered to whoever may not start tests in the test's space", async () => {
    setQueryResult("rejudge:about", { canJudgeAgain: false, original: null, rejudgings: [] });
    renderApp(PATH);
    expect(await screen.findByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Judge Again/ })).not.toBeInTheDocument();
  });

  it("a re-judging names its original and compares the two juries", async () => {
    setQueryResult("rejudge:about", {
      canJudgeAgain: true,
      original: { testId: ORIGINAL_ID, name: "Coffee v1" },
      rejudgings: [],
    });
    renderApp(PATH);
    const notice = await screen.findByTestId("rejudge-of");
    expect(notice).toHaveTextContent("Re-judging of Coffee v1");
    expect(within(notice).getByRole("link", { name: "Coffee v1" })).toHaveAttribute(
      "href",
      `/dashboard/results/${ORIGINAL_ID}`,
    );
    expect(screen.getByRole("link", { name: /Compare the two juries/ })).toHaveAttribute(
      "href",
      `/compare?a=${ORIGINAL_ID}&b=${TEST_ID}`,
    );
  });
});

describe("a test judged again", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    setQueryResult("results:get", makeResults());
  });

  it("links its results to each re-judging, and to the two juries compared", async () => {
    setQueryResult("rejudge:about", {
      canJudgeAgain: true,
      original: null,
      rejudgings: [{ testId: NEW_ID, name: "Coffee taglines (judged again)" }],
    });
    renderApp(PATH);
    const notice = await screen.findByTestId("judged-again-in");
    expect(notice).toHaveTextContent("Judged again in Coffee taglines (judged again) (compare the two juries)");
    expect(within(notice).getByRole("link", { name: "Coffee taglines (judged again)" })).toHaveAttribute(
      "href",
      `/dashboard/results/${NEW_ID}`,
    );
    expect(within(notice).getByRole("link", { name: "compare the two juries" })).toHaveAttribute(
      "href",
      `/compare?a=${TEST_ID}&b=${NEW_ID}`,
    );
    expect(screen.queryByTestId("rejudge-of")).not.toBeInTheDocument();
  });
});

describe("History", () => {
  it("shows a re-judging as a re-judging of its original, linked, and of a deleted test once it is gone", async () => {
    setSignedIn(makeViewer());
    const created = Date.UTC(2026, 0, 10, 9, 0, 0);
    const base = {
      _creationTime: created,
      status: "completed" as const,
      taskType: "marketing",
      startedAt: created,
      completedAt: created + 60_000,
      totalCostUsd: 0.01,
      topPerformers: [],
      awaitingPayment: false,
      priceCents: 200,
      missingWork: { missingResponses: 0, missingEvaluations: 0 },
      juryVerdict: null,
    };
    setQueryResult("history:list", {
      tests: [
        {
          ...base,
          _id: NEW_ID,
          name: "Coffee v1 (judged again)",
          rejudgeOf: { testId: ORIGINAL_ID, name: "Coffee v1" },
        },
        { ...base, _id: TEST_ID, name: "Orphan (judged again)", rejudgeOf: { testId: ORIGINAL_ID, name: null } },
        { ...base, _id: ORIGINAL_ID, name: "Coffee v1" },
      ],
      total: 3,
    });
    renderApp("/dashboard/history");
    const rows = await screen.findAllByTestId("history-row");
    expect(rows.map((row) => within(row).queryByTestId("rejudge-of")?.textContent ?? null)).toEqual([
      "Re-judging of Coffee v1",
      "Re-judging of a deleted test",
      null,
    ]);
    expect(within(rows[0]!).getByRole("link", { name: "Coffee v1" })).toHaveAttribute(
      "href",
      `/dashboard/results/${ORIGINAL_ID}`,
    );
  });
});

describe("Monitor", () => {
  it("a finished re-judging offers 'Compare the two juries' beside View Results", async () => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    const data = makeMonitorData({
      test: { status: "completed", completedAt: NOW, progress: { currentPhase: "Completed", percentage: 100 } },
    });
    setQueryResult("tests:current", data.test._id);
    setQueryResult("tests:monitor", data);
    setQueryResult("rejudge:about", {
      canJudgeAgain: true,
      original: { testId: ORIGINAL_ID, name: "Coffee v1" },
      rejudgings: [],
    });
    renderApp("/dashboard/monitor");
    expect(await screen.findByRole("link", { name: /Compare the two juries/ })).toHaveAttribute(
      "href",
      `/compare?a=${ORIGINAL_ID}&b=${MONITOR_TEST_ID}`,
    );
    expect(screen.getByRole("link", { name: "View Results" })).toBeInTheDocument();
  });
});
