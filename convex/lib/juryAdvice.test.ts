import { describe, expect, it } from "vitest";
import { adviceRecordLines, independentVotes, juryAdvice, juryAdviceLines, juryAdviceRecord } from "./juryAdvice";
import { decisionMargin } from "./juryAdviceEvidence";
import type { JuryRating, JuryResponse, JuryStatsInput } from "./stats/types";

const names: Record<string, string> = {
  "openai/mini": "GPT-4.1 mini",
  "openai/twin": "GPT-4.1 mini twin",
  "anthropic/haiku": "Claude Haiku",
  "google/pro": "Gemini Pro",
};
const nameOf = (id: string) => names[id] ?? id;

function ratingInput(responses: JuryResponse[], ratings: JuryRating[], judges: string[]): JuryStatsInput {
  return { seed: "advice", scale: "rating", judges, responses, ratings };
}

describe("independent votes", () => {
  it("counts two judges that err together as one: 3 judges, worth 1.8 independent votes", () => {
    // Hand-worked: over 4 answers, truth t = (1, 1, −1, −1), errors e1 = (1, −1, 1, −1) and
    // e2 = (1, −1, −1, 1), mutually orthogonal with mean 0. Judges A and B both score 5 + t + e1,
    // C scores 5 + t + e2. Covariances (÷ 3): AB = 8/3, AC = BC = 4/3 (the truth's); errors' AB
    // = 4/3 with variances 4/3 each, so ρ(AB) = 1, ρ(AC) = ρ(BC) = 0, ρ̄ = 1/3 and
    // k / (1 + (k − 1) ρ̄) = 3 / (5/3) = 1.8.
    const responses: JuryResponse[] = ["a", "b", "c", "d"].map((id, index) => ({
      id,
      modelId: `m/${index % 2}`,
      personaId: "p",
      topicId: "t",
      length: 100,
    }));
    const scored = { "openai/mini": [7, 5, 5, 3], "openai/twin": [7, 5, 5, 3], "anthropic/haiku": [7, 3, 3, 5] };
    const ratings = Object.entries(scored).flatMap(([judge, values]) =>
      values.map((overall, index) => ({ judgeModelId: judge, responseId: responses[index]!.id, scores: { overall } })),
    );
    const input = ratingInput(responses, ratings, Object.keys(scored));
    expect(independentVotes(input)).toBeCloseTo(1.8, 10);
  });

  it("counts three judges erring independently as 3 votes", () => {
    // Hand-worked over 8 answers with rows of the 8 × 8 Hadamard matrix (centred, mutually
    // orthogonal): truth t = h1, judges 5 + t + h2, 5 + t + h3, 5 + t + h4. Every pair's covariance
    // is the truth's (8/7), no error is shared: ρ̄ = 0 and k / (1 + 0) = 3.
    const h = [
      [1, 1, 1, 1, -1, -1, -1, -1],
      [1, 1, -1, -1, 1, 1, -1, -1],
      [1, -1, 1, -1, 1, -1, 1, -1],
      [1, -1, -1, 1, -1, 1, 1, -1],
    ];
    const responses: JuryResponse[] = h[0]!.map((_, index) => ({
      id: `r${index}`,
      modelId: `m/${index % 2}`,
      personaId: "p",
      topicId: "t",
      length: 100,
    }));
    const judges = ["openai/mini", "anthropic/haiku", "google/pro"];
    const ratings = judges.flatMap((judge, j) =>
      responses.map((response, index) => ({
        judgeModelId: judge,
        responseId: response.id,
        scores: { overall: 5 + h[0]![index]! + h[j + 1]![index]! },
      })),
    );
    expect(independentVotes(ratingInput(responses, ratings, judges))).toBeCloseTo(3, 10);
  });

  it("says nothing with two judges, where shared truth and shared error cannot be told apart", () => {
    const responses: JuryResponse[] = ["a", "b", "c"].map((id) => ({
      id,
      modelId: "m/x",
      personaId: "p",
      topicId: "t",
      length: 1,
    }));
    const ratings = ["openai/mini", "anthropic/haiku"].flatMap((judge) =>
      responses.map((response, index) => ({
        judgeModelId: judge,
        responseId: response.id,
        scores: { overall: index },
      })),
    );
    expect(independentVotes(ratingInput(responses, ratings, ["openai/mini", "anthropic/haiku"]))).toBeNull();
  });
});

