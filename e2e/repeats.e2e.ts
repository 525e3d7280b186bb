// Repeats for variance in the browser (issue 35, item 4): the setup page's Repeats field
// multiplies the queries and the price in the sticky bar; the paid test runs every cell three
// times through the dev gateway, which answers each repeat anew (its planted repeatVariance), and
// the results page shows each model's spread between the repeats with how many there were; a share
// link's anonymous viewer sees the same spread and the same jury advice, without its buttons.
import { describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { demoCaller, runAndPay, setUpSmallTest, signedInDemo, useE2E, UI_TIMEOUT_MS } from "./harness";

const e2e = useE2E();
const RUN_TIMEOUT_MS = 120_000;

const cents = (text: string | null) => Math.round(Number((text ?? "").replace(/[^0-9.]/g, "")) * 100);

describe("repeats", () => {
  test(
    "three repeats triple the queries and price the test; the results show each model's spread between them",
    async () => {
      const page = await signedInDemo(e2e);
      await setUpSmallTest(page, "Repeated taglines", 1);
      const bar = page.getByTestId("setup-bar");
      // 2 generators × 2 personas × 1 topic.
      await expect.poll(() => bar.getByTestId("setup-queries").textContent(), { timeout: UI_TIMEOUT_MS }).toBe("4");
      const once = cents(await bar.getByTestId("setup-total-price").textContent());

      const configuration = page.getByTestId("setup-section-configuration");
      await configuration.getByLabel("Repeats").fill("11");
      await configuration.getByText("Repeats must be a whole number from 1 to 10.").waitFor();
      expect(await bar.getByRole("button", { name: "Run Test" }).isEnabled()).toBe(false);
      await configuration.getByLabel("Repeats").fill("3");
      await configuration.getByText(/3× the calls and the price/).waitFor();
      await expect.poll(() => bar.getByTestId("setup-queries").textContent()).toBe("12");
      const thrice = cents(await bar.getByTestId("setup-total-price").textContent());
      // The $2.00 minimum may hold both; above it the price follows the calls.
      expect(thrice).toBeGreaterThanOrEqual(once);
      if (once > 200) expect(thrice).toBeGreaterThan(once);

      const testId = await runAndPay(page, e2e.stack.stripeUrl);
      await page.goto(`/dashboard/results/${testId}`);
      const spread = page.getByTestId("repeat-spread");
      await spread.waitFor({ timeout: RUN_TIMEOUT_MS });
      await page.getByText("Each persona × topic ran 3 times in fresh calls.", { exact: false }).waitFor();
      // One row per generator, each judged in all 3 repeats, with a score per repeat and both SDs.
      await expect.poll(() => spread.getByRole("row").count(), { timeout: RUN_TIMEOUT_MS }).toBe(3);
      const rows = spread.getByRole("row");
      for (const index of [1, 2]) {
        // The model is the row's header; then Repeats, Score per repeat, SD of the score, SD of one pair.
        const cells = await rows.nth(index).getByRole("cell").allTextContents();
        expect(cells[0]).toBe("3");
        expect(cells[1]!.split(" · ")).toHaveLength(3);
        expect(cells[2]).toMatch(/^±\d+\.\d{2}$/);
        expect(cells[3]).toMatch(/^±\d+\.\d{2}$/);
      }

      // The owner's jury advice, once the statistics after the end have kept it.
      const ownAdvice = page.getByTestId("jury-advice").getByRole("list");
      await ownAdvice.waitFor({ timeout: RUN_TIMEOUT_MS });
      const adviceWords = await ownAdvice.getByRole("listitem").allTextContents();
      const ownRows = await spread.getByRole("row").allTextContents();

      const demo = await demoCaller(e2e);
      const { shareId } = await demo.mutation(api.shares.enable, { testId: testId as Id<"tests"> });
      const visitor = await (await e2e.newContext()).newPage();
      await visitor.goto(`/shared/${shareId}`);
      const sharedSpread = visitor.getByTestId("repeat-spread");
      await expect.poll(() => sharedSpread.getByRole("row").count(), { timeout: UI_TIMEOUT_MS }).toBe(3);
      expect(await sharedSpread.getByRole("row").allTextContents()).toEqual(ownRows);
      const sharedAdvice = visitor.getByTestId("jury-advice");
      await sharedAdvice.getByRole("list").waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await sharedAdvice.getByRole("listitem").allTextContents()).toEqual(adviceWords);
      expect(await sharedAdvice.getByRole("button").count()).toBe(0);
    },
    RUN_TIMEOUT_MS * 3,
  );
});
