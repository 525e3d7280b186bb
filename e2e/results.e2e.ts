// the demo user opens the seeded test's results and sees every section,
// shares it, an anonymous visitor opens the link and sees the rankings (and each sees the other
// in the viewers), a new test shared while it runs updates the anonymous page live, turning
// sharing off shows 'Shared Test Not Found', and a test is deleted from the history.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import {
  demoCaller,
  overrideSetting,
  queuedDemoTest,
  signedInDemo,
  taglineConfiguration,
  UI_TIMEOUT_MS,
  useE2E,
} from "./harness";

const e2e = useE2E();
const SEEDED_TEST = "Support replies: tone and accuracy";

/** A new test of the demo user, queued but not yet started (the next dispatch starts it). */
async function queuedTest(name: string): Promise<Id<"tests">> {
  return await queuedDemoTest(
    e2e,
    await taglineConfiguration(e2e, name, { responsesPerTopic: 2, includeExplanations: true }),
  );
}

async function openSeededResults(page: Page): Promise<void> {
  await page.goto("/dashboard/history");
  await page.getByRole("link", { name: `View results of ${SEEDED_TEST}` }).click();
  await page.getByRole("heading", { level: 1, name: SEEDED_TEST }).waitFor();
}

describe("results, sharing and history", () => {
  test("the seeded test shows every section, its responses and evaluations", async () => {
    const page = await signedInDemo(e2e);
    await openSeededResults(page);
    for (const label of ["Total Responses", "Evaluations", "Average Response Time", "Completion Rate"]) {
      await page.getByText(label, { exact: true }).first().waitFor();
    }
    expect(await page.getByTestId("stat-completion-rate").textContent()).toBe("100.0%");
    for (const section of ["Overall Model Rankings", "Cost, Quality and Speed", "Performance by Persona"]) {
      expect(await page.getByRole("button", { name: new RegExp(section) }).getAttribute("aria-expanded")).toBe("true");
    }
    // The seeded test is judged, so its rankings carry the jury's intervals.
    const rankings = page
      .getByRole("list", { name: "Model rankings with 95% intervals" })
      .getByTestId("confidence-row");
    await rankings.first().waitFor();
    expect(await rankings.count()).toBe(2);
    await page.getByRole("table", { name: "Average score by persona and model" }).waitFor();
    await page.locator("[data-slot=chart] svg").first().waitFor();

    await page.getByRole("button", { name: /Raw Responses/ }).click();
    const responses = page.getByRole("list", { name: "Raw responses" }).getByTestId("response-row");
    await responses.first().waitFor();
    expect(await responses.count()).toBe(16);
    await page
      .getByRole("button", { name: /View full response/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Cost", { exact: true }).waitFor();
    expect(await dialog.getByText(/^\$0\.\d{6}$/).count()).toBe(1);
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: /^Evaluations/ }).click();
    const evaluations = page.getByRole("list", { name: "Evaluations" }).getByTestId("evaluation-row");
    await evaluations.first().waitFor();
    expect(await evaluations.count()).toBe(10);
    await page.getByRole("button", { name: "Load more evaluations" }).click();
    await page.waitForFunction(
      // Two judges' 16 answers each: 32 evaluations, 10 more per page.
      () => document.querySelectorAll("[data-testid=evaluation-row]").length === 20,
      undefined,
      { timeout: UI_TIMEOUT_MS },
    );
  });

  test("sharing: an anonymous visitor sees the rankings live, and nothing once sharing is off", async () => {
    const owner = await signedInDemo(e2e);
    await openSeededResults(owner);
    await owner.getByRole("button", { name: "Share Results" }).click();
    await owner.getByRole("switch", { name: "Public sharing" }).click();
    const linkField = owner.getByLabel("Shareable link");
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(/\/shared\/[A-Za-z0-9_-]{22}$/);

    const visitor = await (await e2e.newContext()).newPage();
    await visitor.goto(link);
    await visitor.getByRole("heading", { level: 1, name: SEEDED_TEST }).waitFor();
    const visitorRankings = visitor
      .getByRole("list", { name: "Model rankings with 95% intervals" })
      .getByTestId("confidence-row");
    await visitorRankings.first().waitFor();
    expect(await visitorRankings.count()).toBe(2);
    expect(await visitor.content()).not.toContain(e2e.stack.demo.email);
    // Each sees the other: the visitor (anonymous) only as a count, the owner as an anonymous viewer.
    await visitor.getByRole("group", { name: "1 other viewing" }).waitFor();
    await owner.keyboard.press("Escape");
    await owner.getByRole("group", { name: "Also viewing: anonymous viewer" }).waitFor();

    // A new test, shared before it starts: the visitor's page follows it to the end. The queue is
    // held until then, so the minutely dispatch cannot start it early.
    const releaseQueue = await overrideSetting(e2e, "maxProcessingJobs", 0);
    const testId = await queuedTest("Live share check");
    const demo = await demoCaller(e2e);
    const { shareId } = await demo.mutation(api.shares.enable, { testId });
    await visitor.goto(`/shared/${shareId}`);
    await visitor.getByRole("heading", { level: 1, name: "Live share check" }).waitFor();
    expect(await visitor.getByTestId("stat-total-responses").textContent()).toBe("0");
    await releaseQueue();
    await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
    await visitor.locator("[data-slot=status-badge][data-status=completed]").waitFor({ timeout: 60_000 });
    expect(await visitor.getByTestId("stat-total-responses").textContent()).toBe("4");

    // Turning sharing off ends it for the page already open.
    await owner.goto(`/dashboard/results/${testId}`);
    await owner.getByRole("button", { name: "Manage Sharing" }).click();
    await owner.getByRole("switch", { name: "Public sharing" }).click();
    await visitor.getByRole("heading", { name: "Shared Test Not Found" }).waitFor();
    await visitor.getByText("Shared test not found or no longer available").waitFor();
  });

  test("a test is deleted from the history", async () => {
    await queuedTest("Delete me");
    const page = await signedInDemo(e2e);
    await page.goto("/dashboard/history");
    await page.getByRole("heading", { name: "Delete me" }).waitFor();
    const before = await page.getByTestId("history-row").count();
    await page.getByRole("button", { name: "Delete Delete me" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete Test" }).click();
    await page.getByRole("alertdialog").waitFor({ state: "detached" });
    await page.getByRole("heading", { name: "Delete me" }).waitFor({ state: "detached" });
    expect(await page.getByTestId("history-row").count()).toBe(before - 1);
    expect(await page.getByTestId("history-count").textContent()).toBe(`${before - 1} of ${before - 1} tests`);
  });
});
