import { describe, expect, it } from "vitest";

import { joinNames, plainVerdict, type VerdictFigures, type VerdictModel } from "./verdict-model";

function model(modelId: string, mean: number | null, low = (mean ?? 0) - 0.3, high = (mean ?? 0) + 0.3): VerdictModel {
  return {
    modelId,
    modelName: modelId.toUpperCase(),
    meanScore: mean,
    scoreInterval: mean === null ? null : { low, high },
  };
}

function cost(modelId: string, costPerResponseUsd: number | null, medianLatencyMs = 1200): VerdictFigures {
  return { modelId, costPerResponseUsd, medianLatencyMs };
}

const FIGURES = [cost("a", 0.004), cost("b", 0.001), cost("c", 0.002)];
const NONE = { kind: "none", leaders: [], extraTopicsRange: null } as const;

describe("plainVerdict", () => {
  it("has nothing to say before a model is scored", () => {
    expect(plainVerdict({ models: [model("a", null)], figures: [], summary: NONE, live: true, units: 0 })).toBeNull();
  });

  it("names a clear winner whose range clears every other model's, and says nothing more is needed", () => {
    const verdict = plainVerdict({
      models: [model("c", 5), model("a", 8.4, 8.0, 8.8), model("b", 6, 5.5, 6.5)],
      figures: FIGURES,
      summary: { kind: "best", leaders: ["a"], extraTopicsRange: null },
      live: false,
      units: 32,
    })!;
    expect(verdict).toMatchObject({ kind: "clear", pickId: "a", headline: "Pick A.", certainty: "A is best" });
    expect(verdict.confidence).toBe(
      "The jury is sure: A scores 8.40 (95% range 8.00–8.80) out of 10, above every other model's range. " +
        "Next best: B at 6.00 (95% range 5.50–6.50).",
    );
    expect(verdict.settle).toBe("Nothing more is needed to choose between these models.");
  });

  it("names a close second when the ranges almost touch", () => {
    const verdict = plainVerdict({
      models: [model("a", 8.4, 8.0, 8.8), model("b", 7.6, 7.2, 7.9)],
      figures: FIGURES,
      summary: { kind: "best", leaders: ["a"], extraTopicsRange: null },
      live: true,
      units: 32,
    })!;
    expect(verdict.kind).toBe("clear");
    expect(verdict.settle).toBe(
      "B is a close second (its range ends 0.10 points below A's): more topics would confirm the lead.",
    );
    expect(verdict.confidence).toMatch(/still running, so this may change/);
  });

  it("in a tie picks the cheapest of the tied models and says, as a range, how many topics would separate them", () => {
    const verdict = plainVerdict({
      models: [model("a", 8, 7.4, 8.6), model("b", 7.8, 7.1, 8.5), model("c", 5, 4.5, 5.5)],
      figures: FIGURES,
      summary: { kind: "tied", leaders: ["a", "b"], extraTopicsRange: { low: 5, high: 12 } },
      live: false,
      units: 32,
    })!;
    expect(verdict).toMatchObject({
      kind: "close",
      pickId: "b",
      certainty: "Too close to call",
      contenders: ["a", "b"],
    });
    expect(verdict.headline).toBe(
      "Pick B: it is as good as the jury can tell and costs the least of them ($0.001000 per answer).",
    );
    expect(verdict.confidence).toBe(
      "The jury cannot separate A and B: their 95% ranges overlap (A 8.00 (95% range 7.40–8.60); B 7.80 (95% range 7.10–8.50)).",
    );
    expect(verdict.settle).toBe(
      "About 5–12 more topics would likely separate them; more answers per topic or more judges also help.",
    );
  });

  it("in a tie without every cost picks the leader, and asks for more topics, answers or judges", () => {
    const verdict = plainVerdict({
      models: [model("a", 8, 7.4, 8.6), model("b", 7.8, 7.1, 8.5)],
      figures: [cost("a", 0.004), cost("b", null)],
      summary: { kind: "tied", leaders: ["a", "b"], extraTopicsRange: null },
      live: false,
      units: 32,
    })!;
    expect(verdict.pickId).toBe("a");
    expect(verdict.headline).toBe("Pick A: it leads, though not clearly.");
    expect(verdict.settle).toBe("More topics, more answers per topic or more judges would separate them.");
  });

  it("picks no model when the jury says there is too little evidence, and says what evidence is missing", () => {
    // One persona × topic pair gives zero-width intervals that clear each other: the summary, not
    // the intervals, decides (it was "A leads; pick it for now" while History said "Winner: A").
    const verdict = plainVerdict({
      models: [model("a", 9.38, 9.38, 9.38), model("b", 8.13, 8.13, 8.13)],
      figures: FIGURES,
      summary: { kind: "thin", leaders: [], extraTopicsRange: null },
      live: false,
      units: 1,
    })!;
    expect(verdict).toMatchObject({
      kind: "thin",
      pickId: null,
      headline: "Too little evidence to pick a model yet.",
      certainty: "Too little evidence",
      contenders: [],
    });
    expect(verdict.confidence).toBe(
      "A has the highest mean score (9.38 out of 10, ahead of B at 8.13), but the jury judged only 1 persona × topic pair; " +
        "it needs at least 4, with each answer judged at least twice: too little to tell the models apart.",
    );
    expect(verdict.settle).toBe(
      "Run it again with at least 3 more topics (or personas) and each answer judged at least twice (a second judge, or judging in both orders).",
    );
  });

  it("with enough pairs but one judge call per answer asks for a second judge call, and shows no interval it lacks", () => {
    const verdict = plainVerdict({
      models: [model("a", null), model("b", null)].map((entry, index) => ({ ...entry, meanScore: 8 - index })),
      figures: FIGURES,
      summary: { kind: "thin", leaders: [], extraTopicsRange: null },
      live: false,
      units: 12,
    })!;
    expect(verdict.kind).toBe("thin");
    expect(verdict.confidence).toContain("A has the highest mean score (8.00 out of 10, ahead of B at 7.00)");
    expect(verdict.confidence).toContain("each answer was judged only once");
    expect(verdict.settle).toBe(
      "Run it again with a second judge, or with judging in both orders, so each answer is judged at least twice.",
    );
  });

  it("a single scored model has nothing to be compared with", () => {
    const verdict = plainVerdict({
      models: [model("a", 7)],
      figures: FIGURES,
      summary: { kind: "thin", leaders: [], extraTopicsRange: null },
      live: false,
      units: 8,
    })!;
    expect(verdict).toMatchObject({ kind: "single", pickId: "a", headline: "A is the only model scored." });
  });
});

describe("joinNames", () => {
  it("joins names in words, and counts the rest past three", () => {
    expect(joinNames(["A"])).toBe("A");
    expect(joinNames(["A", "B"])).toBe("A and B");
    expect(joinNames(["A", "B", "C"])).toBe("A, B and C");
    expect(joinNames(["A", "B", "C", "D", "E"])).toBe("A, B, C and 2 others");
  });
});
