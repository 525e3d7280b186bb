// Pay for what ran (issue 35): a test that stops early (the owner's Stop, or settled) keeps the
// price of the calls it made, never less than the $2.00 minimum (spec part 1 §9 "Price"), and the
// rest of what was paid goes back. The price of the calls made is the quote's own formula
// (lib/pricing.ts): the quote's raw generation and judging costs, each times the share of its
// calls made, marked up (× 1.1 × 4) and rounded UP to the cent like every price, so the refund
// is what is left, rounded DOWN: the two always add up to what was paid, to the cent.
import { countCalls, markedUpCents, MIN_PRICE_CENTS, type EstimateInput } from "./pricing";
import type { CostEstimate } from "./types";

/** How much of a test's quoted work was done: the quote's split and the calls made of each kind. */
export interface WorkDone {
  /** The quote's raw (gateway) costs, dollars: the test's stored estimate. */
  readonly generationCost: number;
  readonly evaluationCost: number;
  /** Calls the full run makes of each kind, as the quote counts them (lib/pricing countCalls). */
  readonly generationCalls: number;
  readonly judgeCalls: number;
  /** Calls made (ended) of each kind. */
  readonly generationCallsMade: number;
  readonly judgeCallsMade: number;
}

export interface UnrunRefund {
  /** What was paid. */
  readonly paidCents: number;
  /** The price of the calls made, before the minimum (marked up, rounded up to the cent). */
  readonly ranCents: number;
  /** What stays charged: the price of the calls made, at least the minimum, at most what was paid. */
  readonly keptCents: number;
  /** What goes back: the rest, less anything already refunded on this payment. */
  readonly refundCents: number;
}

/** The share of a kind's calls made, 0–1 (a kind with no calls is all done). */
function shareMade(made: number, total: number): number {
  if (total <= 0) return 1;
  return Math.min(1, Math.max(0, made) / total);
}

/** The raw cost of the calls made: each kind's quoted cost times the share of its calls made. */
export function rawCostMade(work: WorkDone): number {
  return (
    work.generationCost * shareMade(work.generationCallsMade, work.generationCalls) +
    work.evaluationCost * shareMade(work.judgeCallsMade, work.judgeCalls)
  );
}

/**
 * The refund of the calls not made. `paidCents` is the payment; `alreadyRefundedCents` what an
 * earlier refund of the same payment returned (the refund never takes the total past the payment).
 */
export function unrunRefund(paidCents: number, work: WorkDone, alreadyRefundedCents = 0): UnrunRefund {
  const paid = Math.max(0, Math.round(paidCents));
  const ranCents = markedUpCents(rawCostMade(work));
  const keptCents = Math.min(paid, Math.max(MIN_PRICE_CENTS, ranCents));
  const refundCents = Math.max(0, Math.min(paid - keptCents, paid - Math.max(0, alreadyRefundedCents)));
  return { paidCents: paid, ranCents, keptCents, refundCents };
}

/** The work done of a test from its quote, its configuration and its run counters. */
export function workDoneOf(
  estimate: Pick<CostEstimate, "generationCost" | "evaluationCost">,
  config: Parameters<typeof countCalls>[0],
  counters: { finishedCalls: number; judgeCallsFinished?: number },
): WorkDone {
  const calls = countCalls(config);
  const judgeCallsMade = counters.judgeCallsFinished ?? 0;
  return {
    generationCost: estimate.generationCost,
    evaluationCost: estimate.evaluationCost,
    generationCalls: calls.generationCalls,
    judgeCalls: calls.evaluationCalls,
    generationCallsMade: Math.max(0, counters.finishedCalls - judgeCallsMade),
    judgeCallsMade,
  };
}

/**
 * "Stop when settled": the price range before paying, from the fewest pairs that could settle to
 * all of them. The low end is what stays charged if the question settles after `fewestPairs` of
 * the persona × topic pairs (each pair's generation and judging made, as the run draws them), by
 * the same arithmetic as the refund; the high end is the price paid up front.
 */
export function settledPriceRange(
  config: EstimateInput,
  estimate: Pick<CostEstimate, "generationCost" | "evaluationCost">,
  priceCents: number,
  fewestPairs: number,
): { minCents: number; maxCents: number } {
  const pairs = config.personas.length * config.topics.length;
  const calls = countCalls(config);
  const share = pairs === 0 ? 1 : Math.min(1, Math.max(0, fewestPairs) / pairs);
  const work: WorkDone = {
    generationCost: estimate.generationCost,
    evaluationCost: estimate.evaluationCost,
    generationCalls: calls.generationCalls,
    judgeCalls: calls.evaluationCalls,
    generationCallsMade: calls.generationCalls * share,
    judgeCallsMade: calls.evaluationCalls * share,
  };
  return { minCents: unrunRefund(priceCents, work).keptCents, maxCents: priceCents };
}
