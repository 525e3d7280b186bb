// Cost split and score breakdown of the Jury section, fed by computeJuryStats
// on a simulated jury (known true qualities, one planted position-biased judge), and checked against
// what a user can add up from the exported CSV rows of the same answers and judge scores.
import { render, screen, within } from "@testing-library/react";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { setQueryResult } from "@/test/convex-mock";

import type { Id } from "../../../convex/_generated/dataModel";
import { formatDollars, formatScore } from "../../../convex/lib/format";
import { scoresFromRanking } from "../../../convex/lib/scoring";
import { computeJuryStats } from "../../../convex/lib/stats";
import type { JuryStatsInput } from "../../../convex/lib/stats/types";
import { FAIR, simulate, type Judge } from "../../../convex/lib/stats/simulated.helpers";
import type { JuryStatsDoc } from "../../../convex/validators";
import { buildCsv, CSV_ROW_TYPES, type ExportEvaluation, type ExportResponse } from "./export";
import { formatInterval, type JuryStats, type JuryView } from "./jury-model";
import { JuryDetails, JurySection } from "./jury-stats";

const BIASED: Judge = { id: "mistral/first-lover", position: 0.5 };
const PANEL = [...FAIR.slice(0, 2), BIASED];
const NAMES: Record<string, string> = {
  "openai/judge": "OpenAI Judge",
  "anthropic/judge": "Anthropic Judge",
  "mistral/first-lover": "Mistral First",
};
const QUALITIES = { "openai/alpha": 0.8, "anthropic/beta": 0.55, "meta/gamma": 0.3 };
const MODEL_NAMES: Record<string, string> = {
  "openai/alpha": "alpha",
  "anthropic/beta": "beta",
  "meta/gamma": "gamma",
};
const TOPICS = 8;

function simulated(scale: "ranking" | "rating"): JuryStatsInput {
  const input = simulate({
    qualities: QUALITIES,
    judges: PANEL,
    topics: TOPICS,
    personas: 2,
    scale,
    seed: `breakdown-${scale}`,
  });
  // Costs that differ by model and judge, so a wrong split shows; clarity scored apart from accuracy.
  const responses = input.responses.map((response, index) => ({
    ...response,
    costUsd: 0.0004 + (index % 3) * 0.0003 + response.length / 1e7,
  }));
  const judgeCost = (judge: string) => 0.001 * (1 + PANEL.findIndex((entry) => entry.id === judge));
  const ratings = (input.ratings ?? []).map((rating, index) => ({
    ...rating,
    scores: { accuracy: rating.scores.accuracy!, clarity: Math.max(1, rating.scores.clarity! - (index % 4)) },
    costUsd: judgeCost(rating.judgeModelId) + (index % 5) * 0.0001,
  }));
  const rankings = (input.rankings ?? []).map((call, index) => ({
    ...call,
    costUsd: judgeCost(call.judgeModelId) * 2 + (index % 7) * 0.0001,
  }));
  return { ...input, responses, ratings, rankings, resamples: 400 };
}

/** The rows the export queries would answer for this input: one per answer, one per judge score (a call's cost shared as the pipeline stores it). */
function exportRows(input: JuryStatsInput): { responses: ExportResponse[]; evaluations: ExportEvaluation[] } {
  const responses = input.responses.map((response) => ({
    id: response.id as Id<"responses">,
    modelId: response.modelId,
    modelName: MODEL_NAMES[response.modelId]!,
    personaId: response.personaId,
    personaName: response.personaId,
    topicId: response.topicId,
    topicTitle: response.topicId,
    content: "x".repeat(response.length),
    timestamp: 0,
    tokens: 100,
    latencyMs: 1000,
    costUsd: response.costUsd ?? 0,
    averageScore: null,
  }));
  const evaluations: ExportEvaluation[] = [];
  const base = (index: number) => ({
    id: `e${evaluations.length}` as Id<"evaluations">,
    explanation: "",
    timestamp: 0,
    callId: `c${index}` as Id<"calls">,
  });
  (input.ratings ?? []).forEach((rating, index) => {
    evaluations.push({
      ...base(index),
      responseId: rating.responseId as Id<"responses">,
      evaluatorModelId: rating.judgeModelId,
      scores: rating.scores,
      costUsd: rating.costUsd ?? 0,
    });
  });
  (input.rankings ?? []).forEach((call, index) => {
    for (const entry of scoresFromRanking(call.ranking)) {
      evaluations.push({
        ...base(index),
        responseId: entry.responseId as Id<"responses">,
        evaluatorModelId: call.judgeModelId,
        scores: { overall: entry.score },
        rank: entry.position,
        costUsd: (call.costUsd ?? 0) / call.ranking.length,
      });
    }
  });
  return { responses, evaluations };
}

