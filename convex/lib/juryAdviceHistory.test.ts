import { describe, expect, it } from "vitest";
import type { JuryAdviceRecord } from "./juryAdvice";
import { spaceJuryHistory } from "./juryAdviceHistory";

const judge = (judgeModelId: string, costUsd: number, leftOut: boolean) => ({
  judgeModelId,
  name: judgeModelId,
  costUsd,
  calls: 10,
  leftOut,
});

describe("a space's jury history", () => {
  it("counts tests with too little evidence apart from those that needed every judge, and not in a judge's left-out share", () => {
    const rows: Pick<JuryAdviceRecord, "outcome" | "judges" | "independentVotes">[] = [
      { outcome: "advised", judges: [judge("a/pro", 1, true), judge("b/mini", 0.2, false)], independentVotes: 2 },
      { outcome: "allNeeded", judges: [judge("a/pro", 1, false), judge("b/mini", 0.2, false)], independentVotes: null },
      { outcome: "close", judges: [judge("a/pro", 1, false), judge("b/mini", 0.2, false)], independentVotes: 1.5 },
      { outcome: "thin", judges: [judge("a/pro", 1, false), judge("b/mini", 0.2, false)], independentVotes: null },
      { outcome: "oneJudge", judges: [judge("a/pro", 1, false)], independentVotes: null },
    ];
    const history = spaceJuryHistory(rows);
    expect(history).toMatchObject({ tests: 5, advised: 1, allNeeded: 1, noAdvice: 3, tooLittleEvidence: 2 });
    expect(history.savableUsd).toBeCloseTo(1, 10);
    const pro = history.judges.find((entry) => entry.judgeModelId === "a/pro")!;
    // Judged 5 tests; 2 had advice to give (advised, every judge needed); left out of 1 of them.
    expect(pro).toMatchObject({ tests: 5, decided: 2, leftOut: 1 });
    expect(pro.meanVotes).toBeCloseTo(1.75, 10);
  });
});
