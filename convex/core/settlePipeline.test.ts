// @vitest-environment node
// "Stop when settled" through the real pipeline: convex-test runs the functions and the scheduler,
// the dev gateway answers (at 5% of its latencies) with its hidden qualities, one generator far better than
// the other. With calls kept two at a time, the test settles "which model is best" long before its
// last pair and ends completed, with the reason and the pairs done; its judge calls go out
// before further answers, so the calls of the pairs after the settling look are never made; its
// statistics and its settle look run in the worker's own action, with no scheduled job.
import { describe, expect, test } from "vitest";
import { api } from "../_generated/api";
import { backendWithUser, sampleConfiguration, useDevGateway, waitFor } from "../test.helpers";

const STRONG = "anthropic/claude-opus-4";
const WEAK = "meta-llama/llama-3.2-3b-instruct:free";
const JUDGES = ["openai/gpt-4o", "anthropic/claude-sonnet-4", "deepseek/deepseek-chat"];
/** 6 personas × 10 topics. */
const PAIRS = 60;
// At 5% of the catalog's latencies the run lasts long enough for the worker's looks (at most once
// a second, after reports of judgements) to look many times before the last pair; without
// latency the whole run could end between two looks on a loaded machine.
useDevGateway(0.05);

describe("stop when settled, end to end", () => {
  test("a clear winner ends the test early, completed, with the reason and the pairs done", async () => {
    const { t, user } = await backendWithUser([STRONG, WEAK, ...JUDGES], { email: "settle@example.com" });
    // Two calls at a time, so the statistics look while most pairs are still to come.
    await t.run((ctx) => ctx.db.insert("settings", { key: "maxGatewayConcurrency", value: 2 }));
    const configuration = sampleConfiguration([STRONG, WEAK], JUDGES, {
      personas: Array.from({ length: 6 }, (_, index) => ({
        id: `p${index}`,
        name: `Reader ${index}`,
        description: `Reader ${index}`,
        systemPrompt: `You are reader number ${index}.`,
      })),
      topics: Array.from({ length: 10 }, (_, index) => ({
        id: `t${index}`,
        title: `Topic ${index}`,
        description: `Product line ${index}`,
        prompt: `Write a short launch email for product line ${index}.`,
      })),
      responsesPerTopic: 1,
      stopWhenSettled: { question: "best", confidence: 0.95 },
    });
    const { testId } = await user.as.mutation(api.tests.create, { configuration });
    const ended = await waitFor(
      () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!),
      (test) => test.status !== "pending" && test.status !== "running",
      120_000,
    );
    await t.finishInProgressScheduledFunctions();
    expect(ended.status).toBe("completed");
    expect(ended.stopped?.reason).toBe("settled");
    expect(ended.stopped?.pairsTotal).toBe(PAIRS);
    expect(ended.stopped!.pairsDone).toBeGreaterThanOrEqual(12);
    expect(ended.stopped!.pairsDone).toBeLessThan(PAIRS);
    await t.finishAllScheduledFunctions(() => undefined);
    const { calls, scheduled } = await t.run(async (ctx) => ({
      calls: await ctx.db
        .query("calls")
        .withIndex("by_test_status", (q) => q.eq("testId", testId))
        .collect(),
      scheduled: await ctx.db.system.query("_scheduled_functions").collect(),
    }));
    // The calls not made are cancelled, none left pending or out.
    expect(calls.filter((call) => call.status === "pending" || call.status === "leased")).toEqual([]);
    // Judge calls are claimed before answers (lib/claimOrder.ts): a pair's judging follows its
    // answers, so the answers of the pairs after the settling look are not made either; at two
    // calls at a time the answers run at most a few pairs ahead of the judged ones.
    const made = (kind: "generate" | "evaluate") =>
      calls.filter((call) => call.kind === kind && (call.status === "succeeded" || call.status === "failed")).length;
    expect(made("evaluate")).toBeLessThan(PAIRS * JUDGES.length);
    expect(made("generate")).toBeLessThanOrEqual(2 * (ended.stopped!.pairsDone + 3));
    expect(calls.filter((call) => call.kind === "generate" && call.status === "cancelled").length).toBeGreaterThan(0);
    // The statistics and the settle look ran in the worker's own action: no statistics job was
    // scheduled while the test ran (the end schedules its one full run).
    const statsJobsWhileRunning = scheduled.filter(
      (job) => job.name.includes("juryStats") && job._creationTime < ended.completedAt!,
    );
    expect(statsJobsWhileRunning).toEqual([]);
    expect(scheduled.filter((job) => job.name.includes("juryStats")).length).toBeLessThanOrEqual(1);
    const words = await user.as.query(api.settle.status, { testId });
    expect(words?.settledAfter).toBe(`Settled after ${ended.stopped!.pairsDone} of ${PAIRS} pairs`);
    expect(words?.line).toMatch(/^Settled at 95%: .+ is best$/);
  }, 180_000);
});
