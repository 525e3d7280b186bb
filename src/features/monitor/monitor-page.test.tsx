import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { callMock, makeViewer, QueryFailure, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import { readCurrentTestId, rememberCurrentTestId } from "./current-test-storage";
import { TEAM_MESSAGES } from "../../../convex/lib/teams";
import { makeMonitorData, makeRanking, makeResponse, NOW, TEST_ID } from "@/test/fixtures/monitor";

const cancel = () => callMock("tests:cancel");
const verify = () => callMock("payments:verify");

function showTest(data = makeMonitorData()) {
  setQueryResult("tests:current", data.test._id);
  setQueryResult("tests:monitor", data);
}

beforeEach(() => {
  setSignedIn(makeViewer());
  window.sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("monitor without a test", () => {
  it("shows 'No Test Running' with a way to Test Setup", async () => {
    setQueryResult("tests:current", null);
    renderApp("/dashboard/monitor");
    expect(await screen.findByRole("heading", { name: "No Test Running" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Test Setup" })).toHaveAttribute("href", "/dashboard/setup");
  });

  it("shows a skeleton while the current test loads", async () => {
    renderApp("/dashboard/monitor");
    expect(await screen.findByTestId("monitor-skeleton")).toBeInTheDocument();
  });
});

describe("monitor of a running test", () => {
  it("shows the header, progress and the four counters", async () => {
    showTest();
    const { router } = renderApp("/dashboard/monitor");
    expect(await screen.findByRole("heading", { name: "Support replies" })).toBeInTheDocument();
    expect(screen.getByText("customer-service")).toBeInTheDocument();
    expect(screen.getByLabelText("Test size")).toHaveTextContent("2 models · 1 judge · 2 personas · 2 topics");
    expect(screen.getByText("Running")).toBeInTheDocument();
    expect(screen.getByTestId("progress-phase")).toHaveTextContent("Generating Responses");
    expect(screen.getByTestId("progress-percentage")).toHaveTextContent("37%");
    expect(screen.getByRole("progressbar", { name: "Test progress" })).toBeInTheDocument();
    expect(screen.getByText("About 2 min")).toBeInTheDocument();

    expect(within(screen.getByRole("group", { name: "Responses Generated" })).getByText("3 / 8")).toBeInTheDocument();
    expect(
      within(screen.getByRole("group", { name: "Evaluations Completed" })).getByText("2 / 16"),
    ).toBeInTheDocument();
    // 4500 ms over 3 answers.
    expect(within(screen.getByRole("group", { name: "Average Response Time" })).getByText("1.5s")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Estimated Cost" })).getByText("$0.0123")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Stop Test" })).toBeInTheDocument();

    // The address settles on the test shown, and the tab remembers it as its current test.
    await waitFor(() => expect(router.state.location.search).toEqual({ testId: TEST_ID }));
    expect(readCurrentTestId()).toBe(TEST_ID);
  });

  it("shows the top five rankings with '+N more' and score bars", async () => {
    const rankings = [0, 1, 2, 3, 4].map((index) => makeRanking(index));
    showTest(makeMonitorData({ rankings, rankedModels: 7 }));
    renderApp(`/dashboard/monitor?testId=${TEST_ID}`);
    const region = await screen.findByRole("region", { name: "Current Rankings" });
    expect(within(region).getAllByRole("listitem")).toHaveLength(5);
    expect(within(region).getByText("Model 0")).toBeInTheDocument();
    expect(within(region).getByText("9.00")).toBeInTheDocument();
    expect(within(region).getByText("+2 more")).toBeInTheDocument();
    expect(screen.queryByText("No rankings available")).not.toBeInTheDocument();
  });

  it("says when there are no rankings and no activity yet", async () => {
    showTest(makeMonitorData({ test: { responsesCount: 0, totalLatencyMs: 0, totalCostUsd: 0 } }));
    renderApp("/dashboard/monitor");
    expect(await screen.findByText("No rankings available")).toBeInTheDocument();
    expect(screen.getByText("No activity yet")).toBeInTheDocument();
    expect(screen.queryByText(/more$/)).not.toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Average Response Time" })).getByText("0.0s")).toBeInTheDocument();
  });

  it("lists the latest responses and opens one in the view-response dialog", async () => {
    const latestResponses = Array.from({ length: 10 }, (_, index) => makeResponse(index));
    latestResponses[0] = makeResponse(0, {
      modelName: "Claude",
      personaName: "New user",
      topicTitle: "Shipping",
      content: "**Ships** in 2 days",
      tokens: 1234,
      latencyMs: 2500,
      costUsd: 0.0001234,
    });
    showTest(makeMonitorData({ latestResponses }));
    const user = userEvent.setup();
    renderApp("/dashboard/monitor");
    const region = await screen.findByRole("region", { name: "Recent Activity" });
    expect(within(region).getAllByRole("button")).toHaveLength(10);

    // Each button is named by what it shows: the model, when, the persona and topic, the answer.
    await user.click(within(region).getByRole("button", { name: /^Claude.*New user · Shipping/ }));
    const dialog = await screen.findByRole("dialog", { name: "Response from Claude" });
    expect(within(dialog).getByText("Ships").tagName).toBe("STRONG");
    expect(within(dialog).getByText("1,234")).toBeInTheDocument();
    expect(within(dialog).getByText("2.5s")).toBeInTheDocument();
    expect(within(dialog).getByText("$0.000123")).toBeInTheDocument();
    expect(within(dialog).getAllByText("Shipping").length).toBeGreaterThan(0);
    expect(within(dialog).getAllByText("New user").length).toBeGreaterThan(0);
  });

  it("ticks the time since start every second", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(NOW);
    showTest();
    renderApp("/dashboard/monitor");
    const elapsed = await screen.findByTestId("elapsed-time");
    expect(elapsed).toHaveTextContent("1:05");
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(elapsed).toHaveTextContent("1:06");
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(elapsed).toHaveTextContent("2:06");
  });

  it("stops the test only after confirmation", async () => {
    showTest();
    const user = userEvent.setup();
    renderApp("/dashboard/monitor");

    await user.click(await screen.findByRole("button", { name: "Stop Test" }));
    expect(await screen.findByRole("alertdialog", { name: "Stop this test?" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Keep Running" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(cancel()).not.toHaveBeenCalled();

    rememberCurrentTestId(TEST_ID);
    await user.click(screen.getByRole("button", { name: "Stop Test" }));
    await user.click(await screen.findByRole("button", { name: "Yes, Stop Test" }));
    expect(cancel()).toHaveBeenCalledExactlyOnceWith({ testId: TEST_ID });
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    // Stopping clears the tab's current test (spec part 1 §4).
    expect(readCurrentTestId()).toBeNull();
  });

  it("says before the click what stopping refunds for the calls not yet made, live, and after it what was refunded", async () => {
    showTest(makeMonitorData({ test: { chargedCents: 540 } }));
    setQueryResult("refunds:stopPreview", { paidCents: 540, refundCents: 310, keptCents: 230 });
    const user = userEvent.setup();
    renderApp("/dashboard/monitor");
    await user.click(await screen.findByRole("button", { name: "Stop Test" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Stop this test?" });
    expect(within(dialog).getByTestId("stop-money")).toHaveTextContent(
      "Stopping now refunds about $3.10 for the calls not yet made; $2.30 stays charged.",
    );
    // More calls land while the dialog is open: the figure follows.
    setQueryResult("refunds:stopPreview", { paidCents: 540, refundCents: 250, keptCents: 290 });
    expect(
      await within(dialog).findByText(
        "Stopping now refunds about $2.50 for the calls not yet made; $2.90 stays charged.",
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Keep Running" }));

    setQueryResult("refunds:ofTest", {
      paidCents: 540,
      refundCents: 250,
      keptCents: 290,
      state: "refunded",
      reason: "The calls not made: the test was stopped",
    });
    showTest(
      makeMonitorData({
        test: {
          status: "cancelled",
          chargedCents: 540,
          totalCostUsd: 0.0123,
          progress: { currentPhase: "Cancelled", percentage: 0 },
        },
      }),
    );
    expect(await screen.findByTestId("money-notice")).toHaveTextContent(
      "You stopped this test: $2.50 was refunded for the calls not made; $2.90 of its $5.40 price stays charged; the model calls it made cost $0.0123, which the price covers.",
    );
  });

  it("says stopping costs nothing when nothing was charged", async () => {
    showTest(makeMonitorData({ test: { chargedCents: 0 } }));
    const user = userEvent.setup();
    renderApp("/dashboard/monitor");
    await user.click(await screen.findByRole("button", { name: "Stop Test" }));
    expect(await screen.findByTestId("stop-money")).toHaveTextContent(
      "Nothing was charged for this test, so stopping it costs nothing.",
    );
  });

  it("keeps the dialog open and shows the error when stopping fails", async () => {
    cancel().mockRejectedValue(new Error("Only a running test can be stopped."));
    showTest();
    const user = userEvent.setup();
    renderApp("/dashboard/monitor");
    await user.click(await screen.findByRole("button", { name: "Stop Test" }));
    await user.click(await screen.findByRole("button", { name: "Yes, Stop Test" }));
    expect(await screen.findByText("Only a running test can be stopped.")).toBeInTheDocument();
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
  });
});

describe("monitor states", () => {
  it("offers an unpaid draft Complete Payment and Discard, never Stop Test, and does not make it the current test", async () => {
    showTest(
      makeMonitorData({
        test: {
          status: "pending",
          jobStatus: "pending_payment",
          awaitingPayment: true,
          startedAt: undefined,
          progress: { currentPhase: "Initializing", percentage: 0 },
        },
      }),
    );
    renderApp(`/dashboard/monitor?testId=${TEST_ID}`);
    expect(await screen.findByText("Waiting for payment")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Stop Test" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Complete Payment for Support replies" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Discard Support replies" })).toBeInTheDocument();
    expect(readCurrentTestId()).toBeNull();
  });

  it("says how many answers and judgements a finished test is missing, why, and the shortfall", async () => {
    showTest(
      makeMonitorData({
        test: {
          status: "completed",
          completedAt: NOW,
          responsesCount: 6,
          missingResponses: 2,
          evaluationsCount: 10,
          missingEvaluations: 2,
          lastCallError: "HTTP 429: Too Many Requests",
          chargedCents: 240,
          progress: { currentPhase: "Completed", percentage: 100, details: "2 answers and 2 judgements are missing." },
        },
      }),
    );
    renderApp("/dashboard/monitor");
    const notice = await screen.findByTestId("missing-work");
    expect(
      within(notice).getByText(
        "2 answers and 2 judgements are missing. Last gateway error: HTTP 429: Too Many Requests",
      ),
    ).toBeInTheDocument();
    expect(
      within(notice).getByText(
        "Delivered 6 of 8 answers and 10 of 16 judgements (66%). This test was paid $2.40 for the full set.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/All responses and evaluations are in/)).not.toBeInTheDocument();
  });

  it("shows a queued test", async () => {
    showTest(makeMonitorData({ test: { status: "pending", jobStatus: "queued" } }));
    renderApp("/dashboard/monitor");
    expect(await screen.findByText("Queued")).toBeInTheDocument();
  });

  it("links a completed test to its results and offers no Stop Test", async () => {
    showTest(
      makeMonitorData({
        test: { status: "completed", completedAt: NOW, progress: { currentPhase: "Completed", percentage: 100 } },
      }),
    );
    renderApp("/dashboard/monitor");
    expect(await screen.findByRole("link", { name: "View Results" })).toHaveAttribute(
      "href",
      `/dashboard/results/${TEST_ID}`,
    );
    expect(screen.queryByRole("button", { name: "Stop Test" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Estimated time remaining/)).not.toBeInTheDocument();
  });

  it("shows why a test failed", async () => {
    showTest(makeMonitorData({ test: { status: "failed", errorMessage: "No model answered.", completedAt: NOW } }));
    renderApp("/dashboard/monitor");
    expect(await screen.findByText("Test failed")).toBeInTheDocument();
    expect(screen.getByText("No model answered.")).toBeInTheDocument();
  });

  it("says what the percentage counts: every model call, the judges' included", async () => {
    showTest();
    renderApp("/dashboard/monitor");
    // 2 writers × 2 personas × 2 topics = 8 answer calls; 1 ranking judge × 4 persona × topic pairs = 4.
    expect(await screen.findByTestId("progress-meaning")).toHaveTextContent(
      "of 12 model calls: 8 to write answers, 4 to judge them",
    );
    expect(screen.getByTestId("progress-details")).toHaveTextContent("3 of 8 responses generated");
  });

  it("a paid test that failed: says so once, that the payment was returned, and drops the payment confirmation", async () => {
    verify().mockResolvedValue({ verified: true, testId: TEST_ID });
    const error = "No responses were generated: HTTP 500: Internal Server Error";
    showTest(
      makeMonitorData({
        test: {
          status: "failed",
          errorMessage: error,
          completedAt: NOW,
          responsesCount: 0,
          missingResponses: 8,
          lastCallError: "HTTP 500: Internal Server Error",
          progress: {
            currentPhase: "Failed",
            percentage: 0,
            details: "8 answers are missing. Last gateway error: HTTP 500: Internal Server Error",
          },
          chargedCents: 200,
        },
      }),
    );
    setQueryResult("payments:testRefund", { state: "refunded", amountCents: 200, refundedAt: NOW });
    renderApp("/dashboard/monitor?session_id=cs_failed");
    const notice = await screen.findByTestId("monitor-failed");
    expect(within(notice).getByText("Test failed")).toBeInTheDocument();
    expect(within(notice).getByTestId("monitor-failed-reason")).toHaveTextContent(error);
    expect(within(notice).getByTestId("monitor-failed-refund")).toHaveTextContent(
      /^Your payment of \$2\.00 was returned to your card on .+\.$/,
    );
    // The gateway's error once, not again as missing work or as the progress line.
    expect(screen.getAllByText(/HTTP 500/)).toHaveLength(1);
    expect(screen.queryByTestId("missing-work")).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByText("Payment confirmed. Your test is on its way.")).not.toBeInTheDocument(),
    );
  });

  it("shows a cancelled test and forgets it as the current test", async () => {
    rememberCurrentTestId(TEST_ID);
    showTest(
      makeMonitorData({
        test: { status: "cancelled", completedAt: NOW, progress: { currentPhase: "Cancelled", percentage: 0 } },
      }),
    );
    renderApp("/dashboard/monitor");
    expect(await screen.findAllByText("Cancelled")).not.toHaveLength(0);
    expect(screen.queryByRole("button", { name: "Stop Test" })).not.toBeInTheDocument();
    await waitFor(() => expect(readCurrentTestId()).toBeNull());
  });

  it("shows an error state with Try Again when the test cannot be loaded", async () => {
    // React reports the error the boundary catches.
    vi.spyOn(console, "error").mockImplementation(() => {});
    setQueryResult("tests:current", TEST_ID);
    setQueryResult("tests:monitor", new Error("[CONVEX Q(tests:monitor)] Uncaught ConvexError: Test not found."));
    renderApp("/dashboard/monitor");
    expect(await screen.findByRole("button", { name: "Try Again" })).toBeInTheDocument();
    expect(screen.getByText("Test not found.")).toBeInTheDocument();

    setQueryResult("tests:monitor", makeMonitorData());
    fireEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByRole("heading", { name: "Support replies" })).toBeInTheDocument();
  });
});

describe("monitor of a team test the caller lost access to", () => {
  it("an open monitor moves to the access-lost screen when its viewer is removed from the team", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const data = makeMonitorData();
    showTest(data);
    renderApp(`/dashboard/monitor?testId=${TEST_ID}`);
    expect(await screen.findByRole("heading", { name: data.test.name })).toBeInTheDocument();
    expect(readCurrentTestId()).toBe(TEST_ID);

    // Removed from the team: every query of the test is refused with the access-lost message.
    const lost = () =>
      Object.assign(new QueryFailure("lost"), { data: { code: "NOT_FOUND", message: TEAM_MESSAGES.testAccessLost } });
    act(() => {
      setQueryResult("tests:current", lost());
      setQueryResult("tests:monitor", lost());
    });
    expect(await screen.findByText("You no longer have access to this test")).toBeInTheDocument();
    expect(screen.getByText(TEAM_MESSAGES.testAccessLost)).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "No Test Running" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Try Again" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to History" })).toHaveAttribute("href", "/dashboard/history");
    // The tab does not come back to it as its current test.
    expect(readCurrentTestId()).toBeNull();
  });
});

describe("return from payment", () => {
  it("confirms the payment once, then watches the test it paid for", async () => {
    let settle!: (value: { verified: boolean; testId: string | null }) => void;
    verify().mockReturnValue(new Promise((resolve) => (settle = resolve)));
    showTest();
    const { router } = renderApp("/dashboard/monitor?session_id=cs_test_1");

    expect(await screen.findByRole("heading", { name: "Confirming your payment…" })).toBeInTheDocument();
    expect(verify()).toHaveBeenCalledExactlyOnceWith({ sessionId: "cs_test_1" });

    await act(async () => settle({ verified: true, testId: TEST_ID }));
    await waitFor(() => expect(router.state.location.search).toEqual({ testId: TEST_ID }));
    expect(await screen.findByRole("heading", { name: "Support replies" })).toBeInTheDocument();
    expect(screen.queryByText("Payment not confirmed yet")).not.toBeInTheDocument();
    expect(verify()).toHaveBeenCalledTimes(1);
  });

  it("explains an unconfirmed payment and keeps watching the test", async () => {
    verify().mockResolvedValue({ verified: false, testId: TEST_ID });
    showTest(makeMonitorData({ test: { status: "pending", jobStatus: "pending_payment" } }));
    const { router } = renderApp("/dashboard/monitor?session_id=cs_test_2");

    expect(await screen.findByText("Payment not confirmed yet")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Support replies" })).toBeInTheDocument();
    expect(screen.getByText("Waiting for payment")).toBeInTheDocument();
    // The session id stays, so a reload asks again.
    await waitFor(() => expect(router.state.location.search).toEqual({ testId: TEST_ID, session_id: "cs_test_2" }));

    // The webhook lands: the job is queued and the notice goes away by itself.
    act(() => setQueryResult("tests:monitor", makeMonitorData({ test: { status: "pending", jobStatus: "queued" } })));
    await waitFor(() => expect(screen.queryByText("Payment not confirmed yet")).not.toBeInTheDocument());
    expect(screen.getByText("Queued")).toBeInTheDocument();
  });

  it("treats a failed verification as not confirmed, never a dead end", async () => {
    verify().mockRejectedValue(new Error("network down"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    setQueryResult("tests:current", null);
    renderApp("/dashboard/monitor?session_id=cs_test_3");
    expect(await screen.findByText("Payment not confirmed yet")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "No Test Running" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Test Setup" })).toBeInTheDocument();
  });
});
