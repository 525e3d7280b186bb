import { describe, expect, it } from "vitest";

import {
  countLabel,
  formatJobAmount,
  formatJobDuration,
  formatLastLogin,
  matchesJobSearch,
  matchesUserSearch,
} from "./admin-format";

describe("admin formats", () => {
  it("duration is m:ss from start to completion, else a dash", () => {
    expect(formatJobDuration({ startedAt: 1_000, completedAt: 126_000 })).toBe("2:05");
    expect(formatJobDuration({ startedAt: 1_000, completedAt: null })).toBe("—");
    expect(formatJobDuration({ startedAt: null, completedAt: 5_000 })).toBe("—");
  });

  it("amount in dollars, or a dash for an unpaid job", () => {
    expect(formatJobAmount(499)).toBe("$4.99");
    expect(formatJobAmount(0)).toBe("—");
  });

  it("last login is a date or 'Never'", () => {
    expect(formatLastLogin(null)).toBe("Never");
    expect(formatLastLogin(Date.UTC(2025, 5, 15, 12))).toBe("Jun 15, 2025");
  });

  it("user search is case-insensitive over email and full name", () => {
    const user = { email: "Ada@Example.com", fullName: "Ada Lovelace" };
    expect(matchesUserSearch(user, "  ada@ex ")).toBe(true);
    expect(matchesUserSearch(user, "LOVELACE")).toBe(true);
    expect(matchesUserSearch({ ...user, fullName: null }, "lovelace")).toBe(false);
    expect(matchesUserSearch(user, "")).toBe(true);
  });

  it("job search covers test name, user email and job id", () => {
    const job = { _id: "k17abcDEF", testName: "Coffee Taglines", userEmail: "demo@modeljury.dev" };
    expect(matchesJobSearch(job, "taglines")).toBe(true);
    expect(matchesJobSearch(job, "DEMO@")).toBe(true);
    expect(matchesJobSearch(job, "k17abcdef")).toBe(true);
    expect(matchesJobSearch({ ...job, userEmail: null }, "demo")).toBe(false);
  });

  it("counter label", () => {
    expect(countLabel(3, 120, "jobs")).toBe("3 of 120 jobs");
  });
});
