// @vitest-environment node
// The jury's evidence through the real pipeline: convex-test runs the functions and the
// scheduler, the dev gateway answers with its planted judges (catalog.ts PLANTED_JUDGES): a
// position-biased judge, a judge that favours its own family, and fair ones. The statistics fill in
// as judge results arrive; "Judge in both orders" and "Judges skip answers from their own family"
// change the calls, the scores and what the statistics find.
import { describe, expect, test } from "vitest";
import { api } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import { modelFamily } from "../lib/stats/judgeScores";
import { backendWithUser, readTestRows, sampleConfiguration, waitFor, useDevGateway } from "../test.helpers";
import type { TestConfiguration } from "../validators";

const POSITION = "meta-llama/llama-3.1-8b-instruct";
const SELF = "google/gemini-2.5-flash";
const FAIR = ["anthropic/claude-sonnet-4", "openai/gpt-4o", "deepseek/deepseek-chat"];
const JUDGES = [POSITION, SELF, ...FAIR];
const GENERATORS = [
  "anthropic/claude-opus-4",
  "openai/gpt-4.1",
  "google/gemini-2.5-pro",
  "perplexity/sonar-pro",
  "deepseek/deepseek-chat",
  "openai/gpt-4o-mini",
  "google/gemini-2.0-flash-001",
  "qwen/qwen-2.5-72b-instruct",
  "cohere/command-r7b-12-2024",
  "mistralai/mistral-small-3.1-24b-instruct",
];
useDevGateway();

/** 3 personas × 10 topics. */
const UNITS = 30;

function configuration(
  scoring: Partial<TestConfiguration["scoringParameters"]>,
  topics = UNITS / 3,
): TestConfiguration {
  return sampleConfiguration(GENERATORS, JUDGES, {
    personas: [
      { id: "p1", name: "Parent", description: "A busy parent", systemPrompt: "You are a busy parent." },
      { id: "p2", name: "Student", description: "A student", systemPrompt: "You are a student on a budget." },
      { id: "p3", name: "Retiree", description: "A retired teacher", systemPrompt: "You are a retired teacher." },
    ],
    topics: Array.from({ length: topics }, (_, index) => ({
      id: `t${index}`,
      title: `Topic ${index}`,
      description: `Product line ${index}`,
      prompt: `Write a short launch email for product line ${index}.`,
    })),
    responsesPerTopic: 1,
    scoringParameters: { scale: "ranking", includeExplanations: true, ...scoring },
  });
}

/** The backend and its user (backendWithUser), and what the run left behind. */
type Run = Awaited<ReturnType<typeof backendWithUser>> & {
  testId: Id<"tests">;
  test: Doc<"tests">;
  calls: Doc<"calls">[];
  responses: Doc<"responses">[];
  evaluations: Doc<"evaluations">[];
  /** Each ranking call's labels, kept once on its judgeExplanations row: which label showed which answer. */
  callLabels: Map<Id<"calls">, { label: string; responseId: Id<"responses"> }[]>;
  stats: NonNullable<Doc<"testStats">["stats"]>;
  recomputations: number;
  /** The stored figures come from the full run after the end. */
  exact: boolean;
};

/** Creates and runs a test to the end, then waits for its statistics to settle. */
async function run(config: TestConfiguration): Promise<Run> {
  const { t, user } = await backendWithUser([...GENERATORS, ...JUDGES], { email: "jury@example.com" });
  const { testId } = await user.as.mutation(api.tests.create, { configuration: config });
  await waitFor(
    () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status),
    (status) => status === "completed" || status === "failed",
    60_000,
  );
  await t.finishInProgressScheduledFunctions();
  const row = await waitFor(
    () =>
      t.run((ctx) =>
        ctx.db
          .query("testStats")
          .withIndex("by_test", (q) => q.eq("testId", testId))
          .unique(),
      ),
    (value) => value !== null && !value.pending && value.stats !== undefined,
    60_000,
  );
  const rows = await t.run(async (ctx) => {
    const jobs = await ctx.db.system.query("_scheduled_functions").collect();
    const { test, calls, responses, evaluations } = await readTestRows(ctx, testId);
    const kept = await ctx.db
      .query("judgeExplanations")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect();
    return {
      callLabels: kept.map((entry) => [entry.callId, entry.labels ?? []] as const),
      testId,
      test,
      calls,
      responses,
      evaluations,
      stats: row!.stats!,
      exact: row!.exact === true,
      recomputations: jobs.filter((job) => job.name.includes("juryStats") && job.name.includes("recompute")).length,
    };
  });
  return { t, user, ...rows, callLabels: new Map(rows.callLabels) };
}

