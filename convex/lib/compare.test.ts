// Two runs compared, against figures worked by hand.
import { describe, expect, it } from "vitest";
import type { TestConfiguration } from "../validators";
import {
  compareRuns,
  configurationDifferences,
  matchedPairs,
  pairedUnits,
  runStandings,
  stabilityReading,
  unitScoresOf,
  type RunScores,
} from "./compare";

const M1 = { id: "m1", name: "Model One" };
const M2 = { id: "m2", name: "Model Two" };
const M3 = { id: "m3", name: "Model Three" };
const M4 = { id: "m4", name: "Model Four" };

/** A run whose unit u gives model i the score scores[u][i]. */
function run(models: { id: string; name: string }[], scores: number[][]): RunScores {
  return {
    models,
    units: scores.map((row, u) => ({
      personaId: `p${u}`,
      topicId: "t",
      means: new Map(row.map((score, i) => [models[i]!.id, score])),
    })),
  };
}

describe("unitScoresOf", () => {
  it("averages each answer's judges, then each model's answers in a pair (rating)", () => {
    const answers = [
      { id: "r1", modelId: "m1", personaId: "p1", topicId: "t1" },
      { id: "r2", modelId: "m1", personaId: "p1", topicId: "t1" },
      { id: "r3", modelId: "m2", personaId: "p1", topicId: "t1" },
      { id: "r4", modelId: "m1", personaId: "p2", topicId: "t1" },
    ];
    const verdicts = [
      // r1: judge j1 (6 + 8) / 2 = 7, judge j2 9 → 8
      { responseId: "r1", judgeModelId: "j1", scores: { accuracy: 6, creativity: 8 } },
      { responseId: "r1", judgeModelId: "j2", scores: { accuracy: 9, creativity: 9 } },
      // r2: 4 → m1 in (p1, t1) = (8 + 4) / 2 = 6
      { responseId: "r2", judgeModelId: "j1", scores: { accuracy: 4, creativity: 4 } },
      { responseId: "r3", judgeModelId: "j1", scores: { accuracy: 5, creativity: 5 } },
      // r4 is not judged yet: the pair (p2, t1) has no score for m1
    ];
    const units = unitScoresOf(answers, verdicts);
    expect(units.map((unit) => [unit.personaId, unit.topicId, Object.fromEntries(unit.means)])).toEqual([
      ["p1", "t1", { m1: 6, m2: 5 }],
      ["p2", "t1", {}],
    ]);
  });

  it("scores a ranking's places as the results do: (N − rank) / N × 10", () => {
    const answers = [
      { id: "r1", modelId: "m1", personaId: "p", topicId: "t" },
      { id: "r2", modelId: "m2", personaId: "p", topicId: "t" },
    ];
    const verdicts = [
      { responseId: "r1", judgeModelId: "j1", place: { rank: 0, ranked: 2, outOf: 2 } },
      { responseId: "r2", judgeModelId: "j1", place: { rank: 1, ranked: 2, outOf: 2 } },
      // the same judge's reverse-order call disagrees: r1 10 and 5 → 7.5; r2 5 and 10 → 7.5
      { responseId: "r1", judgeModelId: "j1", place: { rank: 1, ranked: 2, outOf: 2 } },
      { responseId: "r2", judgeModelId: "j1", place: { rank: 0, ranked: 2, outOf: 2 } },
    ];
    expect(Object.fromEntries(unitScoresOf(answers, verdicts)[0]!.means)).toEqual({ m1: 7.5, m2: 7.5 });
  });
});

describe("runStandings", () => {
  it("scores a model by the mean of its pairs, ranks 1 = best, ties share the better rank", () => {
    // m1: (6 + 8) / 2 = 7; m2: (9 + 5) / 2 = 7; m3: (4 + 6) / 2 = 5
    const standings = runStandings(
      run(
        [M1, M2, M3],
        [
          [6, 9, 4],
          [8, 5, 6],
        ],
      ),
    );
    expect(Object.fromEntries(standings)).toEqual({
      m1: { score: 7, rank: 1 },
      m2: { score: 7, rank: 1 },
      m3: { score: 5, rank: 3 },
    });
  });
});

