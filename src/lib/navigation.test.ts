import { describe, expect, it } from "vitest";

import { isSameOriginPath, loginHrefFor, loginSearchFor, notFoundDestination, postAuthDestination } from "./navigation";
import { paymentReturnRewrite, unknownPathDestination } from "./payment-return";

describe("isSameOriginPath", () => {
  it.each(["/", "/dashboard", "/dashboard/results/abc?tab=2#top", "/dashboard/monitor?session_id=cs_1"])(
    "accepts %s",
    (path) => expect(isSameOriginPath(path)).toBe(true),
  );

  it.each([
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "dashboard",
    "/\t/evil.example",
    "",
    undefined,
    42,
  ])("rejects %s", (value) => expect(isSameOriginPath(value)).toBe(false));
});

describe("postAuthDestination", () => {
  it("returns the originally requested location", () => {
    expect(postAuthDestination("/dashboard/history")).toBe("/dashboard/history");
    expect(postAuthDestination("/dashboard/monitor?session_id=cs_1")).toBe("/dashboard/monitor?session_id=cs_1");
  });

  it("falls back to the dashboard without a usable origin", () => {
    expect(postAuthDestination(undefined)).toBe("/dashboard");
    expect(postAuthDestination("https://evil.example/dashboard")).toBe("/dashboard");
    expect(postAuthDestination("//evil.example")).toBe("/dashboard");
  });

  it("never sends a signed-in user back to an auth screen", () => {
    expect(postAuthDestination("/login?redirect=/dashboard")).toBe("/dashboard");
    expect(postAuthDestination("/signup")).toBe("/dashboard");
  });
});

describe("auth guard redirect", () => {
  it("carries the attempted location to /login", () => {
    expect(loginSearchFor("/dashboard/history?page=2")).toEqual({ redirect: "/dashboard/history?page=2" });
    expect(loginHrefFor("/dashboard")).toBe("/login?redirect=%2Fdashboard");
  });

  it("drops an origin that is not a path on this site", () => {
    expect(loginSearchFor("https://evil.example")).toEqual({});
    expect(loginHrefFor("//evil.example")).toBe("/login");
  });
});

describe("unknown paths", () => {
  it("go to /dashboard when signed in, otherwise to /", () => {
    expect(notFoundDestination(true)).toBe("/dashboard");
    expect(notFoundDestination(false)).toBe("/");
    expect(unknownPathDestination({ pathname: "/nope", search: {} }, true)).toBe("/dashboard");
    expect(unknownPathDestination({ pathname: "/nope", search: {} }, false)).toBe("/");
  });

  it("keep a payment return for a signed-in user", () => {
    expect(unknownPathDestination({ pathname: "/payment", search: { session_id: "cs_9" } }, true)).toBe(
      "/dashboard/monitor?session_id=cs_9",
    );
    expect(unknownPathDestination({ pathname: "/payment", search: { session_id: "cs_9" } }, false)).toBe("/");
  });
});

describe("paymentReturnRewrite", () => {
  it("rewrites any address carrying session_id to the monitor for a signed-in user", () => {
    expect(paymentReturnRewrite({ pathname: "/", search: { session_id: "cs_test_a1" } }, true)).toBe(
      "/dashboard/monitor?session_id=cs_test_a1",
    );
    expect(paymentReturnRewrite({ pathname: "/dashboard", search: { session_id: "a b&c", other: 1 } }, true)).toBe(
      "/dashboard/monitor?session_id=a%20b%26c",
    );
  });

  it("keeps numeric session ids the router parsed as numbers", () => {
    expect(paymentReturnRewrite({ pathname: "/", search: { session_id: 12345 } }, true)).toBe(
      "/dashboard/monitor?session_id=12345",
    );
  });

  it("leaves the address alone otherwise", () => {
    expect(paymentReturnRewrite({ pathname: "/", search: { session_id: "cs_1" } }, false)).toBeNull();
    expect(paymentReturnRewrite({ pathname: "/dashboard/monitor", search: { session_id: "cs_1" } }, true)).toBeNull();
    expect(paymentReturnRewrite({ pathname: "/dashboard", search: {} }, true)).toBeNull();
    expect(paymentReturnRewrite({ pathname: "/dashboard", search: { session_id: "" } }, true)).toBeNull();
  });
});
