// The results page's Team review section and "Review answers" button, with the team's figures
// computed by computeHumanStats (and the jury's by computeJuryStats) from a small case, not typed in:
// 3 models, 2 persona × topic units, 2 reviewers, 2 judges (convex/lib/stats/human.test.ts works
// the same case by hand: judge One tau 0.82, judge Two −0.41, reviewers' W 0.75).
import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { makeViewer, resetCalls, resetConvexMock, setPaginated, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import type { Id } from "../../../convex/_generated/dataModel";
import { computeJuryStats } from "../../../convex/lib/stats";
import { computeHumanStats, type HumanStatsInput, type HumanVerdict } from "../../../convex/lib/stats/human";
import type { JuryRanking } from "../../../convex/lib/stats/types";
import { makeResults, TEST_ID } from "@/test/fixtures/results";
import type { JuryView } from "./jury-model";
import { REVIEW_BUTTON, TEAM_REVIEW_EMPTY, type TeamReview } from "./team-review-model";

vi.mock("convex/react", () => import("@/test/convex-mock").then((m) => m.convexReactModule));
vi.mock("@convex-dev/auth/react", () => import("@/test/convex-mock").then((m) => m.convexAuthReactModule));

const SLOW = { timeout: 10_000 };
const TEAM_ID = "k57team000000000000000000000001" as Id<"teams">;
const PATH = `/dashboard/results/${TEST_ID}`;

const X = "x/model";
const Y = "y/model";
const Z = "z/model";
const MODELS = [
  { id: X, name: "Model X" },
  { id: Y, name: "Model Y" },
  { id: Z, name: "Model Z" },
];
const JUDGES = [
  { id: "j/one", name: "Judge One" },
  { id: "j/two", name: "Judge Two" },
];
const answer = (modelId: string, topicId: string) => `${modelId}@${topicId}`;
const ranked = (reviewerId: string, topicId: string, order: string[]): HumanVerdict => ({
  reviewerId,
  personaId: "p",
  topicId,
  ranking: order.map((modelId) => answer(modelId, topicId)),
});
const judgeCall = (judgeModelId: string, topicId: string, order: string[]): JuryRanking => ({
  judgeModelId,
  shown: [X, Y, Z].map((modelId) => answer(modelId, topicId)),
  ranking: order.map((modelId) => answer(modelId, topicId)),
});

const INPUT: HumanStatsInput = {
  seed: "team-review-screen",
  scale: "ranking",
  models: MODELS,
  judges: JUDGES.map((judge) => judge.id),
  // Four pairs, t3 repeating t1 and t4 t2 (two before issue 30: an interval now needs four).
  responses: ["t1", "t2", "t3", "t4"].flatMap((topicId) =>
    [X, Y, Z].map((modelId) => ({ id: answer(modelId, topicId), modelId, personaId: "p", topicId, length: 100 })),
  ),
  rankings: [
    ...["t1", "t3"].flatMap((topic) => [judgeCall("j/one", topic, [X, Y, Z]), judgeCall("j/two", topic, [Z, Y, X])]),
    ...["t2", "t4"].flatMap((topic) => [judgeCall("j/one", topic, [X, Y, Z]), judgeCall("j/two", topic, [X, Z, Y])]),
  ],
  verdicts: [
    ...["t1", "t3"].flatMap((topic) => [ranked("me", topic, [X, Y, Z]), ranked("bo", topic, [X, Z, Y])]),
    ...["t2", "t4"].flatMap((topic) => [ranked("me", topic, [Y, X, Z]), ranked("bo", topic, [X, Y, Z])]),
  ],
  resamples: 200,
};

/** What reviews.summary answers for INPUT (as core/reviews.ts reviewSummaryOf shapes it). */
function teamSummary(): TeamReview {
  const humans = computeHumanStats(INPUT);
  return {
    reviewers: humans.reviewers.map((reviewer) => ({
      initials: reviewer.reviewerId === "me" ? "AL" : "BO",
      pairs: reviewer.pairs,
      isYou: reviewer.reviewerId === "me",
    })),
    pairsReviewed: humans.pairsReviewed,
    totalPairs: 8,
    models: humans.models.map((model) => ({ ...model })),
    reviewerAgreement: humans.reviewerAgreement,
    judges: humans.judges.map((judge) => ({
      ...judge,
      judgeName: JUDGES.find((entry) => entry.id === judge.judgeModelId)!.name,
    })),
  };
}

function juryView(): JuryView {
  return {
    stats: computeJuryStats({ ...INPUT, resamples: 200 }),
    computedAt: Date.UTC(2026, 0, 15, 12, 0, 0),
    evaluationsSeen: 12,
    pending: false,
    live: false,
    judges: JUDGES,
    personas: [{ id: "p", name: "Pirate" }],
    topics: [
      { id: "t1", name: "Coffee" },
      { id: "t2", name: "Tea" },
      { id: "t3", name: "Cocoa" },
      { id: "t4", name: "Mate" },
    ],
  };
}

const EMPTY_SUMMARY: TeamReview = {
  reviewers: [],
  pairsReviewed: 0,
  totalPairs: 4,
  models: MODELS.map((model) => ({
    modelId: model.id,
    modelName: model.name,
    meanScore: null,
    interval: null,
    rank: null,
    units: 0,
  })),
  reviewerAgreement: null,
  judges: JUDGES.map((judge) => ({
    judgeModelId: judge.id,
    judgeName: judge.name,
    tau: null,
    interval: null,
    units: 0,
  })),
};

const two = (value: number) => value.toFixed(2);

beforeEach(() => {
  resetConvexMock();
  resetCalls();
  setSignedIn(makeViewer());
  setQueryResult("presence:viewers", { count: 0, viewers: [] });
  // Team review belongs to a team's test (a personal test has no team to review it).
  const results = makeResults();
  setQueryResult("results:get", makeResults({ test: { ...results.test, teamId: TEAM_ID } }));
  setPaginated("results:responses", []);
  setPaginated("results:evaluations", []);
  setQueryResult("notes:canAdd", true);
});

describe("results page: the team review", { timeout: 30_000 }, () => {
  it("shows the team's ranking beside the jury's, each judge's agreement with the team, best first, and the reviewers", async () => {
    const summary = teamSummary();
    setQueryResult("reviews:summary", summary);
    setQueryResult("results:juryStats", juryView());
    renderApp(PATH);
    const section = await screen.findByTestId("team-review", {}, SLOW);

    expect(within(section).getByTestId("team-review-progress")).toHaveTextContent(
      "4 of 8 persona × topic pairs reviewed by 2 reviewers",
    );
    const reviewers = within(section).getAllByTestId("reviewer");
    expect(reviewers[0]).toHaveTextContent("AL");
    expect(reviewers[0]).toHaveTextContent("You · 4 pairs");
    expect(reviewers[1]).toHaveTextContent("BO");
    expect(reviewers[1]).not.toHaveTextContent("You");

    // The team's ranking: every model with its mean, interval and rank range, best first.
    const team = within(within(section).getByRole("list", { name: "Team ranking with 95% intervals" })).getAllByTestId(
      "confidence-row",
    );
    expect(team).toHaveLength(3);
    summary.models.forEach((model, index) => {
      const row = team[index]!;
      expect(row).toHaveTextContent(model.modelName);
      expect(row).toHaveTextContent(two(model.meanScore!));
      expect(row).toHaveTextContent(`95% interval ${two(model.interval!.low)}–${two(model.interval!.high)}`);
      const rank =
        model.rank!.best === model.rank!.worst ? `${model.rank!.best}` : `${model.rank!.best}–${model.rank!.worst}`;
      expect(within(row).getByLabelText(`Rank ${rank}`)).toBeInTheDocument();
    });
    expect(team[0]).toHaveTextContent("Model X");
    expect(team[0]).toHaveTextContent("9.17");
    // The jury's, beside it.
    expect(within(section).getByRole("list", { name: "Model rankings with 95% intervals" })).toBeInTheDocument();

    // Which judge agrees with your team: tau, interval and units, best first.
    const judges = within(
      within(section).getByRole("table", { name: "Which judge agrees with your team" }),
    ).getAllByTestId("judge-agreement-row");
    expect(judges).toHaveLength(2);
    summary.judges.forEach((judge, index) => {
      const cells = within(judges[index]!);
      expect(cells.getByRole("rowheader")).toHaveTextContent(judge.judgeName);
      const figures = cells.getAllByRole("cell").map((cell) => cell.textContent);
      expect(figures).toEqual([
        two(judge.tau!),
        `${two(judge.interval!.low)}–${two(judge.interval!.high)}`,
        String(judge.units),
      ]);
    });
    expect(judges[0]).toHaveTextContent("Judge One");
    expect(judges[0]).toHaveTextContent("closest to your team");
    expect(within(judges[0]!).getAllByRole("cell")[0]).toHaveTextContent("0.82");
    expect(within(judges[1]!).getAllByRole("cell")[0]).toHaveTextContent("-0.41");

    // The reviewers' agreement with its band.
    const agreement = within(section).getByTestId("reviewer-agreement");
    expect(agreement).toHaveTextContent("0.75");
    expect(agreement).toHaveTextContent(summary.reviewerAgreement!.label);
    expect(agreement).toHaveTextContent("Kendall's W, over 4 shared pairs");
  });

  it("says nobody has reviewed yet, with the Review answers button, and the header carries the button too", async () => {
    setQueryResult("reviews:summary", EMPTY_SUMMARY);
    renderApp(PATH);
    expect(await screen.findByText(TEAM_REVIEW_EMPTY, {}, SLOW)).toBeInTheDocument();
    const links = screen.getAllByRole("link", { name: new RegExp(REVIEW_BUTTON) });
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toHaveAttribute("href", `/dashboard/results/${TEST_ID}/review`);
    expect(screen.queryByTestId("team-review")).not.toBeInTheDocument();
  });

  it("offers a viewer no Review answers button", async () => {
    setQueryResult("reviews:summary", EMPTY_SUMMARY);
    setQueryResult("notes:canAdd", false);
    renderApp(PATH);
    expect(await screen.findByText(TEAM_REVIEW_EMPTY, {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: new RegExp(REVIEW_BUTTON) })).not.toBeInTheDocument();
  });
});