describe("compareRuns", () => {
  it("finds a known difference: every pair 2 points higher gives +2 with an interval of [2, 2]", () => {
    // Four pairs each (an interval needs at least 4; the runs had 3 and 2 before issue 30). Not
    // paired (no keys): Welch's interval, whose standard error is 0 when no pair's score varies.
    const a = run(
      [M1, M2],
      [
        [6, 8],
        [6, 8],
        [6, 8],
        [6, 8],
      ],
    );
    const b = run(
      [M1, M2],
      [
        [8, 8],
        [8, 8],
        [8, 8],
        [8, 8],
      ],
    );
    const result = compareRuns(a, b);
    expect(result.models).toEqual([
      {
        modelId: "m1",
        modelName: "Model One",
        a: { score: 6, rank: 2 },
        b: { score: 8, rank: 1 },
        difference: 2,
        interval: { low: 2, high: 2 },
        largerThanChance: true,
      },
      {
        modelId: "m2",
        modelName: "Model Two",
        a: { score: 8, rank: 1 },
        b: { score: 8, rank: 1 },
        difference: 0,
        interval: { low: 0, high: 0 },
        largerThanChance: false,
      },
    ]);
    expect(result.thin).toBeNull();
  });

  it("gives Welch's interval for independent runs: A 4, 8, 6, 2 against B 6, 6, 7, 5 → +1 within [−2.933, +4.933]", () => {
    // A: mean 5, s² = 20/3; B: mean 6, s² = 2/3. SE² = 20/12 + 2/12 = 11/6; Welch–Satterthwaite
    // df = (11/6)² / ((5/3)²/3 + (1/6)²/3) = 3.594, t = 2.9046: 1 ± 3.9329 (scipy ttest_ind,
    // equal_var=False: −2.932850, 4.932850).
    const result = compareRuns(run([M1], [[4], [8], [6], [2]]), run([M1], [[6], [6], [7], [5]]));
    const model = result.models[0]!;
    expect(model.difference).toBe(1);
    expect(model.interval!.low).toBeCloseTo(-2.93285045, 6);
    expect(model.interval!.high).toBeCloseTo(4.93285045, 6);
    expect(model.largerThanChance).toBe(false);
  });

  it("finds no difference between two identical runs and a rank correlation of 1", () => {
    const scores = [
      [7, 5, 3],
      [8, 4, 4],
      [6, 6, 2],
      [7, 6, 3],
    ];
    const result = compareRuns(run([M1, M2, M3], scores), run([M1, M2, M3], scores));
    for (const model of result.models) {
      expect(model.difference).toBe(0);
      expect(model.interval!.low).toBeLessThan(0);
      expect(model.interval!.high).toBeGreaterThan(0);
      expect(model.largerThanChance).toBe(false);
    }
    expect(result.rankCorrelation).toBe(1);
  });

  it("computes Spearman's rho by hand: ranks 1 2 3 4 against 1 3 2 4 give 1 − 6·2 / (4·15) = 0.8", () => {
    const a = run([M1, M2, M3, M4], [[1, 2, 3, 4]]);
    const b = run([M1, M2, M3, M4], [[1, 3, 2, 4]]);
    expect(compareRuns(a, b).rankCorrelation).toBeCloseTo(0.8, 12);
  });

  it("compares only the models both runs tested and names the others", () => {
    const result = compareRuns(run([M1, M2], [[5, 6]]), run([M2, M3], [[6, 7]]));
    expect(result.models.map((model) => model.modelId)).toEqual(["m2"]);
    expect(result.onlyInA).toEqual(["Model One"]);
    expect(result.onlyInB).toEqual(["Model Three"]);
    // One shared model: no order to correlate.
    expect(result.rankCorrelation).toBeNull();
  });

  it("leaves the difference out while a model has no score in one run", () => {
    const b: RunScores = { models: [M1], units: [{ personaId: "p", topicId: "t", means: new Map() }] };
    const [model] = compareRuns(run([M1], [[5]]), b).models;
    expect(model).toMatchObject({ difference: null, interval: null, largerThanChance: false, b: { score: null } });
  });

  it("gives no interval, so no change larger than chance, on too little evidence", () => {
    // Three pairs: 2 points higher in each, but a rerun's three pairs show too little to tell.
    const fewPairs = compareRuns(run([M1], [[4], [5], [6]]), run([M1], [[6], [7], [8]]));
    expect(fewPairs.models[0]).toMatchObject({ difference: 2, interval: null, largerThanChance: false });
    expect(fewPairs.thin).toBe("Too little evidence: 3 persona × topic pairs; an interval needs at least 4.");
    // Six pairs, but every answer judged by one call.
    const once = (scores: number[]) => ({
      models: [M1],
      units: scores.map((score, u) => ({
        personaId: "p",
        topicId: `t${u}`,
        means: new Map([["m1", score]]),
        answers: 1,
        repeatedAnswers: 0,
      })),
    });
    const singleCall = compareRuns(once([4, 5, 6, 4, 5, 6]), once([8, 9, 9, 8, 9, 8]));
    expect(singleCall.models[0]).toMatchObject({ interval: null, largerThanChance: false });
    expect(singleCall.thin).toMatch(/^Too little evidence: one judge call per answer/);
  });
});

describe("stabilityReading", () => {
  it("reads the correlation in one line", () => {
    expect(stabilityReading(1)).toMatch(/^Stable/);
    expect(stabilityReading(0.5)).toMatch(/^Partly stable/);
    expect(stabilityReading(0)).toMatch(/^Unstable/);
    expect(stabilityReading(-0.9)).toMatch(/^Reversed/);
    expect(stabilityReading(null)).toMatch(/^Not enough/);
  });
});

