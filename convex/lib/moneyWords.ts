// What the pages say about money, in one place: the price a user pays (integer cents, spec
// part 1 "Price": marked-up cost with a $2.00 minimum) is never confused with what the model
// calls cost the gateway (dollars, 4 decimals), and stopping a test says plainly what comes back:
// the price of the calls not yet made, above the minimum (lib/unrunRefund.ts), while a test that
// failed, or timed out, having delivered nothing is refunded in full (core/pipeline/finish.ts,
// recovery.ts).
import { formatCents, formatTestCost } from "./format";
import { MIN_PRICE_CENTS } from "./pricing";

/** What stopping now would return (refunds.stopPreview): the payment, the refund, what stays charged. */
export interface StopRefund {
  readonly paidCents: number;
  readonly refundCents: number;
  readonly keptCents: number;
}

/**
 * The Stop dialog's sentence about the money, before the click. `refund` is what stopping now
 * would return, live as the run goes on; undefined while it loads (the price alone is said then).
 */
export function stopMoneyText(chargedCents: number, refund?: StopRefund | null): string {
  if (chargedCents <= 0) return "Nothing was charged for this test, so stopping it costs nothing.";
  if (!refund) return `You paid ${formatCents(chargedCents)} for this test.`;
  if (refund.refundCents > 0) {
    return `Stopping now refunds about ${formatCents(refund.refundCents)} for the calls not yet made; ${formatCents(refund.keptCents)} stays charged.`;
  }
  if (refund.paidCents <= MIN_PRICE_CENTS) {
    return `Stopping refunds nothing: the ${formatCents(refund.paidCents)} you paid is the ${formatCents(MIN_PRICE_CENTS)} minimum.`;
  }
  return `Stopping refunds nothing: the calls already made cover the ${formatCents(refund.paidCents)} you paid.`;
}

/** An ended test's partial refund (refunds.ofTest): the calls it did not make. */
export interface EndedRefund extends StopRefund {
  readonly state: "pending" | "refunded" | "failed";
}

/** What an ended test's page says about its money (cancelled or completed; a failed test's refund is said by its notice). */
export function endedMoneyText(
  status: string,
  chargedCents: number,
  callsCostUsd: number,
  refund?: EndedRefund | null,
): string | null {
  if (chargedCents <= 0) return null;
  const calls = `the model calls it made cost ${formatTestCost(callsCostUsd)}, which the price covers`;
  if (refund && refund.refundCents > 0) {
    const back =
      refund.state === "refunded"
        ? `${formatCents(refund.refundCents)} was refunded for the calls not made`
        : `${formatCents(refund.refundCents)} is being refunded for the calls not made`;
    const ended = status === "cancelled" ? "You stopped this test" : "This test stopped early";
    return `${ended}: ${back}; ${formatCents(refund.keptCents)} of its ${formatCents(refund.paidCents)} price stays charged; ${calls}.`;
  }
  if (status === "cancelled") {
    const minimum = chargedCents <= MIN_PRICE_CENTS ? " is the minimum and" : "";
    return `You stopped this test. Its price, ${formatCents(chargedCents)},${minimum} stays charged; ${calls}.`;
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
    "Each amount is a test's price, charged once; what its model calls cost the gateway is shown on History and its results, and is included in the price. A test stopped early is refunded the price of the calls it did not make, above the $2.00 minimum; a failed test's price is refunded in full.",
} as const;
