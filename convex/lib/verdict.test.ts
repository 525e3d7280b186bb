// The jury's decision in words: every page reads these, so each kind is pinned here word for word.
import { describe, expect, it } from "vitest";
import { extraTopicsText, verdictFactsOf, verdictLabel, verdictLine, verdictPayload, verdictSentence } from "./verdict";

describe("verdict words", () => {
  it("a clear best names the model", () => {
    const facts = { kind: "best", leaders: ["Alpha"] } as const;
    expect(verdictLabel(facts)).toBe("Alpha is best");
    expect(verdictLine(facts)).toBe("Alpha is best");
    expect(verdictSentence(facts)).toBe("Alpha is best: its 95% interval is above every other model's.");
  });

  it("a tie is too close to call, names the tied models and gives the topics estimate as a range", () => {
    const facts = {
      kind: "tied",
      leaders: ["Alpha", "Beta", "Gamma"],
      extraTopicsRange: { low: 5, high: 12 },
    } as const;
    expect(verdictLabel(facts)).toBe("Too close to call");
    expect(verdictLine(facts)).toBe("Too close to call: Alpha, Beta and Gamma");
    expect(verdictSentence(facts)).toBe(
      "Too close to call: Alpha, Beta and Gamma are statistically tied; run more topics or judges to separate them (about 5–12 more topics).",
    );
    // No estimate (it rests on too few pairs): no number at all.
    expect(verdictSentence({ ...facts, extraTopicsRange: null })).toBe(
      "Too close to call: Alpha, Beta and Gamma are statistically tied; run more topics or judges to separate them.",
    );
  });

  it("thin evidence names no model and says what is missing", () => {
    expect(verdictLabel({ kind: "thin", leaders: [] })).toBe("Too little evidence");
    expect(verdictLine({ kind: "thin", leaders: [] })).toBe("Too little evidence");
    expect(verdictSentence({ kind: "thin", leaders: [], units: 1 })).toBe(
      "Too little evidence to name a best model: the jury judged only 1 persona × topic pair; it needs at least 4, with each answer judged at least twice.",
    );
    expect(verdictSentence({ kind: "thin", leaders: [], units: 9 })).toBe(
      "Too little evidence to name a best model: each answer was judged only once; it needs at least two judge calls per answer (a second judge, or judging in both orders).",
    );
  });

  it("nothing scored yet", () => {
    expect(verdictSentence({ kind: "none", leaders: [] })).toBe("No scores yet.");
  });

  it("the topics range reads as one number when its ends meet, and 'topic' for one", () => {
    expect(extraTopicsText({ low: 3, high: 3 })).toBe("about 3 more topics");
    expect(extraTopicsText({ low: 1, high: 1 })).toBe("about 1 more topic");
    expect(extraTopicsText(null)).toBeNull();
    expect(extraTopicsText(undefined)).toBeNull();
  });

  it("turns the summary's model ids into names", () => {
    const facts = verdictFactsOf(
      { kind: "tied", leaders: ["m/b", "m/a"], extraTopicsRange: { low: 2, high: 4 } },
      [
        { modelId: "m/a", modelName: "Alpha" },
        { modelId: "m/b", modelName: "Beta" },
      ],
      12,
    );
    expect(facts).toEqual({
      kind: "tied",
      leaders: ["Beta", "Alpha"],
      extraTopicsRange: { low: 2, high: 4 },
      units: 12,
    });
    // Statistics stored before the range existed have none.
    expect(verdictFactsOf({ kind: "best", leaders: ["m/x"] }, []).extraTopicsRange).toBeNull();
  });

  it("the HTTP API's verdict: kind, label and sentence in these words, leaders by id", () => {
    const models = [
      { modelId: "m/a", modelName: "Alpha" },
      { modelId: "m/b", modelName: "Beta" },
    ];
    expect(
      verdictPayload({ summary: { kind: "thin", leaders: [], extraTopicsRange: null }, models, units: 1 }),
    ).toEqual({
      kind: "thin",
      label: "Too little evidence",
      text: "Too little evidence to name a best model: the jury judged only 1 persona × topic pair; it needs at least 4, with each answer judged at least twice.",
      leaders: [],
      extraTopicsRange: null,
    });
    expect(verdictPayload({ summary: { kind: "best", leaders: ["m/b"] }, models, units: 12 })).toMatchObject({
      label: "Beta is best",
      leaders: ["m/b"],
    });
    expect(verdictPayload(null)).toBeNull();
  });
});
