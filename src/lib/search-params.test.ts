import { describe, expect, it } from "vitest";

import { parseAdminSearch } from "@/features/admin/search";
import { parseAuthSearch } from "@/features/auth/search";
import { parseMonitorSearch } from "@/features/monitor/search";
import { parseSetupSearch } from "@/features/setup/search";
import { optionalChoice, optionalId } from "@/lib/search-params";

describe("search param readers", () => {
  it("reads ids as trimmed non-empty strings, numbers included, and drops anything else", () => {
    expect(optionalId(" k17abc ")).toBe("k17abc");
    expect(optionalId(42)).toBe("42");
    for (const bad of ["", "   ", Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, ["a"], true]) {
      expect(optionalId(bad)).toBeUndefined();
    }
    expect(optionalId("x".repeat(201), 200)).toBeUndefined();
    expect(optionalId("x".repeat(200), 200)).toHaveLength(200);
  });

  it("reads a choice only when it is one of the options", () => {
    expect(optionalChoice("jobs", ["users", "jobs"])).toBe("jobs");
    expect(optionalChoice("JOBS", ["users", "jobs"])).toBeUndefined();
    expect(optionalChoice(3, ["users", "jobs"])).toBeUndefined();
  });

  it("parses each route's search, keeping only present, valid values", () => {
    expect(parseAdminSearch({ tab: "health", other: 1 })).toEqual({ tab: "health" });
    expect(parseAdminSearch({ tab: "nope" })).toEqual({});
    expect(parseAuthSearch({ redirect: "/dashboard?x=1" })).toEqual({ redirect: "/dashboard?x=1" });
    expect(parseAuthSearch({ redirect: "//evil.example" })).toEqual({});
    expect(parseAuthSearch({ redirect: 5 })).toEqual({});
    expect(parseMonitorSearch({ testId: "abc", session_id: 123 })).toEqual({ testId: "abc", session_id: "123" });
    expect(parseMonitorSearch({ testId: "  " })).toEqual({});
    expect(parseSetupSearch({ template: "marketing", rerun: "", payment: "cancelled" })).toEqual({
      template: "marketing",
      payment: "cancelled",
    });
    expect(Object.keys(parseSetupSearch({}))).toEqual([]);
  });
});
