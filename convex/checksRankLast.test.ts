// @vitest-environment node
// "An answer that fails a check ranks last": the jury statistics treat a failing answer as the
// worst — last in each judge's ranking, the lowest score when rating — so a strong model whose
// answers all fail a check falls below a weak one that passes.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { failedChecksLast } from "./lib/checks";
import type { JuryRanking, JuryRating } from "./lib/stats/types";
import {
  createBackend,
  createUser,
  sampleConfiguration,
  seedCatalog,
  useDevGateway,
  waitFor,
  type TestBackend,
} from "./test.helpers";

// The dev gateway's hidden quality: gpt-4o writes far better answers than llama-3.1-8b.
const STRONG = "openai/gpt-4o";
const WEAK = "meta-llama/llama-3.1-8b-instruct";
const JUDGE = "google/gemini-2.0-flash-001";
useDevGateway();

test("the pure step: failing answers move below the passing ones; rating scores drop to 1", () => {
  const input: { rankings: JuryRanking[]; ratings: JuryRating[] } = {
    rankings: [{ judgeModelId: "j", shown: ["a", "b", "c"], ranking: ["b", "a", "c"] }],
    ratings: [
      { judgeModelId: "j", responseId: "b", scores: { accuracy: 9, clarity: 8 } },
      { judgeModelId: "j", responseId: "c", scores: { accuracy: 4 } },
    ],
  };
  const out = failedChecksLast(input, new Set(["b"]));
  expect(out.rankings[0].ranking).toEqual(["a", "c", "b"]);
  expect(out.rankings[0].shown).toEqual(["a", "b", "c"]);
  expect(out.ratings[0].scores).toEqual({ accuracy: 1, clarity: 1 });
  expect(out.ratings[1]).toBe(input.ratings[1]);
  expect(failedChecksLast(input, new Set())).toBe(input);
});

async function runTest(t: TestBackend, rankLast: boolean, scale: "ranking" | "rating") {
  const user = await createUser(t, `ada-${rankLast}-${scale}@example.com`);
  const configuration = sampleConfiguration([STRONG, WEAK], [JUDGE], {
    responsesPerTopic: 2,
    scoringParameters: { scale, includeExplanations: true },
    // The strong model is priced so that each of its answers costs more than the limit.
    checks: [{ id: "cheap", kind: "cost", max: 0.001 }],
    ...(rankLast ? { failedChecksRankLast: true } : {}),
  });
  const { testId } = await user.as.mutation(api.tests.create, { configuration });
  await waitFor(
    () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status),
    (status) => status === "completed" || status === "failed",
  );
  await t.finishInProgressScheduledFunctions();
  await t.action(internal.juryStats.recompute, { testId });
  const stats = await t.run(async (ctx) =>
    ctx.db
      .query("testStats")
      .withIndex("by_test", (q) => q.eq("testId", testId as Id<"tests">))
      .unique(),
  );
  const mean = (id: string) => stats!.stats!.models.find((model) => model.modelId === id)!.meanScore!;
  const checks = await user.as.query(api.checks.summary, { testId });
  return { strong: mean(STRONG), weak: mean(WEAK), checks };
}

describe("the option moves a failing answer in the statistics", () => {
  test.each(["ranking", "rating"] as const)(
    "%s scale",
    async (scale) => {
      const t = createBackend();
      await seedCatalog(t, [WEAK, JUDGE], 1e-7);
      await seedCatalog(t, [STRONG], 1e-4);
      const plain = await runTest(t, false, scale);
      const ranked = await runTest(t, true, scale);
      // Every strong answer failed the cost check, every weak one passed.
      const rates = Object.fromEntries(ranked.checks!.models.map((model) => [model.modelId, model.overall.rate]));
      expect(rates).toEqual({ [STRONG]: 0, [WEAK]: 1 });
      expect(ranked.checks!.rankLast).toBe(true);
      // Without the option the judges prefer the strong model; with it, it ranks below the weak one.
      expect(plain.strong).toBeGreaterThan(plain.weak);
      expect(ranked.strong).toBeLessThan(ranked.weak);
      if (scale === "rating") expect(ranked.strong).toBeLessThanOrEqual(plain.strong);
    },
    60_000,
  );
});