describe("jury advice", () => {
  // Six persona × topic pairs, models X and Y, one answer each. GPT-4.1 mini and Claude Haiku rate
  // X about 8 and Y about 4; Gemini Pro rates the other way (X 2, Y 9). Full jury, per pair: X ≈
  // (8 + 8 + 2)/3 = 6, Y ≈ (4 + 4 + 9)/3 ≈ 5.7, a small steady gap: X is best. Without Gemini Pro:
  // X 8 against Y 4, X is best. Without either cheap judge: X 5 against Y 6.5, Y is best (the
  // verdict changes). One judge alone: one call per answer, too little evidence. Calls cost
  // $0.001 (mini), $0.002 (Haiku) and $0.007 (Pro): mini and Haiku are 3/10 of the judging cost.
  const judges = ["openai/mini", "anthropic/haiku", "google/pro"];
  const responses: JuryResponse[] = [];
  const ratings: JuryRating[] = [];
  const wobble = [0, 0.1, -0.1, 0.05, -0.05, 0];
  for (let pair = 0; pair < 6; pair++) {
    for (const model of ["x/X", "y/Y"]) {
      const id = `${model}|${pair}`;
      responses.push({ id, modelId: model, personaId: "p", topicId: `t${pair}`, length: 100 });
      const isX = model === "x/X";
      const given: [string, number, number][] = [
        ["openai/mini", isX ? 8 : 4, 0.001],
        ["anthropic/haiku", isX ? 8 : 4, 0.002],
        ["google/pro", isX ? 2 : 9, 0.007],
      ];
      for (const [judge, score, costUsd] of given) {
        ratings.push({ judgeModelId: judge, responseId: id, scores: { overall: score + wobble[pair]! }, costUsd });
      }
    }
  }
  const input: JuryStatsInput = {
    seed: "advice",
    scale: "rating",
    judges,
    models: [
      { id: "x/X", name: "X" },
      { id: "y/Y", name: "Y" },
    ],
    responses,
    ratings,
  };

  it("finds the one smaller jury with the same verdict, and that dropping a cheap judge changes it", () => {
    const advice = juryAdvice(input)!;
    expect(advice.decision).toEqual({ kind: "best", leaders: ["x/X"] });
    expect(advice.costBasis).toBe("usd");
    expect(advice.sameDecision.map((jury) => jury.judges)).toEqual([["openai/mini", "anthropic/haiku"]]);
    expect(advice.sameDecision[0]!.costShare).toBeCloseTo(0.3, 10);
    expect(juryAdviceLines(advice, nameOf)[0]).toBe(
      "The same verdict with GPT-4.1 mini and Claude Haiku alone: 30% of the judging cost",
    );
  });

  it("says every judge counted when no smaller jury agrees, and weighs judges by calls without costs", () => {
    const withoutCheap = juryAdvice({
      ...input,
      ratings: input
        .ratings!.filter((call) => call.judgeModelId !== "openai/mini")
        .map(({ costUsd: _cost, ...call }) => call),
      judges: judges.slice(1),
    });
    // Haiku and Pro alone: X (8 + 2)/2 = 5 against Y (4 + 9)/2 = 6.5: Y is best, and either judge
    // alone is too little evidence.
    expect(withoutCheap!.decision).toEqual({ kind: "best", leaders: ["y/Y"] });
    expect(withoutCheap!.costBasis).toBe("calls");
    expect(withoutCheap!.sameDecision).toEqual([]);
    expect(juryAdviceLines(withoutCheap!, nameOf)).toEqual([
      "No smaller jury reaches the same verdict: every judge counted",
    ]);
  });

  it("gives no advice when the full jury's own decision is too little evidence", () => {
    // Three persona × topic pairs: fewer than the 4 an interval needs, so no decision to keep.
    const kept = new Set(input.responses.filter((response) => response.topicId < "t3").map((response) => response.id));
    const thin = {
      ...input,
      responses: input.responses.filter((response) => kept.has(response.id)),
      ratings: input.ratings!.filter((call) => kept.has(call.responseId)),
    };
    expect(juryAdvice(thin)).toBeNull();
    expect(juryAdvice(input)).not.toBeNull();
  });
});