function configuration(): TestConfiguration {
  return {
    name: "Taglines",
    taskType: "marketing",
    userPrompt: "Write a tagline.",
    personas: [{ id: "p1", name: "Pirate", description: "Arr", systemPrompt: "Talk like a pirate." }],
    topics: [
      { id: "t1", title: "Coffee", description: "Cafe", prompt: "Cold brew." },
      { id: "t2", title: "Bikes", description: "Repair", prompt: "City bikes." },
    ],
    generatorModels: [M1, M2],
    evaluatorModels: [{ id: "j1", name: "Judge One" }],
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: true, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "rating", includeExplanations: true },
  };
}

describe("configurationDifferences", () => {
  it("finds nothing between a test and its rerun (new ids, same content)", () => {
    const rerun = configuration();
    rerun.personas = rerun.personas.map((persona) => ({ ...persona, id: "new-p" }));
    rerun.topics = rerun.topics.map((topic, index) => ({ ...topic, id: `new-t${index}` }));
    expect(configurationDifferences(configuration(), rerun)).toEqual([]);
  });

  it("says what changed, in plain sentences", () => {
    const b = configuration();
    b.userPrompt = "Write a slogan.";
    b.generatorModels = [M2, M3];
    b.evaluatorModels = [{ id: "j2", name: "Judge Two" }];
    b.personas = [{ ...b.personas[0]!, systemPrompt: "Talk like a sailor." }];
    b.topics = [b.topics[0]!];
    b.responsesPerTopic = 3;
    b.scoringParameters = { scale: "ranking", includeExplanations: true, bothOrders: true };
    b.evaluationCriteria = { ...b.evaluationCriteria, creativity: false, clarity: true };
    b.checks = [{ id: "c1", kind: "json" }];
    expect(configurationDifferences(configuration(), b)).toEqual([
      "Models only in A: Model One.",
      "Models only in B: Model Three.",
      "Persona Pirate: the system prompt differs.",
      "Topics only in A: Bikes.",
      "The prompt differs.",
      "Responses per topic: 2 in A, 3 in B.",
      "Evaluators only in A: Judge One.",
      "Evaluators only in B: Judge Two.",
      "Scoring: rating in A, ranking in B.",
      "Criteria only in A: Creativity.",
      "Criteria only in B: Clarity.",
      "Judge in both orders: off in A, on in B.",
      "Checks only in B: is valid JSON.",
    ]);
  });
});

describe("matchedPairs", () => {
  it("matches pairs by persona name and topic title, keeping each test's ids", () => {
    const b = configuration();
    b.personas = [{ ...b.personas[0]!, id: "q1" }];
    b.topics = [
      { ...b.topics[1]!, id: "u2" },
      { id: "u3", title: "Shoes", description: "", prompt: "Sneakers." },
    ];
    expect(matchedPairs(configuration(), b)).toEqual([
      { persona: "Pirate", topic: "Coffee", a: { personaId: "p1", topicId: "t1" }, b: null },
      {
        persona: "Pirate",
        topic: "Bikes",
        a: { personaId: "p1", topicId: "t2" },
        b: { personaId: "q1", topicId: "u2" },
      },
      { persona: "Pirate", topic: "Shoes", a: null, b: { personaId: "q1", topicId: "u3" } },
    ]);
  });
});

