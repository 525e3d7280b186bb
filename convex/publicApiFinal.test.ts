// The runner's race with the jury's last recomputation: a test is marked completed about a second
// before its final statistics (ranks, the top group) are stored. Read on "completed" alone, the
// results have no rank for any model (the gates then failed tests they should pass); the API's
// `final` flag says when the figures are stored, and the runner waits for it.
import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import { clientOf } from "../cli/api";
import { followToResults } from "../cli/follow";
import type { ApiResults, ApiStatus } from "../cli/report";
import { SEED_EVALUATORS, SEED_MODELS, seedFinishedTest } from "./finishedTests.fixture";
import { backendWithUser } from "./test.helpers";

const SITE = "https://deployment.example";

async function finishedTestWithToken() {
  const { t, user } = await backendWithUser(
    [...SEED_MODELS, ...SEED_EVALUATORS].map((model) => model.id),
    {
      holdQueue: true,
    },
  );
  const testId = await seedFinishedTest(t, { userId: user.userId, responses: 16, evaluationsPerResponse: 3 });
  // The statistics row as the ending leaves it: a full recomputation asked for, not run yet (the
  // test runs it when its story needs it, rather than a scheduled one racing the assertions).
  await t.run((ctx) => ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: true }));
  const { token } = await user.as.action(api.apiTokens.create, { name: "CI" });
  return { t, testId, token };
}

describe("a completed test's final figures", () => {
  test("completed before the jury's last recomputation: not final, and no model has a rank yet", async () => {
    const { t, testId, token } = await finishedTestWithToken();
    const client = clientOf(SITE, token, (url, init) => t.fetch(url.slice(SITE.length), init));
    // The old order: the status says completed, so the runner read the results at once.
    const status = await client.request<ApiStatus>("GET", `/tests/${testId}`);
    expect(status).toMatchObject({ status: "completed", final: false });
    const early = await client.request<ApiResults>("GET", `/tests/${testId}/results`);
    expect(early.final).toBe(false);
    expect(early.topGroup).toEqual([]);
    expect(early.rankings.map((ranking) => ranking.rank)).toEqual([null, null]);

    await t.action(internal.juryStats.recompute, { testId });
    const late = await client.request<ApiResults>("GET", `/tests/${testId}/results`);
    expect(late.final).toBe(true);
    expect(late.test.final).toBe(true);
    expect(late.topGroup.length).toBeGreaterThan(0);
    expect(late.rankings.every((ranking) => ranking.rank !== null)).toBe(true);
  }, 30_000);

  test("the runner keeps polling a completed test until its figures are final, then reads ranked results", async () => {
    const { t, testId, token } = await finishedTestWithToken();
    const seen: { status: string; final?: boolean }[] = [];
    // The jury's last recomputation lands after the runner has seen "completed" once.
    const client = clientOf(SITE, token, async (url, init) => {
      const response = await t.fetch(url.slice(SITE.length), init);
      if (url.endsWith(`/tests/${testId}`)) {
        const body = (await response.clone().json()) as ApiStatus;
        seen.push({ status: body.status, final: body.final });
        if (seen.length === 1) await t.action(internal.juryStats.recompute, { testId });
      }
      return response;
    });
    const lines: string[] = [];
    const { status, results } = await followToResults(client, testId, {
      pollMs: 1,
      timeoutMs: 60_000,
      say: (line) => lines.push(line),
      write: () => {},
    });
    expect(seen).toEqual([
      { status: "completed", final: false },
      { status: "completed", final: true },
    ]);
    expect(lines).toContain("The test completed; waiting for the jury's final figures…");
    expect(status.final).toBe(true);
    expect(results.topGroup.length).toBeGreaterThan(0);
    expect(results.rankings.every((ranking) => ranking.rank !== null)).toBe(true);
  }, 30_000);
});
