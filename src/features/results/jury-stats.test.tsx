// The jury's evidence on screen (results, shared page, monitor), with statistics computed by computeJuryStats
// from a simulated jury (known true qualities, one planted position-biased judge), not typed in.
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { ConvexError } from "convex/values";
import { beforeEach, describe, expect, it } from "vitest";

import { JuryMonitorPanel } from "@/features/monitor/jury-monitor-panel";
import {
  makeViewer,
  resetConvexMock,
  setPaginated,
  setQueryError,
  setQueryResult,
  setSignedIn,
} from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import { computeJuryStats } from "../../../convex/lib/stats";
import { FAIR, simulate, type Judge } from "../../../convex/lib/stats/simulated.helpers";
import type { JuryView } from "@/components/results/jury-model";
import { makeResults, TEST_ID } from "@/test/fixtures/results";

/** The first render of the whole app loads its routes lazily. */
const SLOW = { timeout: 10_000 };

const BIASED: Judge = { id: "mistral/first-lover", position: 0.5 };
const PANEL = [...FAIR.slice(0, 3), BIASED];
const NAMES: Record<string, string> = {
  "openai/judge": "OpenAI Judge",
  "anthropic/judge": "Anthropic Judge",
  "meta/judge": "Meta Judge",
  "mistral/first-lover": "Mistral First",
};

/** What results.juryStats answers for a simulated test: names from the "configuration". */
function juryView(qualities: Record<string, number>, options: { topics?: number; live?: boolean } = {}): JuryView {
  const input = simulate({ qualities, judges: PANEL, topics: options.topics ?? 16, personas: 2, seed: "screen" });
  const stats = computeJuryStats({ ...input, resamples: 400 });
  return {
    stats,
    computedAt: Date.UTC(2026, 0, 15, 12, 0, 0),
    evaluationsSeen: (input.rankings ?? []).length * Object.keys(qualities).length,
    pending: false,
    live: options.live ?? false,
    judges: PANEL.map((judge) => ({ id: judge.id, name: NAMES[judge.id]! })),
    personas: [
      { id: "p0", name: "Pirate" },
      { id: "p1", name: "Poet" },
    ],
    topics: Array.from({ length: options.topics ?? 16 }, (_, index) => ({ id: `t${index}`, name: `Topic ${index}` })),
  };
}

// Two generators of the same hidden quality and a clearly worse one; then one clearly best.
const TIED = { "openai/alpha": 0.7, "anthropic/beta": 0.7, "meta/gamma": 0.3 };
const CLEAR = { "openai/alpha": 0.9, "anthropic/beta": 0.5, "meta/gamma": 0.3 };

/** The results page keeps the jury's methods closed under "The Jury": open it. */
async function openJury() {
  const toggle = await screen.findByRole("button", { name: /The Jury/ }, SLOW);
  expect(toggle).toHaveAttribute("aria-expanded", "false");
  fireEvent.click(toggle);
}

function showResults() {
  setQueryResult("results:get", makeResults());
  setPaginated("results:responses", []);
  setPaginated("results:evaluations", []);
}

beforeEach(() => {
  setSignedIn(makeViewer());
  setQueryResult("presence:viewers", { count: 0, viewers: [] });
});

