// @vitest-environment node
import { describe, expect, it, it as test } from "vitest";
import {
  timeLeftText,
  formatCents,
  formatCostPerResponse,
  formatCount,
  formatDollars,
  formatDuration,
  formatLatency,
  formatPercent,
  formatRatio,
  formatRelativeTime,
  formatScore,
  formatTestCost,
  formatTestDuration,
  formatTimeRemaining,
  greetingName,
  shortId,
} from "./format";

describe("money", () => {
  it("shows cents as $X.XX", () => {
    expect(formatCents(200)).toBe("$2.00");
    expect(formatCents(1099)).toBe("$10.99");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(123456)).toBe("$1234.56");
    expect(formatCents(-250)).toBe("-$2.50");
  });

  it("shows dollars with the spec's decimals", () => {
    expect(formatDollars(2.5)).toBe("$2.50");
    expect(formatCostPerResponse(0.00123456)).toBe("$0.001235");
    expect(formatTestCost(0.04213)).toBe("$0.0421");
    expect(formatDollars(-0.000001, 2)).toBe("$0.00");
  });
});

describe("time", () => {
  it("shows latency in seconds to 1 decimal", () => {
    expect(formatLatency(1234)).toBe("1.2s");
    expect(formatLatency(850)).toBe("0.8s");
    expect(formatLatency(0)).toBe("0.0s");
  });

  it("shows durations as m:ss", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(65_000)).toBe("1:05");
    expect(formatDuration(599_999)).toBe("9:59");
    expect(formatDuration(4_503_000)).toBe("75:03");
    expect(formatDuration(-5)).toBe("0:00");
    const start = 1_700_000_000_000;
    expect(formatTestDuration(start, start + 125_000, start + 999_000)).toBe("2:05");
    expect(formatTestDuration(start, null, start + 30_000)).toBe("0:30");
  });

  it("shows relative times", () => {
    const now = Date.UTC(2025, 5, 1, 12);
    expect(formatRelativeTime(now - 59_000, now)).toBe("Just now");
    expect(formatRelativeTime(now + 5_000, now)).toBe("Just now");
    expect(formatRelativeTime(now - 60_000, now)).toBe("1m ago");
    expect(formatRelativeTime(now - 59 * 60_000, now)).toBe("59m ago");
    expect(formatRelativeTime(now - 3 * 3_600_000, now)).toBe("3h ago");
    expect(formatRelativeTime(now - 2 * 86_400_000 - 1, now)).toBe("2d ago");
  });

  it("shows the time remaining", () => {
    expect(formatTimeRemaining(null)).toBe("Calculating...");
    expect(formatTimeRemaining(30_000)).toBe("Less than a minute");
    // Rounded up: never shorter than the time left.
    expect(formatTimeRemaining(59_999)).toBe("Less than a minute");
    expect(formatTimeRemaining(60_000)).toBe("About 1 min");
    expect(formatTimeRemaining(65_000)).toBe("About 2 min");
    expect(formatTimeRemaining(130_000)).toBe("About 3 min");
    expect(formatTimeRemaining(150_000)).toBe("About 3 min");
    expect(formatTimeRemaining(90 * 60_000)).toBe("About 1h 30m");
  });
});

describe("numbers", () => {
  it("shows percentages to 1 decimal and scores to 2", () => {
    expect(formatPercent(66.666)).toBe("66.7%");
    expect(formatRatio(0.8)).toBe("80.0%");
    expect(formatRatio(1)).toBe("100.0%");
    expect(formatScore(8.3333)).toBe("8.33");
    expect(formatScore(10)).toBe("10.00");
    expect(formatCount(12345)).toBe("12,345");
  });
});

describe("names and ids", () => {
  it("shortens ids to 8 characters", () => {
    expect(shortId("k57a8d9e2f4b6c1d3e5f7a9b")).toBe("k57a8d9e");
    expect(shortId("abc")).toBe("abc");
  });

  it("greets by the part of the email before the @", () => {
    expect(greetingName("jane.doe@example.com")).toBe("jane.doe");
    expect(greetingName("@example.com")).toBe("User");
    expect(greetingName(undefined)).toBe("User");
    expect(greetingName("")).toBe("User");
  });
});

describe("the time left shown on the monitor and the shared page", () => {
  test("counts down to the forecast end: 73 s left is 'About 2 min', never 'Less than a minute'", () => {
    const now = 1_000_000;
    expect(timeLeftText({ endsAt: now + 73_000, estimatedTimeRemaining: "Less than a minute" }, now)).toBe(
      "About 2 min",
    );
    expect(timeLeftText({ endsAt: now + 73_000 }, now + 20_000)).toBe("Less than a minute");
    // Before any forecast: the words stored at the last fold, or "Calculating...".
    expect(timeLeftText({ estimatedTimeRemaining: "About 3 min" }, now)).toBe("About 3 min");
    expect(timeLeftText({}, now)).toBe("Calculating...");
  });
});
