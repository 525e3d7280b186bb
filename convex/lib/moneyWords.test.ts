import { describe, expect, test } from "vitest";
import { endedMoneyText, priceForCallsText, stopMoneyText } from "./moneyWords";

describe("money said plainly", () => {
  test("the Stop dialog: a paid test's price stays charged; an unpaid one costs nothing", () => {
    expect(stopMoneyText(200)).toBe(
      "You paid $2.00 for this test. Stopping does not refund it: the price stays charged, including for the part not yet run.",
    );
    expect(stopMoneyText(0)).toBe("Nothing was charged for this test, so stopping it costs nothing.");
  });

  test("a cancelled or completed test names its price and what its calls cost, which the price covers", () => {
    expect(endedMoneyText("cancelled", 200, 0.101)).toBe(
      "You stopped this test. Its price, $2.00, was charged and stays charged: the part not run is not refunded; the model calls it made cost $0.1010, which the price covers.",
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
