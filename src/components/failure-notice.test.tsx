import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { makeViewer, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import { FAILURE_TITLE } from "./failure-notice";
import { makeResults, makeResultsOfTest, TEST_ID } from "@/test/fixtures/results";

const PATH = `/dashboard/results/${TEST_ID}`;
const REASON = "No responses were generated: HTTP 401: User not found.";

function failedResults() {
  return makeResultsOfTest({
    status: "failed",
    errorMessage: REASON,
    responsesCount: 0,
    evaluationsCount: 0,
    failedCalls: 2,
  });
}

describe("a failed test's results page", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
  });

  it("says why it failed, that the payment was returned, and offers Run Again", async () => {
    const refundedAt = Date.UTC(2025, 4, 6, 12);
    setQueryResult("results:get", failedResults());
    setQueryResult("payments:testRefund", { state: "refunded", amountCents: 200, refundedAt });
    renderApp(PATH);
    const notice = await screen.findByTestId("failure-notice");
    expect(within(notice).getByText(FAILURE_TITLE)).toBeInTheDocument();
    expect(within(notice).getByTestId("failure-reason")).toHaveTextContent(REASON);
    expect(within(notice).getByTestId("failure-refund")).toHaveTextContent(
      `Your payment of $2.00 was returned to your card on ${new Date(refundedAt).toLocaleDateString()}.`,
    );
    expect(within(notice).getByRole("link", { name: /Run Again/ })).toHaveAttribute(
      "href",
      `/dashboard/setup?rerun=${TEST_ID}`,
    );
  });

  it("says the payment is being returned while Stripe makes the refund", async () => {
    setQueryResult("results:get", failedResults());
    setQueryResult("payments:testRefund", { state: "pending", amountCents: 450 });
    renderApp(PATH);
    expect(await screen.findByTestId("failure-refund")).toHaveTextContent(
      "Your payment of $4.50 is being returned to your card.",
    );
  });

  it("mentions no money when nothing was paid (free mode, own key)", async () => {
    setQueryResult("results:get", failedResults());
    setQueryResult("payments:testRefund", { state: "none", amountCents: 0 });
    renderApp(PATH);
    expect(await screen.findByTestId("failure-reason")).toHaveTextContent(REASON);
    expect(screen.queryByTestId("failure-refund")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Run Again/ })).toBeInTheDocument();
  });

  it("shows no failure notice for a completed test", async () => {
    setQueryResult("results:get", makeResults());
    renderApp(PATH);
    expect(await screen.findByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
    expect(screen.queryByTestId("failure-notice")).not.toBeInTheDocument();
  });
});
