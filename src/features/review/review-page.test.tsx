// The blind review page (/dashboard/results/{testId}/review) on the whole app's router, with
// what reviews.pair would answer scripted in the Convex stand-in.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { getFunctionName, type FunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";

import {
  callMock,
  convexReactModule,
  makeViewer,
  mockCall,
  setQueryError,
  setQueryResult,
  setSignedIn,
} from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import { makeResults, TEST_ID } from "@/test/fixtures/results";
import { TEST_ACCESS_LOST_TITLE } from "@/components/test-access-lost";

import { TEAM_MESSAGES } from "../../../convex/lib/teams";
import { REVIEW_EMPTY, REVIEW_LOAD_FAILED, VIEWERS_CANNOT_REVIEW } from "./review-model";
import { makeCurrent, makePairView } from "@/test/fixtures/review";

const PATH = `/dashboard/results/${TEST_ID}/review`;
/** The first render of the whole app loads its routes lazily. */
const SLOW = { timeout: 10_000 };

function answerItems() {
  return within(screen.getByRole("list", { name: "Your ranking, best first" })).getAllByTestId("ranked-answer");
}

function shownOrder() {
  return answerItems().map((item) => item.dataset.label);
}

function item(label: string) {
  return answerItems().find((node) => node.dataset.label === label)!;
}

beforeEach(() => {
  setSignedIn(makeViewer());
  setQueryResult("presence:viewers", { count: 0, viewers: [] });
});

