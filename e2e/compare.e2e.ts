// Two tests compared, and a new jury over the same answers, in the browser (issue 22): set up a
// test with two checks, run and pay, see the pass rates live on the monitor and on the results;
// rerun it with a changed prompt, repeated twice, and open the compare page from the rerun (its
// repeats and their spread beside the original); then judge the first test again with another
// evaluator (paid for its judging alone), see it named as a re-judging in its results and History,
// and compare the two juries.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { runAndPay, setUpSmallTest, signedInDemo, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();
const RUN_TIMEOUT_MS = 90_000;
const FIRST_VISIT_MS = 90_000;
const NAME = "Compared taglines";

/** From the monitor of a running test: wait for it to finish and open its results; its id. */
async function resultsWhenDone(page: Page): Promise<string> {
  const testId = new URL(page.url()).searchParams.get("testId")!;
  await page.getByRole("link", { name: /View Results/ }).click({ timeout: RUN_TIMEOUT_MS });
  await page.waitForURL((url) => url.pathname === `/dashboard/results/${testId}`);
  return testId;
}

/** The dev Stripe checkout's Pay, back to the monitor; the monitor's test id. */
async function payAtCheckout(page: Page): Promise<string> {
  await page.waitForURL((url) => url.origin === new URL(e2e.stack.stripeUrl).origin, { timeout: UI_TIMEOUT_MS });
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(
    (url) =>
      url.pathname === "/dashboard/monitor" && url.searchParams.has("testId") && !url.searchParams.has("session_id"),
  );
  return new URL(page.url()).searchParams.get("testId")!;
}

describe("compare journey", () => {
  test(
    "two checks, a rerun with a changed prompt compared with its original, then the first test judged again and the two juries compared",
    async () => {
      const page = await signedInDemo(e2e);

      // 1. A small test with two checks, run and paid.
      await setUpSmallTest(page, NAME, 1);
      const checks = page.getByTestId("setup-section-checks");
      await checks.getByRole("button", { name: "Add Check" }).click();
      await checks.getByLabel("Check 1", { exact: true }).selectOption("regex");
      await checks.getByLabel("Pattern").fill("(?i)the");
      await checks.getByRole("button", { name: "Add Check" }).click();
      await checks.getByLabel("Check 2", { exact: true }).selectOption("length");
      await checks.getByLabel("At most", { exact: true }).fill("5");
      await page.getByTestId("setup-checks-price").getByText("2 × $0.00").waitFor();
      await runAndPay(page, e2e.stack.stripeUrl);

      // 2. Pass rates live on the monitor, then on the results.
      const monitorRates = page.getByTestId("check-pass-rates");
      await monitorRates.waitFor({ timeout: RUN_TIMEOUT_MS });
      await expect
        .poll(() => monitorRates.getByText(/^\d+\/\d+$/).count(), { timeout: RUN_TIMEOUT_MS })
        .toBeGreaterThan(0);
      const first = await resultsWhenDone(page);
      const rates = page.getByTestId("check-pass-rates");
      await rates.getByText("at most 5 words").waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => rates.getByText("0%").count()).toBeGreaterThan(0);

      // 3. Rerun with a changed prompt, then compare the rerun with its original.
      await page.getByRole("link", { name: /Rerun Test/ }).click();
      const prompt = page.getByLabel("User Prompt");
      await expect.poll(() => prompt.inputValue(), { timeout: UI_TIMEOUT_MS }).not.toBe("");
      await prompt.fill("Answer in one short sentence.");
      // Repeated twice, so the compare page shows the rerun's repeats and spread beside the original.
      await page.getByTestId("setup-section-configuration").getByLabel("Repeats").fill("2");
      await runAndPay(page, e2e.stack.stripeUrl);
      const rerun = await resultsWhenDone(page);
      await page.getByRole("link", { name: /Compare with the original/ }).click({ timeout: UI_TIMEOUT_MS });
      await page.waitForURL((url) => url.pathname === "/compare");
      expect(new URL(page.url()).searchParams.get("a")).toBe(first);
      expect(new URL(page.url()).searchParams.get("b")).toBe(rerun);
      await page.getByRole("heading", { level: 1, name: "Compare two tests" }).waitFor();
      await page.getByRole("region", { name: "Test A" }).getByText(NAME).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole("region", { name: "Test B" }).getByText(NAME).waitFor();
      await page.getByTestId("compare-repeats-b").getByText("×2").waitFor();
      expect(await page.getByTestId("compare-repeats-a").count()).toBe(0);
      const spread = page.getByRole("region", { name: "Between-repeat spread in test B" });
      await spread.getByText("Each persona × topic ran 2 times in fresh calls.", { exact: false }).waitFor();
      // One row per generator, each judged in both repeats (the header row first).
      await expect.poll(() => spread.getByRole("row").count(), { timeout: UI_TIMEOUT_MS }).toBe(3);
      await page
        .getByRole("region", { name: "Between-repeat spread in test A" })
        .getByText("Not repeated: each persona × topic ran once.")
        .waitFor();
      await page
        .getByRole("region", { name: "What differs in the configuration" })
        .getByText("Repeats: 1 in A, 2 in B.")
        .waitFor();

      // 4. Judge the first test again with another evaluator: paid for its judging alone.
      await page.goto(`/dashboard/results/${first}`);
      // The first results page with the dialog's modules waits while Vite compiles them.
      await page.getByRole("button", { name: /Judge Again/ }).click({ timeout: FIRST_VISIT_MS });
      const dialog = page.getByRole("dialog", { name: "Judge Again" });
      await dialog.getByText(/^This test's jury: /).waitFor();
      await dialog.getByRole("checkbox", { name: "Google: Gemini 2.5 Pro", exact: true }).click();
      await dialog
        .getByTestId("rejudge-price")
        .getByText(/^Judging only: \$\d+\.\d\d/)
        .waitFor();
      await dialog.getByRole("button", { name: /^Pay \$/ }).click();
      const rejudge = await payAtCheckout(page);
      expect(rejudge).not.toBe(first);
      await resultsWhenDone(page);

      // 5. The re-judging names its original, and compares the two juries.
      const notice = page.getByTestId("rejudge-of");
      await notice.getByRole("link", { name: NAME }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole("link", { name: /Compare the two juries/ }).click();
      await page.waitForURL((url) => url.pathname === "/compare");
      expect(new URL(page.url()).searchParams.get("a")).toBe(first);
      expect(new URL(page.url()).searchParams.get("b")).toBe(rejudge);
      await page.getByRole("region", { name: "Test B" }).getByText(`${NAME} (judged again)`).waitFor({
        timeout: UI_TIMEOUT_MS,
      });

      // 6. History shows it as a re-judging of the first test.
      await page.goto("/dashboard/history");
      const row = page.getByTestId("history-row").filter({ hasText: `${NAME} (judged again)` });
      await row.getByTestId("rejudge-of").getByText(`Re-judging of ${NAME}`).waitFor({ timeout: UI_TIMEOUT_MS });
    },
    RUN_TIMEOUT_MS * 5,
  );
});
