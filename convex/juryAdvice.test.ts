// Jury advice kept per test and per space (issue 35 item 3): the full statistics run after a test
// ends stores which smaller jury reaches the same verdict; its results and its space read it.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { seedFinishedTest } from "./finishedTests.fixture";
import { adviceRecordLines } from "./lib/juryAdvice";
import { computeFinalJuryStats, createBackend, createUser } from "./test.helpers";

describe("jury advice", () => {
  test("a finished test keeps its advice: two of its three agreeing judges reach the verdict for two thirds of the cost", async () => {
    const t = createBackend();
    const owner = await createUser(t, "advice.owner@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 24, evaluationsPerResponse: 3 });
    expect(await owner.as.query(api.juryAdvice.forTest, { testId })).toBeNull();
    await computeFinalJuryStats(t, testId);

    const advice = (await owner.as.query(api.juryAdvice.forTest, { testId }))!;
    expect(advice.outcome).toBe("advised");
    // Kept with how clearly the full jury decided: clear enough to repeat on a fresh run.
    expect(advice.evidence!.replication).toBeGreaterThanOrEqual(0.95);
    expect(advice.evidence!.pairsNeeded).toBe(advice.evidence!.pairs);
    expect(advice.decision).toEqual({ kind: "best", leaders: ["anthropic/claude-3.5-haiku"] });
    // The seeded judges score alike and cost alike: any two of them give the same verdict.
    expect(advice.advised!.judges).toHaveLength(2);
    expect(advice.advised!.costShare).toBeCloseTo(2 / 3, 6);
    expect(advice.judges.filter((judge) => judge.leftOut)).toHaveLength(1);
    const lines = adviceRecordLines(advice);
    expect(lines[0]).toMatch(
      /^The same verdict with (Gemini 2\.0 Flash|DeepSeek V3|Llama 3\.3 70B) and .+ alone: 67% of the judging cost$/,
    );
    // Judges that score without error share none (lib/juryAdvice.test.ts has the hand-worked votes).
    expect(lines[1]).toBe("3 judges, worth 3.0 independent votes");

    const space = await owner.as.query(api.juryAdvice.ofSpace, {});
    expect(space).toMatchObject({
      tests: 1,
      advised: 1,
      allNeeded: 0,
      noAdvice: 0,
      tooLittleEvidence: 0,
      truncated: false,
    });
    const leftOut = space.judges.find((judge) => judge.leftOut === 1)!;
    expect(advice.judges.find((judge) => judge.leftOut)!.name).toBe(leftOut.name);
    expect(space.savableUsd).toBeCloseTo(leftOut.costUsd, 9);
    expect(space.judges.map((judge) => judge.tests)).toEqual([1, 1, 1]);
  });

  test("a running test gets no advice; another user can read neither the test's nor the owner's space's", async () => {
    const t = createBackend();
    const owner = await createUser(t, "advice.runner@example.com");
    const running = await seedFinishedTest(t, {
      userId: owner.userId,
      responses: 24,
      evaluationsPerResponse: 3,
      status: "running",
    });
    await computeFinalJuryStats(t, running);
    expect(await owner.as.query(api.juryAdvice.forTest, { testId: running })).toBeNull();

    const finished = await seedFinishedTest(t, { userId: owner.userId, responses: 24, evaluationsPerResponse: 3 });
    await computeFinalJuryStats(t, finished);
    const other = await createUser(t, "advice.other@example.com");
    await expect(other.as.query(api.juryAdvice.forTest, { testId: finished })).rejects.toThrow("Test not found.");
    expect((await other.as.query(api.juryAdvice.ofSpace, {})).tests).toBe(0);
    expect((await owner.as.query(api.juryAdvice.ofSpace, {})).tests).toBe(1);
  });

  test("with too little evidence the advice says so instead of naming a jury", async () => {
    const t = createBackend();
    const owner = await createUser(t, "advice.thin@example.com");
    // Two answers per model: too few pairs for any interval.
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 4, evaluationsPerResponse: 3 });
    await computeFinalJuryStats(t, testId);
    const advice = (await owner.as.query(api.juryAdvice.forTest, { testId }))!;
    expect(advice.outcome).toBe("thin");
    expect(advice.advised).toBeNull();
    expect(adviceRecordLines(advice)[0]).toBe(
      "Too little evidence to advise a smaller jury: the full jury's own verdict is not settled",
    );
    const space = await owner.as.query(api.juryAdvice.ofSpace, {});
    expect(space).toMatchObject({ tests: 1, advised: 0, noAdvice: 1, tooLittleEvidence: 1, savableUsd: 0 });
  });
});
