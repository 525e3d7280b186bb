// A space's jury advice over many tests (the Judges page): for each judge, how often it sat, how
// often the advised smaller jury left it out, what it cost and what it cost where it was not
// needed. Pure: from the kept advice rows (tables/juryAdvice.ts).
import type { JuryAdviceRecord } from "./juryAdvice";

interface JudgeHistory {
  readonly judgeModelId: string;
  readonly name: string;
  /** Tests it judged, and of those the ones with a decision to advise on (advised or every judge needed). */
  readonly tests: number;
  readonly decided: number;
  /** Decided tests whose advised jury left it out: the same verdict without it. */
  readonly leftOut: number;
  /** Its judging cost over every test it judged, and in the tests that did not need it (USD). */
  readonly costUsd: number;
  readonly leftOutCostUsd: number;
  /** Mean independent votes of the juries it sat on, where known. */
  readonly meanVotes: number | null;
}

interface SpaceJuryHistory {
  readonly tests: number;
  /** Tests where a smaller jury was advised, every judge was needed, or no advice could be given. */
  readonly advised: number;
  readonly allNeeded: number;
  readonly noAdvice: number;
  /** Of noAdvice: the tests whose own evidence was too little to advise on (no decision, or one too close to repeat). */
  readonly tooLittleEvidence: number;
  /** What the advised juries would have saved of the judging cost, USD. */
  readonly savableUsd: number;
  /** Most costly first. */
  readonly judges: JudgeHistory[];
}

export function spaceJuryHistory(
  rows: readonly Pick<JuryAdviceRecord, "outcome" | "judges" | "independentVotes">[],
): SpaceJuryHistory {
  const byJudge = new Map<string, JudgeHistory & { votes: number[] }>();
  let savableUsd = 0;
  for (const row of rows) {
    const decided = row.outcome === "advised" || row.outcome === "allNeeded";
    for (const judge of row.judges) {
      const entry = byJudge.get(judge.judgeModelId) ?? {
        judgeModelId: judge.judgeModelId,
        name: judge.name,
        tests: 0,
        decided: 0,
        leftOut: 0,
        costUsd: 0,
        leftOutCostUsd: 0,
        meanVotes: null,
        votes: [],
      };
      const leftOut = decided && judge.leftOut;
      if (leftOut) savableUsd += judge.costUsd;
      byJudge.set(judge.judgeModelId, {
        ...entry,
        // The newest row comes first: its name is kept.
        tests: entry.tests + 1,
        decided: entry.decided + (decided ? 1 : 0),
        leftOut: entry.leftOut + (leftOut ? 1 : 0),
        costUsd: entry.costUsd + judge.costUsd,
        leftOutCostUsd: entry.leftOutCostUsd + (leftOut ? judge.costUsd : 0),
        votes: row.independentVotes === null ? entry.votes : [...entry.votes, row.independentVotes],
      });
    }
  }
  const judges = [...byJudge.values()]
    .map(({ votes, ...judge }) => ({
      ...judge,
      meanVotes: votes.length === 0 ? null : votes.reduce((sum, value) => sum + value, 0) / votes.length,
    }))
    .sort((a, b) => b.costUsd - a.costUsd || a.name.localeCompare(b.name));
  const count = (outcome: JuryAdviceRecord["outcome"]) => rows.filter((row) => row.outcome === outcome).length;
  const advised = count("advised");
  const allNeeded = count("allNeeded");
  return {
    tests: rows.length,
    advised,
    allNeeded,
    noAdvice: rows.length - advised - allNeeded,
    tooLittleEvidence: count("thin") + count("close"),
    savableUsd,
    judges,
  };
}
