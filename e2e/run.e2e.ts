// from the setup page (a template cut down to a small test) through Run Test,
// Complete Payment and the dev Stripe checkout to the live monitor; its counters and rankings
// move without a reload, a second browser of the same user sees the same progress, and the
// finished test links to its results.
//
// So that both browsers watch the run from its first step, the test holds the queue (no job may
// start) until both show the paid, queued test; then it lets the job go with the gateway slowed
// down and one call in flight at a time, so each step shows for a moment.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { internal } from "../convex/_generated/api";
import { overrideSetting, setUpSmallTest, signIn, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();

const KEPT_GENERATORS = ["Google: Gemini 2.0 Flash", "Meta: Llama 3.3 70B Instruct"];
const KEPT_EVALUATOR = "OpenAI: GPT-4.1";
/** 2 generators × 2 personas × 1 topic × 2 responses. */
const EXPECTED_RESPONSES = 8;
/** Per gateway call while the test runs: six calls one after another take a few seconds. */
const CALL_LATENCY_MS = 500;
const RUN_TIMEOUT_MS = 60_000;

interface MonitorSnapshot {
  responses: string;
  evaluations: string;
  rankings: string;
  status: string;
}

interface MonitorHistory {
  responses: string[];
  rankings: string[];
}

type MonitorWindow = Window & {
  __monitorSnapshot?: () => MonitorSnapshot;
  __monitorHistory?: MonitorHistory;
};

/**
 * Records, inside the page, every value the 'Responses Generated' counter and the 'Current
 * Rankings' list take from now on. The record lives on the window: a reload would lose it.
 */
async function watchMonitor(page: Page): Promise<void> {
  await page.evaluate(() => {
    const monitorWindow = window as MonitorWindow;
    const counter = (label: string) => {
      const paragraphs = document.querySelectorAll(`[role=group][aria-label="${label}"] p`);
      return paragraphs[paragraphs.length - 1]?.textContent?.trim() ?? "";
    };
    const rankings = () => {
      const region = document.querySelector('[role=region][aria-label="Current Rankings"]');
      if (!region) return "";
      const rows = Array.from(region.querySelectorAll("ol > li"), (row) =>
        (row.textContent ?? "").replace(/\s+/g, " ").trim(),
      );
      return rows.length > 0
        ? rows.join(" | ")
        : (region.textContent ?? "").includes("No rankings available")
          ? "No rankings available"
          : "";
    };
    monitorWindow.__monitorSnapshot = () => ({
      responses: counter("Responses Generated"),
      evaluations: counter("Evaluations Completed"),
      rankings: rankings(),
      status: document.querySelector("[data-slot=status-badge]")?.getAttribute("data-status") ?? "",
    });
    const history: MonitorHistory = { responses: [], rankings: [] };
    monitorWindow.__monitorHistory = history;
    const note = () => {
      const now = monitorWindow.__monitorSnapshot!();
      if (now.responses && now.responses !== history.responses.at(-1)) history.responses.push(now.responses);
      if (now.rankings && now.rankings !== history.rankings.at(-1)) history.rankings.push(now.rankings);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

async function snapshotOf(page: Page): Promise<MonitorSnapshot> {
  return await page.evaluate(() => (window as MonitorWindow).__monitorSnapshot!());
}

async function historyOf(page: Page): Promise<MonitorHistory> {
  const history = await page.evaluate(() => (window as MonitorWindow).__monitorHistory);
  if (!history) throw new Error(`The monitor's record is gone at ${page.url()}: the page was reloaded`);
  return history;
}

function countOf(counter: string): number {
  const match = /^(\d+) \/ (\d+)$/.exec(counter);
  if (!match) throw new Error(`Not a counter: "${counter}"`);
  return Number(match[1]);
}

/** Counts full page loads from now on (a reload or a navigation away and back). */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on("load", () => (loads += 1));
  return () => loads;
}

function section(page: Page, id: "configuration" | "personas" | "topics" | "generators" | "evaluators") {
  return page.getByTestId(`setup-section-${id}`);
}

async function totalPrice(page: Page): Promise<string> {
  return ((await page.getByTestId("setup-total-price").textContent()) ?? "").trim();
}

/** Applies the template and cuts it down through the page to the small test of this journey. */
async function setUpThisTest(page: Page, testName: string): Promise<void> {
  await setUpSmallTest(page, testName, 2);
  await expect.poll(() => page.getByTestId("persona-count").textContent()).toMatch(/^2 of \d+ personas$/);
  await expect.poll(() => page.getByTestId("topic-count").textContent()).toMatch(/^1 of \d+ topics$/);
  for (const name of KEPT_GENERATORS)
    expect(await section(page, "generators").getByRole("checkbox", { name, exact: true }).isChecked()).toBe(true);
  expect(
    await section(page, "evaluators").getByRole("checkbox", { name: KEPT_EVALUATOR, exact: true }).isChecked(),
  ).toBe(true);
}

describe("running a test", () => {
  test("setup → payment → checkout left → Complete Payment from the dashboard → dev Stripe checkout → live monitor in two browsers → results", async () => {
    const { gateway } = e2e.stack;
    const page = await e2e.newPage();
    await signIn(page, e2e.stack.demo.email, e2e.stack.demo.password);
    const testName = `E2E run ${Date.now().toString(36)}`;
    await setUpThisTest(page, testName);

    const runButton = page.getByRole("button", { name: "Run Test" });
    await expect.poll(() => runButton.isEnabled(), { timeout: UI_TIMEOUT_MS }).toBe(true);
    expect(await page.getByTestId("run-test-hints").count()).toBe(0);
    await expect.poll(() => totalPrice(page)).toMatch(/^\$\d+\.\d\d$/);
    const price = await totalPrice(page);

    // Nothing may start until both browsers watch; then calls are slow and one at a time.
    const restores = [
      await overrideSetting(e2e, "maxProcessingJobs", 0),
      await overrideSetting(e2e, "perTestConcurrency", 1),
    ];
    const previousLatency = gateway.settings.fixedLatencyMs;
    gateway.settings.fixedLatencyMs = CALL_LATENCY_MS;
    try {
      // Complete Payment shows the page's price; Pay leads to the checkout, which asks the same.
      await runButton.click();
      const paymentDialog = page.getByRole("dialog", { name: "Complete Payment" });
      expect(await paymentDialog.getByTestId("payment-total").textContent()).toBe(price);
      await paymentDialog.getByRole("button", { name: `Pay ${price}` }).click();
      await page.waitForURL((url) => url.origin === new URL(e2e.stack.stripeUrl).origin);

      // Leaving the checkout leaves a draft, not a run: the dashboard offers Complete Payment for it.
      await page.getByTestId("cancel").click();
      await page.waitForURL((url) => url.pathname === "/dashboard/setup");
      await page.goto("/dashboard");
      const draftRow = page
        .getByRole("list", { name: "Recent tests" })
        .getByRole("listitem", { name: `${testName}, Pending Payment` });
      await draftRow.getByRole("button", { name: `Complete Payment for ${testName}` }).click();
      await page
        .getByRole("dialog", { name: "Complete Payment" })
        .getByRole("button", { name: `Pay ${price}` })
        .click();
      await page.waitForURL((url) => url.origin === new URL(e2e.stack.stripeUrl).origin);
      expect(await page.getByTestId("amount").textContent()).toBe(price);
      expect(await page.getByTestId("test-name").textContent()).toBe(testName);
      await page.getByRole("button", { name: "Pay", exact: true }).click();

      // Back on the monitor once the payment is confirmed: the test is paid for and queued.
      await page.waitForURL(
        (url) =>
          url.pathname === "/dashboard/monitor" &&
          url.searchParams.has("testId") &&
          !url.searchParams.has("session_id"),
      );
      const monitorUrl = new URL(page.url());
      const testId = monitorUrl.searchParams.get("testId")!;
      await page.getByRole("heading", { level: 1, name: testName }).waitFor();
      await page.getByRole("alert").getByText("Queued", { exact: true }).waitFor();
      await watchMonitor(page);
      const loadsOfFirst = countLoads(page);
      expect(await snapshotOf(page)).toMatchObject({
        responses: `0 / ${EXPECTED_RESPONSES}`,
        rankings: "No rankings available",
        status: "pending",
      });

      // A second browser of the same user opens the same address and sees the same test.
      const second = await e2e.newPage();
      await signIn(second, e2e.stack.demo.email, e2e.stack.demo.password);
      await second.goto(`${monitorUrl.pathname}${monitorUrl.search}`);
      await second.getByRole("heading", { level: 1, name: testName }).waitFor();
      await watchMonitor(second);
      const loadsOfSecond = countLoads(second);
      expect(await snapshotOf(second)).toEqual(await snapshotOf(page));

      // The job goes: both pages follow it step by step.
      await restores.shift()!();
      await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
      await page.locator("[data-slot=status-badge][data-status=running]").waitFor();
      await expect
        .poll(async () => countOf((await snapshotOf(page)).responses), { timeout: RUN_TIMEOUT_MS })
        .toBeGreaterThan(0);
      // Mid-run, the second browser shows what the first shows (within a moment).
      await expect
        .poll(async () => {
          const [first, other] = await Promise.all([snapshotOf(page), snapshotOf(second)]);
          return other.responses === first.responses && other.rankings === first.rankings
            ? "same"
            : `${first.responses} vs ${other.responses}`;
        })
        .toBe("same");

      for (const each of [page, second]) {
        await each.getByRole("alert").getByText("Test completed").waitFor({ timeout: RUN_TIMEOUT_MS });
      }
      const [finalFirst, finalSecond] = [await snapshotOf(page), await snapshotOf(second)];
      expect(finalFirst).toMatchObject({
        responses: `${EXPECTED_RESPONSES} / ${EXPECTED_RESPONSES}`,
        status: "completed",
      });
      expect(finalFirst.evaluations).toMatch(/^(\d+) \/ \1$/);
      expect(finalSecond).toEqual(finalFirst);
      const rankedModels = finalFirst.rankings.split(" | ");
      expect(rankedModels).toHaveLength(KEPT_GENERATORS.length);
      for (const name of KEPT_GENERATORS) expect(rankedModels.some((row) => row.includes(name))).toBe(true);

      // Neither page was reloaded, and each saw the counter and the rankings move.
      expect(loadsOfFirst()).toBe(0);
      expect(loadsOfSecond()).toBe(0);
      for (const each of [page, second]) {
        const history = await historyOf(each);
        const counts = history.responses.map(countOf);
        expect(counts[0]).toBe(0);
        expect(counts.at(-1)).toBe(EXPECTED_RESPONSES);
        expect(
          counts.some((count) => count > 0 && count < EXPECTED_RESPONSES),
          `responses seen: ${history.responses.join(", ")}`,
        ).toBe(true);
        expect(counts).toEqual([...counts].sort((a, b) => a - b));
        expect(history.rankings[0]).toBe("No rankings available");
        expect(history.rankings.at(-1)).toBe(finalFirst.rankings);
      }
      await second.context().close();

      // The finished test links to its results.
      await page.getByRole("link", { name: "View Results" }).click();
      await page.waitForURL((url) => url.pathname === `/dashboard/results/${testId}`);
      await page.getByRole("heading", { level: 1, name: testName }).waitFor();
    } finally {
      gateway.settings.fixedLatencyMs = previousLatency;
      // Best effort: a failure here must not hide the journey's own.
      for (const restore of restores)
        await restore().catch((error: unknown) => console.error("[e2e] restoring a setting:", error));
    }
    await page.context().close();
  });
});
