// The shared page shows what the owner's results show of repeats, settling and jury advice (issue
// 35): the between-repeat spread (from shares.juryStats), why a settled test stopped
// (sharedExtras.settleStatus) and the jury advice in words (sharedExtras.juryAdvice), without the
// owner's buttons.
import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import type { JuryView } from "@/components/results/jury-model";
import { setQueryResult } from "@/test/convex-mock";
import { makeResults } from "@/test/fixtures/results";
import { renderApp } from "@/test/render-app";
import { computeJuryStats } from "../../../convex/lib/stats";
import { FAIR, simulate } from "../../../convex/lib/stats/simulated.helpers";

const SLOW = { timeout: 10_000 };

function sharedOf(status: "completed" | "running", repeats?: number, settles = false) {
  const results = makeResults();
  return {
    testName: "Coffee taglines",
    taskType: "marketing",
    status,
    createdAt: results.test._creationTime,
    startedAt: results.test.startedAt,
    ...(status === "completed" ? { completedAt: results.test._creationTime + 60_000 } : {}),
    valid: true,
    configuration: {
      ...results.test.configuration,
      ...(repeats === undefined ? {} : { repeats }),
      ...(settles ? { stopWhenSettled: { question: "best" as const, confidence: 0.95 } } : {}),
    },
    metrics: results.metrics,
    missingWork: { missingResponses: 0, missingEvaluations: 0 },
    rankings: results.rankings,
    sampleResponses: [],
  };
}

/** What shares.juryStats answers for a test of two repeats: a simulated jury, each model's spread set. */
function repeatedJuryView(): JuryView {
  const input = simulate({
    qualities: { "openai/alpha": 0.8, "anthropic/beta": 0.4 },
    judges: FAIR.slice(0, 3),
    topics: 8,
    seed: "shared-repeats",
  });
  const stats = computeJuryStats({ ...input, resamples: 200 });
  const spreads: Record<string, NonNullable<JuryView["stats"]>["models"][number]["repeatSpread"]> = {
    "openai/alpha": { repeats: 2, pairs: 8, cellSd: 0.71, byRepeat: [7.5, 8.1], scoreSd: 0.42 },
    "anthropic/beta": { repeats: 2, pairs: 8, cellSd: 1.2, byRepeat: [4.25, 4.75], scoreSd: 0.35 },
  };
  return {
    stats: { ...stats, models: stats.models.map((model) => ({ ...model, repeatSpread: spreads[model.modelId] })) },
    computedAt: Date.UTC(2026, 0, 15, 12, 0, 0),
    evaluationsSeen: 48,
    pending: false,
    live: false,
    judges: FAIR.slice(0, 3).map((judge) => ({ id: judge.id, name: judge.id })),
    personas: [{ id: "p0", name: "Pirate" }],
    topics: Array.from({ length: 8 }, (_, index) => ({ id: `t${index}`, name: `Topic ${index}` })),
  };
}

const ADVICE = {
  outcome: "advised" as const,
  decision: { kind: "best" as const, leaders: ["openai/alpha"] },
  costBasis: "usd" as const,
  judges: [
    { judgeModelId: "openai/gpt-4.1-mini", name: "GPT-4.1 mini", calls: 16, leftOut: false },
    { judgeModelId: "anthropic/claude-haiku", name: "Claude Haiku", calls: 16, leftOut: false },
    { judgeModelId: "openai/gpt-4.1", name: "GPT-4.1", calls: 16, leftOut: true },
  ],
  advised: { judges: ["openai/gpt-4.1-mini", "anthropic/claude-haiku"], costShare: 0.38, agreement: 1 },
  independentVotes: 1.8,
};

beforeEach(() => {
  setQueryResult("presence:viewers", { count: 0, viewers: [] });
  setQueryResult("checks:sharedSummary", null);
});

describe("shared page: repeats and jury advice", () => {
  it("shows each model's spread between repeats and the jury advice, with no owner's button", async () => {
    setQueryResult("shares:view", sharedOf("completed", 2));
    setQueryResult("shares:juryStats", repeatedJuryView());
    setQueryResult("sharedExtras:juryAdvice", ADVICE);
    renderApp("/shared/abc123");

    const spread = await screen.findByTestId("repeat-spread", {}, SLOW);
    const alpha = within(spread).getByRole("row", { name: /^alpha/ });
    expect(alpha).toHaveTextContent("7.50 · 8.10");
    expect(alpha).toHaveTextContent("±0.42");
    expect(alpha).toHaveTextContent("±0.71");
    expect(within(spread).getByRole("row", { name: /^beta/ })).toHaveTextContent("4.25 · 4.75");
    expect(screen.getByText(/Each persona × topic ran 2 times in fresh calls/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: /Test Configuration/ }));
    expect(await screen.findByText("Each persona × topic run 2 times")).toBeInTheDocument();

    const advice = screen.getByTestId("jury-advice");
    expect(advice).toHaveTextContent(
      "The same verdict with GPT-4.1 mini and Claude Haiku alone: 38% of the judging cost",
    );
    expect(advice).toHaveTextContent("3 judges, worth 1.8 independent votes");
    expect(within(advice).queryByRole("button")).toBeNull();
    expect(within(advice).queryByRole("link")).toBeNull();
  });

  it("says why a test set to stop when settled stopped", async () => {
    const stoppedReason =
      "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.";
    setQueryResult("shares:view", sharedOf("completed", undefined, true));
    setQueryResult("shares:juryStats", repeatedJuryView());
    setQueryResult("sharedExtras:juryAdvice", ADVICE);
    setQueryResult("sharedExtras:settleStatus", {
      question: "Which model is best?",
      line: "Settled at 95%: alpha is best",
      settled: true,
      pairsDone: 38,
      pairsTotal: 100,
      stopped: { reason: "settled", pairsDone: 38, pairsTotal: 100 },
      settledAfter: "Settled after 38 of 100 pairs",
      stoppedReason,
    });
    renderApp("/shared/abc123");
    const notice = await screen.findByTestId("settle-notice", {}, SLOW);
    expect(notice).toHaveTextContent("Stop when settled: Which model is best?");
    expect(notice).toHaveTextContent(stoppedReason);
    expect(notice).toHaveTextContent("Settled at 95%: alpha is best");
  });

  it("shows neither for a test without repeats that is still running", async () => {
    setQueryResult("shares:view", sharedOf("running"));
    setQueryResult("shares:juryStats", repeatedJuryView());
    setQueryResult("sharedExtras:juryAdvice", null);
    renderApp("/shared/abc123");
    expect(await screen.findByRole("heading", { name: /Coffee taglines/ }, SLOW)).toBeInTheDocument();
    expect(screen.queryByText("Between-Repeat Spread")).toBeNull();
    expect(screen.queryByTestId("jury-advice")).toBeNull();
  });
});
