// A ranking call's explanation is kept once, not on each answer's evaluation row, and the results
// page and the export still show it on every row of the call (older rows keep their own).
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { seedFinishedTest } from "./finishedTests.fixture";
import { recordEvaluations } from "./core/pipeline/evaluations";
import { createBackend, createUser } from "./test.helpers";

const EXPLANATION = "B is vivid and on brand; A is generic; C misses the persona.";

/**
 * A finished test of 3 answers (each with `evaluationsPerResponse` older evaluations) and one
 * ranking call of them recorded: B, A, C, with EXPLANATION and the labels A, B, C.
 */
async function rankedCallOfThree(evaluationsPerResponse: number) {
  const t = createBackend();
  const owner = await createUser(t, "ada@example.com");
  const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 3, evaluationsPerResponse });
  const { ranked, answerIds } = await t.run(async (ctx) => {
    const test = (await ctx.db.get("tests", testId))!;
    const answers = await ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .take(3);
    const callId = await ctx.db.insert("calls", {
      testId,
      kind: "evaluate",
      key: `${testId}:rank:judge`,
      status: "leased",
      attempts: 1,
      modelId: test.configuration.evaluatorModels[0]!.id,
      personaId: answers[0]!.personaId,
      topicId: answers[0]!.topicId,
      responseIds: answers.map((answer) => answer._id),
    });
    const labels = answers.map((answer, index) => ({ label: "ABC"[index]!, responseId: answer._id }));
    await recordEvaluations(
      ctx,
      test,
      (await ctx.db.get("calls", callId))!,
      [answers[1]!, answers[0]!, answers[2]!].map((answer, rank) => ({
        responseId: answer._id,
        scores: { overall: 10 - rank * 3 },
        rank: rank + 1,
        explanation: EXPLANATION,
        labels,
      })),
      { promptTokens: 100, completionTokens: 50, latencyMs: 900, costUsd: 0.003 },
    );
    return { ranked: callId, answerIds: answers.map((answer) => answer._id) };
  });
  return { t, owner, testId, ranked, answerIds };
}

describe("ranking explanations", () => {
  test("are written once per call and read back on every row of it", async () => {
    const { t, owner, testId, ranked } = await rankedCallOfThree(1);

    // Stored once: the call's rows carry no copy.
    const stored = await t.run(async (ctx) => ({
      rows: (await ctx.db.query("evaluations").collect()).filter((row) => row.callId === ranked),
      explanations: await ctx.db.query("judgeExplanations").collect(),
    }));
    expect(stored.rows).toHaveLength(3);
    expect(stored.rows.map((row) => row.explanation)).toEqual(["", "", ""]);
    expect(stored.explanations.map((row) => [row.callId, row.explanation])).toEqual([[ranked, EXPLANATION]]);

    // Every reader shows it on each row of the call, and the older rows' own explanations.
    const page = { numItems: 50, cursor: null };
    const exported = await owner.as.query(api.results.exportEvaluations, { testId, paginationOpts: page });
    const shown = await owner.as.query(api.results.evaluations, { testId, paginationOpts: page });
    for (const rows of [exported.page, shown.page]) {
      const explanationOf = (row: { callId?: Id<"calls">; explanation: string }) =>
        row.callId === ranked ? row.explanation : "older";
      expect(rows.filter((row) => row.callId === ranked).map((row) => row.explanation)).toEqual([
        EXPLANATION,
        EXPLANATION,
        EXPLANATION,
      ]);
      expect(rows.filter((row) => row.callId !== ranked).map(explanationOf)).toEqual(["older", "older", "older"]);
      expect(rows.filter((row) => row.callId !== ranked).every((row) => row.explanation.startsWith("Judge "))).toBe(
        true,
      );
    }
  });
});

describe("ranking labels", () => {
  test("are kept once per call: each row keeps its own label, and the page and the export show the call's labels", async () => {
    const { t, owner, testId, ranked, answerIds } = await rankedCallOfThree(0);
    const shownLabels = answerIds.map((responseId, index) => ({ label: "ABC"[index]!, responseId }));

    // Stored once: the rows carry their own label, not the call's list.
    const stored = await t.run(async (ctx) => ({
      rows: await ctx.db
        .query("evaluations")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .collect(),
      calls: await ctx.db.query("judgeExplanations").collect(),
    }));
    expect(stored.rows.map((row) => [row.responseId, row.label, row.labels])).toEqual([
      [answerIds[1], "B", undefined],
      [answerIds[0], "A", undefined],
      [answerIds[2], "C", undefined],
    ]);
    expect(stored.calls.map((row) => row.labels)).toEqual([shownLabels]);

    const page = { numItems: 50, cursor: null };
    const shown = await owner.as.query(api.results.evaluations, { testId, paginationOpts: page });
    expect(shown.page.map((row) => row.label)).toEqual(["B", "A", "C"]);
    expect(shown.page[0]!.batchLabels?.map((entry) => [entry.label, entry.responseId])).toEqual(
      shownLabels.map((entry) => [entry.label, entry.responseId]),
    );
    expect(shown.page.slice(1).every((row) => row.batchLabels === undefined)).toBe(true);
    const exported = await owner.as.query(api.results.exportEvaluations, { testId, paginationOpts: page });
    expect(exported.page.map((row) => [row.callId, row.label, row.labels])).toEqual([
      [ranked, "B", shownLabels],
      [ranked, "A", shownLabels],
      [ranked, "C", shownLabels],
    ]);
  });

  test("rows written before labels were kept once still show theirs", async () => {
    const t = createBackend();
    const owner = await createUser(t, "ada@example.com");
    const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 2, evaluationsPerResponse: 0 });
    const answerIds = await t.run(async (ctx) => {
      const test = (await ctx.db.get("tests", testId))!;
      const answers = await ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .take(2);
      const callId = await ctx.db.insert("calls", {
        testId,
        kind: "evaluate",
        key: `${testId}:rank:judge`,
        status: "succeeded",
        attempts: 1,
        modelId: test.configuration.evaluatorModels[0]!.id,
        personaId: answers[0]!.personaId,
        topicId: answers[0]!.topicId,
        responseIds: answers.map((answer) => answer._id),
      });
      const labels = answers.map((answer, index) => ({ label: "AB"[index]!, responseId: answer._id }));
      for (const [rank, answer] of answers.entries())
        await ctx.db.insert("evaluations", {
          testId,
          responseId: answer._id,
          evaluatorModelId: test.configuration.evaluatorModels[0]!.id,
          scores: { overall: 10 - rank * 3 },
          explanation: "A beats B.",
          rank: rank + 1,
          costUsd: 0.001,
          callId,
          order: "forward",
          labels,
        });
      return answers.map((answer) => answer._id);
    });
    const page = { numItems: 50, cursor: null };
    const shown = await owner.as.query(api.results.evaluations, { testId, paginationOpts: page });
    expect(shown.page.map((row) => [row.label, row.explanation])).toEqual([
      ["A", "A beats B."],
      ["B", "A beats B."],
    ]);
    expect(shown.page[0]!.batchLabels?.map((entry) => entry.responseId)).toEqual(answerIds);
    const exported = await owner.as.query(api.results.exportEvaluations, { testId, paginationOpts: page });
    expect(exported.page.map((row) => [row.label, row.labels?.map((entry) => entry.label)])).toEqual([
      ["A", ["A", "B"]],
      ["B", ["A", "B"]],
    ]);
  });
});