describe("paired resampling", () => {
  /** A run whose unit u (keyed k{u}) gives its one model scores[u]. */
  function keyed(scores: number[], keys = scores.map((_, u) => `k${u}`)): RunScores {
    return {
      models: [M1],
      units: scores.map((score, u) => ({
        personaId: `p${u}`,
        topicId: "t",
        key: keys[u],
        means: new Map([["m1", score]]),
      })),
    };
  }

  it("pairs the runs' units by key, whatever their order", () => {
    expect(pairedUnits(keyed([1, 2, 3], ["x", "y", "z"]).units, keyed([1, 2, 3], ["z", "x", "y"]).units)).toEqual([
      1, 2, 0,
    ]);
    expect(pairedUnits(keyed([1, 2], ["x", "y"]).units, keyed([1, 2], ["x", "w"]).units)).toBeNull();
    expect(pairedUnits(keyed([1, 2]).units, keyed([1, 2, 3]).units)).toBeNull();
  });

  it("pairs the runs: B = A + 2, 2, 1, 3 on pairs 4, 8, 6, 2 gives +2 within [0.701, 3.299]; unpaired, 0 is inside", () => {
    // Paired: differences 2, 2, 1, 3, mean 2, s = √(2/3), SE = 0.40825, t(3) = 3.18245: 2 ± 1.29923
    // (scipy ttest_rel: 0.700772, 3.299228). A hard pair weighs on both runs alike and cancels.
    const paired = compareRuns(keyed([4, 8, 6, 2]), keyed([6, 10, 7, 5])).models[0]!;
    expect(paired.difference).toBe(2);
    expect(paired.interval!.low).toBeCloseTo(0.70077174, 6);
    expect(paired.interval!.high).toBeCloseTo(3.29922826, 6);
    expect(paired.largerThanChance).toBe(true);
    // Unpaired (other keys), Welch: A s² = 20/3, B s² = 14/3, df 5.819 (scipy: −2.150059, 6.150059).
    const unpaired = compareRuns(keyed([4, 8, 6, 2]), keyed([6, 10, 7, 5], ["x", "y", "z", "w"])).models[0]!;
    expect(unpaired.interval!.low).toBeCloseTo(-2.15005914, 6);
    expect(unpaired.interval!.high).toBeCloseTo(6.15005914, 6);
    expect(unpaired.largerThanChance).toBe(false);
  });

  it("marks no change between a 6-pair run and its re-judging that the old pair-only bootstrap marked", () => {
    // The very same answers judged again by the same two judges. Model One's answers come out
    // 1, ½, 1, ½, ½ and −½ point higher: a mean of ½ with s = 0.5477 over 6 pairs. The percentile
    // bootstrap over pairs (before issue 30) gave [0.083, 0.833] with every seed tried, and called
    // it larger than chance; the paired t interval, ½ ± 2.5706 · 0.5477 / √6
    // (scipy ttest_1samp: −0.074800, 1.074800), holds 0: judges' noise alone moves scores this much.
    const answers = Array.from({ length: 6 }, (_, pair) => [
      { id: `one-${pair}`, modelId: "m1", personaId: "p", topicId: `t${pair}` },
      { id: `two-${pair}`, modelId: "m2", personaId: "p", topicId: `t${pair}` },
    ]).flat();
    const judged = (one: [number, number][]) =>
      answers
        .map((answer) => answer)
        .flatMap((answer, index) => {
          const pair = Math.floor(index / 2);
          const [first, second] = answer.modelId === "m1" ? one[pair]! : [6, 6];
          return [
            { responseId: answer.id, judgeModelId: "j1", scores: { overall: first } },
            { responseId: answer.id, judgeModelId: "j2", scores: { overall: second } },
          ];
        });
    const runOf = (one: [number, number][]): RunScores => ({
      models: [M1, M2],
      units: unitScoresOf(answers, judged(one)).map((unit) => ({ ...unit, key: unit.topicId })),
    });
    const first = runOf([
      [7, 7],
      [7, 7],
      [6, 7],
      [7, 8],
      [7, 7],
      [8, 7],
    ]);
    const again = runOf([
      [8, 8],
      [7, 8],
      [7, 8],
      [8, 8],
      [7, 8],
      [7, 7],
    ]);
    const [one, two] = compareRuns(first, again).models;
    expect(one!.difference).toBeCloseTo(0.5, 12);
    expect(one!.interval!.low).toBeCloseTo(-0.07479957, 6);
    expect(one!.interval!.high).toBeCloseTo(1.07479957, 6);
    expect(one!.largerThanChance).toBe(false);
    expect(two).toMatchObject({ difference: 0, interval: { low: 0, high: 0 }, largerThanChance: false });
  });
});

describe("configurationDifferences: how the tests run (issue 35)", () => {
  it("names the repeats and the stop-when-settled question in plain sentences", () => {
    const b = {
      ...configuration(),
      repeats: 3,
      stopWhenSettled: { question: "best" as const, confidence: 0.95, seed: "b" },
    };
    expect(configurationDifferences(configuration(), b)).toEqual([
      "Repeats: 1 in A, 3 in B.",
      "Stop when settled: off in A, Which model is best? at 95% in B.",
    ]);
    const within = {
      ...b,
      stopWhenSettled: { question: "withinDelta" as const, confidence: 0.9, modelId: "m2", delta: 0.5 },
    };
    expect(configurationDifferences(b, within)).toEqual([
      "Stop when settled: Which model is best? at 95% in A, Is Model Two within 0.5 points of the best? at 90% in B.",
    ]);
  });

  it("finds nothing between a test and its rerun, each with its own seed of the pairs' order", () => {
    const setting = { question: "best" as const, confidence: 0.95 };
    const a = { ...configuration(), repeats: 2, stopWhenSettled: { ...setting, seed: "a" } };
    const rerun = { ...configuration(), repeats: 2, stopWhenSettled: { ...setting, seed: "b" } };
    expect(configurationDifferences(a, rerun)).toEqual([]);
    expect(configurationDifferences(configuration(), { ...configuration(), repeats: 1 })).toEqual([]);
  });
});