type CsvRow = Record<string, string>;

function csvRows(input: JuryStatsInput, stats: JuryStatsDoc): CsvRow[] {
  const { responses, evaluations } = exportRows(input);
  return Papa.parse<CsvRow>(buildCsv(responses, evaluations, stats), { header: true, skipEmptyLines: true }).data;
}

const sum = (rows: CsvRow[], column: string) => rows.reduce((total, row) => total + Number(row[column]), 0);
const average = (rows: CsvRow[], column: string) => sum(rows, column) / rows.length;

function view(stats: JuryStats): JuryView {
  return {
    stats,
    computedAt: 0,
    evaluationsSeen: 0,
    pending: false,
    live: false,
    judges: PANEL.map((judge) => ({ id: judge.id, name: NAMES[judge.id]! })),
    personas: [],
    topics: [],
  };
}

function setup(scale: "ranking" | "rating") {
  const input = simulated(scale);
  const stats = computeJuryStats(input);
  const rows = csvRows(input, stats);
  render(<JuryDetails view={view(stats)} stats={stats} />);
  return {
    stats,
    rows,
    answers: rows.filter((row) => row["Row Type"] === CSV_ROW_TYPES.answer),
    judgements: rows.filter((row) => row["Row Type"] === CSV_ROW_TYPES.judgement),
  };
}

/** The cells of the row named `name` in the table named `table`, after its header cell. */
function cellsOf(table: string, name: string): HTMLElement[] {
  const row = within(screen.getByRole("table", { name: table }))
    .getByRole("rowheader", { name })
    .closest("tr")!;
  return within(row).getAllByRole("cell");
}

/** Column index of a header in the table named `table` (the row header is column 0). */
function columnOf(table: string, header: string): number {
  return (
    within(screen.getByRole("table", { name: table }))
      .getAllByRole("columnheader")
      .findIndex((cell) => cell.textContent === header) - 1
  );
}

describe("Jury section: cost split per model and per judge", () => {
  it.each(["ranking", "rating"] as const)(
    "%s test: generation and judging cost per model and each judge's own cost add up from the exported rows",
    (scale) => {
      const { stats, answers, judgements } = setup(scale);
      expect(screen.getAllByTestId("cost-split-row")).toHaveLength(3);
      for (const model of stats.models) {
        const generation = sum(
          answers.filter((row) => row["Model ID"] === model.modelId),
          "Cost (USD)",
        );
        const judging = sum(
          judgements.filter((row) => row["Model ID"] === model.modelId),
          "Cost (USD)",
        );
        expect(judging).toBeGreaterThan(0);
        const [generationCell, judgingCell, totalCell] = cellsOf("Cost per model", model.modelName);
        expect(generationCell).toHaveTextContent(formatDollars(generation, 4));
        expect(judgingCell).toHaveTextContent(formatDollars(judging, 4));
        expect(totalCell).toHaveTextContent(formatDollars(generation + judging, 4));
      }
      const [generationTotal, judgingTotal, total] = within(screen.getByTestId("cost-split-total")).getAllByRole(
        "cell",
      );
      expect(generationTotal).toHaveTextContent(formatDollars(sum(answers, "Cost (USD)"), 4));
      expect(judgingTotal).toHaveTextContent(formatDollars(sum(judgements, "Cost (USD)"), 4));
      expect(total).toHaveTextContent(formatDollars(sum(rows(answers, judgements), "Cost (USD)"), 4));

      // The judge table's Cost column is each judge's own calls: its Judgement rows.
      const costColumn = columnOf("Judges", "Cost");
      for (const judge of PANEL) {
        const own = sum(
          judgements.filter((row) => row.Judge === judge.id),
          "Cost (USD)",
        );
        expect(
          cellsOf(
            "Judges",
            `${NAMES[judge.id]}${stats.judges.find((entry) => entry.judgeModelId === judge.id)!.calls} calls`,
          )[costColumn],
        ).toHaveTextContent(formatDollars(own, 4));
      }
    },
  );
});

function rows(...parts: CsvRow[][]): CsvRow[] {
  return parts.flat();
}