describe("advice only where the test's own evidence carries it", () => {
  // Hand-worked. Eight persona × topic pairs, models X and Y, one answer each, scored alike by
  // three judges (so each pair's model mean is that score). With the ±1 rows h1 = (1,1,1,1,−1,−1,
  // −1,−1) and h2 = (1,1,−1,−1,1,1,−1,−1) (mean 0, orthogonal, Σh² = 8): X = 6 + D + 0.3·h1 and
  // Y = 6 + 0.3·h1 + 0.4·h2 (h1 a pair's difficulty, shared; h2 Y's own wobble). Then
  // SD(X) = 0.3·√(8/7), SD(Y) = 0.5·√(8/7), SD(X − Y) = 0.4·√(8/7), so with t₇ = 2.364624 the
  // intervals' half-widths are t·0.3/√7 and t·0.5/√7 and the gap's standard error 0.4/√7. X is
  // best (its interval clears Y's) with an edge of D − 0.8·t/√7, in standard errors
  // z = (D·√7 − 0.8·t) / 0.4. Advice needs z ≥ 2 · 1.644854 = 3.289707, i.e. D ≥ 1.21235:
  // D = 1.22 gives z = (3.227816 − 1.891699)/0.4 = 3.340292 (just above), D = 1.20 gives
  // z = (3.174901 − 1.891699)/0.4 = 3.208005 (just below). Pairs that would do at D = 1.20, with
  // b = 0.8·t/0.4 = 4.729248 fixed: 8 · ((3.289707 + b)/(3.208005 + b))² = 8.17, so 9.
  const h1 = [1, 1, 1, 1, -1, -1, -1, -1];
  const h2 = [1, 1, -1, -1, 1, 1, -1, -1];
  const judges = ["openai/mini", "anthropic/haiku", "google/pro"];
  const cost: Record<string, number> = { "openai/mini": 0.001, "anthropic/haiku": 0.002, "google/pro": 0.007 };
  function separated(gap: number): JuryStatsInput {
    const responses: JuryResponse[] = [];
    const ratings: JuryRating[] = [];
    for (let pair = 0; pair < 8; pair++) {
      const scores = { "x/X": 6 + gap + 0.3 * h1[pair]!, "y/Y": 6 + 0.3 * h1[pair]! + 0.4 * h2[pair]! };
      for (const [model, overall] of Object.entries(scores)) {
        const id = `${model}|${pair}`;
        responses.push({ id, modelId: model, personaId: "p", topicId: `t${pair}`, length: 100 });
        for (const judge of judges) {
          ratings.push({ judgeModelId: judge, responseId: id, scores: { overall }, costUsd: cost[judge] });
        }
      }
    }
    return {
      seed: "margin",
      scale: "rating",
      judges,
      models: [
        { id: "x/X", name: "X" },
        { id: "y/Y", name: "Y" },
      ],
      responses,
      ratings,
    };
  }

  it("measures the decision's margin in standard errors of the paired gap", () => {
    expect(decisionMargin(separated(1.22))!.standardErrors).toBeCloseTo(3.340292, 4);
    expect(decisionMargin(separated(1.2))!.standardErrors).toBeCloseTo(3.208005, 4);
    // Φ(3.340292 − 1.644854) = Φ(1.695438) ≈ 0.955; Φ(1.563151) ≈ 0.941.
    expect(decisionMargin(separated(1.22))!.replication).toBeCloseTo(0.955, 3);
    expect(decisionMargin(separated(1.2))!.replication).toBeCloseTo(0.941, 3);
  });

  it("advises a smaller jury just above the threshold", () => {
    const record = juryAdviceRecord(separated(1.22), nameOf);
    expect(record.outcome).toBe("advised");
    expect(record.advised!.judges).toEqual(["openai/mini", "anthropic/haiku"]);
    expect(adviceRecordLines(record)[0]).toBe(
      "The same verdict with GPT-4.1 mini and Claude Haiku alone: 30% of the judging cost",
    );
  });

  it("says there is too little evidence just below it, and how many pairs would do", () => {
    const record = juryAdviceRecord(separated(1.2), nameOf);
    expect(record.outcome).toBe("close");
    expect(record.advised).toBeNull();
    expect(record.judges.every((judge) => !judge.leftOut)).toBe(true);
    expect(record.evidence).toMatchObject({ pairs: 8, pairsNeeded: 9 });
    expect(adviceRecordLines(record)[0]).toBe(
      "Too little evidence to advise a smaller jury: the full jury's own verdict is close, and a fresh run of this test could reach another one (advice needs it to hold in 95% of fresh runs; about 9 persona × topic pairs would show that, this test judged 8)",
    );
    // The same decision, yet no smaller jury is offered for it.
    expect(juryAdvice(separated(1.2))).toBeNull();
  });
});
