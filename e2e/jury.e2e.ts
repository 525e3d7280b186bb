// while a test runs, its results page fills in the jury's evidence by
// itself (the empty Jury section, then the summary sentence, rankings with 95% interval bars and
// the Jury section's agreement and judge table), the monitor's panel shows them too, and an
// anonymous visitor of its shared link sees the same figures.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { MutationCtx } from "../convex/_generated/server";
import { demoCaller, queuedDemoTest, runOn, signedInDemo, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();
const JURY_EMPTY = "The jury's statistics appear when the first judgements arrive";
/** Long enough for the whole test to run and its statistics to be recomputed. */
const RUN_TIMEOUT_MS = 90_000;
/** A first visit: Vite serves the app's modules one by one, slowly on a busy machine. */
const PAGE_TIMEOUT_MS = 60_000;

const run = <T>(fn: (ctx: MutationCtx) => Promise<T>) => runOn(e2e, fn);

/** A ranking test of 3 generators judged by 3 judges over 4 topics, queued (the next dispatch starts it). */
async function queuedJuryTest(name: string): Promise<Id<"tests">> {
  const models = await run(async (ctx) =>
    (await ctx.db.query("llmModels").take(6)).map((row) => ({ id: row.modelId, name: row.name })),
  );
  return await queuedDemoTest(e2e, {
    name,
    taskType: "general",
    userPrompt: "Write a one-line tagline for the business described.",
    personas: [{ id: "p1", name: "Copywriter", description: "Short and punchy", systemPrompt: "Be brief." }],
    topics: ["bike repair", "bakery", "bookshop", "coffee roaster"].map((title, index) => ({
      id: `t${index}`,
      title,
      description: title,
      prompt: `We run a ${title}.`,
    })),
    generatorModels: models.slice(0, 3),
    evaluatorModels: models.slice(3, 6),
    responsesPerTopic: 1,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: false },
  });
}

/** The owner's results keep the jury's methods closed under "The Jury" (the shared page opens them). */
async function openJury(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: /The Jury/ });
  if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
}

async function expectJuryFigures(page: Page): Promise<void> {
  // Figures computed from the first judgements may still be too little evidence: wait for the
  // jury to have judged enough for a verdict.
  await page
    .getByTestId("jury-summary")
    .filter({ hasText: / is best|are statistically tied; run more topics or judges to separate them/ })
    .waitFor({ timeout: RUN_TIMEOUT_MS });
  const rankings = page.getByRole("list", { name: "Model rankings with 95% intervals" });
  await rankings.getByTestId("confidence-row").nth(2).waitFor({ timeout: UI_TIMEOUT_MS });
  expect(await rankings.getByTestId("interval-bar").count()).toBe(3);
  expect(await rankings.getByTestId("confidence-row").first().textContent()).toMatch(
    /95% interval \d+\.\d\d–\d+\.\d\d/,
  );
  await page.getByTestId("jury-agreement").getByRole("button", { name: "How Kendall's W works" }).waitFor();
  expect(await page.getByRole("table", { name: "Judges" }).getByTestId("judge-row").count()).toBe(3);
  expect(await page.getByTestId("win-rate-cell").count()).toBe(9);
}

describe("the jury's evidence", () => {
  test("a running test fills in intervals and the Jury section live; the shared page shows them to an anonymous visitor", async () => {
    const testId = await queuedJuryTest("Jury evidence check");
    const owner = await signedInDemo(e2e);
    await owner.goto(`/dashboard/results/${testId}`);
    await owner.getByRole("heading", { level: 1, name: "Jury evidence check" }).waitFor({ timeout: PAGE_TIMEOUT_MS });
    // Before any judgement: the Jury section says when its figures will come.
    await openJury(owner);
    await owner.getByText(JURY_EMPTY).waitFor();
    expect(await owner.getByTestId("jury-summary").count()).toBe(0);

    // The test runs; the open page fills in without a reload.
    await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
    await expectJuryFigures(owner);
    await owner.getByText(JURY_EMPTY).waitFor({ state: "detached" });

    // The monitor's compact panel shows the same verdict, agreement and intervals.
    const monitor = await owner.context().newPage();
    await monitor.goto(`/dashboard/monitor?testId=${testId}`);
    const panel = monitor.getByTestId("jury-monitor");
    await panel.getByTestId("jury-monitor-summary").waitFor({ timeout: PAGE_TIMEOUT_MS });
    expect(await panel.getByTestId("jury-monitor-summary").textContent()).toBe(
      await owner.getByTestId("jury-summary").locator("[data-slot=alert-title]").textContent(),
    );
    expect(await panel.getByRole("list", { name: "Intervals so far" }).getByRole("listitem").count()).toBe(3);

    // Shared: an anonymous visitor sees the same figures.
    const demo = await demoCaller(e2e);
    const { shareId } = await demo.mutation(api.shares.enable, { testId });
    const visitor = await (await e2e.newContext()).newPage();
    await visitor.goto(`/shared/${shareId}`);
    await visitor.getByRole("heading", { level: 1, name: "Jury evidence check" }).waitFor({ timeout: PAGE_TIMEOUT_MS });
    await expectJuryFigures(visitor);
    expect(await visitor.getByTestId("jury-summary").textContent()).toBe(
      await owner.getByTestId("jury-summary").textContent(),
    );
    expect(await visitor.content()).not.toContain(e2e.stack.demo.email);
    // What the test cost stays with its members: no cost split or judge cost on the shared page.
    expect(await owner.getByRole("table", { name: "Cost per model" }).count()).toBe(1);
    expect(await visitor.getByRole("table", { name: "Cost per model" }).count()).toBe(0);
    expect(
      await visitor.getByRole("table", { name: "Judges" }).getByRole("columnheader", { name: "Cost" }).count(),
    ).toBe(0);
  });
});
