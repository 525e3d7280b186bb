// The jury's evidence where it shows: the owner's results and the shared page
// read the stored statistics with names; History shows the winner or the tie from the test itself.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import { seedFinishedTest } from "./finishedTests.fixture";
import { createUser, createBackend, withoutKeys } from "./test.helpers";

/** Every key of a returned value, at any depth, that names a money figure. */
function moneyKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(moneyKeys);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(/cost|price|cents/i.test(key) ? [key] : []),
    ...moneyKeys(inner),
  ]);
}

async function setup() {
  const t = createBackend();
  const owner = await createUser(t, "jury.owner@example.com");
  const testId = await seedFinishedTest(t, { userId: owner.userId, responses: 24, evaluationsPerResponse: 3 });
  return { t, owner, testId };
}

describe("jury statistics queries", () => {
  test("before any computation the owner gets an empty view with the panel's names", async () => {
    const { owner, testId } = await setup();
    const view = await owner.as.query(api.results.juryStats, { testId });
    expect(view).toMatchObject({ stats: null, computedAt: null, evaluationsSeen: 0, pending: false });
    expect(view!.judges.map((judge) => judge.name)).toEqual(["Gemini 2.0 Flash", "DeepSeek V3", "Llama 3.3 70B"]);
    expect(view!.topics.map((topic) => topic.name)).toEqual(["Coffee", "Bikes"]);
  });

  test("after a recomputation the owner, an anonymous holder of the link and History see the same verdict", async () => {
    const { t, owner, testId } = await setup();
    expect((await owner.as.query(api.history.list, {})).tests[0]!.juryVerdict).toBeNull();
    // As the pipeline leaves it when judgements arrive: one pending recomputation.
    await t.run(async (ctx) => {
      await ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: false });
    });
    await t.action(internal.juryStats.recompute, { testId });

    const view = await owner.as.query(api.results.juryStats, { testId });
    const stats = view!.stats!;
    expect(view!.evaluationsSeen).toBe(72);
    expect(stats.models.map((model) => model.modelName)).toEqual(["Claude 3.5 Haiku", "GPT-4o Mini"]);
    expect(stats.models[0]!.scoreInterval!.low).toBeGreaterThan(stats.models[1]!.scoreInterval!.high);
    expect(stats.summary.text).toBe("Claude 3.5 Haiku is best: its 95% interval is above every other model's.");
    expect(stats.judges).toHaveLength(3);

    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    const shared = await t.query(api.shares.juryStats, { shareId });
    // The same figures but for the costs, which stay with the test's members (spec part 2's shared page shows none).
    expect(stats.costs.generationUsd).toBeGreaterThan(0);
    expect(stats.judges[0]!.costUsd).toBeGreaterThan(0);
    expect(moneyKeys(shared)).toEqual([]);
    expect(shared).toEqual(withoutKeys(view, /cost/i));
    expect(JSON.stringify(shared)).not.toContain(owner.userId);

    const row = (await owner.as.query(api.history.list, {})).tests[0]!;
    expect(row.juryVerdict).toEqual({ kind: "best", leaders: ["Claude 3.5 Haiku"] });
  });

  test("a withdrawn or unknown link shows nothing, and another user cannot read the owner's figures", async () => {
    const { t, owner, testId } = await setup();
    const { shareId } = await owner.as.mutation(api.shares.enable, { testId });
    await owner.as.mutation(api.shares.disable, { testId });
    expect(await t.query(api.shares.juryStats, { shareId })).toBeNull();
    expect(await t.query(api.shares.juryStats, { shareId: "nope" })).toBeNull();
    const other = await createUser(t, "someone.else@example.com");
    await expect(other.as.query(api.results.juryStats, { testId })).rejects.toThrow("Test not found.");
  });
});
