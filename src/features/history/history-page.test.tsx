import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { callMock, makeViewer, setQueryError, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import { ALL, filterTests, optionsOf, type HistoryRow } from "./history-model";

function row(overrides: Partial<HistoryRow> & { name: string }): HistoryRow {
  const created = Date.UTC(2026, 0, 10, 9, 0, 0);
  return {
    _id: `k57${overrides.name.toLowerCase().replace(/\W/g, "")}`.padEnd(32, "0") as HistoryRow["_id"],
    _creationTime: created,
    status: "completed",
    taskType: "marketing",
    startedAt: created,
    completedAt: created + 125_000,
    totalCostUsd: 0.012345,
    topPerformers: ["Claude 3.5 Haiku", "GPT-4o Mini", "Gemini 2.0 Flash"],
    awaitingPayment: false,
    priceCents: 200,
    missingWork: { missingResponses: 0, missingEvaluations: 0 },
    juryVerdict: null,
    ...overrides,
  };
}

const ROWS = [
  row({ name: "Coffee taglines" }),
  row({ name: "Support replies", taskType: "customer-service", status: "failed", topPerformers: [] }),
  row({ name: "API docs", taskType: "technical", status: "running", completedAt: undefined, topPerformers: [] }),
];

describe("history filters", () => {
  it("searches name and task type case-insensitively, then filters by status and task type", () => {
    expect(filterTests(ROWS, { search: "COFFEE", status: ALL, taskType: ALL }).map((r) => r.name)).toEqual([
      "Coffee taglines",
    ]);
    expect(filterTests(ROWS, { search: "Technical", status: ALL, taskType: ALL }).map((r) => r.name)).toEqual([
      "API docs",
    ]);
    expect(filterTests(ROWS, { search: "customer service", status: ALL, taskType: ALL }).map((r) => r.name)).toEqual([
      "Support replies",
    ]);
    expect(filterTests(ROWS, { search: "", status: "failed", taskType: ALL }).map((r) => r.name)).toEqual([
      "Support replies",
    ]);
    expect(filterTests(ROWS, { search: "", status: ALL, taskType: "marketing" }).map((r) => r.name)).toEqual([
      "Coffee taglines",
    ]);
    expect(filterTests(ROWS, { search: "docs", status: "completed", taskType: ALL })).toEqual([]);
  });

  it("takes the filter options from the data", () => {
    expect(optionsOf(ROWS, "status")).toEqual(["completed", "failed", "running"]);
    expect(optionsOf(ROWS, "taskType")).toEqual(["customer-service", "marketing", "technical"]);
  });
});

describe("history page", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
  });

  it("lists the tests with badge, created, duration, task type, cost to 4 decimals and top 3", async () => {
    setQueryResult("history:list", { tests: ROWS, total: 3 });
    renderApp("/dashboard/history");
    expect(await screen.findByRole("heading", { name: "Test History" })).toBeInTheDocument();
    expect(screen.getByTestId("history-count")).toHaveTextContent("3 of 3 tests");
    const first = screen.getAllByTestId("history-row")[0]!;
    expect(first).toHaveTextContent("Coffee taglines");
    expect(first).toHaveTextContent("Completed");
    expect(first).toHaveTextContent(new Date(ROWS[0]!._creationTime).toLocaleDateString());
    expect(first).toHaveTextContent("2:05");
    expect(first).toHaveTextContent("Marketing");
    expect(first).toHaveTextContent("$0.0123");
    // Which figure is which: the price paid, and what the model calls cost the gateway.
    expect(within(first).getByTestId("history-price")).toHaveTextContent("Price$2.00");
    expect(within(first).getByTestId("history-calls-cost")).toHaveTextContent("Model calls cost$0.0123");
    expect(first).not.toHaveTextContent("Total cost");
    expect(within(first).getByRole("list", { name: "Top performers of Coffee taglines" })).toHaveTextContent(
      "1. Claude 3.5 Haiku2. GPT-4o Mini3. Gemini 2.0 Flash",
    );
    expect(within(first).getByRole("link", { name: "View results of Coffee taglines" })).toHaveAttribute(
      "href",
      `/dashboard/results/${ROWS[0]!._id}`,
    );
  });

  it("searches as you type and says when nothing matches", async () => {
    const user = userEvent.setup();
    setQueryResult("history:list", { tests: ROWS, total: 3 });
    renderApp("/dashboard/history");
    const search = await screen.findByRole("searchbox", { name: "Search tests" });
    await user.type(search, "support");
    expect(screen.getByTestId("history-count")).toHaveTextContent("1 of 3 tests");
    await user.clear(search);
    await user.type(search, "zzz");
    expect(screen.getByRole("heading", { name: "No Matching Tests" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Clear Filters" }));
    expect(screen.getByTestId("history-count")).toHaveTextContent("3 of 3 tests");
  });

  it("says how many answers and judgements a test is missing and why", async () => {
    setQueryResult("history:list", {
      tests: [
        row({
          name: "Lossy run",
          missingWork: { missingResponses: 2, missingEvaluations: 4, lastCallError: "HTTP 503: Service Unavailable" },
        }),
        row({ name: "Clean run" }),
      ],
      total: 2,
    });
    renderApp("/dashboard/history");
    const [lossy, clean] = await screen.findAllByTestId("history-row");
    expect(
      within(lossy!).getByText(
        "2 answers and 4 judgements are missing. Last gateway error: HTTP 503: Service Unavailable",
      ),
    ).toBeInTheDocument();
    expect(within(clean!).queryByTestId("missing-work")).toBeNull();
  });

  it("says when a test stopped settled and how many repeats it ran", async () => {
    setQueryResult("history:list", {
      tests: [
        row({ name: "Settled run", settledAfter: "Settled after 38 of 100 pairs", repeats: 3 }),
        row({ name: "Plain run" }),
      ],
      total: 2,
    });
    renderApp("/dashboard/history");
    const [settled, plain] = await screen.findAllByTestId("history-row");
    expect(within(settled!).getByTestId("history-settled")).toHaveTextContent("Settled after 38 of 100 pairs");
    expect(within(settled!).getByTestId("history-repeats")).toHaveTextContent("Repeats×3");
    expect(within(plain!).queryByTestId("history-settled")).toBeNull();
    expect(within(plain!).queryByTestId("history-repeats")).toBeNull();
  });

  it("offers an unpaid draft Complete Payment and Discard instead of View Results", async () => {
    const abandoned = row({
      name: "Abandoned checkout",
      status: "pending",
      startedAt: undefined,
      completedAt: undefined,
      awaitingPayment: true,
      topPerformers: [],
    });
    setQueryResult("history:list", { tests: [abandoned], total: 0 });
    renderApp("/dashboard/history");
    const [draft] = await screen.findAllByTestId("history-row");
    expect(within(draft!).getByText("Pending Payment")).toBeInTheDocument();
    expect(within(draft!).queryByRole("link", { name: /View results/ })).toBeNull();
    expect(within(draft!).getByRole("button", { name: "Complete Payment for Abandoned checkout" })).toBeInTheDocument();
    await userEvent.click(within(draft!).getByRole("button", { name: "Discard Abandoned checkout" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Discard Draft" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Discard" }));
    await waitFor(() => expect(callMock("tests:remove")).toHaveBeenCalledWith({ testId: abandoned._id }));
  });

  it("shows 'No Tests Yet' with a Create Test link", async () => {
    setQueryResult("history:list", { tests: [], total: 0 });
    renderApp("/dashboard/history");
    expect(await screen.findByRole("heading", { name: "No Tests Yet" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Create Test" })).toHaveAttribute("href", "/dashboard/setup");
  });

  it("shows the load failure with Try Again", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    setQueryError("history:list", new Error("offline"));
    renderApp("/dashboard/history");
    expect(await screen.findByRole("heading", { name: "Failed to load test history" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });

  it("deletes a test from the list", async () => {
    const user = userEvent.setup();
    setQueryResult("history:list", { tests: ROWS, total: 3 });
    const remove = callMock("tests:remove");
    renderApp("/dashboard/history");
    await user.click(await screen.findByRole("button", { name: "Delete Support replies" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("Support replies");
    await user.click(within(dialog).getByRole("button", { name: "Delete Test" }));
    expect(remove).toHaveBeenCalledWith({ testId: ROWS[1]!._id });
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
  });
});
