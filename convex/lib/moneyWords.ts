// What the pages say about money, in one place: the price a user pays (integer cents, spec
// part 1 "Price": marked-up cost with a $2.00 minimum) is never confused with what the model
// calls cost the gateway (dollars, 4 decimals), and stopping a test says plainly that its price
// stays charged (a stopped test is not refunded; only a test that failed, or timed out, having
// delivered nothing is: core/pipeline/finish.ts, recovery.ts).
import { formatCents, formatTestCost } from "./format";
import { MIN_PRICE_CENTS } from "./pricing";

/** The Stop dialog's sentence about the money, before the click. */
export function stopMoneyText(chargedCents: number): string {
  if (chargedCents <= 0) return "Nothing was charged for this test, so stopping it costs nothing.";
  return `You paid ${formatCents(chargedCents)} for this test. Stopping does not refund it: the price stays charged, including for the part not yet run.`;
}

/** What an ended test's page says about its money (cancelled or completed; a failed test's refund is said by its notice). */
export function endedMoneyText(status: string, chargedCents: number, callsCostUsd: number): string | null {
  if (chargedCents <= 0) return null;
  const calls = `the model calls it made cost ${formatTestCost(callsCostUsd)}, which the price covers`;
  if (status === "cancelled") {
    return `You stopped this test. Its price, ${formatCents(chargedCents)}, was charged and stays charged: the part not run is not refunded; ${calls}.`;
  }
  if (status === "completed") return `You paid ${formatCents(chargedCents)} for this test; ${calls}.`;
  return null;
}

/**
 * A price and what it is for: "$2.00 — the minimum; this jury's calls cost about $0.06", or
 * "$3.40 for this jury's calls" above the minimum. `callsCents` is the calls' marked-up cost
 * before the minimum (lib/pricing markedUpCents).
 */
export function priceForCallsText(priceCents: number, callsCents: number, whose: string): string {
  if (priceCents <= 0) return formatCents(0);
  if (callsCents < MIN_PRICE_CENTS) {
    return `${formatCents(priceCents)} — the minimum; ${whose} calls cost about ${formatCents(callsCents)}`;
  }
  return `${formatCents(priceCents)} for ${whose} calls`;
}

/** History's and Billing's labels: what the user paid, and what the model calls cost the gateway. */
export const MONEY_LABELS = {
  price: "Price",
  callsCost: "Model calls cost",
  callsCostNote: "what the gateway charged for the calls, included in the price",
  billingNote:
    "Each amount is a test's price, charged once; what its model calls cost the gateway is shown on History and its results, and is included in the price. A stopped test's price is not refunded; a failed test's is.",
} as const;