describe("results page: the jury's evidence", { timeout: 30_000 }, () => {
  it("says two equal generators are statistically tied, shows their shared rank range and intervals", async () => {
    const view = juryView(TIED);
    const stats = view.stats!;
    showResults();
    setQueryResult("results:juryStats", view);
    renderApp(`/dashboard/results/${TEST_ID}`);

    const summary = await screen.findByTestId("jury-summary", {}, SLOW);
    expect(summary).toHaveTextContent(
      /^Too close to call: (alpha and beta|beta and alpha) are statistically tied; run more topics or judges to separate them/,
    );
    expect([...stats.summary.leaders].sort()).toEqual(["anthropic/beta", "openai/alpha"]);
    // Equal models: the gap's interval reaches 0, so no number of topics is promised (issue 30).
    expect(stats.summary.extraTopicsRange).toBeNull();

    const rows = within(screen.getByRole("list", { name: "Model rankings with 95% intervals" })).getAllByTestId(
      "confidence-row",
    );
    expect(rows).toHaveLength(3);
    // The two equal models share the ranks 1–2; the worse one is 3rd alone.
    expect(within(rows[0]!).getByLabelText("Rank 1–2")).toBeInTheDocument();
    expect(within(rows[1]!).getByLabelText("Rank 1–2")).toBeInTheDocument();
    expect(within(rows[2]!).getByLabelText("Rank 3")).toBeInTheDocument();
    const top = stats.models[0]!;
    expect(rows[0]).toHaveTextContent(
      `95% interval ${top.scoreInterval!.low.toFixed(2)}–${top.scoreInterval!.high.toFixed(2)}`,
    );
    expect(rows[0]).toHaveTextContent(`rating ${Math.round(top.rating!)}`);
    const bar = within(rows[0]!).getByTestId("interval-bar");
    expect(bar.style.left).toBe(`${top.scoreInterval!.low * 10}%`);
  });

  it("names the best model when its interval clears the rest", async () => {
    showResults();
    setQueryResult("results:juryStats", juryView(CLEAR));
    renderApp(`/dashboard/results/${TEST_ID}`);
    expect(await screen.findByTestId("jury-summary", {}, SLOW)).toHaveTextContent("alpha is best");
    const list = screen.getByRole("list", { name: "Model rankings with 95% intervals" });
    expect(within(list).getByLabelText("Rank 1")).toBeInTheDocument();
    expect(within(list).queryByLabelText("Rank 1–2")).not.toBeInTheDocument();
  });

  it("opens with the verdict in plain words and the figures to compare, the jury's methods closed below", async () => {
    showResults();
    setQueryResult("results:juryStats", juryView(CLEAR));
    renderApp(`/dashboard/results/${TEST_ID}`);
    const verdict = await screen.findByTestId("verdict", {}, SLOW);
    const leader = juryView(CLEAR).stats!.models[0]!;
    expect(within(verdict).getByTestId("verdict-headline")).toHaveTextContent(`Pick ${leader.modelName}.`);
    expect(within(verdict).getByTestId("verdict-certainty")).toHaveTextContent(`${leader.modelName} is best`);
    expect(within(verdict).getByTestId("verdict-confidence")).toHaveTextContent(/^The jury is sure: /);
    expect(within(verdict).getByTestId("verdict-settle")).not.toBeEmptyDOMElement();
    expect(within(verdict).getAllByTestId("compare-row")).toHaveLength(2);
    expect(within(verdict).getByRole("columnheader", { name: "Cost per answer" })).toBeInTheDocument();
    // The verdict comes before the stat cards; the methods wait behind "The Jury".
    const cards = screen.getByTestId("stat-total-responses");
    expect(verdict.compareDocumentPosition(cards) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole("button", { name: /The Jury/ })).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByRole("button", { name: /The Jury/ })).toHaveTextContent("Bradley–Terry");
    expect(screen.queryByRole("table", { name: "Bradley–Terry ratings" })).not.toBeInTheDocument();
    await openJury();
    expect(await screen.findByRole("table", { name: "Bradley–Terry ratings" })).toBeInTheDocument();
  });

  it("says a tie is too close to call, picks among the tied models and says what would settle it", async () => {
    showResults();
    const view = juryView(TIED);
    setQueryResult("results:juryStats", view);
    renderApp(`/dashboard/results/${TEST_ID}`);
    const verdict = await screen.findByTestId("verdict", {}, SLOW);
    expect(within(verdict).getByTestId("verdict-certainty")).toHaveTextContent("Too close to call");
    expect(within(verdict).getByTestId("verdict-headline")).toHaveTextContent(/^Pick (alpha|beta): it leads/);
    expect(within(verdict).getByTestId("verdict-confidence")).toHaveTextContent(
      /^The jury cannot separate (alpha and beta|beta and alpha): their 95% ranges overlap/,
    );
    expect(within(verdict).getByTestId("verdict-settle")).toHaveTextContent(
      "More topics, more answers per topic or more judges would separate them.",
    );
  });

  it("shows agreement with its band and method, every judge's record, the flagged judge with its figure, ratings and win rates", async () => {
    const view = juryView(TIED);
    const stats = view.stats!;
    showResults();
    setQueryResult("results:juryStats", view);
    renderApp(`/dashboard/results/${TEST_ID}`);
    await openJury();

    const agreement = await screen.findByTestId("jury-agreement", {}, SLOW);
    expect(agreement).toHaveTextContent(stats.agreement.overall.value!.toFixed(2));
    expect(agreement).toHaveTextContent(stats.agreement.overall.label);
    expect(within(agreement).getByRole("button", { name: "How Kendall's W works" })).toBeInTheDocument();
    const units = within(screen.getByRole("table", { name: "Agreement per persona and topic" })).getAllByRole("row");
    expect(units).toHaveLength(1 + 2 * 16);
    expect(units[1]).toHaveTextContent("Pirate");

    const judges = screen.getAllByTestId("judge-row");
    expect(judges.map((row) => within(row).getByRole("rowheader").textContent)).toEqual(
      stats.judges.map((judge) => `${NAMES[judge.judgeModelId]}${judge.calls} calls`),
    );
    const biased = stats.judges.find((judge) => judge.judgeModelId === BIASED.id)!;
    expect(biased.flagged).toBe(true);
    const flags = within(screen.getByRole("list", { name: "Flags of Mistral First" })).getAllByRole("listitem");
    expect(flags[0]).toHaveTextContent(
      `Position bias: puts the first-shown answer first ${Math.round(biased.position!.firstRate * 100)}% of the time (chance ${Math.round(biased.position!.chance * 100)}%`,
    );
    // The fair judges carry no flag.
    for (const row of judges.filter((row) => !row.textContent!.includes("Mistral First")))
      expect(row).toHaveTextContent("None");

    const ratings = within(screen.getByRole("table", { name: "Bradley–Terry ratings" })).getAllByRole("row");
    expect(ratings).toHaveLength(4);
    const cells = screen.getAllByTestId("win-rate-cell");
    expect(cells).toHaveLength(9);
    expect(cells[1]).toHaveTextContent(`${Math.round(stats.winRates.matrix[0]![1]! * 100)}%`);
  });

  it("shows the empty state until the first judgements, then fills in live", async () => {
    showResults();
    setQueryResult("results:juryStats", {
      ...juryView(TIED),
      stats: null,
      computedAt: null,
      evaluationsSeen: 0,
      live: true,
    });
    renderApp(`/dashboard/results/${TEST_ID}`);
    await openJury();
    expect(
      await screen.findByText("The jury's statistics appear when the first judgements arrive", {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.queryByTestId("jury-summary")).not.toBeInTheDocument();
    // Without jury figures yet, the rankings section keeps the plain list.
    expect(screen.getAllByTestId("ranking-row").length).toBeGreaterThan(0);

    act(() => setQueryResult("results:juryStats", juryView(TIED, { topics: 4, live: true })));
    expect(await screen.findByTestId("jury-details")).toBeInTheDocument();
    expect(screen.getByTestId("jury-summary")).toHaveTextContent("Updating as the judges report.");
    expect(screen.queryByText("The jury's statistics appear when the first judgements arrive")).not.toBeInTheDocument();
    expect(screen.getAllByTestId("confidence-row")).toHaveLength(3);
  });

  it("shows a loading state, and an error inside the Jury section without losing the page", async () => {
    showResults();
    renderApp(`/dashboard/results/${TEST_ID}`);
    await openJury();
    expect(await screen.findByLabelText("Loading the jury's statistics", {}, SLOW)).toBeInTheDocument();

    act(() =>
      setQueryError(
        "results:juryStats",
        new ConvexError({ code: "UNAVAILABLE", message: "Statistics are unavailable." }),
      ),
    );
    expect(await screen.findByText("Could not load the jury's statistics")).toBeInTheDocument();
    expect(screen.getByText("Statistics are unavailable.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Coffee taglines" })).toBeInTheDocument();
    expect(screen.getAllByTestId("ranking-row").length).toBeGreaterThan(0);
  });
});

