// Checks on every answer, in the browser: set up a small test with two checks (a pattern that does
// not compile is refused under its field first), run and pay, watch the pass rates on the monitor,
// then read them on the results with the failed answers marked and filtered.
import { describe, expect, test } from "vitest";
import { runAndPay, setUpSmallTest, signedInDemo, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();
const RUN_TIMEOUT_MS = 90_000;

describe("checks journey", () => {
  test(
    "two checks: refused while a pattern does not compile, then pass rates live on the monitor and on the results",
    async () => {
      const page = await signedInDemo(e2e);
      await setUpSmallTest(page, "Checked taglines", 1);
      const section = page.getByTestId("setup-section-checks");
      await section.getByText("No checks yet.", { exact: false }).waitFor();

      // Check 1: a regular expression, first one that does not compile.
      await section.getByRole("button", { name: "Add Check" }).click();
      await section.getByLabel("Check 1", { exact: true }).selectOption("regex");
      await section.getByLabel("Pattern").fill("(unclosed");
      await section.getByText(/Check 1: This pattern does not compile/).waitFor();
      await expect.poll(() => page.getByRole("button", { name: "Run Test" }).isEnabled()).toBe(false);
      await section.getByLabel("Pattern").fill("(?i)bike");

      // Check 2: at most 5 words, which the dev gateway's answers exceed.
      await section.getByRole("button", { name: "Add Check" }).click();
      await section.getByLabel("Check 2", { exact: true }).selectOption("length");
      await section.getByLabel("At most", { exact: true }).fill("5");
      await page.getByTestId("setup-checks-price").getByText("2 × $0.00").waitFor();

      await runAndPay(page, e2e.stack.stripeUrl);

      // The monitor shows the pass rates as answers arrive.
      const monitorRates = page.getByTestId("check-pass-rates");
      await monitorRates.waitFor({ timeout: RUN_TIMEOUT_MS });
      await expect
        .poll(() => monitorRates.getByText(/^\d+\/\d+$/).count(), { timeout: RUN_TIMEOUT_MS })
        .toBeGreaterThan(0);

      await page.getByRole("link", { name: /View Results/ }).click({ timeout: RUN_TIMEOUT_MS });
      const checks = page.getByRole("heading", { name: /^Checks/ });
      await checks.waitFor({ timeout: UI_TIMEOUT_MS });
      const rates = page.getByTestId("check-pass-rates");
      await rates.getByText("matches /(?i)bike/").waitFor();
      await rates.getByText("at most 5 words").waitFor();
      // Every answer is longer than five words: each model passes 0 of its answers on that check.
      await expect.poll(() => rates.getByText("0%").count()).toBeGreaterThan(0);

      await page.getByRole("button", { name: /Raw Responses/ }).click();
      await page.getByLabel("Only answers that failed a check").click();
      const failures = page.getByTestId("response-check-failures").first();
      await failures.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await failures.textContent()).toMatch(/words, more than 5/);
    },
    RUN_TIMEOUT_MS * 3,
  );
});
