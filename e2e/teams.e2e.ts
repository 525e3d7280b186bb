// The teams journey, in two browsers: A creates a team and invites B by
// email; B opens the link signed out, signs up through it and joins; A sees B arrive without a
// reload. A starts a test in the team; B watches it live on the team's monitor and on its results
// (the counters move, no reload), reviews two pairs blind, and leaves a note on an answer that A,
// on the same results page, sees arrive. A removes B: B's open team page, monitor and results turn
// into the access-lost screens at once.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { internal } from "../convex/_generated/api";
import {
  chooseSpace,
  overrideSetting,
  PASSWORD,
  runAndPay,
  setUpSmallTest,
  signUp,
  UI_TIMEOUT_MS,
  uniqueEmail,
  useE2E,
} from "./harness";

const e2e = useE2E();

/** 2 generators × 2 personas × 1 topic × 1 response; one judge ranks each of the 2 pairs. */
const EXPECTED_RESPONSES = 4;
/** Per gateway call once the test runs, one call at a time: the counters move for several seconds. */
const CALL_LATENCY_MS = 1_500;
const RUN_TIMEOUT_MS = 90_000;
const MODEL_NAMES = /Gemini|Llama|GPT|Claude/;

/** The number a monitor counter shows ("3 / 4" → 3). */
async function monitorCount(page: Page, label: string): Promise<number> {
  const text = (await page.getByRole("group", { name: label }).locator("p").last().textContent()) ?? "";
  const match = /^(\d+) \/ \d+$/.exec(text.trim());
  if (!match) throw new Error(`Not a counter: "${text}"`);
  return Number(match[1]);
}

/** The results page's "Raw Responses … N total". */
async function resultsResponseCount(page: Page): Promise<number> {
  const text = (await page.getByRole("button", { name: /Raw Responses/ }).textContent()) ?? "";
  const match = /(\d+) total/.exec(text);
  if (!match) throw new Error(`No total in "${text}"`);
  return Number(match[1]);
}

/** Counts full page loads from now on. */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on("load", () => (loads += 1));
  return () => loads;
}

