// a paid test whose every model call fails. The owner pays on the
// dev Stripe checkout; the gateway answers every call with a server error; the test fails, and
// without anyone asking, its payment is refunded through Stripe. The results page says why it
// failed and that the money was returned, and offers Run Again; Billing shows the payment as
// refunded and the refund in the credit ledger.
import { describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { MutationCtx } from "../convex/_generated/server";
import type { TestConfiguration } from "../convex/validators";
import { signIn, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();
const FAIL_TIMEOUT_MS = 90_000;

function configuration(name: string): TestConfiguration {
  return {
    name,
    taskType: "marketing",
    userPrompt: "Write a tagline for our new product.",
    personas: [{ id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." }],
    topics: [{ id: "t1", title: "Coffee", description: "A coffee shop", prompt: "We sell cold brew coffee." }],
    generatorModels: [
      { id: "openai/gpt-4o-mini", name: "openai/gpt-4o-mini" },
      { id: "anthropic/claude-3.5-haiku", name: "anthropic/claude-3.5-haiku" },
    ],
    evaluatorModels: [{ id: "google/gemini-2.0-flash-001", name: "google/gemini-2.0-flash-001" }],
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: true },
  };
}

/** The signed-in demo user, as the backend knows them (their newest auth session). */
async function demoIdentity(email: string): Promise<{ subject: string }> {
  const { userId, sessionId } = (await e2e.stack.backend.t.run(async (raw) => {
    const ctx = raw as unknown as MutationCtx;
    const user = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .unique();
    const session = await ctx.db
      .query("authSessions")
      .withIndex("userId", (q) => q.eq("userId", user!._id))
      .order("desc")
      .first();
    return { userId: user!._id, sessionId: session!._id };
  })) as { userId: Id<"users">; sessionId: Id<"authSessions"> };
  return { subject: `${userId}|${sessionId}` };
}

describe("a paid test that fails", () => {
  test("is refunded: results say why and that the money was returned, billing shows the refund", async () => {
    const { gateway, demo, backend } = e2e.stack;
    const page = await e2e.newPage();
    await signIn(page, demo.email, demo.password);
    const owner = backend.t.withIdentity(await demoIdentity(demo.email));
    const name = `E2E refund ${Date.now().toString(36)}`;
    const created = await owner.mutation(api.tests.create, { configuration: configuration(name) });
    expect(created.paymentRequired).toBe(true);
    const price = `$${(created.priceCents / 100).toFixed(2)}`;
    const { url } = await owner.action(api.payments.createCheckout, { testId: created.testId });

    const previous = gateway.settings.faults.rate500;
    gateway.settings.faults.rate500 = 1; // every model call answers 500
    try {
      await page.goto(url);
      expect(await page.getByTestId("amount").textContent()).toBe(price);
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      // The monitor takes the session id off the address once it has confirmed the payment: the
      // results page is visited after that, not in the middle of the monitor's first load.
      await page.waitForURL((next) => next.pathname === "/dashboard/monitor" && !next.searchParams.has("session_id"));

      await page.goto(`/dashboard/results/${created.testId}`);
      await page.getByRole("heading", { level: 1, name }).waitFor();
      const notice = page.getByTestId("failure-notice");
      await notice.waitFor({ timeout: FAIL_TIMEOUT_MS });
      await expect
        .poll(
          async () =>
            (await notice
              .getByTestId("failure-refund")
              .textContent()
              .catch(() => null)) ?? "",
          { timeout: UI_TIMEOUT_MS },
        )
        .toMatch(new RegExp(`^Your payment of \\${price} was returned to your card on .+\\.$`));
      expect(await notice.getByTestId("failure-reason").textContent()).toMatch(/^No responses were generated: .*500/);
      expect(await notice.getByRole("link", { name: "Run Again" }).getAttribute("href")).toBe(
        `/dashboard/setup?rerun=${created.testId}`,
      );
    } finally {
      gateway.settings.faults.rate500 = previous;
    }

    await page.goto("/dashboard/billing");
    const payment = page.getByRole("table", { name: "Payment history" }).getByRole("row").filter({ hasText: name });
    await payment.getByText("Refunded", { exact: true }).waitFor();
    expect(await payment.getByTestId("payment-note").textContent()).toMatch(
      /^Returned to your card on .+: No responses were generated: /,
    );
    const refund = page.getByTestId("credit-transaction").filter({ hasText: `Refund for Test: ${name}` });
    expect(await refund.getByTestId("credit-amount").textContent()).toBe(`+${price}`);
    expect(await refund.getAttribute("data-type")).toBe("refund");
    await page.context().close();
  });
});
