import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import Papa from "papaparse";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { makeViewer, setQueryError, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { B_ID, comparison } from "@/test/fixtures/compare";
import { makeResponse, makeResults, TEST_ID } from "@/test/fixtures/results";
import { captureDownloads } from "@/test/downloads";
import { renderApp } from "@/test/render-app";

import type { Id } from "../../../convex/_generated/dataModel";
import type { HistoryRow } from "../history/history-model";

const PATH = `/compare?a=${TEST_ID}&b=${B_ID}`;

describe("compare page", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
  });
  afterEach(() => vi.restoreAllMocks());

  it("shows a loading state while the figures load", async () => {
    renderApp(PATH);
    expect(await screen.findByRole("status", { name: "Loading comparison" }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it("shows both tests, the models' scores, ranks and differences, stability, pass rates and what differs", async () => {
    setQueryResult("compare:get", comparison());
    setQueryResult("compare:answers", { a: [makeResponse(1)], b: [] });
    renderApp(PATH);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Compare two tests" }, { timeout: 10_000 }),
    ).toBeVisible();

    const testA = screen.getByRole("region", { name: "Test A" });
    expect(within(testA).getByRole("link", { name: "Coffee taglines" })).toHaveAttribute(
      "href",
      `/dashboard/results/${TEST_ID}`,
    );
    expect(within(testA).getByText("Completed")).toBeInTheDocument();
    const testB = screen.getByRole("region", { name: "Test B" });
    expect(within(testB).getByText("Running")).toBeInTheDocument();
    // B is still running: its progress shows (and moves with the live query).
    expect(within(testB).getByRole("progressbar", { name: "Test B progress" })).toBeInTheDocument();
    expect(testB).toHaveTextContent("Evaluating responses · 40%");

    const table = screen.getByRole("table", { name: "Scores by model" });
    const [, first, second] = within(table).getAllByRole("row");
    expect(
      within(first!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["GPT-4o Mini", "+2.50", "+1.25 to +3.50", "Larger than chance", "6.50", "#2", "9.00", "#1"]);
    expect(
      within(second!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["Claude 3.5 Haiku", "−0.25", "−1.00 to +0.50", "Within chance", "7.50", "#1", "7.25", "#2"]);
    // On a phone each model is a card, the difference, its interval and the verdict first.
    const cards = within(screen.getByRole("list", { name: "Scores by model" })).getAllByRole("listitem");
    expect(
      within(cards[0]!)
        .getAllByRole("term")
        .map((term) => term.textContent),
    ).toEqual(["Difference (B − A)", "95% interval", "Verdict", "Test A", "Test B"]);
    expect(cards[0]).toHaveTextContent(
      "GPT-4o MiniDifference (B − A)+2.5095% interval+1.25 to +3.50VerdictLarger than chanceTest A6.50 · #2Test B9.00 · #1",
    );
    expect(screen.getByText("Only in B: Gemini 2.0 Flash.")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Scores by model" })).toHaveTextContent(
      "The interval comes from resampling each test's persona × topic pairs",
    );

    const stability = screen.getByRole("region", { name: "Stability" });
    expect(stability).toHaveTextContent("Rank correlation (Spearman): -1.00");
    expect(stability).toHaveTextContent("Reversed: the second test orders the models nearly the other way round.");

    const checks = screen.getByRole("table", { name: "Check pass rates" });
    expect(within(checks).getByLabelText("GPT-4o Mini in test A: 75% passed, 3 of 4 (30%–95%)")).toBeInTheDocument();
    expect(within(checks).getByText("No checks")).toBeInTheDocument();

    const differences = screen.getByRole("region", { name: "What differs in the configuration" });
    expect(
      within(differences)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["The prompt differs.", "Models only in B: Gemini 2.0 Flash."]);
  });

  it("shows each check side by side with the difference's interval, and each test's verdict in the jury's words", async () => {
    const rate = (passed: number, answers: number, low: number, high: number) => ({
      answers,
      passed,
      rate: passed / answers,
      interval: { low, high },
    });
    const row = (a: ReturnType<typeof rate>, b: ReturnType<typeof rate>, low: number, high: number) => ({
      modelId: "openai/gpt-4o-mini",
      modelName: "GPT-4o Mini",
      a,
      b,
      difference: b.rate - a.rate,
      interval: { low, high },
      largerThanChance: low > 0 || high < 0,
    });
    const base = comparison();
    setQueryResult(
      "compare:get",
      comparison({
        verdicts: { a: { kind: "best", leaders: ["Claude 3.5 Haiku"] }, b: { kind: "thin", leaders: [] } },
        checks: {
          a: true,
          b: true,
          models: [],
          byCheck: [
            { label: "All checks", models: [row(rate(11, 12, 0.65, 0.99), rate(0, 12, 0, 0.24), -1, -0.6)] },
            {
              label: 'Contains "coffee"',
              models: [row(rate(11, 12, 0.65, 0.99), rate(11, 12, 0.65, 0.99), -0.3, 0.3)],
            },
            { label: "Valid JSON", models: [row(rate(12, 12, 0.76, 1), rate(0, 12, 0, 0.24), -1, -0.657)] },
          ],
        },
        models: base.models,
      }),
    );
    setQueryResult("compare:answers", { a: [], b: [] });
    renderApp(PATH);
    const checks = await screen.findByRole("table", { name: "Check pass rates" }, { timeout: 10_000 });
    const rows = within(checks).getAllByTestId("check-compare-row");
    expect(rows).toHaveLength(3);
    // The collapsed check shows on its own row, not only in "All checks".
    expect(
      within(rows[2]!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual([
      "Valid JSON",
      "GPT-4o Mini",
      "100% (76%–100%)12/12",
      "0% (0%–24%)0/12",
      "−100.0 pts",
      "−100.0 to −65.7 pts",
      "Larger than chance",
    ]);
    expect(within(rows[1]!).getByText("Within chance")).toBeInTheDocument();
    expect(
      within(checks).getByLabelText("GPT-4o Mini, Valid JSON, in test B: 0% passed, 0 of 12 (0%–24%)"),
    ).toBeInTheDocument();

    // Each test's verdict reads as on History; a run on too little evidence makes no claim about differences.
    expect(within(screen.getByRole("region", { name: "Test A" })).getByTestId("compare-verdict")).toHaveTextContent(
      "Claude 3.5 Haiku is best",
    );
    expect(within(screen.getByRole("region", { name: "Test B" })).getByTestId("compare-verdict")).toHaveTextContent(
      "Too little evidence",
    );
    const scores = screen.getByRole("table", { name: "Scores by model" });
    expect(within(scores).queryByText("Larger than chance")).not.toBeInTheDocument();
    expect(within(scores).getAllByText("Too little evidence")).toHaveLength(2);
  });

  it("Export downloads the comparison: a CSV row per shared model, a JSON with correlation, pass rates and differences", async () => {
    const downloads = captureDownloads();
    setQueryResult("compare:get", comparison());
    setQueryResult("compare:answers", { a: [], b: [] });
    renderApp(PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Export" }, { timeout: 10_000 }));
    await user.click(await screen.findByRole("menuitem", { name: "Export as CSV" }));
    await user.click(screen.getByRole("button", { name: "Export" }));
    await user.click(await screen.findByRole("menuitem", { name: "Export as JSON" }));

    expect(downloads.map((download) => download.name)).toEqual([
      "coffee-taglines-vs-coffee-taglines-rerun-comparison.csv",
      "coffee-taglines-vs-coffee-taglines-rerun-comparison.json",
    ]);
    const csv = Papa.parse<string[]>(await downloads[0]!.text, { skipEmptyLines: true }).data;
    expect(csv).toEqual([
      [
        "Model",
        "Model ID",
        "Score A",
        "Rank A",
        "Score B",
        "Rank B",
        "Difference (B - A)",
        "95% Low",
        "95% High",
        "Larger Than Chance",
        "Units Resampled",
      ],
      ["GPT-4o Mini", "openai/gpt-4o-mini", "6.5", "2", "9", "1", "2.5", "1.25", "3.5", "yes", "persona × topic pairs"],
      [
        "Claude 3.5 Haiku",
        "anthropic/claude-3.5-haiku",
        "7.5",
        "1",
        "7.25",
        "2",
        "-0.25",
        "-1",
        "0.5",
        "no",
        "persona × topic pairs",
      ],
    ]);
    const json = JSON.parse(await downloads[1]!.text) as Record<string, unknown>;
    expect(json).toMatchObject({
      rankCorrelation: { method: "spearman", value: -1 },
      checkPassRates: [{ modelId: "openai/gpt-4o-mini", a: { passed: 3, total: 4, low: 0.3, high: 0.95 }, b: null }],
      configurationDifferences: ["The prompt differs.", "Models only in B: Gemini 2.0 Flash."],
      onlyInB: ["Gemini 2.0 Flash"],
    });
  });

  it("shows one persona × topic pair's answers side by side, and the pair picked next", async () => {
    setQueryResult("compare:get", comparison());
    // Not JSON: an is-JSON check and a JSON Schema check fail for the one reason, said once.
    const notJson = [
      { checkId: "json", reason: "not valid JSON" },
      { checkId: "schema", reason: "not valid JSON" },
    ];
    setQueryResult("compare:answers", { a: [{ ...makeResponse(1), checkFailures: notJson }], b: [] });
    renderApp(PATH);
    const answers = await screen.findByRole("region", { name: "Answers side by side" }, { timeout: 10_000 });
    const picker = within(answers).getByRole("combobox", { name: "Persona × topic" });
    expect(picker).toHaveDisplayValue("Pirate × Coffee");
    const inA = within(answers).getByRole("region", { name: "Answers in test A" });
    expect(inA).toHaveTextContent(makeResponse(1).modelName);
    expect(within(inA).getAllByText("Failed a check: not valid JSON")).toHaveLength(1);
    expect(within(answers).getByRole("region", { name: "Answers in test B" })).toHaveTextContent(
      "No answers here yet.",
    );
    await userEvent.setup().selectOptions(picker, "Poet × Coffee");
    // Test B has no Poet: that side says so.
    await waitFor(() =>
      expect(within(answers).getByRole("region", { name: "Answers in test B" })).toHaveTextContent("Not in this test."),
    );
  });

  it("says when the tests have no model in common, and when neither has checks or differences", async () => {
    setQueryResult(
      "compare:get",
      comparison({
        models: [],
        onlyInA: ["GPT-4o Mini"],
        onlyInB: ["Gemini 2.0 Flash"],
        checks: null,
        differences: [],
        rankCorrelation: { method: "spearman", value: null, reading: "Not enough scored models in both tests." },
      }),
    );
    setQueryResult("compare:answers", { a: [], b: [] });
    renderApp(PATH);
    expect(await screen.findByRole("heading", { name: "No models in common" }, { timeout: 10_000 })).toBeVisible();
    expect(screen.queryByRole("table", { name: "Scores by model" })).not.toBeInTheDocument();
    expect(screen.getByText("Only in A: GPT-4o Mini. Only in B: Gemini 2.0 Flash.")).toBeInTheDocument();
    expect(screen.getByText("Neither test has checks.")).toBeInTheDocument();
    expect(screen.getByText("The two configurations are the same.")).toBeInTheDocument();
  });

  it("shows the server's refusal (another person's test, or none) with a way back", async () => {
    setQueryError("compare:get", new ConvexError({ code: "NOT_FOUND", message: "Test not found." }));
    renderApp(PATH);
    const alert = await screen.findByRole("alert", {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent("Error Loading Comparison");
    expect(alert).toHaveTextContent("Test not found.");
    expect(screen.getByRole("link", { name: "Back to History" })).toHaveAttribute("href", "/dashboard/history");
  });

  it("asks for two tests when the address names fewer", async () => {
    renderApp(`/compare?a=${TEST_ID}`);
    expect(
      await screen.findByRole("heading", { name: "Pick two tests to compare" }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(screen.getByRole("link", { name: "Go to History" })).toHaveAttribute("href", "/dashboard/history");
  });
});

describe("ways into the compare page", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
  });

  it("a rerun's results offer Compare with the original", async () => {
    const original = "k57original000000000000000000001" as Id<"tests">;
    const results = makeResults();
    setQueryResult("results:get", { ...results, test: { ...results.test, rerunOf: original } });
    renderApp(`/dashboard/results/${TEST_ID}`);
    expect(await screen.findByRole("link", { name: /Compare with the original/ }, { timeout: 10_000 })).toHaveAttribute(
      "href",
      `/compare?a=${original}&b=${TEST_ID}`,
    );
  });

  it("a test that is no rerun offers only Compare with…, which lists the other tests", async () => {
    setQueryResult("results:get", makeResults());
    const other = historyRow("Older run", "k57older00000000000000000000001", 1000);
    setQueryResult("history:list", { tests: [other, historyRow("This one", TEST_ID, 2000)], total: 2 });
    renderApp(`/dashboard/results/${TEST_ID}`);
    const button = await screen.findByRole("button", { name: /Compare with…/ }, { timeout: 10_000 });
    expect(screen.queryByRole("link", { name: /Compare with the original/ })).not.toBeInTheDocument();
    await userEvent.setup().click(button);
    const list = await screen.findByRole("list", { name: "Tests to compare with" });
    const links = within(list).getAllByRole("link");
    expect(links).toHaveLength(1);
    // The older test is A.
    expect(links[0]).toHaveAttribute("href", `/compare?a=${other._id}&b=${TEST_ID}`);
  });

  it("History: tick two tests, then Compare opens them, the older as A", async () => {
    const older = historyRow("Coffee taglines", "k57older00000000000000000000001", 1000);
    const newer = historyRow("Coffee taglines (Rerun)", "k57newer00000000000000000000001", 2000);
    const third = historyRow("Support replies", "k57third00000000000000000000001", 3000);
    setQueryResult("history:list", { tests: [third, newer, older], total: 3 });
    renderApp("/dashboard/history");
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole("checkbox", { name: "Pick Coffee taglines (Rerun) to compare" }, { timeout: 10_000 }),
    );
    expect(screen.queryByRole("link", { name: "Compare" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Pick Coffee taglines to compare" }));
    // Two picked: a third cannot be.
    expect(screen.getByRole("checkbox", { name: "Pick Support replies to compare" })).toBeDisabled();
    expect(screen.getByRole("link", { name: "Compare" })).toHaveAttribute(
      "href",
      `/compare?a=${older._id}&b=${newer._id}`,
    );
  });
});

function historyRow(name: string, id: string, created: number): HistoryRow {
  return {
    _id: id as HistoryRow["_id"],
    _creationTime: created,
    name,
    status: "completed",
    taskType: "marketing",
    startedAt: created,
    completedAt: created + 1000,
    totalCostUsd: 0.01,
    topPerformers: [],
    awaitingPayment: false,
    priceCents: 200,
    missingWork: { missingResponses: 0, missingEvaluations: 0 },
    juryVerdict: null,
  };
}
