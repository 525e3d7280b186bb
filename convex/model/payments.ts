// Payment state shared by the Stripe webhook, the return page and free mode.
import Stripe from "stripe";
import { internal } from "../_generated/api";
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { env } from "../env";
import { incrementCounter } from "./counters";
import { setJobStatus } from "./jobs";

/** Without a Stripe key the deployment runs in free mode (and the UI says so). */
export function paymentsEnabled(): boolean {
  return env.stripeSecretKey() !== undefined;
}

export function stripeClient(): Stripe {
  const key = env.stripeSecretKey();
  if (!key) throw new Error("Stripe is not configured.");
  const host = env.stripeApiHost();
  const port = env.stripeApiPort();
  const protocol = env.stripeApiProtocol();
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    ...(host ? { host } : {}),
    ...(port ? { port: Number(port) } : {}),
    ...(protocol === "http" || protocol === "https" ? { protocol } : {}),
  });
}

/**
 * Marks a payment paid exactly once: the ledger gets the purchase and the test's cost, the
 * user's total grows, and the job is queued. Replays and races find it paid and change nothing.
 */
export async function settlePayment(ctx: MutationCtx, payment: Doc<"payments">, amountCents: number): Promise<boolean> {
  if (payment.status === "paid" || payment.status === "completed") return false;
  const now = Date.now();
  await ctx.db.patch("payments", payment._id, { status: "paid", completedAt: now, amountCents });
  const description = `Test: ${payment.testName}`;
  await ctx.db.insert("creditTransactions", {
    userId: payment.userId,
    testId: payment.testId,
    paymentId: payment._id,
    type: "purchase",
    amountCents,
    description: `Payment for ${description}`,
  });
  await ctx.db.insert("creditTransactions", {
    userId: payment.userId,
    testId: payment.testId,
    paymentId: payment._id,
    type: "test_cost",
    amountCents,
    description,
  });
  const user = await ctx.db.get("users", payment.userId);
  if (user) await ctx.db.patch("users", user._id, { totalSpentCents: (user.totalSpentCents ?? 0) + amountCents });
  await incrementCounter(ctx, "revenueCents", amountCents);
  if (payment.testId) {
    const job = await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", payment.testId!))
      .unique();
    if (job && job.status === "pending_payment") {
      await setJobStatus(ctx, job, "queued", { paymentData: { paymentId: payment._id, stripeSessionId: payment.stripeSessionId, amountCents } });
      await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
    }
  }
  return true;
}
