// Layout as a user meets it at desktop and phone widths: with a finished test of many models and
// long names, no page of the app (results, monitor, setup, history, shared, admin) scrolls
// sideways at 1280 px or 390 px, and the results open with the verdict; a paid test that fails
// says on the monitor that it failed and that the payment was returned, without the payment
// confirmation beside it; deleting a test from its results page leaves no error in the console.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import {
  demoCaller,
  queuedDemoTest,
  runOn,
  signIn,
  sidewaysScroll,
  signedInDemo,
  taglineConfiguration,
  UI_TIMEOUT_MS,
  useE2E,
} from "./harness";
import { subscriptionsAnswered } from "./subscriptions";

const e2e = useE2E();
const RUN_TIMEOUT_MS = 90_000;
/** A page's first visit: Vite compiles its modules (the results' charts are many) on a busy machine. */
const FIRST_LOAD = { timeout: 60_000 };
const WIDTHS = [1280, 390] as const;
/** Set LAYOUT_SCREENSHOTS=1 to keep the results page's top at each width in test-results/e2e/. */
const SCREENSHOT_DIR = fileURLToPath(new URL("../test-results/e2e", import.meta.url));

const LONG_TEST_NAME = "Layout check: support replies for enterprise customers across many long-named models";

/** A finished ranking test of eight writers with long display names, judged by two models. */
async function manyModelTest(): Promise<Id<"tests">> {
  const base = await taglineConfiguration(e2e, LONG_TEST_NAME, { responsesPerTopic: 1, includeExplanations: false });
  // The catalog's names are what every page shows: make ten of them long.
  const longName = (name: string) => `${name} Instruct Turbo Extended-Context Preview Edition`;
  const ids = await runOn(e2e, async (ctx) => {
    const rows = await ctx.db.query("llmModels").take(10);
    for (const row of rows)
      if (!row.name.endsWith("Edition")) await ctx.db.patch("llmModels", row._id, { name: longName(row.name) });
    return rows.map((row) => row.modelId);
  });
  expect(ids.length).toBe(10);
  const testId = await queuedDemoTest(e2e, {
    ...base,
    personas: [
      {
        id: "p1",
        name: "Procurement lead at a multinational logistics company",
        description: "Reads every answer twice",
        systemPrompt: "Be precise.",
      },
    ],
    // Four persona × topic pairs: fewer are too little evidence for the jury's intervals (issue 30).
    topics: [1, 2, 3, 4].map((n) => ({
      id: `t${n}`,
      title: `Renewing a three-year enterprise licence with volume discounts, round ${n}`,
      description: "Contract renewal",
      prompt: `We renew our enterprise licence (round ${n}).`,
    })),
    generatorModels: ids.slice(0, 8).map((id) => ({ id, name: id })),
    evaluatorModels: ids.slice(8, 10).map((id) => ({ id, name: id })),
  });
  await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
  await expect
    .poll(async () => await runOn(e2e, async (ctx) => (await ctx.db.get("tests", testId))?.status), {
      timeout: RUN_TIMEOUT_MS,
      interval: 500,
    })
    .toBe("completed");
  return testId;
}

async function atWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 844 });
}