describe("monitor: the jury filling in", () => {
  it("shows the empty line, then agreement, intervals and the flagged judge as judges report", async () => {
    setQueryResult("results:juryStats", { ...juryView(TIED), stats: null, live: true });
    render(<JuryMonitorPanel testId={TEST_ID} />);
    expect(screen.getByText("The jury's statistics appear when the first judgements arrive")).toBeInTheDocument();

    const view = juryView(TIED, { live: true });
    act(() => setQueryResult("results:juryStats", view));
    expect(screen.getByTestId("jury-monitor-summary")).toHaveTextContent(view.stats!.summary.text);
    expect(screen.getByTestId("jury-monitor")).toHaveTextContent(view.stats!.agreement.overall.label);
    expect(within(screen.getByRole("list", { name: "Intervals so far" })).getAllByRole("listitem")).toHaveLength(3);
    expect(screen.getByTestId("jury-monitor")).toHaveTextContent("1 judge flagged");
    expect(within(screen.getByRole("list", { name: "Flagged judges" })).getByRole("listitem")).toHaveTextContent(
      /^Mistral First: Position bias/,
    );
  });
});

describe("shared page and history", { timeout: 30_000 }, () => {
  it("shows an anonymous viewer the same summary, intervals and Jury section", async () => {
    resetConvexMock();
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    const results = makeResults();
    setQueryResult("shares:view", {
      testName: "Coffee taglines",
      taskType: "marketing",
      status: "completed",
      createdAt: results.test._creationTime,
      startedAt: results.test.startedAt,
      completedAt: results.test.completedAt,
      valid: true,
      configuration: results.test.configuration,
      metrics: results.metrics,
      missingWork: { missingResponses: 0, missingEvaluations: 0 },
      rankings: results.rankings,
      sampleResponses: [],
    });
    const view = juryView(TIED);
    setQueryResult("shares:juryStats", view);
    renderApp("/shared/share-link-id");
    expect(await screen.findByTestId("jury-summary", {}, SLOW)).toHaveTextContent(view.stats!.summary.text);
    expect(
      within(screen.getByRole("list", { name: "Model rankings with 95% intervals" })).getAllByLabelText("Rank 1–2"),
    ).toHaveLength(2);
    expect(screen.getByTestId("jury-agreement")).toHaveTextContent(view.stats!.agreement.overall.label);
    expect(screen.getAllByTestId("judge-row")).toHaveLength(4);
  });

  it("History shows each test's decision in the jury's words: best, too close to call, too little evidence", async () => {
    const base = {
      _creationTime: Date.UTC(2026, 0, 10, 9, 0, 0),
      status: "completed" as const,
      taskType: "marketing",
      totalCostUsd: 0.01,
      topPerformers: [],
      awaitingPayment: false,
      priceCents: 200,
      missingWork: { missingResponses: 0, missingEvaluations: 0 },
    };
    setQueryResult("history:list", {
      tests: [
        {
          ...base,
          _id: "k57clear000000000000000000000000",
          name: "Clear",
          juryVerdict: { kind: "best", leaders: ["alpha"] },
        },
        {
          ...base,
          _id: "k57tied0000000000000000000000000",
          name: "Tied",
          juryVerdict: { kind: "tied", leaders: ["alpha", "beta"] },
        },
        {
          ...base,
          _id: "k57thin0000000000000000000000000",
          name: "Thin",
          juryVerdict: { kind: "thin", leaders: [] },
        },
        { ...base, _id: "k57none0000000000000000000000000", name: "Unjudged", juryVerdict: null },
      ],
      total: 4,
    });
    renderApp("/dashboard/history");
    const rows = await screen.findAllByTestId("history-row", {}, SLOW);
    expect(within(rows[0]!).getByTestId("jury-verdict")).toHaveTextContent("alpha is best");
    expect(within(rows[1]!).getByTestId("jury-verdict")).toHaveTextContent("Too close to call: alpha and beta");
    expect(within(rows[2]!).getByTestId("jury-verdict")).toHaveTextContent("Too little evidence");
    expect(within(rows[3]!).queryByTestId("jury-verdict")).not.toBeInTheDocument();
  });
});