/** Records every value a counter takes from now on, inside the page (a reload would lose it). */
async function recordValues(page: Page, read: string): Promise<() => Promise<number[]>> {
  await page.evaluate((source) => {
    const values: number[] = [];
    const readValue = new Function(`return (${source})`)() as () => number | null;
    (window as unknown as { __values: number[] }).__values = values;
    const note = () => {
      const value = readValue();
      if (value !== null && value !== values.at(-1)) values.push(value);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, read);
  return async () => await page.evaluate(() => (window as unknown as { __values: number[] }).__values);
}

const MONITOR_RESPONSES = `() => {
  const paragraphs = document.querySelectorAll('[role=group][aria-label="Responses Generated"] p');
  const match = /^(\\d+) \\//.exec(paragraphs[paragraphs.length - 1]?.textContent?.trim() ?? "");
  return match ? Number(match[1]) : null;
}`;
const RESULTS_RESPONSES = `() => {
  const button = Array.from(document.querySelectorAll("button")).find((each) => /Raw Responses/.test(each.textContent ?? ""));
  const match = /(\\d+) total/.exec(button?.textContent ?? "");
  return match ? Number(match[1]) : null;
}`;

describe("teams", () => {
  test("invite, join, watch a team test live, review blind, note an answer; removal ends access on every open page at once", async () => {
    const owner = await e2e.newPage();
    const ownerEmail = uniqueEmail("ann");
    await signUp(owner, ownerEmail, PASSWORD);

    await owner.goto("/dashboard/teams");
    await owner.getByText("No teams yet").waitFor();
    await owner.getByLabel("Team name").fill("Acme Research");
    await owner.getByRole("button", { name: "Create Team" }).click();
    await owner.getByRole("heading", { name: "Acme Research" }).waitFor();
    // The new team is the chosen space.
    await owner.getByRole("button", { name: "Space: Acme Research" }).waitFor();
    const teamPath = new URL(owner.url()).pathname;

    const inviteeEmail = uniqueEmail("bob");
    await owner.getByLabel("Email", { exact: true }).fill(inviteeEmail);
    await owner.getByLabel("Role", { exact: true }).selectOption("member");
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    const link = await owner.getByLabel("Invitation link").inputValue();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{22}$/);
    await owner.getByTestId("pending-invitation").filter({ hasText: inviteeEmail }).waitFor();

    // B, signed out in a browser of their own, signs up through the invitation and comes back to it.
    const invitee = await e2e.newPage();
    await invitee.goto(new URL(link).pathname);
    await invitee.getByRole("heading", { name: "Join Acme Research" }).waitFor();
    await invitee.getByRole("link", { name: "Create Account" }).click();
    await invitee.waitForURL((url) => url.pathname === "/signup");
    await signUp(invitee, inviteeEmail, PASSWORD);
    await invitee.waitForURL((url) => url.pathname.startsWith("/invite/"));
    await invitee.getByRole("button", { name: "Join Acme Research" }).click();
    await invitee.getByRole("heading", { name: "Acme Research" }).waitFor();
    await invitee.getByText("Your role: Member").waitFor();

    // A's page shows B as a member, and the invitation gone, without a reload.
    await owner.getByTestId("team-member").filter({ hasText: inviteeEmail }).waitFor();
    await owner.getByText("No pending invitations").waitFor();

    // A starts a small test in the team (A's chosen space), paid at the dev checkout. Nothing runs
    // until B watches; then calls are slow and one at a time, so the counters move for a while.
    const { gateway } = e2e.stack;
    const restores = [
      await overrideSetting(e2e, "maxProcessingJobs", 0),
      await overrideSetting(e2e, "perTestConcurrency", 1),
    ];
    const previousLatency = gateway.settings.fixedLatencyMs;
    const ownerResults = await owner.context().newPage();
    try {
      const testName = `Team run ${Date.now().toString(36)}`;
      const ownerRun = await owner.context().newPage();
      await setUpSmallTest(ownerRun, testName, 1);
      const testId = await runAndPay(ownerRun, e2e.stack.stripeUrl);
      await ownerRun.getByRole("heading", { level: 1, name: testName }).waitFor();
      await ownerRun.close();

      // B picks the team's space: its monitor shows the team's test; B opens its results too.
      await chooseSpace(invitee, "Acme Research");
      const monitor = await invitee.context().newPage();
      await monitor.goto("/dashboard/monitor");
      await monitor.getByRole("heading", { level: 1, name: testName }).waitFor();
      expect(await monitorCount(monitor, "Responses Generated")).toBe(0);
      const results = await invitee.context().newPage();
      await results.goto(`/dashboard/results/${testId}`);
      await results.getByRole("heading", { level: 1, name: testName }).waitFor();
      expect(await resultsResponseCount(results)).toBe(0);
      const monitorValues = await recordValues(monitor, MONITOR_RESPONSES);
      const resultsValues = await recordValues(results, RESULTS_RESPONSES);
      const loads = [countLoads(monitor), countLoads(results)];

      // The job goes: both of B's pages follow it without a reload.
      gateway.settings.fixedLatencyMs = CALL_LATENCY_MS;
      await restores.shift()!();
      await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
      await monitor.getByRole("alert").getByText("Test completed").waitFor({ timeout: RUN_TIMEOUT_MS });
      await expect.poll(() => resultsResponseCount(results), { timeout: UI_TIMEOUT_MS }).toBe(EXPECTED_RESPONSES);
      for (const values of [await monitorValues(), await resultsValues()]) {
        expect(values[0]).toBe(0);
        expect(values.at(-1)).toBe(EXPECTED_RESPONSES);
        expect(
          values.some((value) => value > 0 && value < EXPECTED_RESPONSES),
          `seen: ${values.join(", ")}`,
        ).toBe(true);
      }
      expect(loads.map((count) => count())).toEqual([0, 0]);

      // A watches the results too; B reviews the two pairs blind, and A sees B on the review page.
      await ownerResults.goto(`/dashboard/results/${testId}`);
      await ownerResults.getByRole("heading", { level: 1, name: testName }).waitFor();
      await results.getByRole("link", { name: "Review answers" }).first().click();
      await results.waitForURL((url) => url.pathname === `/dashboard/results/${testId}/review`);
      await results.getByRole("heading", { name: "Blind review" }).waitFor();
      await results.getByTestId("review-progress").getByText("0 of 2 pairs reviewed").waitFor();
      await ownerResults
        .getByTestId("viewer-pages")
        .getByText(/· Review/)
        .waitFor();
      const ranking = results.getByRole("list", { name: "Your ranking, best first" });
      expect(await ranking.getByRole("listitem").count()).toBe(2);
      expect(await results.locator("main").textContent()).not.toMatch(MODEL_NAMES);
      // First pair: the answer in second place moves up, then Save and next.
      await ranking
        .getByRole("button", { name: /^Move answer [A-Z] up$/ })
        .last()
        .click();
      await results.getByRole("button", { name: "Save and next" }).click();
      await results.getByTestId("review-progress").getByText("1 of 2 pairs reviewed").waitFor();
      // Second pair, from the keyboard: Enter saves.
      await results.getByTestId("pair-title").click();
      await results.keyboard.press("Enter");
      await results.getByTestId("review-progress").getByText("2 of 2 pairs reviewed").waitFor();
      expect(await results.locator("main").textContent()).not.toMatch(MODEL_NAMES);

      // B leaves a note on an answer; A, with the responses open, sees it arrive without a reload.
      await ownerResults.getByRole("button", { name: /Raw Responses/ }).click();
      await ownerResults.getByTestId("response-row").first().waitFor();
      const ownerLoads = countLoads(ownerResults);
      await results.getByRole("link", { name: "Back to Results" }).click();
      await results.waitForURL((url) => url.pathname === `/dashboard/results/${testId}`);
      await results.getByRole("button", { name: /Raw Responses/ }).click();
      const firstRow = results.getByTestId("response-row").first();
      const model = ((await firstRow.locator("span.font-medium").first().textContent()) ?? "").trim();
      await firstRow.getByRole("button", { name: /View full response/ }).click();
      const dialog = results.getByRole("dialog");
      const noteText = `Too long for an ad, ${Date.now().toString(36)}`;
      await dialog.getByLabel("Add a note").fill(noteText);
      await dialog.getByRole("button", { name: "Add Note" }).click();
      await dialog.getByTestId("note").filter({ hasText: noteText }).waitFor();
      await results.keyboard.press("Escape");

      const ownerRow = ownerResults.getByTestId("response-row").filter({ hasText: model }).first();
      await ownerResults.getByTestId("note-count").filter({ hasText: "1 note" }).waitFor();
      await ownerRow.getByRole("button", { name: /View full response/ }).click();
      await ownerResults.getByRole("dialog").getByTestId("note").filter({ hasText: noteText }).waitFor();
      expect(ownerLoads()).toBe(0);
      await ownerResults.keyboard.press("Escape");

      // A removes B: B's open team page, monitor and results move to the access-lost screens.
      await owner.goto(teamPath);
      await owner.getByRole("button", { name: `Remove ${inviteeEmail}` }).click();
      await owner.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
      await owner.getByTestId("team-member").filter({ hasText: inviteeEmail }).waitFor({ state: "detached" });

      await invitee.getByText("You no longer have access to this team").waitFor();
      await invitee.getByRole("button", { name: "Space: Personal" }).waitFor();
      for (const page of [monitor, results]) {
        await page.getByText("You no longer have access to this test").waitFor();
        await page.getByRole("link", { name: "Back to History" }).waitFor();
      }
      // The note stays the team's: A still reads it.
      await ownerResults.getByTestId("note-count").filter({ hasText: "1 note" }).waitFor();
    } finally {
      gateway.settings.fixedLatencyMs = previousLatency;
      for (const restore of restores)
        await restore().catch((error: unknown) => console.error("[e2e] restoring a setting:", error));
    }

    await owner.context().close();
    await invitee.context().close();
  });
});