describe("layout at desktop and phone widths", () => {
  test(
    "no page scrolls sideways at 1280 px or 390 px with many models and long names",
    { timeout: 300_000 },
    async () => {
      const testId = await manyModelTest();
      const demo = await demoCaller(e2e);
      const { shareId } = await demo.mutation(api.shares.enable, { testId });
      const page = await signedInDemo(e2e);
      const problems: string[] = [];
      for (const width of WIDTHS) {
        await atWidth(page, width);

        await page.goto(`/dashboard/results/${testId}`);
        await page.getByRole("heading", { level: 1, name: LONG_TEST_NAME }).waitFor(FIRST_LOAD);
        // The verdict first, then the methods one click away: open them to check them too.
        await page.getByTestId("verdict-headline").waitFor(FIRST_LOAD);
        expect(await page.getByTestId("verdict-headline").textContent()).toMatch(/pick/i);
        if (process.env.LAYOUT_SCREENSHOTS) {
          mkdirSync(SCREENSHOT_DIR, { recursive: true });
          await page.screenshot({ path: `${SCREENSHOT_DIR}/layout-results-top-${width}.png` });
        }
        const jury = page.getByRole("button", { name: /The Jury/ });
        expect(await jury.getAttribute("aria-expanded")).toBe("false");
        await jury.click();
        await page.getByRole("table", { name: "Bradley–Terry ratings" }).waitFor();
        await page.locator("[data-slot=chart] svg").first().waitFor();
        problems.push(...(await sidewaysScroll(page)));

        await page.goto(`/dashboard/monitor?testId=${testId}`);
        await page.getByText("Test completed").waitFor(FIRST_LOAD);
        problems.push(...(await sidewaysScroll(page)));

        await page.goto("/dashboard/history");
        await page.getByRole("heading", { name: LONG_TEST_NAME }).waitFor(FIRST_LOAD);
        problems.push(...(await sidewaysScroll(page)));

        await page.goto("/dashboard/setup");
        await page.getByRole("heading", { level: 1, name: "Test Setup" }).waitFor(FIRST_LOAD);
        await page.getByTestId("template-card-marketing-copy").waitFor();
        problems.push(...(await sidewaysScroll(page)));

        await page.goto(`/shared/${shareId}`);
        await page.getByRole("heading", { level: 1, name: LONG_TEST_NAME }).waitFor(FIRST_LOAD);
        await page.getByTestId("confidence-row").first().waitFor(FIRST_LOAD);
        problems.push(...(await sidewaysScroll(page)));
      }

      const admin = await e2e.newPage();
      await admin.goto("/login");
      await signIn(admin, e2e.stack.admin.email, e2e.stack.admin.password);
      for (const width of WIDTHS) {
        await atWidth(admin, width);
        await admin.goto("/admin");
        await admin.getByRole("heading", { name: "Admin Dashboard" }).waitFor(FIRST_LOAD);
        await admin.getByRole("tab", { name: "Jobs" }).click();
        await admin.getByRole("table", { name: "Jobs" }).getByText(LONG_TEST_NAME).first().waitFor();
        problems.push(...(await sidewaysScroll(admin)));
      }
      expect(problems).toEqual([]);
    },
  );

  test("a paid test that fails: the monitor says it failed, once, and that the payment was returned", async () => {
    const { gateway, stripeUrl } = e2e.stack;
    const page = await signedInDemo(e2e);
    const demo = await demoCaller(e2e);
    const base = await taglineConfiguration(e2e, `E2E failed monitor ${Date.now().toString(36)}`, {
      responsesPerTopic: 2,
      includeExplanations: false,
    });
    const created = await demo.mutation(api.tests.create, { configuration: base });
    expect(created.paymentRequired).toBe(true);
    const price = `$${(created.priceCents / 100).toFixed(2)}`;
    const { url } = await demo.action(api.payments.createCheckout, { testId: created.testId });
    expect(new URL(url).origin).toBe(new URL(stripeUrl).origin);

    const previous = gateway.settings.faults.rate500;
    gateway.settings.faults.rate500 = 1; // every model call answers 500
    try {
      await atWidth(page, 390);
      await page.goto(url);
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      // The address keeps its session id when the refund lands before the return is verified.
      await page.waitForURL((next) => next.pathname === "/dashboard/monitor", FIRST_LOAD);
      const notice = page.getByTestId("monitor-failed");
      await notice.waitFor({ timeout: RUN_TIMEOUT_MS });
      expect(await notice.getByText("Test failed", { exact: true }).count()).toBe(1);
      await expect
        .poll(
          async () =>
            (await notice
              .getByTestId("monitor-failed-refund")
              .textContent()
              .catch(() => null)) ?? "",
          {
            timeout: UI_TIMEOUT_MS,
          },
        )
        .toMatch(
          new RegExp(
            `^Your payment of \\${price} (was returned to your card on .+|is being returned to your card)\\.$`,
          ),
        );
      expect(await notice.getByTestId("monitor-failed-reason").textContent()).toMatch(
        /^No responses were generated: .*500/,
      );
      // The gateway's error is said once; the payment confirmation does not stand beside the failure.
      expect(await page.locator("main").getByText(/500/).count()).toBe(1);
      await page.getByText("Payment confirmed. Your test is on its way.").waitFor({ state: "detached" });
      expect(await sidewaysScroll(page)).toEqual([]);
    } finally {
      gateway.settings.faults.rate500 = previous;
    }
  });

  test("deleting a test from its results page goes to History with no error in the console", async () => {
    const testId = await queuedDemoTest(
      e2e,
      await taglineConfiguration(e2e, "Delete from results", { responsesPerTopic: 1, includeExplanations: false }),
    );
    const page = await signedInDemo(e2e);
    await page.goto(`/dashboard/results/${testId}`);
    await page.getByRole("heading", { level: 1, name: "Delete from results" }).waitFor(FIRST_LOAD);
    e2e.browserLog.splice(0);
    await page.getByRole("button", { name: /Delete/ }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete Test" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/history");
    await page.getByTestId("history-count").waitFor();
    // An error from a subscription the deletion broke would arrive with the backend's answers.
    await subscriptionsAnswered(page);
    expect(e2e.browserLog).toEqual([]);
    expect(await runOn(e2e, async (ctx) => await ctx.db.get("tests", testId))).toBeNull();
  });
});
