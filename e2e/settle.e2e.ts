// Stop when settled, in the browser (issue 35): the setup page's switch goes with the paid test to
// the monitor, which says what question the test is settling; a test with a clear winner (one
// generator far better than the other, 60 pairs, calls two at a time so the looks come while pairs
// are left) stops on its own, and the monitor and the results say why and after how many pairs;
// Billing shows the partial refund of the calls it did not make, and the results' jury advice
// opens Judge Again with the advised judges.
import { describe, expect, test } from "vitest";
import { demoCaller, overrideSetting, runAndPay, setUpSmallTest, signedInDemo, useE2E } from "./harness";
import { api, internal } from "../convex/_generated/api";
import type { TestConfiguration } from "../convex/validators";

const e2e = useE2E();
const RUN_TIMEOUT_MS = 120_000;
const STRONG = "anthropic/claude-opus-4";
const WEAK = "meta-llama/llama-3.1-8b-instruct";
const JUDGES = ["openai/gpt-4o", "anthropic/claude-sonnet-4", "deepseek/deepseek-chat"];
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

describe("stop when settled", () => {
  test(
    "set on the setup page and paid; a clear winner stops the test early, and the monitor and results say why",
    async () => {
      const page = await signedInDemo(e2e);
      await setUpSmallTest(page, "Settling taglines", 1);
      const evaluation = page.getByTestId("setup-section-evaluation");
      await evaluation.getByLabel("Stop when settled").click();
      await evaluation.getByLabel("Question").selectOption("best");
      await evaluation.getByLabel("Confidence").selectOption("0.95");
      // The time estimate counts a pair at a time, and says so (lib/settleTimeEstimate.ts).
      await page
        .getByTestId("setup-time-note")
        .getByText(/^Stop when settled runs pairs one after another to look between them: /)
        .waitFor();
      await runAndPay(page, e2e.stack.stripeUrl);
      const notice = page.getByTestId("settle-notice");
      await notice.getByText("Stop when settled: Which model is best?").waitFor({ timeout: RUN_TIMEOUT_MS });
      // Two pairs cannot settle anything: it runs to the end and says so.
      await notice.getByText(/^Not settled (yet|after all 2 pairs)/).waitFor({ timeout: RUN_TIMEOUT_MS });

      // A test with a clear winner, paid at the dev Stripe, two calls at a time.
      const restore = await overrideSetting(e2e, "maxGatewayConcurrency", 2);
      try {
        const demo = await demoCaller(e2e);
        const configuration: TestConfiguration = {
          name: "Settling launch emails",
          taskType: "general",
          userPrompt: "Write a short launch email.",
          personas: Array.from({ length: 6 }, (_, index) => ({
            id: `p${index}`,
            name: `Reader ${index}`,
            description: `Reader ${index}`,
            systemPrompt: `You are reader number ${index}.`,
          })),
          topics: Array.from({ length: 10 }, (_, index) => ({
            id: `t${index}`,
            title: `Topic ${index}`,
            description: `Product line ${index}`,
            prompt: `Write a short launch email for product line ${index}.`,
          })),
          generatorModels: [STRONG, WEAK].map((id) => ({ id, name: id })),
          evaluatorModels: JUDGES.map((id) => ({ id, name: id })),
          responsesPerTopic: 1,
          rankingPrompt: "",
          evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
          scoringParameters: { scale: "ranking", includeExplanations: false },
          stopWhenSettled: { question: "best", confidence: 0.95 },
        };
        const created = await demo.mutation(api.tests.create, { configuration });
        const testId = created.testId;
        const { url } = await demo.action(api.payments.createCheckout, { testId });
        await page.goto(url);
        await page.getByRole("button", { name: "Pay", exact: true }).click();
        await page.waitForURL((next) => next.pathname === "/dashboard/monitor");
        await page.goto(`/dashboard/monitor?testId=${testId}`);
        await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
        const monitor = page.getByTestId("settle-notice");
        const stopped = monitor.getByText(/^Settled after (\d+) of 60 pairs: the question was settled/);
        await stopped.waitFor({ timeout: RUN_TIMEOUT_MS });
        const done = Number(/Settled after (\d+) of 60/.exec((await stopped.textContent()) ?? "")![1]);
        expect(done).toBeLessThan(60);
        await monitor.getByText(/^Settled at 95%: .+ is best$/).waitFor();

        await page.goto(`/dashboard/results/${testId}`);
        await page
          .getByTestId("settle-notice")
          .getByText(`Settled after ${done} of 60 pairs`, { exact: false })
          .waitFor({ timeout: RUN_TIMEOUT_MS });

        // The jury advice of the finished test, in words, and its jury taken to Judge Again.
        const advice = page.getByTestId("jury-advice");
        const advised = advice.getByText(/^The same verdict with (.+) alone: \d+% of the judging cost$/);
        await advised.waitFor({ timeout: RUN_TIMEOUT_MS });
        const named = /^The same verdict with (.+) alone/.exec((await advised.textContent())!)![1]!;
        // The judges by their catalog names, joined as "A and B" (lib/verdict.ts joinNames).
        const advisedCount = named.split(/, | and /).length;
        expect(advisedCount).toBeLessThan(JUDGES.length);
        await advice.getByText(/^3 judges, worth \d\.\d independent votes$/).waitFor();
        await advice.getByRole("button", { name: "Judge Again with this jury" }).click();
        const dialog = page.getByRole("dialog", { name: "Judge Again" });
        // The advised judges are the ones selected, and the judging is priced for them alone.
        await expect
          .poll(() => dialog.getByTestId("evaluator-selected-count").textContent())
          .toMatch(new RegExp(`^${advisedCount} of \\d+ selected$`));
        await dialog
          .getByTestId("rejudge-price")
          .getByText(/^Judging only:/)
          .waitFor();
        await dialog.getByRole("button", { name: "Cancel" }).click();

        // Billing: the charge, the refund of the pairs not run, and the net.
        await expect
          .poll(async () => (await demo.query(api.refunds.ofTest, { testId }))?.state, { timeout: RUN_TIMEOUT_MS })
          .toBe("refunded");
        const refund = (await demo.query(api.refunds.ofTest, { testId }))!;
        const refunded = refund.refundCents;
        expect(refunded).toBeGreaterThan(0);
        expect(refund.keptCents).toBeGreaterThanOrEqual(200);
        await page.goto("/dashboard/billing");
        const payment = page
          .getByRole("table", { name: "Payment history" })
          .getByRole("row")
          .filter({ hasText: configuration.name });
        await payment.getByTestId("payment-refund").waitFor({ timeout: RUN_TIMEOUT_MS });
        expect(await payment.getByTestId("payment-refund").textContent()).toBe(`Refunded${money(refunded)}`);
        expect(await payment.getByTestId("payment-net").textContent()).toBe(
          `Net${money(created.priceCents - refunded)}`,
        );
      } finally {
        await restore();
      }
    },
    RUN_TIMEOUT_MS * 3,
  );
});