/**
 * How far the position-biased judge's verdict moves the answer it was shown first: over its
 * forward calls, its final score of that answer (both orders averaged when made) minus the fair
 * judges' mean score of the same answer.
 */
function firstShownAdvantage(result: Run): number {
  const byJudgeAndResponse = new Map<string, number[]>();
  for (const evaluation of result.evaluations) {
    const key = `${evaluation.evaluatorModelId}|${evaluation.responseId}`;
    byJudgeAndResponse.set(key, [...(byJudgeAndResponse.get(key) ?? []), evaluation.scores.overall!]);
  }
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const advantages: number[] = [];
  for (const evaluation of result.evaluations) {
    if (evaluation.evaluatorModelId !== POSITION || evaluation.order !== "forward" || evaluation.label !== "A")
      continue;
    const fair = FAIR.flatMap((judge) => byJudgeAndResponse.get(`${judge}|${evaluation.responseId}`) ?? []);
    advantages.push(average(byJudgeAndResponse.get(`${POSITION}|${evaluation.responseId}`)!) - average(fair));
  }
  return average(advantages);
}

describe("the jury's evidence through the pipeline, with the dev gateway's planted judges", () => {
  let oneOrder: Run;

  test(
    "judge results fill in the stored statistics, coalesced; the biased judges are flagged and no fair one is",
    { timeout: 300_000 },
    async () => {
      oneOrder = await run(configuration({}));
      const { stats, evaluations, calls } = oneOrder;
      const judgeCalls = calls.filter((call) => call.kind === "evaluate");
      expect(judgeCalls).toHaveLength(UNITS * JUDGES.length);
      // No scheduled recomputation: the worker looks after its reports and runs the end's full
      // run itself, in its host's action (core/jury/finalRun.ts), whose figures are the exact ones.
      expect(oneOrder.recomputations).toBe(0);
      expect(oneOrder.exact).toBe(true);
      expect(stats.units).toBe(UNITS);
      expect(stats.models.every((model) => model.scoreInterval !== null && model.rank !== null)).toBe(true);

      const judge = (id: string) => stats.judges.find((entry) => entry.judgeModelId === id)!;
      expect(judge(POSITION).position!.flagged).toBe(true);
      expect(judge(SELF).selfPreference.flagged).toBe(true);
      for (const id of FAIR) expect(judge(id).flagged).toBe(false);
      // Without both orders there is nothing to pair.
      expect(judge(POSITION).positionConsistency).toBeNull();

      // Each evaluation names its call and keeps the label its answer was shown under; the call
      // keeps which label showed which answer, once.
      const sample = evaluations.find((evaluation) => evaluation.evaluatorModelId === FAIR[0])!;
      expect(sample).toMatchObject({ callId: expect.any(String), order: "forward", label: expect.any(String) });
      expect(sample.labels).toBeUndefined();
      const labels = oneOrder.callLabels.get(sample.callId!)!;
      expect(labels.map((entry) => entry.label)).toEqual(["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]);
      expect(new Set(labels.map((entry) => entry.responseId)).size).toBe(GENERATORS.length);
      expect(labels.find((entry) => entry.responseId === sample.responseId)!.label).toBe(sample.label);
      // The export carries them, with this answer's label and its share of the call's cost.
      const exported = await oneOrder.user.as.query(api.results.exportEvaluations, {
        testId: oneOrder.testId,
        paginationOpts: { numItems: 1000, cursor: null },
      });
      const row = exported.page.find((entry) => entry.id === sample._id)!;
      expect(row).toMatchObject({
        callId: sample.callId,
        order: "forward",
        costUsd: sample.costUsd,
        labels,
        label: sample.label,
      });
    },
  );

  test(
    "with 'Judge in both orders' every ranking call is made again reversed, consistency is measured and the biased judge moves the ranking less",
    { timeout: 300_000 },
    async () => {
      const both = await run(configuration({ bothOrders: true }));
      const judgeCalls = both.calls.filter((call) => call.kind === "evaluate");
      expect(judgeCalls).toHaveLength(2 * UNITS * JUDGES.length);
      expect(both.test.totalCalls).toBe(GENERATORS.length * UNITS + 2 * UNITS * JUDGES.length);
      // The price quoted covered the doubled judging.
      expect(both.test.estimate.evaluationCost).toBeCloseTo(2 * oneOrder.test.estimate.evaluationCost, 10);
      expect(both.test.priceCents).toBeGreaterThan(oneOrder.test.priceCents);

      const forwardCall = judgeCalls.find((call) => !call.key.endsWith(":reverse"))!;
      const shownBy = (callId: Id<"calls">) => both.callLabels.get(callId)!.map((entry) => entry.responseId);
      const reverseCall = judgeCalls.find((call) => call.key === `${forwardCall.key}:reverse`)!;
      expect(shownBy(reverseCall._id)).toEqual([...shownBy(forwardCall._id)].reverse());
      expect(both.evaluations.find((evaluation) => evaluation.callId === reverseCall._id)!.order).toBe("reverse");

      const judge = (id: string) => both.stats.judges.find((entry) => entry.judgeModelId === id)!;
      const consistency = judge(POSITION).positionConsistency!;
      const fairConsistency = FAIR.map((id) => judge(id).positionConsistency!);
      expect(consistency).toBeLessThan(fairConsistency.reduce((sum, value) => sum + value, 0) / FAIR.length - 0.05);
      // The final ranking uses both calls: the answer the biased judge saw first gains far less.
      const before = firstShownAdvantage(oneOrder);
      const after = firstShownAdvantage(both);
      expect(before).toBeGreaterThan(1);
      expect(after).toBeLessThan(before * 0.7);
    },
  );

  test(
    "with 'Judges skip answers from their own family' the self-preferring judge scores none of its family's answers, which keep their place",
    { timeout: 300_000 },
    async () => {
      const guarded = await run(configuration({ skipOwnFamily: true }));
      const family = new Map(guarded.responses.map((response) => [response._id, modelFamily(response.modelId)]));
      const own = guarded.evaluations.filter(
        (evaluation) => family.get(evaluation.responseId) === modelFamily(evaluation.evaluatorModelId),
      );
      expect(own).toHaveLength(0);
      const selfCalls = guarded.calls.filter((call) => call.kind === "evaluate" && call.modelId === SELF);
      expect(selfCalls.every((call) => call.responseIds!.length === GENERATORS.length - 2)).toBe(true);
      const self = guarded.stats.judges.find((entry) => entry.judgeModelId === SELF)!;
      expect(self.selfPreference).toMatchObject({ answers: 0, flagged: false });

      // Normalised: a ranking of 8 of 10 answers is scored on the pair's scale (top 10, bottom 1).
      const selfScores = guarded.evaluations
        .filter((evaluation) => evaluation.evaluatorModelId === SELF)
        .map((evaluation) => evaluation.scores.overall!);
      expect(Math.max(...selfScores)).toBe(10);
      expect(Math.min(...selfScores)).toBeCloseTo(1, 10);
      // Google's answers are still scored, by the other four judges, and are not pushed down:
      // without the guard the self-preferring judge lifted them; with it they are judged by the rest.
      const mean = (run: Run, prefix: string) => {
        const models = run.stats.models.filter((model) => model.modelId.startsWith(prefix));
        return models.reduce((sum, model) => sum + model.meanScore!, 0) / models.length;
      };
      const googleUnits = guarded.stats.models.filter((model) => model.modelId.startsWith("google/"));
      expect(googleUnits.every((model) => model.units === UNITS && model.scores === UNITS * (JUDGES.length - 1))).toBe(
        true,
      );
      expect(mean(guarded, "google/")).toBeLessThan(mean(oneOrder, "google/"));

      // Deleting the test deletes its statistics with the rest.
      await guarded.user.as.mutation(api.tests.remove, { testId: guarded.testId });
      await waitFor(
        () =>
          guarded.t.run((ctx) =>
            ctx.db
              .query("testStats")
              .withIndex("by_test", (q) => q.eq("testId", guarded.testId))
              .unique(),
          ),
        (row) => row === null,
        60_000,
      );
    },
  );
});
