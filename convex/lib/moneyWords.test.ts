import { describe, expect, test } from "vitest";
import { endedMoneyText, priceForCallsText, stopMoneyText } from "./moneyWords";

describe("money said plainly", () => {
  test("the Stop dialog says what stopping now refunds for the calls not yet made, and what stays charged", () => {
    expect(stopMoneyText(540, { paidCents: 540, refundCents: 310, keptCents: 230 })).toBe(
      "Stopping now refunds about $3.10 for the calls not yet made; $2.30 stays charged.",
    );
    expect(stopMoneyText(200, { paidCents: 200, refundCents: 0, keptCents: 200 })).toBe(
      "Stopping refunds nothing: the $2.00 you paid is the $2.00 minimum.",
    );
    expect(stopMoneyText(540, { paidCents: 540, refundCents: 0, keptCents: 540 })).toBe(
      "Stopping refunds nothing: the calls already made cover the $5.40 you paid.",
    );
    // While the figure loads, the price alone; an unpaid test costs nothing.
    expect(stopMoneyText(540)).toBe("You paid $5.40 for this test.");
    expect(stopMoneyText(0)).toBe("Nothing was charged for this test, so stopping it costs nothing.");
  });

  test("a cancelled or completed test names its price, its refund of the calls not made, and what its calls cost", () => {
    const refund = { paidCents: 540, refundCents: 340, keptCents: 200 };
    expect(endedMoneyText("cancelled", 540, 0.101, { ...refund, state: "refunded" })).toBe(
      "You stopped this test: $3.40 was refunded for the calls not made; $2.00 of its $5.40 price stays charged; the model calls it made cost $0.1010, which the price covers.",
    );
    expect(endedMoneyText("completed", 540, 0.101, { ...refund, state: "pending" })).toBe(
      "This test stopped early: $3.40 is being refunded for the calls not made; $2.00 of its $5.40 price stays charged; the model calls it made cost $0.1010, which the price covers.",
    );
    expect(endedMoneyText("cancelled", 200, 0.101)).toBe(
      "You stopped this test. Its price, $2.00, is the minimum and stays charged; the model calls it made cost $0.1010, which the price covers.",
    );
    expect(endedMoneyText("cancelled", 540, 0.101, null)).toBe(
      "You stopped this test. Its price, $5.40, stays charged; the model calls it made cost $0.1010, which the price covers.",
    );
    expect(endedMoneyText("completed", 1234, 2.5)).toBe(
      "You paid $12.34 for this test; the model calls it made cost $2.5000, which the price covers.",
    );
    // A failed test's refund is said by its own notice; free runs charge nothing.
    expect(endedMoneyText("failed", 200, 0.1)).toBeNull();
    expect(endedMoneyText("completed", 0, 0.1)).toBeNull();
  });

  test("a price at the $2.00 minimum says so, with what the calls come to", () => {
    expect(priceForCallsText(200, 6, "this jury's")).toBe("$2.00 — the minimum; this jury's calls cost about $0.06");
    expect(priceForCallsText(340, 340, "this jury's")).toBe("$3.40 for this jury's calls");
    expect(priceForCallsText(0, 0, "this jury's")).toBe("$0.00");
  });
});
