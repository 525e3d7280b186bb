// Pay for what ran: the owner pays for a test on the dev Stripe checkout and stops it while it
// runs. Before the click the Stop dialog says what stopping refunds for the calls not yet made
// and what stays charged; after it the cancelled page says what was refunded; the dev Stripe
// holds exactly one partial refund of that amount; Billing shows the charge, the refund and the
// net, the ledger the refund; History the net.
import { describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { MutationCtx } from "../convex/_generated/server";
import type { TestConfiguration } from "../convex/validators";
import { signIn, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();
/** Each model call takes this long, so the run is still going when Stop is pressed. */
const CALL_LATENCY_MS = 10_000;

/** 4 personas × 5 topics, answered by a costly model: priced far above the $2.00 minimum. */
function configuration(name: string): TestConfiguration {
  const ids = ["a", "b", "c", "d", "e"];
  return {
    name,
    taskType: "marketing",
    userPrompt: "Write a tagline for our new product.",
    personas: ids.slice(0, 4).map((id) => ({ id, name: `Persona ${id}`, description: id, systemPrompt: `Be ${id}.` })),
    topics: ids.map((id) => ({ id, title: `Topic ${id}`, description: id, prompt: `About ${id}.` })),
    generatorModels: [
      { id: "anthropic/claude-opus-4", name: "anthropic/claude-opus-4" },
      { id: "openai/gpt-4o-mini", name: "openai/gpt-4o-mini" },
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

const cents = (dollars: string) => Math.round(Number(dollars) * 100);
const money = (value: number) => `$${(value / 100).toFixed(2)}`;

describe("a paid test stopped while it runs", () => {
  test("the Stop dialog says what will be refunded; the refund of the calls not made shows on the test, Billing, History and the dev Stripe", async () => {
    const { gateway, demo, backend, stripe } = e2e.stack;
    const page = await e2e.newPage();
    await signIn(page, demo.email, demo.password);
    const owner = backend.t.withIdentity(await demoIdentity(demo.email));
    const name = `E2E stop refund ${Date.now().toString(36)}`;
    const created = await owner.mutation(api.tests.create, { configuration: configuration(name) });
    expect(created.priceCents).toBeGreaterThan(400);
    const price = money(created.priceCents);
    const { url, sessionId } = await owner.action(api.payments.createCheckout, { testId: created.testId });

    const previous = gateway.settings.fixedLatencyMs;
    gateway.settings.fixedLatencyMs = CALL_LATENCY_MS;
    try {
      await page.goto(url);
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      // The monitor's route has loaded once it has taken the payment's session id off the address
      // (runAndPay waits for the same): a page load, which may take the harness's navigation time.
      await page.waitForURL(
        (next) =>
          next.pathname === "/dashboard/monitor" &&
          next.searchParams.has("testId") &&
          !next.searchParams.has("session_id"),
      );
      await page.getByRole("heading", { name }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole("button", { name: "Stop Test" }).click({ timeout: UI_TIMEOUT_MS });
      const dialog = page.getByRole("alertdialog", { name: "Stop this test?" });
      const stopMoney = dialog.getByTestId("stop-money");
      const wording =
        /^Stopping now refunds about \$(\d+\.\d\d) for the calls not yet made; \$(\d+\.\d\d) stays charged\.$/;
      await expect.poll(async () => (await stopMoney.textContent()) ?? "", { timeout: UI_TIMEOUT_MS }).toMatch(wording);
      const [, before, kept] = wording.exec((await stopMoney.textContent())!)!;
      expect(cents(before!) + cents(kept!)).toBe(created.priceCents);
      await dialog.getByRole("button", { name: "Yes, Stop Test" }).click();
    } finally {
      gateway.settings.fixedLatencyMs = previous;
    }

    // The cancelled page: what was refunded (the calls made up to the stop), what stays charged.
    const notice = page.getByTestId("money-notice");
    const ended = new RegExp(
      `^You stopped this test: \\$(\\d+\\.\\d\\d) was refunded for the calls not made; \\$(\\d+\\.\\d\\d) of its \\${price} price stays charged; `,
    );
    await expect
      .poll(async () => (await notice.textContent().catch(() => null)) ?? "", { timeout: UI_TIMEOUT_MS })
      .toMatch(ended);
    const [, refundedText, keptText] = ended.exec((await notice.textContent())!)!;
    const refunded = cents(refundedText!);
    expect(refunded).toBeGreaterThan(0);
    expect(cents(keptText!)).toBeGreaterThanOrEqual(200);
    expect(refunded + cents(keptText!)).toBe(created.priceCents);

    // The dev Stripe: exactly one refund on the payment, of that amount.
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;
    const refunds = [...stripe.refunds.values()].filter((refund) => refund.payment_intent === paymentIntent);
    expect(refunds.map((refund) => refund.amount)).toEqual([refunded]);

    await page.goto("/dashboard/billing");
    const payment = page.getByRole("table", { name: "Payment history" }).getByRole("row").filter({ hasText: name });
    await payment.getByTestId("payment-refund").waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await payment.getByText(price, { exact: true }).count()).toBe(1);
    expect(await payment.getByTestId("payment-refund").textContent()).toBe(`Refunded${money(refunded)}`);
    expect(await payment.getByTestId("payment-net").textContent()).toBe(`Net${money(created.priceCents - refunded)}`);
    const refundRow = page.getByTestId("credit-transaction").filter({ hasText: `Refund for Test: ${name}` });
    expect(await refundRow.getByTestId("credit-amount").textContent()).toBe(`+${money(refunded)}`);
    expect(await refundRow.getAttribute("data-type")).toBe("refund");

    await page.goto("/dashboard/history");
    const historyRow = page.getByTestId("history-refund").filter({ hasText: `${price} charged` });
    await historyRow.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await historyRow.textContent()).toBe(`(${price} charged, ${money(refunded)} refunded)`);
    await page.context().close();
  });
});