describe("Jury section: per-criterion and per-judge means with intervals", () => {
  it("rating test: each model's mean per criterion and per judge, as the export's columns average, with its 95% interval", () => {
    const { stats, judgements } = setup("rating");
    expect(stats.criteria).toEqual(["accuracy", "clarity"]);
    for (const model of stats.models) {
      const own = judgements.filter((row) => row["Model ID"] === model.modelId);
      const cells = cellsOf("Mean score per criterion", model.modelName);
      expect(cells).toHaveLength(2);
      for (const [index, criterion] of (["Accuracy", "Clarity"] as const).entries()) {
        const figure = model.criteria[index]!;
        expect(cells[index]).toHaveTextContent(formatScore(average(own, `${criterion} Score`)));
        expect(cells[index]).toHaveTextContent(formatInterval(figure.interval));
        expect(figure.interval!.low).toBeLessThanOrEqual(figure.mean!);
        expect(figure.interval!.high).toBeGreaterThanOrEqual(figure.mean!);
      }
      const byJudge = cellsOf("Mean score per judge", model.modelName);
      for (const judge of PANEL) {
        const cell = byJudge[columnOf("Mean score per judge", NAMES[judge.id]!)];
        expect(cell).toHaveTextContent(
          formatScore(
            average(
              own.filter((row) => row.Judge === judge.id),
              "Score",
            ),
          ),
        );
        expect(cell).toHaveTextContent(
          formatInterval(model.byJudge.find((entry) => entry.judgeModelId === judge.id)!.interval),
        );
      }
    }
    // The two criteria differ, so the table is not one average repeated.
    expect(stats.models[0]!.criteria[0]!.mean).not.toBeCloseTo(stats.models[0]!.criteria[1]!.mean!, 2);
  });

  it("ranking test: each model's mean per judge, as the export's Score column averages, with its 95% interval; no criterion table", () => {
    const { stats, judgements } = setup("ranking");
    expect(screen.queryByRole("table", { name: "Mean score per criterion" })).not.toBeInTheDocument();
    for (const model of stats.models) {
      const own = judgements.filter((row) => row["Model ID"] === model.modelId);
      const byJudge = cellsOf("Mean score per judge", model.modelName);
      for (const judge of PANEL) {
        // The export rounds each Score to 4 decimals: the shown 2-decimal mean is within rounding of their average.
        const shown = byJudge[columnOf("Mean score per judge", NAMES[judge.id]!)]!;
        expect(
          Math.abs(
            Number(shown.firstElementChild!.textContent) -
              average(
                own.filter((row) => row.Judge === judge.id),
                "Score",
              ),
          ),
        ).toBeLessThanOrEqual(0.0051);
        expect(shown).toHaveTextContent(
          formatInterval(model.byJudge.find((entry) => entry.judgeModelId === judge.id)!.interval),
        );
      }
    }
  });
});

describe("shared page: the same breakdown for an anonymous viewer", () => {
  it("the shared link's Jury section shows the per-criterion and per-judge means, and no cost (the shared query sends none)", () => {
    const input = simulated("rating");
    const stats = computeJuryStats(input);
    // What api.shares.juryStats returns: the statistics less every cost figure (spec part 2's shared page shows none).
    const shared = JSON.parse(
      JSON.stringify(stats, (key, value: unknown) => (/cost/i.test(key) ? undefined : value)),
    ) as JuryStats;
    setQueryResult("shares:juryStats", view(shared));
    render(<JurySection source={{ shareId: "share-link-id" }} />);
    const top = stats.models[0]!;
    expect(cellsOf("Mean score per criterion", top.modelName)[0]).toHaveTextContent(
      formatInterval(top.criteria[0]!.interval),
    );
    expect(cellsOf("Mean score per judge", top.modelName)).toHaveLength(PANEL.length);
    expect(screen.getAllByTestId("judge-row")).toHaveLength(PANEL.length);
    expect(screen.queryByRole("table", { name: "Cost per model" })).not.toBeInTheDocument();
    const judgeHeaders = within(screen.getByRole("table", { name: "Judges" }))
      .getAllByRole("columnheader")
      .map((cell) => cell.textContent);
    expect(judgeHeaders).toContain("Flags");
    expect(judgeHeaders).not.toContain("Cost");
    expect(screen.queryByText(/\$\d/)).not.toBeInTheDocument();
  });
});
