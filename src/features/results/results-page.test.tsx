import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeEach, describe, expect, it, vi } from "vitest";

import {
  callMock,
  loadMore,
  makeViewer,
  setPaginated,
  setQueryError,
  setQueryResult,
  setSignedIn,
} from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import type { Id } from "../../../convex/_generated/dataModel";

import { makeEvaluation, makeResponse, makeResults, makeResultsOfTest, TEST_ID } from "@/test/fixtures/results";

const PATH = `/dashboard/results/${TEST_ID}`;

/** The missing-work notice of a test paid $2.00 whose gateway last failed with HTTP 500. */
async function missingWorkOf(test: Parameters<typeof makeResultsOfTest>[0]) {
  setQueryResult(
    "results:get",
    makeResultsOfTest({ lastCallError: "HTTP 500: Internal Server Error", chargedCents: 200, ...test }),
  );
  renderApp(PATH);
  return await screen.findByTestId("missing-work");
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("results page", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
  });

  it("shows a skeleton while loading", async () => {
    renderApp(PATH);
    expect(await screen.findByLabelText("Loading results")).toBeInTheDocument();
  });

  it("shows the header, actions, times, stat cards and the open sections", async () => {
    setQueryResult("results:get", makeResults());
    renderApp(PATH);
    expect(await screen.findByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Back to History/ })).toHaveAttribute("href", "/dashboard/history");
    expect(screen.getByText("2 models · 2 personas · 1 topic")).toBeInTheDocument();
    expect(screen.getByText("Completed", { selector: "[data-slot=status-badge]" })).toBeInTheDocument();
    for (const name of ["Share Results", "Save as Template", "Export", "Delete"]) {
      expect(screen.getByRole("button", { name: new RegExp(name) })).toBeInTheDocument();
    }
    expect(screen.getByRole("link", { name: /Rerun Test/ })).toHaveAttribute(
      "href",
      `/dashboard/setup?rerun=${TEST_ID}`,
    );
    expect(screen.getByTestId("test-duration")).toHaveTextContent("2:05");

    expect(screen.getByTestId("stat-total-responses")).toHaveTextContent("8");
    expect(screen.getByTestId("stat-evaluations")).toHaveTextContent("8");
    expect(screen.getByTestId("stat-average-response-time")).toHaveTextContent("1.2s");
    expect(screen.getByTestId("stat-completion-rate")).toHaveTextContent("87.5%");

    const rankings = screen.getByRole("list", { name: "Model rankings" });
    const rows = within(rankings).getAllByTestId("ranking-row");
    expect(rows[0]).toHaveTextContent("Claude 3.5 Haiku");
    expect(rows[0]).toHaveTextContent("7.50");
    expect(within(rows[0]).getByTestId("score-bar")).toHaveStyle({ width: "75%" });
    expect(rows[1]).toHaveTextContent("6.25");

    expect(screen.getByRole("button", { name: /Overall Model Rankings/ })).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("button", { name: /Performance by Persona/ })).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("list", { name: "Rankings for Pirate" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Average score by persona and model" })).toBeInTheDocument();
    expect(screen.getByTestId("frontier-models")).toHaveTextContent("GPT-4o Mini, Claude 3.5 Haiku");
    expect(screen.getByRole("button", { name: /Raw Responses/ })).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByRole("button", { name: /Evaluations/ })).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("list", { name: "Raw responses" })).not.toBeInTheDocument();
  });

  it("says what a finished test is missing, why, and the shortfall against what was paid", async () => {
    const notice = await missingWorkOf({ responsesCount: 6, missingResponses: 2, evaluationsCount: 6 });
    expect(notice).toHaveTextContent("2 answers are missing. Last gateway error: HTTP 500: Internal Server Error");
    expect(notice).toHaveTextContent(
      "Delivered 6 of 8 answers and 6 of 8 judgements (75%). This test was paid $2.00 for the full set.",
    );
  });

  it("shows a failed test one notice, the failure's, without the missing work's beside it", async () => {
    setQueryResult(
      "results:get",
      makeResultsOfTest({
        status: "failed",
        errorMessage: "No responses were generated: HTTP 500: Internal Server Error",
        lastCallError: "HTTP 500: Internal Server Error",
        chargedCents: 200,
        responsesCount: 0,
        missingResponses: 8,
        evaluationsCount: 0,
      }),
    );
    renderApp(PATH);
    await screen.findByTestId("failure-notice");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    expect(screen.queryByTestId("missing-work")).not.toBeInTheDocument();
    expect(screen.getAllByText(/HTTP 500/)).toHaveLength(1);
  });

  it("shows no missing-work notice when everything arrived", async () => {
    setQueryResult("results:get", makeResults());
    renderApp(PATH);
    expect(await screen.findByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
    expect(screen.queryByTestId("missing-work")).not.toBeInTheDocument();
  });

  it("counts the duration up while the test runs", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const started = Date.now() - 61_000;
      setQueryResult(
        "results:get",
        makeResultsOfTest({ status: "running", startedAt: started, completedAt: undefined }),
      );
      renderApp(PATH);
      expect(await screen.findByTestId("test-duration")).toHaveTextContent("1:01");
      await act(async () => {
        vi.advanceTimersByTime(2_000);
      });
      expect(screen.getByTestId("test-duration")).toHaveTextContent("1:03");
      expect(screen.getByRole("link", { name: /Watch Live/ })).toHaveAttribute(
        "href",
        `/dashboard/monitor?testId=${TEST_ID}`,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("opens Raw Responses: 20 rows, load more, and the full response as sanitized Markdown", async () => {
    const user = userEvent.setup();
    setQueryResult("results:get", makeResults());
    setPaginated(
      "results:responses",
      Array.from({ length: 20 }, (_, index) => makeResponse(index + 1)),
      "CanLoadMore",
    );
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /Raw Responses/ }));
    const list = screen.getByRole("list", { name: "Raw responses" });
    expect(within(list).getAllByTestId("response-row")).toHaveLength(20);
    expect(within(list).getAllByTestId("response-row")[0]).toHaveTextContent("120 tokens · 1.5s");

    await user.click(screen.getByRole("button", { name: "Load more responses" }));
    expect(loadMore).toHaveBeenCalledWith(20);

    await user.click(within(list).getAllByRole("button", { name: /View full response/ })[0]);
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Topic: Coffee · Persona: Pirate")).toBeInTheDocument();
    expect(within(dialog).getByText("Answer 1", { selector: "strong" })).toBeInTheDocument();
    expect(dialog.querySelector("script")).toBeNull();
    expect(within(dialog).getByText("$0.000245")).toBeInTheDocument();
    expect(within(dialog).getByText("1.5s")).toBeInTheDocument();
    expect(within(dialog).getByText("Generated")).toBeInTheDocument();
  });

  it("says an answer that fails a JSON Schema check and an is-JSON check is 'not valid JSON' once", async () => {
    const user = userEvent.setup();
    setQueryResult("results:get", makeResults());
    setPaginated("results:responses", [
      {
        ...makeResponse(1),
        content: "Sure! Here is the JSON you asked for.",
        checkFailures: [
          { checkId: "json", reason: "not valid JSON" },
          { checkId: "schema", reason: "not valid JSON" },
          { checkId: "short", reason: "8 words, more than 3" },
        ],
      },
    ]);
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /Raw Responses/ }));
    expect(screen.getByTestId("response-check-failures")).toHaveTextContent(
      /^Failed 3 checks\s*not valid JSON; 8 words, more than 3$/,
    );
  });

  it("says so when there are no responses", async () => {
    const user = userEvent.setup();
    setQueryResult("results:get", makeResults());
    setPaginated("results:responses", []);
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /Raw Responses/ }));
    expect(screen.getByText("No responses available")).toBeInTheDocument();
  });

  it("opens Evaluations: evaluator, 50-character preview, scores, explanation and the detail dialog", async () => {
    const user = userEvent.setup();
    setQueryResult("results:get", makeResults());
    setPaginated(
      "results:evaluations",
      Array.from({ length: 10 }, (_, index) => makeEvaluation(index + 1)),
      "CanLoadMore",
    );
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /^Evaluations/ }));
    const rows = within(screen.getByRole("list", { name: "Evaluations" })).getAllByTestId("evaluation-row");
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent("Gemini 2.0 Flash on GPT-4o Mini");
    expect(rows[0]).toHaveTextContent("“**Answer 1**: cold brew, bold as the sea. <script>...”");
    expect(rows[0]).toHaveTextContent("Accuracy: 8.00");
    expect(rows[0]).toHaveTextContent("Creativity: 6.50");
    expect(rows[0]).toHaveTextContent("Verdict 1: vivid and on brand.");
    await user.click(screen.getByRole("button", { name: "Load more evaluations" }));
    expect(loadMore).toHaveBeenCalledWith(10);

    await user.click(within(rows[0]).getByRole("button", { name: /View evaluation/ }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("heading", { name: "Evaluation by Gemini 2.0 Flash" })).toBeInTheDocument();
    expect(within(dialog).getByText("Answer 1", { selector: "strong" })).toBeInTheDocument();
    expect(within(dialog).getByText("Verdict 1: vivid and on brand.")).toBeInTheDocument();
    expect(within(dialog).getByText("Evaluated")).toBeInTheDocument();
  });

  it(
    "offers no Review answers on a failed test with no answers, and Team review only on a team's test",
    { timeout: 30_000 },
    async () => {
      setQueryResult("notes:canAdd", true);
      setQueryResult("reviews:summary", null);
      setQueryResult("results:get", makeResultsOfTest({ status: "failed", responsesCount: 0, missingResponses: 8 }));
      setQueryResult("payments:testRefund", { state: "none", amountCents: 0 });
      const { unmount } = renderApp(PATH);
      await screen.findByRole("heading", { level: 1, name: "Coffee taglines" });
      expect(screen.queryByRole("link", { name: /Review answers/ })).not.toBeInTheDocument();
      expect(screen.queryByRole("button", { name: /Team review/ })).not.toBeInTheDocument();
      unmount();

      // A personal test with answers: the owner may review it, but there is no team to review it with.
      setQueryResult("results:get", makeResults());
      const personal = renderApp(PATH);
      expect(await screen.findByRole("link", { name: /Review answers/ })).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: /Team review/ })).not.toBeInTheDocument();
      personal.unmount();

      setQueryResult("results:get", makeResultsOfTest({ teamId: "k57team000000000000000000000001" as Id<"teams"> }));
      renderApp(PATH);
      expect(await screen.findByRole("button", { name: /Team review/ })).toBeInTheDocument();
    },
  );

  it("offers Manage Sharing once the test is shared", async () => {
    setQueryResult("results:get", makeResults({ share: { shareId: "abc", isActive: true } }));
    renderApp(PATH);
    expect(await screen.findByRole("button", { name: /Manage Sharing/ })).toBeInTheDocument();
  });

  it("shows 'Invalid Test Data' for a test it cannot lay out", async () => {
    setQueryResult("results:get", makeResults({ valid: false }));
    renderApp(PATH);
    expect(await screen.findByRole("heading", { name: "Invalid Test Data" })).toBeInTheDocument();
    expect(screen.getByText("This test has corrupted or incomplete data.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to History" })).toHaveAttribute("href", "/dashboard/history");
  });

  it("shows 'Error Loading Results' with Try Again and Back to History", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, "error").mockImplementation(() => {});
    setQueryError("results:get", new ConvexError({ code: "NOT_FOUND", message: "Test not found." }));
    renderApp(PATH);
    expect(await screen.findByRole("heading", { name: "Error Loading Results" })).toBeInTheDocument();
    expect(screen.getByText("Test not found.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to History" })).toHaveAttribute("href", "/dashboard/history");
    setQueryResult("results:get", makeResults());
    await user.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
  });

  it("deletes: close and cancel disabled while deleting, a failure keeps the dialog, success goes to history", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, "error").mockImplementation(() => {});
    setQueryResult("results:get", makeResults());
    setQueryResult("history:list", { tests: [], total: 0 });
    const remove = callMock("tests:remove");
    const first = deferred<null>();
    remove.mockImplementationOnce(() => first.promise);
    const { router } = renderApp(PATH);

    await user.click(await screen.findByRole("button", { name: /Delete/ }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Delete Test" }));
    expect(remove).toHaveBeenCalledWith({ testId: TEST_ID });
    expect(within(dialog).getByRole("button", { name: /Deleting/ })).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeDisabled();
    await user.keyboard("{Escape}");
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();

    await act(async () => first.reject(new Error("network")));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Failed to delete test. Please try again.");
    expect(within(dialog).getByRole("button", { name: "Delete Test" })).toBeEnabled();

    await user.click(within(dialog).getByRole("button", { name: "Delete Test" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/history"));
  });

  it("saves the configuration as a template", async () => {
    const user = userEvent.setup();
    setQueryResult("results:get", makeResults());
    const create = callMock("templates:create");
    renderApp(PATH);
    await user.click(await screen.findByRole("button", { name: /Save as Template/ }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByLabelText("Template Name")).toHaveValue("Coffee taglines");
    await user.click(within(dialog).getByRole("button", { name: "Save Template" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "Please provide both a name and description for your template.",
    );
    expect(create).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText("Description"), "Tagline tone check");
    await user.type(within(dialog).getByLabelText("Tags"), "Tone{Enter}");
    await user.type(within(dialog).getByLabelText("Tags"), " coffee ");
    await user.click(within(dialog).getByRole("button", { name: "Add tag" }));
    await user.click(within(dialog).getByRole("button", { name: "Save Template" }));
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    const saved = create.mock.calls[0]![0] as Record<string, unknown>;
    expect(saved).toMatchObject({
      name: "Coffee taglines",
      description: "Tagline tone check",
      category: "marketing",
      isPublic: false,
      tags: ["tone", "coffee"],
      templateData: {
        userPrompt: "Write a tagline.",
        personas: [
          { name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." },
          { name: "Poet", description: "Rhymes", systemPrompt: "Verse." },
        ],
        topics: [{ title: "Coffee", description: "A coffee shop", prompt: "Sell coffee." }],
        suggestedModels: {
          generators: ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"],
          evaluators: ["google/gemini-2.0-flash-001"],
        },
        responsesPerTopic: 2,
      },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });
});