describe("blind review page", { timeout: 30_000 }, () => {
  it("reorders with the keyboard (number keys, Alt+arrows) and Enter submits that order, best first", async () => {
    const user = userEvent.setup();
    setQueryResult("reviews:pair", makePairView());
    renderApp(PATH);
    expect(await screen.findByTestId("pair-title", {}, SLOW)).toHaveTextContent("Pirate · Coffee");
    expect(screen.getByTestId("pair-prompt")).toHaveTextContent("Write a tagline for a coffee shop.");
    expect(screen.getByTestId("review-progress")).toHaveTextContent("1 of 2 pairs reviewed");
    expect(shownOrder()).toEqual(["A", "B", "C"]);

    // C to first place with its number key; then B up one place with Alt+↑.
    item("C").focus();
    await user.keyboard("1");
    expect(shownOrder()).toEqual(["C", "A", "B"]);
    expect(item("C")).toHaveFocus();
    expect(item("C")).toHaveAccessibleName("Answer C, place 1 of 3");
    item("B").focus();
    await user.keyboard("{Alt>}{ArrowUp}{/Alt}");
    expect(shownOrder()).toEqual(["C", "B", "A"]);
    expect(item("B")).toHaveFocus();
    // Alt+↓ moves it back down; the Move up button moves it up again.
    await user.keyboard("{Alt>}{ArrowDown}{/Alt}");
    expect(shownOrder()).toEqual(["C", "A", "B"]);
    await user.click(screen.getByRole("button", { name: "Move answer B up" }));
    expect(shownOrder()).toEqual(["C", "B", "A"]);

    item("A").focus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(callMock("reviews:submit")).toHaveBeenCalledTimes(1));
    expect(callMock("reviews:submit")).toHaveBeenCalledWith({
      testId: TEST_ID,
      personaId: "p1",
      topicId: "t1",
      ranking: ["C", "B", "A"],
    });
  });

  it("after saving moves to the next pair not reviewed yet; → and ← move between pairs", async () => {
    const user = userEvent.setup();
    const useQuery = vi.spyOn(convexReactModule, "useQuery");
    onTestFinished(() => useQuery.mockRestore());
    const view = makePairView();
    const pairs = [
      ...view.pairs,
      { personaId: "p3", topicId: "t1", personaName: "Chef", topicName: "Coffee", answers: 3, reviewed: false },
    ];
    setQueryResult("reviews:pair", { ...view, pairs });
    renderApp(PATH);
    await screen.findByTestId("pair-title", {}, SLOW);
    /** The pair the page asks reviews.pair for last. */
    const asked = () => {
      const calls = useQuery.mock.calls.filter(
        ([reference]) => getFunctionName(reference as FunctionReference<"query">) === "reviews:pair",
      );
      const args = calls.at(-1)![1] as Record<string, unknown>;
      return args.personaId;
    };
    // Pinned to the pair the server chose first, so saving does not swap it under the reviewer.
    await waitFor(() => expect(asked()).toBe("p1"));

    item("A").focus();
    await user.keyboard("{ArrowRight}");
    await waitFor(() => expect(asked()).toBe("p2"));
    // The server answers with the pair asked for.
    act(() =>
      setQueryResult("reviews:pair", {
        ...view,
        pairs,
        current: makeCurrent({ personaId: "p2", personaName: "Poet" }),
      }),
    );
    expect(await screen.findByTestId("pair-title")).toHaveTextContent("Poet · Coffee");
    item("A").focus();
    await user.keyboard("{ArrowLeft}");
    await waitFor(() => expect(asked()).toBe("p1"));
    act(() => setQueryResult("reviews:pair", { ...view, pairs }));
    expect(await screen.findByTestId("pair-title")).toHaveTextContent("Pirate · Coffee");

    await user.click(screen.getByRole("button", { name: /Save and next/ }));
    await waitFor(() => expect(callMock("reviews:submit")).toHaveBeenCalledTimes(1));
    // Poet (p2) is reviewed already: the next one to do is Chef (p3).
    await waitFor(() => expect(asked()).toBe("p3"));
  });

  it("starts from the saved verdict's order", async () => {
    setQueryResult("reviews:pair", makePairView({ current: makeCurrent({ verdict: { ranking: ["B", "C", "A"] } }) }));
    renderApp(PATH);
    await screen.findByTestId("pair-title", {}, SLOW);
    expect(shownOrder()).toEqual(["B", "C", "A"]);
  });

  it("a rating test submits a score for every answer × criterion, set by click or number key", async () => {
    const user = userEvent.setup();
    setQueryResult(
      "reviews:pair",
      makePairView({
        scale: "rating",
        criteria: ["accuracy", "creativity"],
        current: makeCurrent({ answers: makeCurrent().answers.slice(0, 2) }),
      }),
    );
    renderApp(PATH);
    await screen.findByTestId("pair-title", {}, SLOW);
    const save = screen.getByRole("button", { name: /Save and next/ });
    expect(save).toBeDisabled();
    expect(screen.getByText("4 scores to go")).toBeInTheDocument();

    const group = (criterion: string, label: string) =>
      screen.getByRole("group", { name: new RegExp(`^${criterion} of answer ${label}`) });
    await user.click(within(group("Accuracy", "A")).getByRole("radio", { name: "7" }));
    await user.click(within(group("Creativity", "A")).getByRole("radio", { name: "3" }));
    await user.click(within(group("Accuracy", "B")).getByRole("radio", { name: "5" }));
    // Enter with a score missing does not submit; it says what is missing.
    within(group("Accuracy", "B")).getByRole("radio", { name: "5" }).focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByText(/1 score is missing/, {}, SLOW)).toBeInTheDocument();
    expect(callMock("reviews:submit")).not.toHaveBeenCalled();

    // Keyboard: a number key in a row of scores sets it (0 for 10), the arrows step it.
    within(group("Creativity", "B")).getAllByRole("radio")[0]!.focus();
    await user.keyboard("0");
    expect(within(group("Creativity", "B")).getByRole("radio", { name: "10" })).toBeChecked();
    within(group("Accuracy", "B")).getByRole("radio", { name: "5" }).focus();
    await user.keyboard("{ArrowRight}");
    expect(within(group("Accuracy", "B")).getByRole("radio", { name: "6" })).toBeChecked();
    expect(save).toBeEnabled();

    await user.click(save);
    await waitFor(() => expect(callMock("reviews:submit")).toHaveBeenCalledTimes(1));
    expect(callMock("reviews:submit")).toHaveBeenCalledWith({
      testId: TEST_ID,
      personaId: "p1",
      topicId: "t1",
      scores: { A: { accuracy: 7, creativity: 3 }, B: { accuracy: 6, creativity: 10 } },
    });
  });

  it("never shows a model's name, even with the test's results and jury loaded", async () => {
    const results = makeResults();
    setQueryResult("results:get", results);
    setQueryResult("reviews:pair", makePairView());
    renderApp(PATH);
    await screen.findByTestId("pair-title", {}, SLOW);
    expect(answerItems()).toHaveLength(3);
    const text = document.body.textContent ?? "";
    for (const model of [
      ...results.test.configuration.generatorModels,
      ...results.test.configuration.evaluatorModels,
    ]) {
      expect(text).not.toContain(model.name);
      expect(text).not.toContain(model.id);
    }
    expect(screen.getByText("Answer A")).toBeInTheDocument();
  });

  it("shows the submit error in a toast and stays on the pair", async () => {
    const user = userEvent.setup();
    setQueryResult("reviews:pair", makePairView());
    mockCall("reviews:submit", () => {
      throw new ConvexError({ code: "INVALID_INPUT", message: "Rank every answer once." });
    });
    renderApp(PATH);
    await screen.findByTestId("pair-title", {}, SLOW);
    await user.click(screen.getByRole("button", { name: /Save and next/ }));
    expect(await screen.findByText("Rank every answer once.", {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId("pair-title")).toHaveTextContent("Pirate · Coffee");
  });

  it("says nothing has arrived yet, then shows answers as they arrive", async () => {
    const empty = makePairView({
      current: null,
      pairs: makePairView().pairs.map((pair) => ({ ...pair, answers: 0, reviewed: false })),
    });
    setQueryResult("reviews:pair", empty);
    renderApp(PATH);
    expect(await screen.findByText(REVIEW_EMPTY, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId("review-progress")).toHaveTextContent("0 of 2 pairs reviewed");
    act(() => setQueryResult("reviews:pair", makePairView()));
    expect(await screen.findByTestId("pair-title")).toHaveTextContent("Pirate · Coffee");
    expect(screen.queryByText(REVIEW_EMPTY)).not.toBeInTheDocument();
  });

  it("a removed teammate's open review moves to the access-lost screen; another failure offers Try Again", async () => {
    setQueryResult("reviews:pair", makePairView());
    renderApp(PATH);
    await screen.findByTestId("pair-title", {}, SLOW);
    act(() =>
      setQueryError("reviews:pair", new ConvexError({ code: "NOT_FOUND", message: TEAM_MESSAGES.testAccessLost })),
    );
    expect(await screen.findByText(TEST_ACCESS_LOST_TITLE)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Try Again/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId("pair-title")).not.toBeInTheDocument();
  });

  it("shows a load failure with Try Again", async () => {
    setQueryError("reviews:pair", new Error("[CONVEX Q(reviews:pair)] Server Error\nUncaught Error: Backend down"));
    renderApp(PATH);
    expect(await screen.findByText(REVIEW_LOAD_FAILED, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Try Again/ })).toBeInTheDocument();
  });

  it("tells a viewer they cannot review and offers no controls", async () => {
    setQueryResult("reviews:pair", makePairView({ canReview: false }));
    renderApp(PATH);
    expect(await screen.findByText(VIEWERS_CANNOT_REVIEW, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText("Answer A")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Save and next/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Move answer/ })).not.toBeInTheDocument();
  });

  it("shows a skeleton while loading, then the pair list with what is reviewed, and joins presence on the review page", async () => {
    renderApp(PATH);
    expect(await screen.findByLabelText("Loading the review", {}, SLOW)).toBeInTheDocument();
    act(() => setQueryResult("reviews:pair", makePairView()));
    const pairs = within(await screen.findByRole("navigation", { name: "Pairs" })).getAllByTestId("pair-item");
    expect(pairs[0]).toHaveAttribute("aria-current", "true");
    expect(pairs[0]).toHaveTextContent("(not reviewed)");
    expect(pairs[1]).toHaveTextContent("Poet");
    expect(pairs[1]).toHaveTextContent("(reviewed)");
    // Teammates see this reviewer on the review page.
    expect(callMock("presence:heartbeat")).toHaveBeenCalledWith(
      expect.objectContaining({ room: `test:${TEST_ID}`, page: "review" }),
    );
  });
});
