import { describe, expect, it } from "vitest";

import { parseAdminSearch } from "@/features/admin/search";
import { parseAuthSearch } from "@/features/auth/search";
import { parseCompareSearch } from "@/features/compare/search";
import { parseMonitorSearch } from "@/features/monitor/search";
import { parseSetupSearch } from "@/features/setup/search";
import { searchChoice, searchId } from "@/lib/search-params";

describe("search param readers", () => {
  it("reads ids as trimmed non-empty strings, numbers included, and drops anything else", () => {
    expect(searchId().parse(" k17abc ")).toBe("k17abc");
    expect(searchId().parse(42)).toBe("42");
    for (const bad of ["", "   ", Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, ["a"], true]) {
      expect(searchId().parse(bad)).toBeUndefined();
    }
    expect(searchId(200).parse("x".repeat(201))).toBeUndefined();
    expect(searchId(200).parse("x".repeat(200))).toHaveLength(200);
  });

  it("reads a choice only when it is one of the options", () => {
    expect(searchChoice(["users", "jobs"]).parse("jobs")).toBe("jobs");
    expect(searchChoice(["users", "jobs"]).parse("JOBS")).toBeUndefined();
    expect(searchChoice(["users", "jobs"]).parse(3)).toBeUndefined();
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
    expect(Object.keys(parseCompareSearch({ a: 7, b: "x".repeat(201) }))).toEqual(["a"]);
    expect(parseCompareSearch({ a: 7, b: "x".repeat(201) })).toEqual({ a: "7" });
  });
});
